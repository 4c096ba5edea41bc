package io.boxoffice.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A clock that tests move by hand, so deadlines are deterministic: standing still from a start,
 * or ({@link #running()}) real time plus what the test moved it by.
 */
public final class MutableClock extends Clock {
  private final LongSupplier base;
  private final AtomicLong shift = new AtomicLong();

  public MutableClock(Instant start) {
    long startMillis = start.toEpochMilli();
    this.base = () -> startMillis;
  }

  private MutableClock(LongSupplier base) {
    this.base = base;
  }

  /** Real time, moved forward by {@link #advance}: time runs, and deadlines can be brought near. */
  public static MutableClock running() {
    return new MutableClock(System::currentTimeMillis);
  }

  public void advance(Duration d) {
    shift.addAndGet(d.toMillis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  @Override
  public long millis() {
    return base.getAsLong() + shift.get();
  }
}
