package io.boxoffice.app;

import io.boxoffice.inventory.PlatformFaults;
import java.util.HashSet;
import java.util.Set;

/**
 * The time this node has seen the cluster in trouble. Trouble is a set of causes (a member
 * unreachable, a member leaving); the fault time runs from the first cause (looked back by the
 * time the cause took to notice, such as the failure detector's pause) until the last one is
 * gone plus a settling time in which shards move and fans retry. Overlapping causes count once.
 * Thread-safe; fed by {@link ClusterFaults}, read by every inventory entity on this node.
 */
public final class FaultLedger implements PlatformFaults {
  private final long settleMillis;
  private final Set<String> causes = new HashSet<>();
  /** Fault time of intervals that are over and behind {@link #start}. */
  private long closedMillis;
  /** Start of the latest interval; -1 before the first. */
  private long start = -1;
  /** End of the latest interval: open (MAX) while a cause remains, then the last cause's end plus settling. */
  private long end = Long.MAX_VALUE;

  public FaultLedger(long settleMillis) {
    this.settleMillis = settleMillis;
  }

  /** A cause of trouble noticed at {@code now}; it began {@code lookBackMillis} earlier. */
  public synchronized void started(String cause, long now, long lookBackMillis) {
    boolean wasCalm = causes.isEmpty();
    causes.add(cause);
    if (!wasCalm) return;
    long from = now - lookBackMillis;
    if (start >= 0 && from <= end) {
      // Still settling from the last trouble (or just after it): one interval.
      end = Long.MAX_VALUE;
      return;
    }
    if (start >= 0) closedMillis += end - start;
    start = from;
    end = Long.MAX_VALUE;
  }

  /** A cause of trouble is gone at {@code now}. */
  public synchronized void ended(String cause, long now) {
    if (!causes.remove(cause) || !causes.isEmpty()) return;
    end = Math.max(start, now + settleMillis);
  }

  /** Whether some cause of trouble remains. */
  public synchronized boolean troubled() {
    return !causes.isEmpty();
  }

  @Override
  public synchronized long faultMillisUpTo(long now) {
    if (start < 0) return closedMillis;
    return closedMillis + Math.max(0, Math.min(end, now) - start);
  }
}
