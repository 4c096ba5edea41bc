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
  private final java.util.function.Predicate<String> shares;
  private final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();
  /** Compartments that take part in the fair share, whether they did when they opened (so that their close matches). */
  private final ConcurrentHashMap<String, Boolean> sharing = new ConcurrentHashMap<>();
  private final AtomicInteger total = new AtomicInteger();
  private final AtomicInteger sharingEvents = new AtomicInteger();

  /** Compartments of {@code perEvent} requests and no node-wide sharing (every event its whole compartment). */
  public Bulkhead(int perEvent) {
    this(perEvent, Integer.MAX_VALUE, id -> true);
  }

  /**
   * @param perEvent requests of one event in flight at most
   * @param node requests in flight on this node from which, while several events have requests
   *     in flight, an event past its fair share is refused
   * @param shares whether an event takes part in the fair share: events this node knows. Ids
   *     nobody created get their compartment but never dilute the share of real events, or a
   *     bot naming many made-up ids at once would shrink a real event's share to nothing.
   */
  public Bulkhead(int perEvent, int node, java.util.function.Predicate<String> shares) {
    if (perEvent < 2) throw new IllegalArgumentException("capacity must be at least 2");
    if (node < 2) throw new IllegalArgumentException("the node's capacity must be at least 2");
    this.perEvent = perEvent;
    this.node = node;
    this.shares = shares;
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
      boolean shared = now == null ? shares.test(id) : sharing.getOrDefault(id, false);
      int busy = sharingEvents.get() + (now == null && shared ? 1 : 0);
      if (shared && busy > 1 && total.get() >= node) {
        int fairShare = Math.max(1, (int) Math.floor(node * priority.share) / busy);
        if (n >= fairShare) return now;
      }
      entered[0] = true;
      total.incrementAndGet();
      if (now == null && shared) {
        sharing.put(id, true);
        sharingEvents.incrementAndGet();
      }
      return n + 1;
    });
    return entered[0];
  }

  /** Gives back the place taken by {@link #tryEnter}. */
  public void exit(String eventId) {
    inFlight.computeIfPresent(eventId, (id, now) -> {
      total.decrementAndGet();
      if (now > 1) return now - 1;
      if (sharing.remove(id) != null) sharingEvents.decrementAndGet();
      return null;
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
