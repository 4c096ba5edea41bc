package io.boxoffice.edge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Each event's own bounded share of this edge node: at most {@code perEvent} requests of one
 * event in flight or waiting at once, so a flooded event can exhaust only its own compartment.
 * Inside it, classes are shed from the bottom: reads (map, availability, cart, status) may fill
 * half of it, holds four fifths, checkouts all of it, so when an event is overloaded the
 * requests that turn into tickets are the last to be refused (503 at once).
 *
 * <p>Between events the node's work is shared fairly, by waiting, not by refusing. While fewer
 * than {@code node} requests of shared events are in flight, or only one event has been busy
 * lately, a request goes in at once. Otherwise an event that already has its fair share in
 * flight ({@code node} times its class's share, divided by the events busy lately) lines up:
 * its requests wait in its own line, in order, costing no CPU (the connection sends nothing
 * more meanwhile), and each request that leaves hands its place to the line of the event with
 * the fewest in flight. So a quiet event's request goes in at once or after one request leaves,
 * and a flood cannot fill the dispatcher's queue in front of it: only its fair share of work
 * runs at a time. (Refusing instead left the flood's retries and their 503s on the CPU, and
 * in-flight work never reached the limit while the flood's requests queued in the dispatcher:
 * bench/run bulkhead.) A request waits {@code maxWait} at most, then it is refused.
 *
 * <p>An event counts as busy while it has requests in flight or waiting, and for {@code linger}
 * after: a quiet event's fans ask again a moment after each answer, and in that moment the
 * flood must not become "alone" and take the whole node. Ids nobody created never share: they
 * get their compartment, never wait, never count as busy and never take a place of the node,
 * or a bot naming many made-up ids would shrink a real event's share to nothing. A compartment
 * is forgotten once it is idle (and, for a shared event, its linger has passed).
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

  private static final CompletableFuture<Boolean> IN = CompletableFuture.completedFuture(true);
  private static final CompletableFuture<Boolean> OUT = CompletableFuture.completedFuture(false);

  /** One event's requests on this node. Guarded by the bulkhead's lock. */
  private static final class Compartment {
    final String eventId;
    final boolean shared;
    int inFlight;
    final ArrayDeque<Waiter> line = new ArrayDeque<>();
    /** When it last became idle (nothing in flight or waiting); meaningful only while idle. */
    long idleSince;

    Compartment(String eventId, boolean shared) {
      this.eventId = eventId;
      this.shared = shared;
    }

    boolean idle() {
      return inFlight == 0 && line.isEmpty();
    }
  }

  private record Waiter(String eventId, Priority priority, CompletableFuture<Boolean> admitted) {}

  private record Idle(Compartment compartment, long since) {}

  private final int perEvent;
  private final int node;
  private final Predicate<String> shares;
  private final long maxWaitMillis;
  private final long lingerNanos;
  private final LongSupplier nanoClock;
  /** Where a request let in from its line goes on: never on the thread of the request that left, which may be deep in its own completion. */
  private final java.util.concurrent.Executor handOff;
  private final Map<String, Compartment> compartments = new HashMap<>();
  /** Shared compartments that became idle, oldest first (an entry is stale once its compartment was busy again). */
  private final ArrayDeque<Idle> idle = new ArrayDeque<>();
  /** Compartments whose line is not empty. */
  private final java.util.Set<Compartment> lined = new java.util.LinkedHashSet<>();
  /** Requests of shared events in flight. */
  private int total;
  /** All requests in flight, shared or not. */
  private int allInFlight;
  /** Shared events with a compartment: busy now or within their linger. */
  private int sharedBusy;

  /** Compartments of {@code perEvent} requests and no node-wide sharing (every event its whole compartment). */
  public Bulkhead(int perEvent) {
    this(perEvent, Integer.MAX_VALUE, id -> true, 0, 0, Runnable::run, System::nanoTime);
  }

  /**
   * @param perEvent requests of one event in flight or waiting at most
   * @param node requests of shared events in flight on this node from which, while several
   *     events are busy, an event past its fair share waits for a place
   * @param shares whether an event takes part in the fair share: events this node knows
   * @param maxWaitMillis how long a request waits for a place before it is refused
   * @param lingerMillis how long an event counts as busy after its last request left
   * @param handOff runs a waiting request that was let in (its route goes on there): a
   *     dispatcher, so that a request that completes at once and lets the next one in does not
   *     run that one on its own stack, and the next after it, as deep as the line is long
   */
  public Bulkhead(int perEvent, int node, Predicate<String> shares, long maxWaitMillis, long lingerMillis,
                  java.util.concurrent.Executor handOff) {
    this(perEvent, node, shares, maxWaitMillis, lingerMillis, handOff, System::nanoTime);
  }

  Bulkhead(int perEvent, int node, Predicate<String> shares, long maxWaitMillis, long lingerMillis,
           java.util.concurrent.Executor handOff, LongSupplier nanoClock) {
    if (perEvent < 2) throw new IllegalArgumentException("capacity must be at least 2");
    if (node < 2) throw new IllegalArgumentException("the node's capacity must be at least 2");
    if (maxWaitMillis < 0 || lingerMillis < 0) throw new IllegalArgumentException("waits cannot be negative");
    this.perEvent = perEvent;
    this.node = node;
    this.shares = shares;
    this.maxWaitMillis = maxWaitMillis;
    this.lingerNanos = TimeUnit.MILLISECONDS.toNanos(lingerMillis);
    this.nanoClock = nanoClock;
    this.handOff = handOff;
  }

  /**
   * Asks for a place for one request of the event: the stage completes with true once the
   * request may go on (at once, or when its turn comes), false when it is refused (its class's
   * share of the compartment is full, or it waited {@code maxWait}). Every true must be matched
   * by one {@link #exit}.
   */
  public CompletionStage<Boolean> enter(String eventId, Priority priority) {
    return enter(eventId, priority, true);
  }

  /** Like {@link #enter} but never waits: false where enter would line the request up. */
  public boolean tryEnter(String eventId, Priority priority) {
    return enter(eventId, priority, false) == IN;
  }

  private CompletableFuture<Boolean> enter(String eventId, Priority priority, boolean mayWait) {
    int limit = Math.max(1, (int) Math.floor(perEvent * priority.share));
    CompletableFuture<Boolean> waiting;
    List<Waiter> letIn = null;
    try {
      synchronized (this) {
        if (forgetIdle(nanoClock.getAsLong())) letIn = handOver();
        waiting = enterLocked(eventId, priority, mayWait, limit);
        if (waiting == IN || waiting == OUT) return waiting;
      }
    } finally {
      letInOutsideTheLock(letIn);
    }
    // Past the wait: refused, and out of the line (a place handed to it meanwhile went on to the next).
    CompletableFuture<Boolean> line = waiting;
    line.completeOnTimeout(false, maxWaitMillis, TimeUnit.MILLISECONDS);
    line.thenAccept(admitted -> {
      if (!admitted) leaveLine(eventId, line);
    });
    return line;
  }

  private CompletableFuture<Boolean> enterLocked(String eventId, Priority priority, boolean mayWait, int limit) {
    Compartment c = compartments.get(eventId);
    if (c == null) c = open(eventId);
    if (c.inFlight + c.line.size() < limit) {
      if (c.line.isEmpty() && mayGoIn(c, priority)) {
        admit(c);
        return IN;
      }
      if (mayWait && maxWaitMillis > 0) {
        CompletableFuture<Boolean> waiting = new CompletableFuture<>();
        c.line.add(new Waiter(eventId, priority, waiting));
        lined.add(c);
        return waiting;
      }
    }
    becameIdle(c);
    return OUT;
  }

  /** Gives back the place taken by a true of {@link #enter} or {@link #tryEnter}. */
  public void exit(String eventId) {
    List<Waiter> letIn;
    synchronized (this) {
      Compartment c = compartments.get(eventId);
      if (c == null || c.inFlight == 0) return;
      c.inFlight--;
      allInFlight--;
      if (c.shared) total--;
      letIn = handOver();
      becameIdle(c);
    }
    letInOutsideTheLock(letIn);
  }

  /** Requests of the event in flight now. */
  public synchronized int inFlight(String eventId) {
    Compartment c = compartments.get(eventId);
    return c == null ? 0 : c.inFlight;
  }

  /** Requests of the event waiting for a place now. */
  public synchronized int waiting(String eventId) {
    Compartment c = compartments.get(eventId);
    return c == null ? 0 : c.line.size();
  }

  /** Requests of every event in flight now. */
  public synchronized int inFlight() {
    return allInFlight;
  }

  /** Events with a compartment now: busy, or shared and within their linger. */
  public int busyEvents() {
    List<Waiter> letIn = null;
    try {
      synchronized (this) {
        if (forgetIdle(nanoClock.getAsLong())) letIn = handOver();
        return compartments.size();
      }
    } finally {
      letInOutsideTheLock(letIn);
    }
  }

  // ---- under the lock ----------------------------------------------------------------------

  private boolean mayGoIn(Compartment c, Priority priority) {
    if (!c.shared || total < node) return true;
    int busy = sharedBusy;
    if (busy <= 1) return true;
    return c.inFlight < fairShare(priority, busy);
  }

  private int fairShare(Priority priority, int busy) {
    return Math.max(1, (int) Math.floor(node * priority.share) / busy);
  }

  private Compartment open(String eventId) {
    Compartment c = new Compartment(eventId, shares.test(eventId));
    compartments.put(eventId, c);
    if (c.shared) sharedBusy++;
    return c;
  }

  private void forget(Compartment c) {
    if (compartments.remove(c.eventId, c) && c.shared) sharedBusy--;
  }

  private void admit(Compartment c) {
    c.inFlight++;
    allInFlight++;
    if (c.shared) total++;
  }

  /**
   * Places freed: the heads of the lines that may go in do, the event with the fewest in flight
   * first. A head that may not (a read past its event's share) holds back only its own line:
   * another event's head of a larger class still goes in. Returns who goes in, or null when
   * nobody does (most calls: nothing is allocated for them).
   */
  private List<Waiter> handOver() {
    List<Waiter> letIn = null;
    while (true) {
      Compartment next = null;
      for (Compartment c : lined) {
        if ((next == null || c.inFlight < next.inFlight) && mayGoIn(c, c.line.peek().priority())) next = c;
      }
      if (next == null) return letIn;
      Waiter w = next.line.poll();
      if (next.line.isEmpty()) lined.remove(next);
      if (w.admitted().isDone()) continue;
      admit(next);
      if (letIn == null) letIn = new ArrayList<>();
      letIn.add(w);
    }
  }

  private void becameIdle(Compartment c) {
    if (!c.idle()) return;
    if (!c.shared || lingerNanos == 0) {
      forget(c);
      return;
    }
    c.idleSince = nanoClock.getAsLong();
    idle.add(new Idle(c, c.idleSince));
  }

  /** Forgets the shared compartments idle for their linger; true when one was (the fair shares grew). */
  private boolean forgetIdle(long now) {
    boolean forgot = false;
    while (!idle.isEmpty() && now - idle.peek().since() >= lingerNanos) {
      Idle i = idle.poll();
      Compartment c = i.compartment();
      if (c.idle() && c.idleSince == i.since()) {
        forget(c);
        forgot = true;
      }
    }
    return forgot;
  }

  // ---- outside the lock --------------------------------------------------------------------

  private void letInOutsideTheLock(List<Waiter> letIn) {
    if (letIn == null) return;
    for (Waiter w : letIn) {
      // Timed out between the hand-over and now: its place goes on to the next in line.
      handOff.execute(() -> {
        if (!w.admitted().complete(true)) exit(w.eventId());
      });
    }
  }

  private void leaveLine(String eventId, CompletableFuture<Boolean> waiting) {
    List<Waiter> letIn;
    synchronized (this) {
      Compartment c = compartments.get(eventId);
      if (c == null) return;
      c.line.removeIf(w -> w.admitted() == waiting);
      if (c.line.isEmpty()) lined.remove(c);
      letIn = handOver();
      becameIdle(c);
    }
    letInOutsideTheLock(letIn);
  }
}
