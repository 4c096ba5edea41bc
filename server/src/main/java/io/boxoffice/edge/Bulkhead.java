package io.boxoffice.edge;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Each event's own bounded share of this edge node: at most {@code capacity} requests of one
 * event in flight at once, so a flooded event can exhaust only its own compartment. Inside it,
 * classes are shed from the bottom: reads (map, availability, cart, status) may fill half of
 * it, holds four fifths, checkouts all of it, so when an event is overloaded the requests that
 * turn into tickets are the last to be refused. Nothing waits: a request that finds no room is
 * answered 503 at once.
 */
public final class Bulkhead {

  /** What a request is worth when the event is busy; a class may fill its share of the capacity. */
  public enum Priority {
    READ(0.5), HOLD(0.8), CHECKOUT(1.0);

    private final double share;

    Priority(double share) {
      this.share = share;
    }
  }

  private final int capacity;
  private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

  public Bulkhead(int capacity) {
    if (capacity < 2) throw new IllegalArgumentException("capacity must be at least 2");
    this.capacity = capacity;
  }

  /** Takes a place for one request of the event, or answers false when its class's share is full. */
  public boolean tryEnter(String eventId, Priority priority) {
    int limit = Math.max(1, (int) Math.floor(capacity * priority.share));
    AtomicInteger count = inFlight.computeIfAbsent(eventId, id -> new AtomicInteger());
    while (true) {
      int now = count.get();
      if (now >= limit) return false;
      if (count.compareAndSet(now, now + 1)) return true;
    }
  }

  /** Gives back the place taken by {@link #tryEnter}. */
  public void exit(String eventId) {
    AtomicInteger count = inFlight.get(eventId);
    if (count != null) count.decrementAndGet();
  }

  /** Requests of the event in flight now. */
  public int inFlight(String eventId) {
    AtomicInteger count = inFlight.get(eventId);
    return count == null ? 0 : count.get();
  }
}
