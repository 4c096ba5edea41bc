package io.boxoffice.sim;

import io.boxoffice.load.Admin;
import io.boxoffice.load.Storefront;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * A fault injected at the sale's peak (the seed, 9.2) and undone after a while: payments slowed
 * down, admissions paused, or the event's node killed through the chaos scripts. When it fires
 * and what a sale's timeline shows around it are decided here; {@link Breaker}s do it.
 */
final class Fault {
  private Fault() {}

  /** The windows of the run whose calls are counted apart around a fault. */
  static final String BEFORE = "before (from the start)";
  static final String DURING = "during the fault";
  static final String AFTER = "after it was undone";

  /** A fault that fired: as set, when (epoch ms), when it was undone (-1: never), and what the breaker said. */
  record Happened(Scenario.FaultSpec spec, long atMillis, long undoneAtMillis, List<String> log) {}

  /** The kinds of fault a scenario or {@code --fault} names. */
  enum Kind {
    NONE("none"), SLOW_PAYMENTS("slow-payments"), PAUSE_ADMISSIONS("pause-admissions"), KILL_NODE("kill-node");

    final String label;

    Kind(String label) {
      this.label = label;
    }

    static Kind named(String name) {
      for (Kind k : values()) if (k.label.equals(name)) return k;
      throw new IllegalArgumentException("fault.kind: none, slow-payments, pause-admissions or kill-node (not " + name + ")");
    }
  }

  /** Shares of the cap and of the venue at which a sale is at its peak. */
  static final double PEAK_SHOPPERS = 0.9;
  static final double PEAK_SEATS_TAKEN = 0.25;

  /**
   * Whether the sale is at its peak at this look: after the start, with the shop nearly full
   * (active shoppers at 90% of the cap) or a quarter of the venue held or sold, whichever comes
   * first; and never once it is sold out or nothing is left to take.
   */
  static boolean atPeak(Timeline.Sample s, long startsAt, int maxActiveShoppers, int seats) {
    if (s.atMillis() < startsAt || s.available() == 0 || s.state().equals("sold_out")) return false;
    return s.activeShoppers() >= PEAK_SHOPPERS * maxActiveShoppers || s.held() + s.sold() >= PEAK_SEATS_TAKEN * seats;
  }

  /** Whether a fault set {@code atMillis} after the start (null: at the peak) is due at this look. */
  static boolean due(Scenario.FaultSpec spec, Timeline.Sample s, long startsAt, int maxActiveShoppers, int seats) {
    if (!spec.any()) return false;
    if (spec.atAfterStart() != null) return s.atMillis() >= startsAt + spec.atAfterStart().toMillis() && s.available() > 0;
    return atPeak(s, startsAt, maxActiveShoppers, seats);
  }

  /** The node a kill-node fault kills: the named one, or the host of the event's inventory ({@code host}); 0 when unknown. */
  static int victim(String node, IntSupplier hostOfTheEvent) {
    return node.equals("host") ? hostOfTheEvent.getAsInt() : Integer.parseInt(node);
  }

  /** The chaos scripts (name and arguments) that kill node {@code n} and that start it again. */
  static List<List<String>> killScripts(int n) {
    return List.of(List.of("kill-node", Integer.toString(n)), List.of("restart-node", Integer.toString(n), "--no-wait"));
  }

  /**
   * What the sale's timeline shows around a fault that began at {@code from} and was undone at
   * {@code to} (epoch ms): seats sold per second in the {@code window} before it, while it
   * lasted and in the window after; when the first seat was sold after it began (seconds after,
   * -1 if none was); and the longest time after it began in which no seat was sold although
   * seats were left to sell (a stall still going at the last look counts to that look).
   */
  record Stall(double soldPerSecondBefore, double soldPerSecondDuring, double soldPerSecondAfter, double firstSaleAfterSeconds,
               double longestStallSeconds) {}

  static Stall stall(List<Timeline.Sample> samples, long from, long to, long window) {
    double before = rate(samples, from - window, from);
    double during = rate(samples, from, to);
    double after = rate(samples, to, to + window);
    long lastSaleAt = from;
    long longest = 0;
    long firstSale = -1;
    Timeline.Sample previous = null;
    boolean seatsLeft = true;
    for (Timeline.Sample s : samples) {
      if (s.atMillis() <= from) {
        previous = s;
        continue;
      }
      if (previous != null && s.sold() > previous.sold()) {
        longest = Math.max(longest, s.atMillis() - lastSaleAt);
        if (firstSale < 0) firstSale = s.atMillis() - from;
        lastSaleAt = s.atMillis();
      }
      seatsLeft = s.available() + s.held() > 0;
      if (!seatsLeft) break;
      previous = s;
    }
    if (seatsLeft && previous != null && previous.atMillis() > lastSaleAt) longest = Math.max(longest, previous.atMillis() - lastSaleAt);
    return new Stall(before, during, after, firstSale < 0 ? -1 : firstSale / 1000.0, longest / 1000.0);
  }

