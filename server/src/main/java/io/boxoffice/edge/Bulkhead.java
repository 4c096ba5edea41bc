package io.boxoffice.edge;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Each event's own bounded share of this edge node: at most {@code perEvent} requests of one
 * event in flight at once, so a flooded event can exhaust only its own compartment. Inside it,
 * classes are shed from the bottom: reads (map, availability, cart, status) may fill half of
 * it, holds four fifths, checkouts all of it, so when an event is overloaded the requests that
 * turn into tickets are the last to be refused. Nothing waits: a request that finds no room is
 * answered 503 at once.
 *
 * <p>Between events the node's work is shared fairly: an event alone on the node, or while the
 * node has fewer than {@code node} requests in flight, may use its whole compartment; once
 * several events have requests in flight and the node has {@code node} or more, only an event
 * below its fair share ({@code node} times its class's share, divided by the events with
 * requests in flight) is let in. So a flooded event gives back what it took as soon as another
 * event needs it, and the other event's requests never wait behind the flood's. A compartment
 * is forgotten when its last request leaves, so made-up event ids keep nothing.
 */
public final class Bulkhead {

  /** What a request is worth when the event is busy; a class may fill its share of the capacity. */
  public enum Priority {
    READ(0.5), HOLD(0.8), CHECKOUT(1.0);

    private final double share;
    /** The class's name in metrics: read, hold, checkout. */
    public final String label;

    Priority(double share) {
      this.share = share;
      this.label = name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final int perEvent;
  private final int node;
  private final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();
  private final AtomicInteger total = new AtomicInteger();

  /** Compartments of {@code perEvent} requests and no node-wide sharing (every event its whole compartment). */
  public Bulkhead(int perEvent) {
    this(perEvent, Integer.MAX_VALUE);
  }

  /**
   * @param perEvent requests of one event in flight at most
   * @param node requests in flight on this node from which, while several events have requests
   *     in flight, an event past its fair share is refused
   */
  public Bulkhead(int perEvent, int node) {
    if (perEvent < 2) throw new IllegalArgumentException("capacity must be at least 2");
    if (node < 2) throw new IllegalArgumentException("the node's capacity must be at least 2");
    this.perEvent = perEvent;
    this.node = node;
  }

  /** Takes a place for one request of the event, or answers false when its class's share is full. */
  public boolean tryEnter(String eventId, Priority priority) {
    int limit = Math.max(1, (int) Math.floor(perEvent * priority.share));
    boolean[] entered = new boolean[1];
    // compute() runs atomically per key: the count and the decision cannot interleave with
    // another request of the same event, and an idle compartment's removal cannot lose one.
    inFlight.compute(eventId, (id, now) -> {
      int n = now == null ? 0 : now;
      if (n >= limit) return now;
      int busy = inFlight.size() + (now == null ? 1 : 0);
      if (busy > 1 && total.get() >= node) {
        int fairShare = Math.max(1, (int) Math.floor(node * priority.share) / busy);
        if (n >= fairShare) return now;
      }
      entered[0] = true;
      total.incrementAndGet();
      return n + 1;
    });
    return entered[0];
  }

  /** Gives back the place taken by {@link #tryEnter}. */
  public void exit(String eventId) {
    inFlight.computeIfPresent(eventId, (id, now) -> {
      total.decrementAndGet();
      return now <= 1 ? null : now - 1;
    });
  }

  /** Requests of the event in flight now. */
  public int inFlight(String eventId) {
    Integer n = inFlight.get(eventId);
    return n == null ? 0 : n;
  }

  /** Requests of every event in flight now. */
  public int inFlight() {
    return total.get();
  }

  /** Events with requests in flight now. */
  public int busyEvents() {
    return inFlight.size();
  }
}
