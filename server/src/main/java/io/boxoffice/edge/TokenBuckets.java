package io.boxoffice.edge;

import java.time.Clock;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Token-bucket rate limits, one bucket per key (an account, a client network prefix): a burst of
 * {@code capacity} requests, then {@code perSecond} on average.
 *
 * <p>A bucket is kept as one number, the instant at which it will be full again: it holds
 * {@code capacity - (fullAt - now) * perSecond} tokens, so refilling is lazy arithmetic on each
 * call, from the injected clock. Each key is updated atomically by {@link ConcurrentHashMap#compute},
 * so concurrent requests for different keys never wait on each other.
 *
 * <p>At most {@code maxKeys} keys are kept. When a new key would exceed that, buckets that have
 * filled up again are dropped first (they are the same as a new bucket, so nothing is lost), then
 * buckets with at least one token left, then any, down to 90% of the bound so that sweeps are
 * rare. A key dropped while still draining starts again with a full bucket: under a flood of
 * keys the limit is best effort for the keys pushed out, and memory stays bounded (about 150
 * bytes a key). Concurrent inserts may exceed the bound by the number of threads inserting at
 * that moment, until their sweep.
 */
public final class TokenBuckets {
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  /** Whether a request may go ahead; if not, how many whole seconds until a token is available (at least 1). */
  public record Decision(boolean allowed, long retryAfterSeconds) {
    static final Decision ALLOWED = new Decision(true, 0);
  }

  private final int maxKeys;
  private final int capacity;
  private final Clock clock;
  /** Nanoseconds to refill one token. */
  private final long interval;
  /** How far in the future {@code fullAt} may be while a token is still left: {@code (capacity - 1) * interval}. */
  private final long tolerance;
  private final ConcurrentHashMap<String, Long> fullAtByKey = new ConcurrentHashMap<>();

  public TokenBuckets(int capacity, double perSecond, int maxKeys, Clock clock) {
    if (capacity < 1) throw new IllegalArgumentException("capacity must be at least 1");
    if (!(perSecond > 0)) throw new IllegalArgumentException("perSecond must be positive");
    if (maxKeys < 1) throw new IllegalArgumentException("maxKeys must be at least 1");
    this.maxKeys = maxKeys;
    this.capacity = capacity;
    this.clock = clock;
    this.interval = Math.max(1, Math.round(NANOS_PER_SECOND / perSecond));
    this.tolerance = (capacity - 1) * interval;
  }

  /** Takes a token from {@code key}'s bucket if there is one. */
  public Decision tryTake(String key) {
    return tryTake(key, 1);
  }

  /**
   * Takes {@code tokens} tokens from {@code key}'s bucket if it holds that many, else none. More
   * than the capacity takes a full bucket (a request costing more than a burst is still possible,
   * once the bucket is full, and then leaves it empty).
   */
  public Decision tryTake(String key, int tokens) {
    if (tokens < 1) throw new IllegalArgumentException("tokens must be at least 1");
    int take = Math.min(tokens, capacity);
    long slack = tolerance - (take - 1) * interval;
    long cost = take * interval;
    long now = clock.millis() * 1_000_000L;
    long[] wait = new long[1];
    boolean[] created = new boolean[1];
    fullAtByKey.compute(key, (k, fullAt) -> {
      if (fullAt == null) created[0] = true;
      long from = fullAt == null ? now : Math.max(fullAt, now);
      long shortBy = from - now - slack;
      if (shortBy > 0) {
        wait[0] = shortBy;
        return fullAt;
      }
      return from + cost;
    });
    if (created[0] && fullAtByKey.size() > maxKeys) evict(now);
    if (wait[0] == 0) return Decision.ALLOWED;
    return new Decision(false, Math.max(1, (wait[0] + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND));
  }

  /** How many keys have a bucket now. */
  public int size() {
    return fullAtByKey.size();
  }

  private synchronized void evict(long now) {
    if (fullAtByKey.size() <= maxKeys) return;
    fullAtByKey.values().removeIf(fullAt -> fullAt <= now);
    int target = maxKeys - Math.max(1, maxKeys / 10);
    removeDownTo(target, now + tolerance);
    removeDownTo(target, Long.MAX_VALUE);
  }

  private void removeDownTo(int target, long fullAtAtMost) {
    Iterator<Map.Entry<String, Long>> it = fullAtByKey.entrySet().iterator();
    while (fullAtByKey.size() > target && it.hasNext()) {
      Map.Entry<String, Long> e = it.next();
      if (e.getValue() <= fullAtAtMost) fullAtByKey.remove(e.getKey(), e.getValue());
    }
  }
}
