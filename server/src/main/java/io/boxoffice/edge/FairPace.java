package io.boxoffice.edge;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Each event's pace on this edge node while the node is saturated: requests per second, shared
 * fairly between the events that are busy. The {@link Bulkhead} shares places in flight, which
 * is not a share of the CPU: a read is in flight for 2 ms of CPU, a quiet event's hold for the
 * database's commit, so four reads in flight are 2,000 reads/s and they took the CPU a quiet
 * event's holds needed (bench/run bulkhead: the quiet event's holds fell to 0.27x of alone).
 * This paces the requests instead.
 *
 * <p>Every {@code window} the node says whether it is saturated (its dispatcher's lag, see
 * {@link DispatcherLag}). While it is, and at least two events are busy (asked in the last
 * 1.2 s, for {@code floor} requests/s or more and {@code minShare} of the node's requests or
 * more), each event asking for more than the fair share (what the busy events ask, divided by
 * their number) gets a pace: {@code decrease} times what it passed lately, or times its pace
 * when it had one; never below {@code floor}. An event asking for less than the fair share is
 * left alone however saturated the node: a quiet event is never paced by another's flood. What
 * an event asks is the peak of the windows, let down slowly, and not at all while it is paced:
 * a paced event's fans wait for their turns, so it then seems to ask only what its pace lets
 * it, and a quiet neighbour asking at its own pace must not look the heavier. While the node is
 * not saturated, a pace grows by {@code increase} per window; it goes after two seconds with
 * the event alone. An event alone on the node is never paced: there is nobody to share with.
 *
 * <p>A paced event's reads and holds go one per 1/pace seconds, in the order they came, each
 * waiting for its turn without costing CPU (its connection sends nothing more meanwhile); one
 * whose turn is more than {@code maxWait} away is refused (503 and Retry-After). Its checkouts
 * are never paced: they turn held seats into tickets. Only events the node knows take part:
 * made-up ids are never paced and never busy, so a bot naming many cannot shrink a real event's
 * share. Thread-safe.
 */
public final class FairPace {

  /** One event's requests in the current window and its pace, if it has one. */
  private static final class Lane {
    int admitted;
    /** Requests refused by the pace in the current window (their turn was too far). */
    int refused;
    /** Requests/s passed: the peak of the windows, let down 20% a window. */
    double passed;
    /** Requests/s asked (passed or refused): the peak of the windows, let down slowly. */
    double demand;
    int idleWindows;
    /** Windows in a row this paced event was the only busy one, the node not saturated. */
    int calmWindows;
    /** Requests per second allowed; 0 = not paced. */
    double pace;
    /** When the paced event's next request may go. */
    long nextTurn;
  }

  /** Windows in a row with the event alone before its pace goes. */
  static final int CALM_WINDOWS = 20;
  private static final double MAX_PACE = 1e7;
  private static final double DEMAND_DECAY = 0.95;
  private static final double PASSED_DECAY = 0.8;
  /** Windows without a request after which an event no longer counts as busy: longer than a Retry-After (1 s). */
  static final int ACTIVE_WINDOWS = 12;

  private final Predicate<String> shares;
  private final long windowNanos;
  private final double decrease;
  private final double increase;
  private final double floor;
  private final double minShare;
  private final long maxWaitNanos;
  private final Map<String, Lane> lanes = new HashMap<>();

  /**
   * @param shares whether an event takes part (events this node knows)
   * @param windowMillis how often the node's saturation is read and the paces are moved
   * @param decrease a heavy event's pace per saturated window, as a fraction (0 to 1) of its rate
   * @param increase a pace's growth per window while the node is not saturated (above 1)
   * @param floor requests per second a paced event keeps at least, and an event must ask for to count as busy
   * @param minShare the share of the node's requests an event must ask for to count as busy
   * @param maxWaitMillis how long a paced event's request may wait for its turn, or it is refused
   */
  public FairPace(Predicate<String> shares, long windowMillis, double decrease, double increase, double floor,
                  double minShare, long maxWaitMillis) {
    if (windowMillis < 1) throw new IllegalArgumentException("the window must be at least 1 ms");
    if (!(decrease > 0 && decrease < 1)) throw new IllegalArgumentException("decrease must be between 0 and 1");
    if (!(increase > 1)) throw new IllegalArgumentException("increase must be above 1");
    if (!(floor > 0)) throw new IllegalArgumentException("the floor must be above 0 requests/s");
    if (maxWaitMillis < 0) throw new IllegalArgumentException("the wait cannot be negative");
    if (!(minShare >= 0 && minShare < 0.5)) throw new IllegalArgumentException("the busy share must be between 0 and 0.5");
    this.shares = shares;
    this.windowNanos = windowMillis * 1_000_000L;
    this.decrease = decrease;
    this.increase = increase;
    this.floor = floor;
    this.minShare = minShare;
    this.maxWaitNanos = maxWaitMillis * 1_000_000L;
  }

