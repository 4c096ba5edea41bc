package io.boxoffice.sim;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigResolveOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One simulated on-sale as a scenario file says it (HOCON, {@code sim/scenarios/*.conf}, over
 * {@code io/boxoffice/sim/defaults.conf}): the event, its on-sale, the humans and how they
 * arrive and pay, the bot groups and their strategies, what is measured and what the gate
 * requires. Later scenarios (hot seats, presale, faults, staggered events) add sections here.
 */
record Scenario(String name, String description, long seed, NodeSpec node, EventSpec event, OnSaleSpec onsale,
                HumanSpec humans, List<BotGroup> bots, MeasureSpec measure, GateSpec gate, RunSpec run, HotSeatSpec hotSeats,
                FaultSpec fault, CalibrationSpec calibration, StaggerSpec staggered) {

  /** The scenario as before staggered sales: one event. */
  Scenario(String name, String description, long seed, NodeSpec node, EventSpec event, OnSaleSpec onsale,
           HumanSpec humans, List<BotGroup> bots, MeasureSpec measure, GateSpec gate, RunSpec run, HotSeatSpec hotSeats,
           FaultSpec fault, CalibrationSpec calibration) {
    this(name, description, seed, node, event, onsale, humans, bots, measure, gate, run, hotSeats, fault, calibration,
        new StaggerSpec(1, Duration.ZERO));
  }

  /**
   * Staggered sales (the seed, 9.3): {@code events} events of this scenario's shape on the same
   * node or cluster, each with a crowd of its own (the seed plus its index), the lobby of each
   * opening {@code spacing} after the one before (0: all at once). One event: an ordinary run.
   */
  record StaggerSpec(int events, Duration spacing) {
    boolean any() {
      return events > 1;
    }
  }

  record NodeSpec(String heap, List<String> javaOptions) {}

  record EventSpec(int seats, int holdSeconds, int holdJitterSeconds, int maxSeatsPerAccount) {}

  /**
   * The on-sale's schedule and dials; with {@code presale}, a share {@code registrants} of the
   * humans (and every bot account) register before it, and {@code invitations} of the
   * registrants, sampled by the event, get a code to join with.
   */
  record OnSaleSpec(Duration lobbyOpensIn, Duration lobby, int admissionPerMinute, int maxActiveShoppers, boolean presale,
                    int powBits, double registrants, int invitations) {}

  /** Humans: how many, when they arrive (shares before the start and in the spike; the rest is the tail), how they shop. */
  record HumanSpec(int count, double beforeStart, double spike, Duration spikeWindow, Duration tailWindow, Duration poll,
                   int minQuantity, int maxQuantity, Duration minThink, Duration maxThink, double decline, double slow,
                   Duration minSlowThink, Duration maxSlowThink, double abandon) {}

  /** {@code operators} bot operators that each run {@code strategies} (names of {@link BotStrategy} classes). */
  record BotGroup(int operators, List<String> strategies, int tabs, int accounts, Duration hammerEvery, int quantity) {}

  record MeasureSpec(int firstK, Duration bucket) {}

  /**
   * The gate's thresholds. {@code botShareBaseline} is what bots' share of the first K places is
   * held against: their share of all accounts ({@code accounts}), or of the accounts in the lobby
   * ({@code lobby}) when most of the crowd comes after the start and the first K places are the
   * lobby's (arriving early is open to everyone; within the lobby nobody may be ahead).
   */
  record GateSpec(double botShareMarginPoints, double maxAbsSpearman, String botShareBaseline) {
    GateSpec(double botShareMarginPoints, double maxAbsSpearman) {
      this(botShareMarginPoints, maxAbsSpearman, "accounts");
    }

    boolean againstLobby() {
      return botShareBaseline.equals("lobby");
    }
  }

  /**
   * Hot seats: a {@code share} of the humans want the same best seats, the first {@code rows} rows
   * of zone {@code zone} in seat-map order, and name them in their hold (the first free run of
   * adjacent seats they know of); a refusal ({@code seats_taken}) teaches them which are gone and
   * they try again, {@code attempts} times in all, then take the best available anywhere.
   */
  record HotSeatSpec(double share, String zone, int rows, int attempts) {}

  /**
   * A fault injected while the sale runs (the seed, 9.2): {@code kind} none, slow-payments,
   * pause-admissions or kill-node; {@code atAfterStart} when (null: at the sale's peak, see
   * {@link Fault#atPeak}); {@code lasts} until it is undone (payments fast again, admissions
   * resumed, the node restarted); {@code window} how long after it the report looks at what fans
   * met. slow-payments makes the payment simulator answer after {@code paymentDelay}, and every
   * fan who pays meanwhile meets it; kill-node kills the chaos cluster's node {@code node}
   * ({@code host}: the one hosting the event's inventory) through the scripts in {@code chaosDir}.
   */
  record FaultSpec(Fault.Kind kind, Duration atAfterStart, Duration lasts, Duration window, Duration paymentDelay, String node,
                   String chaosDir) {
    boolean any() {
      return kind != Fault.Kind.NONE;
    }

    FaultSpec withKind(Fault.Kind k, Duration at) {
      return new FaultSpec(k, at, lasts, window, paymentDelay, node, chaosDir);
    }
  }

  /**
   * What the calibration holds the run against: the p99 every fan call must keep, and the demand
   * the manager plans for, as a multiple of the crowd that came ({@code --demand 4x}).
   */
  record CalibrationSpec(Duration p99Target, double demand) {}

  record RunSpec(Duration maxAfterStart, Duration afterSoldOut, int inFlight, int prepareInFlight, Duration callTimeout,
                 int warmUpJoins) {}

  /** The scenario in {@code file}, or the one named so under {@code sim/scenarios/}. */
  static Scenario load(Path file) {
    if (!Files.exists(file)) throw new IllegalArgumentException("no scenario file " + file);
    Config own = ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
    return from(own);
  }

  static Scenario from(Config own) {
    Config c = own.withFallback(ConfigFactory.parseResources(Scenario.class, "defaults.conf"))
        .resolve(ConfigResolveOptions.defaults());
    Config h = c.getConfig("humans");
    Config arrivals = h.getConfig("arrivals");
    List<BotGroup> groups = new ArrayList<>();
    Config botDefaults = c.getConfig("bot-defaults");
    for (Config g : c.getConfigList("bots")) {
      Config b = g.withFallback(botDefaults);
      for (String s : b.getStringList("strategies")) BotStrategy.named(s);
      groups.add(new BotGroup(b.getInt("operators"), b.getStringList("strategies"), b.getInt("tabs"), b.getInt("accounts"),
          b.getDuration("hammer-every"), b.getInt("quantity")));
    }
    Scenario s = new Scenario(c.getString("name"), c.getString("description"), c.getLong("seed"),
        new NodeSpec(c.getString("node.heap"), c.getStringList("node.java-options")),
        new EventSpec(c.getInt("event.seats"), c.getInt("event.hold-seconds"), c.getInt("event.hold-jitter-seconds"),
            c.getInt("event.max-seats-per-account")),
        new OnSaleSpec(c.getDuration("onsale.lobby-opens-in"), c.getDuration("onsale.lobby"), c.getInt("onsale.admission-per-minute"),
            c.getInt("onsale.max-active-shoppers"), c.getBoolean("onsale.presale"), c.getInt("onsale.pow-bits"),
            c.getDouble("onsale.registrants"), c.getInt("onsale.invitations")),
        new HumanSpec(h.getInt("count"), arrivals.getDouble("before-start"), arrivals.getDouble("spike"),
            arrivals.getDuration("spike-window"), arrivals.getDuration("tail-window"), h.getDuration("poll"),
            h.getIntList("quantity").get(0), h.getIntList("quantity").get(1), h.getDurationList("think").get(0),
            h.getDurationList("think").get(1), h.getDouble("decline"), h.getDouble("slow"), h.getDurationList("slow-think").get(0),
            h.getDurationList("slow-think").get(1), h.getDouble("abandon")),
        List.copyOf(groups),
        new MeasureSpec(c.getInt("measure.first-k"), c.getDuration("measure.bucket")),
        new GateSpec(c.getDouble("gate.bot-share-margin-points"), c.getDouble("gate.max-abs-spearman"),
            c.getString("gate.bot-share-baseline")),
        new RunSpec(c.getDuration("run.max-after-start"), c.getDuration("run.after-sold-out"), c.getInt("run.in-flight"),
            c.getInt("run.prepare-in-flight"), c.getDuration("run.call-timeout"), c.getInt("run.warm-up-joins")),
        new HotSeatSpec(h.getDouble("hot-seats.share"), h.getString("hot-seats.zone"), h.getInt("hot-seats.rows"),
            h.getInt("hot-seats.attempts")),
        faultSpec(c.getConfig("fault")),
        new CalibrationSpec(c.getDuration("calibration.p99-target"), c.getDouble("calibration.demand")),
        new StaggerSpec(c.getInt("staggered.events"), c.getDuration("staggered.spacing")));
    s.check();
    return s;
  }

  private static FaultSpec faultSpec(Config f) {
    String at = f.getString("at");
    String node = f.getString("kill-node.node");
    if (!node.equals("host") && !node.matches("[123]")) throw new IllegalArgumentException("fault.kill-node.node: host, 1, 2 or 3");
    return new FaultSpec(Fault.Kind.named(f.getString("kind")), at.equals("peak") ? null : f.getDuration("at"), f.getDuration("for"),
        f.getDuration("window"), f.getDuration("slow-payments.delay"), node, f.getString("kill-node.chaos-dir"));
  }

  private void check() {
    if (humans.beforeStart() < 0 || humans.spike() < 0 || humans.beforeStart() + humans.spike() > 1) {
      throw new IllegalArgumentException("humans.arrivals: before-start and spike are shares that add up to 1 at most");
    }
    if (humans.minQuantity() < 1 || humans.maxQuantity() < humans.minQuantity()) throw new IllegalArgumentException("humans.quantity: [min, max], min >= 1");
    if (event.seats() < 3) throw new IllegalArgumentException("event.seats: 3 at least");
    if (measure.firstK() < 1) throw new IllegalArgumentException("measure.first-k: 1 at least");
    if (!gate.botShareBaseline().equals("accounts") && !gate.againstLobby()) {
      throw new IllegalArgumentException("gate.bot-share-baseline: accounts or lobby");
    }
    if (hotSeats.share() < 0 || hotSeats.share() > 1 || hotSeats.rows() < 1 || hotSeats.attempts() < 1) {
      throw new IllegalArgumentException("humans.hot-seats: share 0-1, rows and attempts >= 1");
    }
    if (fault.lasts().isNegative() || fault.lasts().isZero() || fault.window().isNegative()
        || fault.atAfterStart() != null && fault.atAfterStart().isNegative()) {
      throw new IllegalArgumentException("fault: at >= 0 (or peak), for > 0, window >= 0");
    }
    if (onsale.registrants() < 0 || onsale.registrants() > 1 || onsale.invitations() < 0 || onsale.powBits() < 0 || onsale.powBits() > 24) {
      throw new IllegalArgumentException("onsale: registrants 0-1, invitations >= 0, pow-bits 0-24");
    }
    if (calibration.demand() < 1) throw new IllegalArgumentException("calibration.demand: 1 (the crowd that came) or more");
    if (staggered.events() < 1 || staggered.events() > 10 || staggered.spacing().isNegative()) {
      throw new IllegalArgumentException("staggered: events 1-10, spacing >= 0");
    }
    if (staggered.any() && staggered.spacing().toMillis() % measure.bucket().toMillis() != 0) {
      throw new IllegalArgumentException("staggered.spacing: a whole number of measure.bucket (the events' buckets line up)");
    }
    if (staggered.any() && (fault.any() || onsale.presale())) {
      throw new IllegalArgumentException("staggered: without a fault or a presale (each is rehearsed on one event)");
    }
    for (BotGroup g : bots) {
      if (g.operators() < 0 || g.tabs() < 1 || g.accounts() < 1 || g.quantity() < 1) {
        throw new IllegalArgumentException("bots: operators >= 0, tabs, accounts and quantity >= 1");
      }
    }
  }

  Scenario withFault(FaultSpec f) {
    return new Scenario(name, description, seed, node, event, onsale, humans, bots, measure, gate, run, hotSeats, f, calibration,
        staggered);
  }

  Scenario withDemand(double demand) {
    if (demand < 1) throw new IllegalArgumentException("--demand: 1x (the crowd that came) or more");
    return new Scenario(name, description, seed, node, event, onsale, humans, bots, measure, gate, run, hotSeats, fault,
        new CalibrationSpec(calibration.p99Target(), demand), staggered);
  }

  /** Event {@code index} of a staggered run: this scenario with its own seed (its own crowd), as one event. */
  Scenario event(int index) {
    return new Scenario(name, description, seed + index, node, event, onsale, humans, bots, measure, gate, run, hotSeats, fault,
        calibration, new StaggerSpec(1, Duration.ZERO));
  }

  int botOperators() {
    return bots.stream().mapToInt(BotGroup::operators).sum();
  }
}
