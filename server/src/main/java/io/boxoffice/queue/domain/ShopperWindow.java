package io.boxoffice.queue.domain;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Who is shopping now: places admitted and shoppers who stopped, per second of admission, over
 * the last shopping window. Every admitted place counts as shopping until its window ends or
 * it stops, so the cap holds even for fans who have not arrived yet (a place nobody uses costs
 * its window). Lives in memory only; times are epoch ms.
 */
public final class ShopperWindow {
  private final long windowSeconds;
  /** {second, admitted, stopped}, oldest first. */
  private final Deque<long[]> seconds = new ArrayDeque<>();

  public ShopperWindow(Duration window) {
    this.windowSeconds = window.toSeconds();
  }

  /** {@code places} more places were admitted at {@code now}. */
  public void admitted(long places, long now) {
    second(now)[1] += places;
  }

  /** {@code shoppers} stopped shopping at {@code now}, before their windows ended. */
  public void stopped(long shoppers, long now) {
    second(now)[2] += shoppers;
  }

  /** One place admitted at {@code admittedAt} stopped counting: its own second gives it back, while that second is in the window. */
  public void stoppedAdmittedAt(long admittedAt) {
    long second = admittedAt / 1000;
    for (long[] s : seconds) {
      if (s[0] == second) {
        s[2]++;
        return;
      }
    }
  }

  /** Places admitted within the window at {@code now} that have not stopped. */
  public long active(long now) {
    second(now);
    long in = 0;
    long out = 0;
    for (long[] s : seconds) {
      in += s[1];
      out += s[2];
    }
    return Math.max(0, in - out);
  }

  /** The counts of the second of {@code now}, after the seconds that left the window are dropped. */
  private long[] second(long now) {
    long second = now / 1000;
    long[] last = seconds.peekLast();
    if (last == null || last[0] != second) {
      last = new long[] {second, 0, 0};
      seconds.addLast(last);
    }
    long oldest = second - windowSeconds;
    while (!seconds.isEmpty() && seconds.peekFirst()[0] <= oldest) seconds.pollFirst();
    return last;
  }
}
