package io.boxoffice.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** Real time plus a shift that a test moves forward: time runs, and deadlines can be brought near. */
public final class ShiftedClock extends Clock {
  private final AtomicLong shiftMillis = new AtomicLong();

  public void jump(Duration d) {
    shiftMillis.addAndGet(d.toMillis());
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
  public long millis() {
    return System.currentTimeMillis() + shiftMillis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }
}
