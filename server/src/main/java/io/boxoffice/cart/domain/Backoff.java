package io.boxoffice.cart.domain;

import java.time.Duration;

/**
 * How long the cart waits before it carries unfinished checkouts on again: {@code delay}
 * doubles from {@code min} up to {@code max} while steps keep failing, and starts again at
 * {@code min} once one goes through.
 */
public record Backoff(Duration min, Duration max, Duration delay) {

  public static Backoff between(Duration min, Duration max) {
    return new Backoff(min, max, min);
  }

  /** After a retry was scheduled with {@link #delay()}: the next one waits twice as long, at most {@code max}. */
  public Backoff next() {
    Duration twice = delay.multipliedBy(2);
    return new Backoff(min, max, twice.compareTo(max) > 0 ? max : twice);
  }

  public Backoff reset() {
    return new Backoff(min, max, min);
  }
}
