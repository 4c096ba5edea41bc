package io.boxoffice.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.load.Admin;
import io.boxoffice.load.Storefront;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code sim/run}: an on-sale rehearsed through the real HTTP API. A seeded crowd of humans and
 * bot operators (a scenario file) signs up, waits for the lobby, joins at its own times, follows
 * the waiting-room page's pace, shops and pays, against a node this program starts (embedded
 * database) or a running cluster ({@code --target}). Afterwards: the fairness, honesty, latency
 * and safety figures, a gate over them, and a report (HTML with plots, JSON, a text summary)
 * under {@code target/sim/<scenario>-<time>/}. Exit status: 0 the gate held, 1 it did not, 2 the
 * run could not be carried out.
 */
public final class Simulator {

  /** What the command line asks for. */
  record Options(Path scenario, Long seed, Integer humans, String target, String adminToken, Path out, Path jar, Path root,
                 String fault, Double demand, String edge, String originMetrics) {
    static Options parse(String[] args) {
      Path scenario = null;
      Long seed = null;
      Integer humans = null;
      String target = null;
      String token = null;
      Path out = null;
      Path jar = null;
      Path root = Path.of("").toAbsolutePath();
      String fault = null;
      Double demand = null;
      String edge = null;
      String originMetrics = null;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--seed" -> seed = Long.parseLong(args[++i]);
          case "--humans" -> humans = Integer.parseInt(args[++i]);
          case "--target" -> target = args[++i].replaceAll("/+$", "");
          case "--admin-token" -> token = args[++i];
          case "--out" -> out = Path.of(args[++i]);
          case "--jar" -> jar = Path.of(args[++i]);
          case "--fault" -> fault = args[++i];
          case "--demand" -> demand = Double.parseDouble(args[++i].replaceAll("[xX]$", ""));
          case "--edge" -> edge = args[++i].replaceAll("/+$", "");
          case "--origin-metrics" -> originMetrics = args[++i];
          default -> {
            if (a.startsWith("-")) throw new IllegalArgumentException("unknown option " + a);
            if (scenario != null) throw new IllegalArgumentException("one scenario at a time");
            scenario = a.endsWith(".conf") || a.contains("/") ? Path.of(a) : root.resolve("sim/scenarios/" + a + ".conf");
          }
        }
      }
      if (scenario == null) throw new IllegalArgumentException("name a scenario (see sim/scenarios/)");
      if (target != null && token == null) throw new IllegalArgumentException("--target needs --admin-token");
      if (edge != null && !edge.equals("local") && target == null) {
        throw new IllegalArgumentException("--edge URL drives a worker in front of --target; --edge local starts one in front of the"
            + " simulator's own node");
      }
      if (edge != null && edge.equals("local") && target != null) {
        throw new IllegalArgumentException("--edge local starts the worker in front of the simulator's own node: with --target, name"
            + " the worker's URL");
      }
      return new Options(scenario, seed, humans, target, token, out, jar == null ? root.resolve("server/target/boxoffice.jar") : jar,
          root, fault, demand, edge, originMetrics);
    }
  }

  /** What a run found: the gate's checks, and where its report is. */
  record Result(List<Gate.Check> checks, Path dir, Measures.Fairness fairness, Gate.Safety safety) {
    boolean passed() {
      return Gate.passed(checks);
    }
  }

  public static void main(String[] args) {
    if (args.length == 0 || List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.print(usage());
      System.exit(args.length == 0 ? 2 : 0);
    }
    int code;
    try {
      Result r = run(Options.parse(args));
      code = r.passed() ? 0 : 1;
    } catch (IllegalArgumentException e) {
      System.err.println("sim: " + e.getMessage());
      code = 2;
    } catch (Exception e) {
      System.err.println("sim: the run could not be carried out: " + e);
      e.printStackTrace();
      code = 2;
    }
    System.exit(code);
  }

  static String usage() {
    return """
        usage: sim/run SCENARIO [--seed N] [--humans N] [--target URL --admin-token T] [--out DIR]
                           [--fault KIND[@AT]] [--demand Nx]

          SCENARIO   a name under sim/scenarios/ (smoke, seed-section-8, spike, hot-seats, presale,
                     sybil, proof-of-work, stadium, staggered, staggered-at-once) or a .conf file
          --seed N   the crowd's seed (default: the scenario's); the same seed makes the same crowd
          --humans N that many humans instead of the scenario's count
          --target URL --admin-token T
                     drive a running node or cluster instead of starting one; its X-Forwarded-For
                     is trusted only from its boxoffice.edge.trusted-proxies (loopback by default):
                     from elsewhere every simulated fan shares this machine's network prefix and
                     its rate limits, so run it beside the node or add this host as a proxy
          --out DIR  where the report goes (default target/sim/<scenario>-<time>/)
          --jar FILE the node to start (default server/target/boxoffice.jar)
          --fault KIND[@AT]
                     break something at the sale's peak (or AT after the start, e.g. @20s) and
                     undo it after fault.for: slow-payments, pause-admissions, or kill-node
                     (with --target of a chaos/cluster: the node hosting the event, through
                     chaos/kill-node and chaos/restart-node); the report shows what fans met
          --demand N the demand the calibration plans for, as N times the crowd (4x)
          --edge local | --edge URL [--origin-metrics URL]
                     the crowd goes through the CDN edge worker (edge-worker/): local starts it
                     under workerd in front of the simulator's own node, with that node's keys; a
                     URL names one already in front of --target (whose /metrics on its management
                     port --origin-metrics names). Each tab then sends its network as
                     CF-Connecting-IP, loads the page once and reads the manifest through the edge;
                     the report adds what reached the origin by kind, origin requests per waiting
                     fan per minute and the share of the waiting pages' requests served at the edge

        Without --target, starts server/target/boxoffice.jar on the embedded H2 in a fresh data
        directory on free ports, with account creation made cheap for the crowd's sign-up (on that
        node only). Writes report.html (plots), report.json (every figure), summary.txt and
        node.log; prints a progress line while it runs and the summary at the end. Exit status:
        0 the gate held, 1 it did not, 2 the run could not be carried out.
        A scenario with staggered { events, spacing } runs that many events starting spacing
        apart, writes each event's report under e1/, e2/... and staggered.html/.json/.txt.
        The simulator's JVM has -Xmx1g; SIM_JAVA_OPTS=-Xmx3g (say) gives it more.

        Bot strategies (a scenario's bots = [{operators, strategies, tabs, accounts, ...}]):
          many-tabs          many tabs (sessions) per account, each joining
          sybils             many accounts per operator, each from its own network
          earliest-join      joins from a second before the lobby opens, every 250 ms
          hammer             hammers join and status every hammer-every
          share-token        an admitted token used by another account and from another network
          no-token           hold and checkout without a queue token, and with a forged one
          hold-max-never-pay holds the most seats it may and never pays
          proof-of-work      solves each join's proof of work with every core (pages use one)
        """;
  }

  static Result run(Options o) throws Exception {
    Scenario scenario = Scenario.load(o.scenario());
    if (o.seed() != null || o.humans() != null) scenario = override(scenario, o.seed(), o.humans());
    if (o.fault() != null) scenario = scenario.withFault(faultOption(scenario.fault(), o.fault()));
    if (o.demand() != null) scenario = scenario.withDemand(o.demand());
    if (scenario.fault().kind() == Fault.Kind.KILL_NODE && o.target() == null) {
      throw new IllegalArgumentException("fault kill-node needs --target of a chaos/cluster (the simulator's own node is the whole sale)");
    }
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path dir = o.out() != null ? o.out() : o.root().resolve("target/sim/" + scenario.name() + "-" + stamp);
    Files.createDirectories(dir);
    say("scenario " + scenario.name() + " (seed " + scenario.seed() + "): " + scenario.humans().count() + " humans, "
        + scenario.botOperators() + " bot operators; report in " + dir);
    SimNode node = null;
    EdgeFront edge = null;
    try {
      String base;
      String token;
      if (o.target() == null) {
        say("starting a node of " + o.jar() + " (embedded H2, cheap sign-up for the crowd)");
        node = SimNode.start(o.jar(), dir, scenario.node().heap(), scenario.node().javaOptions(), Duration.ofMinutes(3));
        base = node.baseUrl;
        token = node.adminToken;
        say("node serves at " + base);
      } else {
        base = o.target();
        token = o.adminToken();
      }
      if (o.edge() != null) {
        if (o.edge().equals("local")) {
          say("starting the edge worker (edge-worker/, under workerd) in front of the node");
          edge = EdgeFront.local(o.root(), base, node.keysFile, node.metricsUrl, dir.resolve("edge.log"));
        } else {
          edge = EdgeFront.running(o.edge(), o.originMetrics());
        }
        say("the crowd goes through the edge at " + edge.url);
      }
      return new Simulator(scenario, dir, base, token, stamp, node != null, edge).simulate();
    } finally {
      if (edge != null) edge.close();
      if (node != null) node.close();
    }
  }

  /** {@code --fault KIND[@AT]}: AT is {@code peak} or a time after the start (20s); without it, the scenario's. */
  static Scenario.FaultSpec faultOption(Scenario.FaultSpec spec, String option) {
    String[] parts = option.split("@", 2);
    Fault.Kind kind = Fault.Kind.named(parts[0]);
    if (parts.length == 1) return spec.withKind(kind, spec.atAfterStart());
    if (parts[1].equals("peak")) return spec.withKind(kind, null);
    Duration at = com.typesafe.config.ConfigFactory.parseString("at = " + parts[1]).getDuration("at");
    if (at.isNegative()) throw new IllegalArgumentException("--fault KIND@AT: AT is peak or a time after the start");
    return spec.withKind(kind, at);
  }

  private static Scenario override(Scenario s, Long seed, Integer humans) {
    Scenario.HumanSpec h = s.humans();
    Scenario.HumanSpec nh = humans == null ? h : new Scenario.HumanSpec(humans, h.beforeStart(), h.spike(), h.spikeWindow(),
        h.tailWindow(), h.poll(), h.minQuantity(), h.maxQuantity(), h.minThink(), h.maxThink(), h.decline(), h.slow(),
        h.minSlowThink(), h.maxSlowThink(), h.abandon());
    return new Scenario(s.name(), s.description(), seed == null ? s.seed() : seed, s.node(), s.event(), s.onsale(), nh, s.bots(),
        s.measure(), s.gate(), s.run(), s.hotSeats(), s.fault(), s.calibration(), s.staggered());
  }

  // ---- one run ----------------------------------------------------------------------------

  private final Scenario scenario;
  private final Path dir;
  private final String base;
  private final String adminToken;
  private final String runTag;
  private final String eventId;
  /** The edge worker the crowd goes through, or null: straight to the origin. */
  private final EdgeFront edge;
  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, daemon("sim-timer"));
  private final ExecutorService httpThreads = Executors.newFixedThreadPool(3, daemon("sim-http"));
  private final Timeline timeline = new Timeline();
  private final boolean ownNode;
  private final ExecutorService faultThread = Executors.newSingleThreadExecutor(daemon("sim-fault"));
  private Fault.Breaker breaker;
  private final List<String> faultLog = new java.util.concurrent.CopyOnWriteArrayList<>();
  private long faultAt = -1;
  private long faultUndoneAt = -1;

  private Simulator(Scenario scenario, Path dir, String base, String adminToken, String stamp, boolean ownNode, EdgeFront edge) {
    this.ownNode = ownNode;
    this.edge = edge;
    this.scenario = scenario;
    this.dir = dir;
    this.base = base;
    this.adminToken = adminToken;
    this.runTag = stamp.substring(4).replace("-", "") + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
    this.eventId = "sim-" + scenario.name().replaceAll("[^A-Za-z0-9_-]", "") + "-" + runTag;
  }

  /** The crowd's transport to the node: HTTP/1.1 connections of its own, on the simulator's HTTP threads. */
  private Storefront crowdStore() {
    return new Storefront(List.of(edge == null ? base : edge.url), HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).executor(httpThreads).build(), edge != null);
  }

  /** The event manager's calls, apart from the crowd's connections. */
  private Admin admin() {
    return new Admin(new Storefront(List.of(base), HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()),
        adminToken);
  }

  private Result simulate() throws Exception {
    if (scenario.staggered().any()) return simulateStaggered();
    long began = System.currentTimeMillis();
    Storefront store = crowdStore();
    Admin admin = admin();
    Scenario.EventSpec e = scenario.event();
    admin.createVenueAndEvent(new Admin.EventSpec(eventId, "v-" + eventId, "Simulated " + scenario.name(), e.seats(), e.holdSeconds(),
        e.holdJitterSeconds(), e.maxSeatsPerAccount()));
    Crowd crowd = Crowd.of(scenario, runTag);
    say("event " + eventId + ": " + e.seats() + " seats; " + crowd.accounts.size() + " accounts, " + crowd.tabs()
        + " tabs sign up and in (before the sale, not timed against it)");
    Traffic prepare = new Traffic(store, eventId, scenario.run().prepareInFlight(), scenario.run().callTimeout(), scenario.measure().bucket(),
        scheduler);
    long prepared = signUpAndIn(crowd, prepare);
    say("crowd signed in after " + seconds(System.currentTimeMillis() - began) + " (" + prepared + " tabs without a session)");
    warmUp(crowd, admin, prepare);
    warmConnections(crowd, store);
    if (scenario.onsale().presale()) presale(crowd, admin, prepare);

    long lobbyOpensAt = System.currentTimeMillis() + scenario.onsale().lobbyOpensIn().toMillis();
    long startsAt = lobbyOpensAt + scenario.onsale().lobby().toMillis();
    Scenario.OnSaleSpec os = scenario.onsale();
    admin.scheduleOnSale(eventId, new Admin.OnSale(Instant.ofEpochMilli(lobbyOpensAt), Instant.ofEpochMilli(startsAt),
        os.admissionPerMinute(), os.maxActiveShoppers(), os.presale(), os.powBits()));
    say("lobby opens at " + Instant.ofEpochMilli(lobbyOpensAt) + ", the sale starts at " + Instant.ofEpochMilli(startsAt));
    Traffic traffic = new Traffic(store, eventId, scenario.run().inFlight(), scenario.run().callTimeout(), scenario.measure().bucket(),
        scheduler);
    traffic.origin(startsAt);
    Sale sale = new Sale(scenario, eventId, traffic, lobbyOpensAt);
    sale.throughEdge = edge != null;
    // A page solves on one core; two pages at once leave the node its share of this machine.
    if (os.powBits() > 0) sale.puzzles = new Puzzles(2);
    if (scenario.fault().any()) breaker = Fault.breaker(scenario.fault(), admin, eventId, sale, ownNode);
    if (edge != null) edge.markBefore();
    schedule(crowd, sale);

    long soldOutAt;
    try {
      soldOutAt = watch(sale, crowd, admin, traffic);
    } finally {
      if (faultAt >= 0 && faultUndoneAt < 0) undoFault(traffic, System.currentTimeMillis());
      faultThread.shutdown();
      faultThread.awaitTermination(2, TimeUnit.MINUTES);
    }
    sale.end();
    traffic.close();
    say("the run ends: letting calls in flight finish");
    long drainUntil = System.currentTimeMillis() + scenario.run().callTimeout().toMillis() + 2000;
    while (System.currentTimeMillis() < drainUntil && traffic.inFlight() > 0) TimeUnit.MILLISECONDS.sleep(200);
    JsonNode finalStats = admin.stats(eventId);
    if (finalStats != null) timeline.add(System.currentTimeMillis(), finalStats, 0, 0, traffic.sent.sum());
    scheduler.shutdownNow();
    if (sale.puzzles != null) sale.puzzles.close();

    Fault.Happened fault = faultAt < 0 ? null
        : new Fault.Happened(scenario.fault(), faultAt, faultUndoneAt, List.copyOf(faultLog));
    Report report = new Report(sale, crowd, timeline, prepare, finalStats, soldOutAt, System.currentTimeMillis() - began, fault);
    Result result = report.write(dir);
    System.out.print(report.summary());
    if (edge != null) edgeFigures(sale, crowd, System.currentTimeMillis());
    httpThreads.shutdownNow();
    return result;
  }

  /**
   * What reached the origin through the edge (sim/run --edge): written to edge.json, added to
   * summary.txt and printed. A tab waits from its join until its page said "admitted" (or it was
   * done, or the run ended).
   */
  private void edgeFigures(Sale sale, Crowd crowd, long endedAt) throws IOException {
    double waitingMillis = 0;
    for (Human h : crowd.humans) {
      long joined = h.tab.account.firstJoinAt;
      if (joined == 0) continue;
      long until = h.tab.admittedSeenAt > 0 ? h.tab.admittedSeenAt : h.tab.doneAt > 0 ? h.tab.doneAt : endedAt;
      waitingMillis += Math.max(0, until - joined);
    }
    Map<String, Long> sent = new java.util.TreeMap<>();
    sale.traffic.answers().forEach((phase, byAnswer) -> sent.put(phase, byAnswer.values().stream().mapToLong(Long::longValue).sum()));
    Map<String, Object> figures = EdgeFront.figures(edge.originRequestsSince(), sent, sale.observed.statusesAdmitted.sum(),
        waitingMillis / 60_000.0);
    String text = EdgeFront.summary(figures);
    Files.writeString(dir.resolve("edge.json"), new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
        .writeValueAsString(figures));
    Files.writeString(dir.resolve("summary.txt"), text, java.nio.file.StandardOpenOption.APPEND);
    System.out.print(text);
  }

  // ---- staggered sales (the seed, 9.3) ------------------------------------------------------

  /** One event of a staggered run: its own scenario (seed), crowd, sale, traffic and looks. */
  private static final class Staged {
    final String label;
    final String eventId;
    final Scenario scenario;
    final Crowd crowd;
    final Timeline timeline = new Timeline();
    Sale sale;
    long soldOutAt = -1;
    JsonNode finalStats;

    Staged(String label, String eventId, Scenario scenario, Crowd crowd) {
      this.label = label;
      this.eventId = eventId;
      this.scenario = scenario;
      this.crowd = crowd;
    }
  }

  /**
   * Staggered sales: {@code staggered.events} events of the scenario's shape on the node, each
   * with its own crowd, the lobby of each opening {@code staggered.spacing} after the one before.
   * The crowds sign up together; then every sale runs as a single run's does, each through its
   * own {@link Traffic} (so each event's latency is its own), watched together until every one
   * sold out (and a while after) or the longest run after the last start. Each event gets its own
   * report under {@code e1/}, {@code e2/}...; {@link StaggerReport} says how each disturbed the
   * others and what spacing keeps every one within its p99 target.
   */
  private Result simulateStaggered() throws Exception {
    long began = System.currentTimeMillis();
    Storefront store = crowdStore();
    Admin admin = admin();
    Scenario.EventSpec e = scenario.event();
    int n = scenario.staggered().events();
    long spacing = scenario.staggered().spacing().toMillis();
    List<Staged> events = new ArrayList<>();
    Crowd everyone = new Crowd();
    for (int i = 0; i < n; i++) {
      String label = "e" + (i + 1);
      String id = eventId + "-" + label;
      Scenario own = scenario.event(i);
      admin.createVenueAndEvent(new Admin.EventSpec(id, "v-" + id, "Simulated " + scenario.name() + " " + label, e.seats(),
          e.holdSeconds(), e.holdJitterSeconds(), e.maxSeatsPerAccount()));
      Crowd crowd = Crowd.of(own, runTag + label);
      events.add(new Staged(label, id, own, crowd));
      everyone.accounts.addAll(crowd.accounts);
      everyone.humans.addAll(crowd.humans);
    }
    say(String.format(Locale.ROOT, "%d events of %,d seats, starting %s apart; %,d accounts, %,d tabs sign up and in (before the sales,"
        + " not timed against them)", n, e.seats(), seconds(spacing), everyone.accounts.size(), everyone.tabs()));
    Traffic prepare = new Traffic(store, eventId, scenario.run().prepareInFlight(), scenario.run().callTimeout(), scenario.measure().bucket(),
        scheduler);
    long prepared = signUpAndIn(everyone, prepare);
    say("crowds signed in after " + seconds(System.currentTimeMillis() - began) + " (" + prepared + " tabs without a session)");
    warmUp(events.get(0).crowd, admin, prepare);
    warmConnections(everyone, store);

    Scenario.OnSaleSpec os = scenario.onsale();
    long firstLobby = System.currentTimeMillis() + os.lobbyOpensIn().toMillis();
    for (int i = 0; i < n; i++) {
      Staged s = events.get(i);
      long lobbyOpensAt = firstLobby + i * spacing;
      long startsAt = lobbyOpensAt + os.lobby().toMillis();
      admin.scheduleOnSale(s.eventId, new Admin.OnSale(Instant.ofEpochMilli(lobbyOpensAt), Instant.ofEpochMilli(startsAt),
          os.admissionPerMinute(), os.maxActiveShoppers(), false, os.powBits()));
      Traffic traffic = new Traffic(store, s.eventId, scenario.run().inFlight(), scenario.run().callTimeout(), scenario.measure().bucket(),
          scheduler);
      traffic.origin(startsAt);
      s.sale = new Sale(s.scenario, s.eventId, traffic, lobbyOpensAt);
      s.sale.throughEdge = edge != null;
      if (os.powBits() > 0) s.sale.puzzles = new Puzzles(2);
      schedule(s.crowd, s.sale);
      say(s.label + " " + s.eventId + ": lobby opens at " + Instant.ofEpochMilli(lobbyOpensAt) + ", the sale starts at "
          + Instant.ofEpochMilli(startsAt));
    }
    watchAll(events, admin);
    for (Staged s : events) {
      s.sale.end();
      s.sale.traffic.close();
    }
    say("the run ends: letting calls in flight finish");
    long drainUntil = System.currentTimeMillis() + scenario.run().callTimeout().toMillis() + 2000;
    while (System.currentTimeMillis() < drainUntil && events.stream().anyMatch(s -> s.sale.traffic.inFlight() > 0)) {
      TimeUnit.MILLISECONDS.sleep(200);
    }
    for (Staged s : events) {
      s.finalStats = admin.stats(s.eventId);
      if (s.finalStats != null) s.timeline.add(System.currentTimeMillis(), s.finalStats, 0, 0, s.sale.traffic.sent.sum());
    }
    scheduler.shutdownNow();
    for (Staged s : events) if (s.sale.puzzles != null) s.sale.puzzles.close();

    long took = System.currentTimeMillis() - began;
    List<StaggerReport.Event> reported = new ArrayList<>();
    List<Gate.Check> checks = new ArrayList<>();
    Result first = null;
    for (Staged s : events) {
      Report report = new Report(s.sale, s.crowd, s.timeline, prepare, s.finalStats, s.soldOutAt, took, null);
      Path own = Files.createDirectories(dir.resolve(s.label));
      Result r = report.write(own);
      if (first == null) first = r;
      for (Gate.Check c : r.checks()) checks.add(new Gate.Check(s.label + ": " + c.name(), c.value(), c.passed()));
      reported.add(new StaggerReport.Event(s.label, s.eventId, s.sale.startsAt, s.soldOutAt, s.timeline.allTakenAt(), r.safety(),
          Gate.passed(r.checks()), s.sale.traffic.latencyByBucket(), s.sale.traffic.answers(), s.sale.observed.outcomes()));
    }
    StaggerReport staggered = new StaggerReport(scenario, reported, spacing, took);
    staggered.write(dir);
    System.out.print(staggered.summary());
    httpThreads.shutdownNow();
    return new Result(List.copyOf(checks), dir, first.fairness(), first.safety());
  }

  /**
   * As {@link #watch} for every event of a staggered run: looks at each about once a second
   * until every one sold out (and {@code run.after-sold-out} after the last), the longest run
   * after the last start, or nobody is left to act in any; a progress line every 5 s.
   */
  private void watchAll(List<Staged> events, Admin admin) throws InterruptedException {
    Staged last = events.get(events.size() - 1);
    long end = last.sale.startsAt + scenario.run().maxAfterStart().toMillis();
    long lastArrival = last.sale.startsAt + scenario.humans().spikeWindow().toMillis() + scenario.humans().tailWindow().toMillis();
    long lastSay = 0;
    while (System.currentTimeMillis() < end) {
      long now = System.currentTimeMillis();
      long activeAll = 0;
      StringBuilder progress = new StringBuilder();
      for (Staged s : events) {
        JsonNode stats = admin.stats(s.eventId);
        long waiting = 0;
        long shopping = 0;
        for (Account a : s.crowd.accounts) {
          for (Tab t : a.tabs) {
            if (t.waiting()) waiting++;
            if (t.admitted.get() && !t.done.get()) shopping++;
            if (!t.done.get() && t.identity != null && a.joins) activeAll++;
          }
        }
        if (stats != null) {
          s.timeline.add(now, stats, waiting, shopping, s.sale.traffic.sent.sum());
          if (s.soldOutAt < 0 && stats.path("state").asText().equals("sold_out") && now > s.sale.startsAt) {
            s.soldOutAt = now;
            say(s.label + " sold out at t=" + seconds(now - s.sale.startsAt) + " after its start");
          }
        }
        Timeline.Sample x = s.timeline.last();
        progress.append(String.format(Locale.ROOT, " | %s t=%+d s lobby %,d adm %,d sold %,d held %,d 5xx %,d", s.label,
            (now - s.sale.startsAt) / 1000, x == null ? 0 : x.lobby(), x == null ? 0 : x.admittedUpTo(), x == null ? 0 : x.sold(),
            x == null ? 0 : x.held(), s.sale.traffic.fiveXx()));
      }
      if (events.stream().allMatch(s -> s.soldOutAt >= 0)) {
        long lastSoldOut = events.stream().mapToLong(s -> s.soldOutAt).max().orElse(now);
        end = Math.min(end, lastSoldOut + scenario.run().afterSoldOut().toMillis());
      }
      if (now > lastArrival && activeAll == 0) {
        say("nobody is left waiting or shopping");
        break;
      }
      if (now - lastSay >= 5000) {
        lastSay = now;
        say(progress.substring(3));
      }
      TimeUnit.MILLISECONDS.sleep(Math.max(50, 1000 - (System.currentTimeMillis() - now)));
    }
  }

  /** Every account signs up and every tab signs in; returns how many tabs have no session after all. */
  private long signUpAndIn(Crowd crowd, Traffic t) throws InterruptedException {
    List<CompletableFuture<Void>> all = new ArrayList<>();
    AtomicInteger signedUp = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    for (Account a : crowd.accounts) {
      Tab first = a.tabs.get(0);
      String credentials = "{\"email\":\"" + a.email + "\",\"password\":\"correct horse battery\"}";
      CompletableFuture<Void> f = t.retrying("sign-up", first, "POST", "/api/accounts", credentials, Map.of(), 20)
          .thenCompose(r -> {
            signedUp.incrementAndGet();
            List<CompletableFuture<Void>> tabs = new ArrayList<>();
            if (r.status() == 201 || r.status() == 409) {
              for (Tab tab : a.tabs) {
                tabs.add(t.retrying("sign-in", tab, "POST", "/api/session", credentials, Map.of(), 20).thenAccept(s -> {
                  if (s.status() != 200) return;
                  tab.identity = s.setCookie("bo_id").orElse(null);
                  a.accountId = s.json().path("accountId").asText(null);
                }));
              }
            }
            return CompletableFuture.allOf(tabs.toArray(CompletableFuture[]::new));
          })
          .whenComplete((v, e) -> done.incrementAndGet());
      all.add(f);
    }
    CompletableFuture<Void> every = CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    while (!every.isDone()) {
      try {
        every.get(5, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        say(String.format(Locale.ROOT, "signing up: %,d of %,d accounts signed up, %,d with every tab signed in", signedUp.get(),
            crowd.accounts.size(), done.get()));
      } catch (java.util.concurrent.ExecutionException e) {
        break;
      }
    }
    return crowd.accounts.stream().flatMap(a -> a.tabs.stream()).filter(tab -> tab.identity == null).count();
  }

  /**
   * A small event whose lobby opens now: the first humans join it and read their status (at the
   * set-up's pace), so that the queue's shards and code paths are warm when the sale's lobby opens.
   */
  private void warmUp(Crowd crowd, Admin admin, Traffic t) throws InterruptedException {
    int joins = Math.min(scenario.run().warmUpJoins(), crowd.humans.size());
    if (joins <= 0) return;
    long began = System.currentTimeMillis();
    String warm = eventId + "-w";
    admin.createVenueAndEvent(new Admin.EventSpec(warm, "v-" + warm, "Warm-up", 10, 30, 0, 2));
    admin.scheduleOnSale(warm, new Admin.OnSale(Instant.ofEpochMilli(began), Instant.ofEpochMilli(began + 3_600_000L), 60, 10,
        false, 0));
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (Human h : crowd.humans.subList(0, joins)) {
      Tab tab = h.tab;
      Map<String, String> headers = Tab.headersOf(warm, tab.identity, null, tab.forwardedFor);
      all.add(t.call("warm-up join", tab, "POST", "/api/events/" + warm + "/queue", "{}", headers).thenCompose(r -> {
        Map<String, String> withToken = Tab.headersOf(warm, tab.identity, r.setCookie("bo_q_" + warm).orElse(null), tab.forwardedFor);
        return t.call("warm-up status", tab, "GET", "/api/events/" + warm + "/queue/status", null, withToken);
      }));
    }
    try {
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(3, TimeUnit.MINUTES);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      say("the warm-up did not finish: " + e);
    }
    say("warm-up: " + joins + " joins to another event's lobby in " + seconds(System.currentTimeMillis() - began));
  }

  /**
   * A presale before the sale: the on-sale is scheduled an hour away (a presale event takes
   * registrations), a seeded share of the humans and every bot account register, the event
   * samples its invitations among the registrants, and each invited account keeps its code.
   */
  private void presale(Crowd crowd, Admin admin, Traffic t) throws InterruptedException {
    long began = System.currentTimeMillis();
    Scenario.OnSaleSpec os = scenario.onsale();
    admin.scheduleOnSale(eventId, new Admin.OnSale(Instant.ofEpochMilli(began + 3_600_000L), Instant.ofEpochMilli(began + 7_200_000L),
        os.admissionPerMinute(), os.maxActiveShoppers(), true, os.powBits()));
    java.util.SplittableRandom r = new java.util.SplittableRandom(scenario.seed() ^ 0x9e3779b97f4a7c15L);
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (Account a : crowd.accounts) {
      boolean registers = a.bot ? a.joins : r.nextDouble() < os.registrants();
      Tab tab = a.tabs.get(0);
      if (!registers || tab.identity == null) continue;
      all.add(t.retrying("presale registration", tab, "POST", "/api/events/" + eventId + "/presale/registrations", "{}", Map.of(), 10)
          .thenAccept(reply -> a.registered = reply.status() == 201 || reply.status() == 200 || reply.status() == 409));
    }
    try {
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      say("the presale registrations did not finish: " + e);
    }
    Map<String, Account> byId = new java.util.HashMap<>();
    for (Account a : crowd.accounts) if (a.accountId != null) byId.put(a.accountId, a);
    Storefront.Reply invited = admin.call("POST", "/admin/events/" + eventId + "/presale/invitations",
        "{\"count\":" + Math.max(1, os.invitations()) + "}");
    if (invited.status() != 200) throw new IllegalStateException("presale invitations: " + invited);
    int codes = 0;
    for (com.fasterxml.jackson.databind.JsonNode i : invited.json().path("invitations")) {
      Account a = byId.get(i.path("accountId").asText());
      if (a == null) continue;
      a.presaleCode = i.path("code").asText();
      codes++;
    }
    say(String.format(Locale.ROOT, "presale: %,d accounts registered, %,d invited, in %s", crowd.accounts.stream().filter(a -> a.registered)
        .count(), codes, seconds(System.currentTimeMillis() - began)));
  }

  /**
   * Opens the crowd's {@code run.in-flight} connections before the sale (as many reads of the
   * warm-up event's manifest at once), so that the sale's first burst does not also open them
   * all at once. The simulator's connections are its own transport, shared by every simulated
   * fan; a cold pool put the opening of hundreds of connections into the spike's join latency (its
   * p99 over a second in the first seconds) and some joins past the connect timeout.
   */
  private void warmConnections(Crowd crowd, Storefront store) throws InterruptedException {
    if (scenario.run().warmUpJoins() <= 0 || crowd.humans.isEmpty()) return;
    int n = scenario.run().inFlight();
    Traffic open = new Traffic(store, eventId + "-w", n, scenario.run().callTimeout(), scenario.measure().bucket(), scheduler);
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Tab tab = crowd.humans.get(i % crowd.humans.size()).tab;
      if (tab.identity == null) continue;
      all.add(open.call("connection warm-up", tab, "GET", "/api/events/" + eventId + "-w/queue/manifest", null,
          Map.of("Cookie", "bo_id=" + tab.identity)));
    }
    try {
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      say("the connection warm-up did not finish: " + e);
    }
    say("warm-up: " + all.size() + " connections opened, answers " + open.answers());
  }

  /** Every human and every bot tab arrives at its time (tabs of a bot within 50 ms of each other). */
  private void schedule(Crowd crowd, Sale sale) {
    long now = System.currentTimeMillis();
    for (Human h : crowd.humans) {
      if (h.tab.identity == null) continue;
      scheduler.schedule(() -> h.arrive(sale), sale.startsAt + h.plan.arrivalOffsetMillis() - now, TimeUnit.MILLISECONDS);
    }
    for (BotOperator op : crowd.operators) {
      long jitterSeed = op.id * 7919L;
      for (Account a : op.accounts) {
        for (Tab tab : a.tabs) {
          if (tab.identity == null) continue;
          long jitter = Math.floorMod(jitterSeed++ * 31 + tab.index * 17L, 50);
          scheduler.schedule(() -> op.arrive(sale, tab), sale.startsAt + op.arrivalOffsetMillis + jitter - now, TimeUnit.MILLISECONDS);
        }
      }
    }
  }

  /**
   * Looks at the event about once a second until the run ends (sold out and a while after, the
   * longest run after the start, or nobody left to act); prints a progress line every 5 s.
   * Returns when it sold out (epoch ms), or -1.
   */
  private long watch(Sale sale, Crowd crowd, Admin admin, Traffic traffic) throws InterruptedException {
    long end = sale.startsAt + scenario.run().maxAfterStart().toMillis();
    long soldOutAt = -1;
    long lastSay = 0;
    long lastSent = 0;
    long lastSentAt = System.currentTimeMillis();
    long lastArrival = sale.startsAt + scenario.humans().spikeWindow().toMillis() + scenario.humans().tailWindow().toMillis();
    while (System.currentTimeMillis() < end) {
      long now = System.currentTimeMillis();
      JsonNode stats = admin.stats(eventId);
      long waiting = 0;
      long shopping = 0;
      long active = 0;
      for (Account a : crowd.accounts) {
        for (Tab t : a.tabs) {
          if (t.waiting()) waiting++;
          if (t.admitted.get() && !t.done.get()) shopping++;
          if (!t.done.get() && t.identity != null && a.joins) active++;
        }
      }
      if (stats != null) {
        timeline.add(now, stats, waiting, shopping, traffic.sent.sum());
        fault(timeline.last(), sale, traffic, now);
        if (soldOutAt < 0 && stats.path("state").asText().equals("sold_out") && now > sale.startsAt) {
          soldOutAt = now;
          end = Math.min(end, now + scenario.run().afterSoldOut().toMillis());
          say("sold out at t=" + seconds(now - sale.startsAt));
        }
      }
      if (now > lastArrival && now > sale.startsAt && active == 0) {
        say("nobody is left waiting or shopping");
        break;
      }
      if (now - lastSay >= 5000) {
        long sent = traffic.sent.sum();
        double rate = (sent - lastSent) * 1000.0 / Math.max(1, now - lastSentAt);
        lastSent = sent;
        lastSentAt = now;
        lastSay = now;
        Timeline.Sample s = timeline.last();
        say(String.format(Locale.ROOT, "t=%+4ds lobby %,d | admitted up to %,d | tabs waiting %,d, shopping %,d | seats sold %,d held %,d"
                + " of %,d | requests %,d (%.0f/s, %d in flight, %,d queued) | 5xx %,d",
            (now - sale.startsAt) / 1000, s == null ? 0 : s.lobby(), s == null ? 0 : s.admittedUpTo(), waiting, shopping,
            s == null ? 0 : s.sold(), s == null ? 0 : s.held(), scenario.event().seats(), sent, rate, traffic.inFlight(),
            traffic.waitingCalls(), traffic.fiveXx()));
      }
      TimeUnit.MILLISECONDS.sleep(Math.max(50, 1000 - (System.currentTimeMillis() - now)));
    }
    return soldOutAt;
  }

  /**
   * At each look: the sale's start opens the "before" window; the fault fires when it is due
   * (at the peak, or at its time) and opens "during"; after fault.for it is undone and "after"
   * opens; fault.window later calls are counted in no window again. Injecting and undoing run
   * on their own thread, so the looks go on meanwhile.
   */
  private void fault(Timeline.Sample look, Sale sale, Traffic traffic, long now) {
    Scenario.FaultSpec spec = scenario.fault();
    if (breaker == null) return;
    if (faultAt < 0) {
      if (now >= sale.startsAt) traffic.window(Fault.BEFORE);
      if (!Fault.due(spec, look, sale.startsAt, scenario.onsale().maxActiveShoppers(), scenario.event().seats())) return;
      faultAt = now;
      traffic.window(Fault.DURING);
      say("fault at t=" + seconds(now - sale.startsAt) + ": " + spec.kind().label + " for " + spec.lasts().toSeconds() + " s");
      faultThread.submit(() -> log(now, breaker.inject()));
    } else if (faultUndoneAt < 0 && now >= faultAt + spec.lasts().toMillis()) {
      undoFault(traffic, now);
    } else if (faultUndoneAt >= 0 && now >= faultUndoneAt + spec.window().toMillis()) {
      traffic.window(null);
    }
  }

  private void undoFault(Traffic traffic, long now) {
    faultUndoneAt = now;
    traffic.window(Fault.AFTER);
    faultThread.submit(() -> log(now, breaker.undo()));
  }

  private void log(long at, String what) {
    faultLog.add(String.format(Locale.ROOT, "%tT %s", at, what));
    say("fault: " + what);
  }

  static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  static void say(String line) {
    System.out.println("[" + java.time.LocalTime.now().withNano(0) + "] " + line);
  }
}
