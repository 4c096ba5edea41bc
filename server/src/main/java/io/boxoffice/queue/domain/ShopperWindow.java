package io.boxoffice.queue.domain;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Who is shopping now: places admitted, places whose fans arrived (held seats), and shoppers
 * who stopped, per second of admission, over the last shopping window. An admitted place
 * counts as shopping for the arrival window whether or not its fan comes, so the cap holds for
 * fans who are still on their way; after that only places whose fans arrived count, until
 * their window ends or they stop. A fan who was admitted and never came (closed the tab, gave
 * up) so costs the line the arrival window, not the whole shopping window. Lives in memory
 * only; times are epoch ms.
 */
public final class ShopperWindow {
  private static final int SECOND = 0;
  private static final int ADMITTED = 1;
  private static final int ARRIVED = 2;
  /** Stopped after arriving (bought, left, or counted out in bulk). */
  private static final int STOPPED_ARRIVED = 3;
  /** Stopped before arriving (left the line after admission without holding anything). */
  private static final int STOPPED_AWAY = 4;

  private final long windowSeconds;
  private final long arrivalSeconds;
  /** {second, admitted, arrived, stopped after arriving, stopped before arriving}, oldest first. */
  private final Deque<long[]> seconds = new ArrayDeque<>();

  /** Every admitted place counts for the whole window (no arrival window). */
  public ShopperWindow(Duration window) {
    this(window, window);
  }

  public ShopperWindow(Duration window, Duration arrivalWindow) {
    this.windowSeconds = window.toSeconds();
    this.arrivalSeconds = Math.min(windowSeconds, Math.max(1, arrivalWindow.toSeconds()));
  }

  /** {@code places} more places were admitted at {@code now}. */
  public void admitted(long places, long now) {
    second(now)[ADMITTED] += places;
  }

  /** The fan of one place admitted at {@code admittedAt} arrived: it counts for its whole window, while that second is in it. */
  public void arrivedAdmittedAt(long admittedAt) {
    long[] s = find(admittedAt);
    if (s != null) s[ARRIVED]++;
  }

  /** {@code shoppers} stopped shopping at {@code now}, before their windows ended. */
  public void stopped(long shoppers, long now) {
    second(now)[STOPPED_ARRIVED] += shoppers;
  }

  /** One place admitted at {@code admittedAt} stopped counting: its own second gives it back, while that second is in the window. */
  public void stoppedAdmittedAt(long admittedAt) {
    stoppedAdmittedAt(admittedAt, true);
  }

  /** As {@link #stoppedAdmittedAt(long)}, for a place whose fan had {@code arrived} or not. */
  public void stoppedAdmittedAt(long admittedAt, boolean arrived) {
    long[] s = find(admittedAt);
    if (s != null) s[arrived ? STOPPED_ARRIVED : STOPPED_AWAY]++;
  }

  /** Places counted as shopping at {@code now}: admitted within the arrival window or arrived within the shopping window, less those that stopped. */
  public long active(long now) {
    long current = second(now)[SECOND];
    long arrivingSince = current - arrivalSeconds;
    long count = 0;
    for (long[] s : seconds) {
      count += s[SECOND] > arrivingSince
          ? s[ADMITTED] - s[STOPPED_ARRIVED] - s[STOPPED_AWAY]
          : s[ARRIVED] - s[STOPPED_ARRIVED];
    }
    return Math.max(0, count);
  }

  private long[] find(long at) {
    long second = at / 1000;
    for (long[] s : seconds) {
      if (s[SECOND] == second) return s;
    }
    return null;
  }

  /** The counts of the second of {@code now}, after the seconds that left the window are dropped. */
  private long[] second(long now) {
    long second = now / 1000;
    long[] last = seconds.peekLast();
    if (last == null || last[SECOND] != second) {
      last = new long[] {second, 0, 0, 0, 0};
      seconds.addLast(last);
    }
    long oldest = second - windowSeconds;
    while (!seconds.isEmpty() && seconds.peekFirst()[SECOND] <= oldest) seconds.pollFirst();
    return last;
  }
}