  /** Seats sold per second between two times, by the first and last looks inside them; 0 with fewer than two. */
  private static double rate(List<Timeline.Sample> samples, long from, long to) {
    Timeline.Sample first = null;
    Timeline.Sample last = null;
    for (Timeline.Sample s : samples) {
      if (s.atMillis() < from || s.atMillis() > to) continue;
      if (first == null) first = s;
      last = s;
    }
    if (first == null || last == first) return 0;
    return (last.sold() - first.sold()) * 1000.0 / (last.atMillis() - first.atMillis());
  }

  /** Does a fault and undoes it; each says what it did, for the report. */
  interface Breaker {
    String inject();

    String undo();
  }

  /** The breaker of {@code spec} for this sale. */
  static Breaker breaker(Scenario.FaultSpec spec, Admin admin, String eventId, Sale sale, boolean ownNode) throws java.io.IOException {
    return switch (spec.kind()) {
      case NONE -> throw new IllegalArgumentException("no fault");
      case SLOW_PAYMENTS -> new SlowPayments(admin, sale, spec.paymentDelay().toMillis());
      case PAUSE_ADMISSIONS -> new PauseAdmissions(admin, eventId);
      case KILL_NODE -> {
        if (ownNode) {
          throw new IllegalArgumentException("fault kill-node needs --target of a chaos/cluster (the simulator's own node is the whole sale)");
        }
        yield new KillNode(new io.boxoffice.chaos.ChaosCluster(java.nio.file.Path.of(spec.chaosDir())), spec.node(), eventId);
      }
    };
  }

  /**
   * The payment simulator answers after {@code delayMillis} ({@code PUT /admin/payments/simulator}
   * on every node), and while it does, every fan who pays meets the slow processor (the sale's
   * payment token is tok_slow, whose delay that is); undone: the node's own delay again, and
   * tok_visa.
   */
  static final class SlowPayments implements Breaker {
    private final Admin admin;
    private final Sale sale;
    private final long delayMillis;
    private long before = -1;

    SlowPayments(Admin admin, Sale sale, long delayMillis) {
      this.admin = admin;
      this.sale = sale;
      this.delayMillis = delayMillis;
    }

    @Override
    public String inject() {
      Storefront.Reply now = admin.call("PUT", "/admin/payments/simulator", "{}");
      if (now.status() == 200) before = now.json().path("slowDelayMs").asLong(-1);
      Storefront.Reply r = admin.call("PUT", "/admin/payments/simulator", "{\"slowDelayMs\":" + delayMillis + "}");
      sale.slowPayments(true);
      return "payments answer after " + delayMillis + " ms (was " + before + " ms): " + Shop.describe(r);
    }

    @Override
    public String undo() {
      sale.slowPayments(false);
      if (before < 0) return "payments as before (the node's delay was not known)";
      return "payments fast again (" + before + " ms): "
          + Shop.describe(admin.call("PUT", "/admin/payments/simulator", "{\"slowDelayMs\":" + before + "}"));
    }
  }

  /** {@code POST /admin/events/{id}/onsale/pause}, and {@code .../resume} to undo it. */
  static final class PauseAdmissions implements Breaker {
    private final Admin admin;
    private final String eventId;

    PauseAdmissions(Admin admin, String eventId) {
      this.admin = admin;
      this.eventId = eventId;
    }

    @Override
    public String inject() {
      return "admissions paused: " + Shop.describe(admin.call("POST", "/admin/events/" + eventId + "/onsale/pause", null));
    }

    @Override
    public String undo() {
      return "admissions resumed: " + Shop.describe(admin.call("POST", "/admin/events/" + eventId + "/onsale/resume", null));
    }
  }

  /** chaos/kill-node of the victim (the event's host by default), and chaos/restart-node to undo it. */
  static final class KillNode implements Breaker {
    private final io.boxoffice.chaos.ChaosCluster cluster;
    private final String node;
    private final String eventId;
    private int killed;

    KillNode(io.boxoffice.chaos.ChaosCluster cluster, String node, String eventId) {
      this.cluster = cluster;
      this.node = node;
      this.eventId = eventId;
    }

    @Override
    public String inject() {
      killed = victim(node, () -> cluster.hostOf(eventId, 3));
      if (killed == 0) return "nothing killed: no node said it hosts " + eventId;
      List<String> kill = killScripts(killed).get(0);
      int exit = cluster.script(kill.get(0), kill.subList(1, kill.size()).toArray(String[]::new));
      return String.format(Locale.ROOT, "node %d killed (%s, chaos/kill-node exit %d)", killed,
          node.equals("host") ? "the event's host" : "named", exit);
    }

    @Override
    public String undo() {
      if (killed == 0) return "nothing to restart";
      List<String> restart = killScripts(killed).get(1);
      return "node " + killed + " restarting (chaos/restart-node exit "
          + cluster.script(restart.get(0), restart.subList(1, restart.size()).toArray(String[]::new)) + ")";
    }
  }
}
