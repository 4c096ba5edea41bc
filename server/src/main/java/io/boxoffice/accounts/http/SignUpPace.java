package io.boxoffice.accounts.http;

/**
 * How long a sign-up takes to create its account once its password is hashed (the account's
 * journal write), as a moving average, so that {@code 409 account_exists}, which writes nothing,
 * is answered no sooner than a {@code 201} would have been: the answer's timing tells no more
 * than the answer itself (issue 31, finding 13a). Approximate on purpose: a mean of recent
 * writes, updated without a lock between concurrent sign-ups.
 */
final class SignUpPace {
  /** Weight of the newest write in the mean. */
  private static final double WEIGHT = 0.2;
  /** A write slower than this (a stalled database) is not let to slow every 409 down. */
  static final long MAX_NANOS = 2_000_000_000L;

  private volatile long meanNanos;

  /** An account was created; its write took {@code nanos}. */
  void created(long nanos) {
    long n = Math.min(Math.max(0, nanos), MAX_NANOS);
    long mean = meanNanos;
    meanNanos = mean == 0 ? n : (long) (mean + WEIGHT * (n - mean));
  }

  /** How much longer a 409 whose own look-up took {@code tookNanos} waits before it is answered. */
  long paddingNanos(long tookNanos) {
    return Math.max(0, meanNanos - Math.max(0, tookNanos));
  }
}