  /** Paces nothing: no event takes part. */
  public static FairPace off() {
    return new FairPace(id -> false, 1_000, 0.5, 2, 1, 0, 0);
  }

  /** How often {@link #tick} should be called, in milliseconds. */
  public long windowMillis() {
    return windowNanos / 1_000_000L;
  }

  /** What {@link #delay} answers for a request that is refused. */
  public static final long REFUSED = -1;

  /**
   * When one request of the event may go on ({@code nowNanos} from System.nanoTime): 0 at once,
   * a wait in nanoseconds, or {@link #REFUSED}. At once unless the event is paced and the
   * request is not a checkout; a paced event's requests go one per 1/pace seconds, in the order
   * they came, each waiting for its turn (costing no CPU meanwhile), and a request whose turn is
   * more than {@code maxWait} away is refused.
   */
  public synchronized long delay(String eventId, Bulkhead.Priority priority, long nowNanos) {
    Lane lane = lanes.get(eventId);
    if (lane == null) {
      if (!shares.test(eventId)) return 0;
      lane = new Lane();
      lanes.put(eventId, lane);
    }
    long wait = 0;
    if (lane.pace > 0 && priority != Bulkhead.Priority.CHECKOUT) {
      long turn = Math.max(nowNanos, lane.nextTurn);
      wait = turn - nowNanos;
      if (wait > maxWaitNanos) {
        lane.refused++;
        return REFUSED;
      }
      lane.nextTurn = turn + (long) (1e9 / lane.pace);
    }
    lane.admitted++;
    return wait;
  }

  /** Ends a window: moves the paces by whether the node was saturated in it. */
  public synchronized void tick(boolean saturated, long nowNanos) {
    double seconds = windowNanos / 1e9;
    double total = 0;
    for (Lane lane : lanes.values()) {
      double asked = (lane.admitted + lane.refused) / seconds;
      // Its peak, let down 5% a window (by half in 1.4 s), and not at all while paced: a paced
      // event's fans wait for their turns (or a Retry-After), so what it asks then is what the
      // pace let it ask, and a quiet neighbour asking at its own pace must not look the heavier.
      lane.demand = Math.max(lane.pace > 0 ? lane.demand : lane.demand * DEMAND_DECAY, asked);
      lane.idleWindows = asked == 0 ? lane.idleWindows + 1 : 0;
      if (lane.idleWindows <= ACTIVE_WINDOWS) total += lane.demand;
    }
    // Busy: asked lately, for the floor or more and for a share of the node's requests: a
    // neighbour's trickle never paces an on-sale, nor does an event whose fans have gone.
    double busyFrom = Math.max(floor, minShare * total);
    int busy = 0;
    double busyTotal = 0;
    for (Lane lane : lanes.values()) {
      if (lane.idleWindows <= ACTIVE_WINDOWS && lane.demand >= busyFrom) {
        busy++;
        busyTotal += lane.demand;
      }
    }
    double fair = busy == 0 ? 0 : busyTotal / busy;
    for (Iterator<Lane> it = lanes.values().iterator(); it.hasNext(); ) {
      Lane lane = it.next();
      // What it was let do lately (a paced event's fans come in waves): where a grown pace starts from.
      lane.passed = Math.max(lane.passed * PASSED_DECAY, lane.admitted / seconds);
      if (saturated && busy >= 2) {
        if (lane.idleWindows <= ACTIVE_WINDOWS && lane.demand > fair) {
          double from = lane.pace > 0 ? Math.min(lane.pace, lane.passed) : lane.passed;
          if (lane.pace == 0) lane.nextTurn = nowNanos;
          lane.pace = Math.max(floor, from * decrease);
        }
        lane.calmWindows = 0;
      } else if (lane.pace > 0) {
        // Its refused fans come back after Retry-After (1 s), so a rate below the pace says
        // little: the pace grows while the node is calm and goes only when the event is alone.
        lane.pace = Math.min(lane.pace * increase, MAX_PACE);
        if (busy >= 2) {
          lane.calmWindows = 0;
        } else if (++lane.calmWindows >= CALM_WINDOWS) {
          lane.pace = 0;
          lane.calmWindows = 0;
        }
      }
      lane.admitted = 0;
      lane.refused = 0;
      // Forgotten after a few idle windows, unless still paced (its fans are waiting Retry-After).
      if (lane.idleWindows > CALM_WINDOWS && lane.pace == 0) it.remove();
      else if (lane.idleWindows > 600) it.remove();
    }
  }

  /** The event's pace in requests per second, 0 when it is not paced. */
  public synchronized double pace(String eventId) {
    Lane lane = lanes.get(eventId);
    return lane == null ? 0 : lane.pace;
  }

  /** Events paced now. */
  public synchronized int paced() {
    int n = 0;
    for (Lane lane : lanes.values()) if (lane.pace > 0) n++;
    return n;
  }

  /** Events with a lane now (busy lately or paced). */
  public synchronized int events() {
    return lanes.size();
  }
}
