package io.boxoffice.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * A run's figures and where they go: {@code report.json} (every figure), {@code report.html}
 * (one self-contained page: the figures, the gate, and plots drawn by Apache ECharts, inlined
 * from its webjar so that it opens offline), {@code summary.txt} (the console's one screen).
 */
final class Report {
  static final String ECHARTS = "META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  /** Phases of the sale shown in the latency plots, in the fan's order; others follow. */
  private static final List<String> PHASES = List.of("join", "status", "manifest", "seatmap", "availability", "hold", "hold-hot", "checkout");

  private final Scenario scenario;
  private final String eventId;
  private final Crowd crowd;
  private final Sale sale;
  private final Timeline timeline;
  private final Traffic traffic;
  private final Traffic prepare;
  private final JsonNode finalStats;
  private final long startsAt;
  private final long soldOutAt;
  private final long tookMillis;
  private final Measures.Fairness fairness;
  private final Gate.Safety safety;
  private final List<Gate.Check> checks;
  private final Measures.EtaError eta;
  private final List<Measures.EtaSample> etaSamples = new ArrayList<>();
  private final Fault.Happened fault;
  private final Calibration.Dials dials;

  /**
   * The report of {@code sale} (its crowd, the manager's looks at it, the set-up's traffic, the
   * event's stats at the end, when it sold out or -1, and how long the run took in all).
   */
  Report(Sale sale, Crowd crowd, Timeline timeline, Traffic prepare, JsonNode finalStats, long soldOutAt, long tookMillis,
         Fault.Happened fault) {
    this.fault = fault;
    this.sale = sale;
    this.scenario = sale.scenario;
    this.eventId = sale.eventId;
    this.traffic = sale.traffic;
    this.startsAt = sale.startsAt;
    this.crowd = crowd;
    this.timeline = timeline;
    this.prepare = prepare;
    this.finalStats = finalStats;
    this.soldOutAt = soldOutAt;
    this.tookMillis = tookMillis;
    List<Measures.AccountView> views = crowd.accounts.stream().filter(a -> a.joins)
        .map(a -> new Measures.AccountView(a.bot, a.firstJoinAt > 0, a.lobby, a.firstJoinAt, Set.copyOf(a.places), a.seatsBought.get()))
        .toList();
    this.fairness = Measures.fairness(views, scenario.measure().firstK());
    this.safety = safety();
    this.checks = Gate.checks(fairness, safety, scenario.gate());
    for (Human h : crowd.humans) {
      Tab t = h.tab;
      if (t.shownWaitSeconds < 0 || t.place == 0) continue;
      long admittedAt = timeline.admittedAt(t.place);
      if (admittedAt < 0) continue;
      etaSamples.add(new Measures.EtaSample(t.shownWaitSeconds, Math.max(0, admittedAt - t.shownAt) / 1000.0));
    }
    this.eta = Measures.etaError(etaSamples);
    this.dials = calibrate();
  }

  /** The fan calls whose p99 the calibration holds to its target (a slow card is the fan's own choice). */
  static final List<String> FAN_CALLS = List.of("join", "status", "manifest", "seatmap", "availability", "hold", "hold-hot", "checkout");

  private Calibration.Dials calibrate() {
    List<Calibration.Visit> visits = new ArrayList<>();
    long seatsBought = 0;
    for (Human h : crowd.humans) {
      if (h.tab.admittedSeenAt > 0 && h.tab.doneAt > 0) visits.add(new Calibration.Visit(h.tab.admittedSeenAt, h.tab.doneAt));
      if (h.tab.admittedSeenAt > 0) seatsBought += h.tab.account.seatsBought.get();
    }
    return Calibration.of(visits, worstP99ByBucket(traffic.latencyByBucket()), traffic.bucketMillis(), startsAt,
        scenario.calibration().p99Target().toMillis(), scenario.calibration().demand(), fairness.accounts(), scenario.event().seats(),
        visits.isEmpty() ? 0 : (double) seatsBought / visits.size());
  }

  /** bucket -> the worst p99 (ms) of any fan call in it. */
  static Map<Long, Double> worstP99ByBucket(Map<String, Map<Long, Histogram>> byPhase) {
    Map<Long, Double> out = new TreeMap<>();
    byPhase.forEach((phase, buckets) -> {
      if (!FAN_CALLS.contains(phase)) return;
      buckets.forEach((b, h) -> out.merge(b, ms(h, 99), Math::max));
    });
    return out;
  }

  private Gate.Safety safety() {
    List<Observations.Sale> sales = sale.observed.salesList();
    long observedSeats = sales.stream().mapToLong(s -> s.seatIds().size()).sum();
    long sold = finalStats == null ? -1 : finalStats.path("seats").path("sold").asLong();
    long oversold = sold < 0 ? 1 : Math.max(0, sold - scenario.event().seats());
    long notCounted = sold < 0 ? 0 : Math.max(0, observedSeats - sold);
    for (Account a : crowd.accounts) {
      if (a.seatsBought.get() > scenario.event().maxSeatsPerAccount()) sale.observed.breach("bought past the per-account cap");
    }
    long breaches = sale.observed.breaches().values().stream().mapToLong(Long::longValue).sum();
    // The crowd's sign-up before the sale is set-up, not the on-sale: its 5xx are reported apart.
    // Accounts told "lobby", or that tried to join before the start (an answer after it says "waiting"; a join that
    // timed out may still have entered the lobby).
    long lobbyAccounts = crowd.accounts.stream().filter(a -> a.joins && (a.lobby || a.firstTriedAt > 0 && a.firstTriedAt < startsAt))
        .count();
    long lobbyCounted = finalStats == null ? -1 : finalStats.path("lobby").asLong(-1);
    return new Gate.Safety(traffic.fiveXx(), oversold, Measures.soldTwice(sales).size(), notCounted, breaches,
        Math.max(0, sold), lobbyCounted, lobbyAccounts, sale.observed.partialHolds.sum());
  }

  Simulator.Result write(Path dir) throws IOException {
    Map<String, Object> data = data();
    Files.writeString(dir.resolve("report.json"), JSON.writeValueAsString(data), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("report.html"), html(data), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("summary.txt"), summary(), StandardCharsets.UTF_8);
    return new Simulator.Result(checks, dir, fairness, safety);
  }

  // ---- the figures ------------------------------------------------------------------------

  private Map<String, Object> data() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("scenario", scenario.name());
    d.put("description", scenario.description());
    d.put("seed", scenario.seed());
    d.put("eventId", eventId);
    d.put("seats", scenario.event().seats());
    d.put("humans", scenario.humans().count());
    d.put("botOperators", scenario.botOperators());
    d.put("accounts", crowd.accounts.size());
    d.put("tabs", crowd.tabs());
    d.put("tookSeconds", tookMillis / 1000.0);
    d.put("passed", Gate.passed(checks));
    List<Map<String, Object>> gate = new ArrayList<>();
    for (Gate.Check c : checks) gate.add(ordered("check", c.name(), "value", c.value(), "passed", c.passed()));
    d.put("gate", gate);
    d.put("fairness", fairness);
    d.put("safety", safety);
    d.put("etaError", eta);
    d.put("sale", saleFigures());
    d.put("latencyMillis", latencyTotals(traffic.latency()));
    d.put("latencyBeforeTheSaleMillis", latencyTotals(prepare.latency()));
    d.put("answers", traffic.answers());
    d.put("unansweredCalls", unanswered(traffic.answers()));
    d.put("answersBeforeTheSale", prepare.answers());
    d.put("refusalsByDefense", refusalsByDefense(traffic.answers()));
    d.put("outcomes", sale.observed.outcomes());
    d.put("breaches", sale.observed.breaches());
    d.put("placesChanged", sale.observed.placesChanged.sum());
    d.put("accountsThatTriedInTheLobbyButWerePlacedBehindIt", missedTheLobby());
    d.put("timeline", timelineSeries());
    d.put("latencyOverTime", latencyOverTime());
    d.put("latencyBucketSeconds", traffic.bucketMillis() / 1000.0);
    d.put("placeVsArrival", scatter());
    d.put("etaSamples", etaSamples.stream().limit(5000).map(s -> List.of(s.shownSeconds(), s.hadSeconds())).toList());
    d.put("shares", shares());
    d.put("fault", faultFigures());
    d.put("calibration", dials);
    d.put("proofOfWork", powFigures());
    d.put("presale", presaleFigures());
    return d;
  }

  /** What fans met around the fault: latency and answers per phase before, during and after it, and how long sales stalled. */
  private Map<String, Object> faultFigures() {
    if (fault == null) return scenario.fault().any() ? ordered("kind", scenario.fault().kind().label, "fired", false) : null;
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("kind", fault.spec().kind().label);
    f.put("fired", true);
    f.put("atSeconds", (fault.atMillis() - startsAt) / 1000.0);
    f.put("undoneAtSeconds", fault.undoneAtMillis() < 0 ? null : (fault.undoneAtMillis() - startsAt) / 1000.0);
    f.put("log", fault.log());
    long undone = fault.undoneAtMillis() < 0 ? System.currentTimeMillis() : fault.undoneAtMillis();
    f.put("sales", Fault.stall(timeline.samples(), fault.atMillis(), undone, fault.spec().window().toMillis()));
    Map<String, Object> latency = new LinkedHashMap<>();
    Map<String, Map<String, Histogram>> byWindow = traffic.latencyByWindow();
    for (String w : List.of(Fault.BEFORE, Fault.DURING, Fault.AFTER)) latency.put(w, latencyTotals(byWindow.getOrDefault(w, Map.of())));
    f.put("latencyMillisByWindow", latency);
    f.put("answersByWindow", traffic.answersByWindow());
    return f;
  }

  private Map<String, Object> saleFigures() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("soldOutAfterSeconds", soldOutAt < 0 ? null : (soldOutAt - startsAt) / 1000.0);
    long allTaken = timeline.allTakenAt();
    s.put("allSeatsTakenAfterSeconds", allTaken < 0 ? null : (allTaken - startsAt) / 1000.0);
    s.put("finalStats", finalStats);
    s.put("holds", sale.observed.holds.sum());
    s.put("seatsHeld", sale.observed.seatsHeld.sum());
    s.put("hotSeatHolds", Map.of("tried", sale.observed.hotTried.sum(), "seatsTaken", sale.observed.hotTaken.sum(),
        "held", sale.observed.hotHeld.sum(), "partial", sale.observed.partialHolds.sum()));
    List<Observations.Sale> sales = sale.observed.salesList();
    s.put("ordersConfirmedToFans", sales.size());
    s.put("seatsConfirmedToFans", sales.stream().mapToLong(x -> x.seatIds().size()).sum());
    Set<String> soldSeats = new HashSet<>();
    sales.forEach(x -> soldSeats.addAll(x.seatIds()));
    long denied = 0;
    long resold = 0;
    for (Observations.DeniedHold h : sale.observed.deniedHolds) {
      denied += h.seatIds().size();
      resold += h.seatIds().stream().filter(soldSeats::contains).count();
    }
    s.put("botHeldSeatsNeverPaid", denied);
    s.put("ofThemSoldToOthersLater", resold);
    s.put("ofThemUnsoldAtTheEnd", denied - resold);
    return s;
  }

  private static Map<String, Object> latencyTotals(Map<String, Histogram> byPhase) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String phase : ordered(byPhase.keySet())) {
      Histogram h = byPhase.get(phase);
      out.put(phase, ordered("count", h.getTotalCount(), "p50", ms(h, 50), "p90", ms(h, 90), "p99", ms(h, 99), "max",
          h.getMaxValue() / 1000.0));
    }
    return out;
  }

  private static double ms(Histogram h, double p) {
    return h.getValueAtPercentile(p) / 1000.0;
  }

  private static List<String> ordered(Set<String> phases) {
    List<String> out = new ArrayList<>();
    for (String p : PHASES) if (phases.contains(p)) out.add(p);
    for (String p : new java.util.TreeSet<>(phases)) if (!out.contains(p)) out.add(p);
    return out;
  }

  /** Accounts that tried to join before the start but were placed after the lobby (their join answered after it). */
  private long missedTheLobby() {
    return crowd.accounts.stream()
        .filter(a -> a.joins && !a.lobby && a.firstTriedAt > 0 && a.firstTriedAt < startsAt && !a.places.isEmpty()).count();
  }

  /** Calls that got no answer at all (refused connection, or none within the call timeout). */
  static long unanswered(Map<String, Map<String, Long>> answers) {
    return answers.values().stream().flatMap(m -> m.entrySet().stream())
        .filter(e -> e.getKey().equals("timed out") || e.getKey().equals("no answer")).mapToLong(Map.Entry::getValue).sum();
  }

  /** Which defense an error code stands for. */
  static String defense(String code) {
    return switch (code) {
      case "rate_limited" -> "rate limits (per account, per network)";
      case "not_admitted" -> "shop admission (a queue token whose turn came)";
      case "bad_token" -> "queue token bound to account and network";
      case "limit_exceeded" -> "seats per account cap";
      case "overloaded" -> "bulkhead and shedding";
      case "unavailable" -> "an entity did not answer in time (ask timeout)";
      case "not_open" -> "lobby not open yet";
      case "bad_pow" -> "proof of work";
      case "bad_code" -> "presale code";
      case "no_seats", "seats_taken" -> "inventory (nothing left to hold)";
      case "hold_expired" -> "hold deadline";
      case "payment_declined" -> "payment";
      default -> "other (" + code + ")";
    };
  }

  private static List<Map<String, Object>> refusalsByDefense(Map<String, Map<String, Long>> answers) {
    Map<String, Long> byKey = new TreeMap<>();
    answers.forEach((phase, m) -> m.forEach((answer, n) -> {
      String[] parts = answer.split(" ", 2);
      if (parts.length < 2 || !Character.isDigit(parts[0].charAt(0))) return;
      byKey.merge(defense(parts[1]) + "\t" + answer + "\t" + phase, n, Long::sum);
    }));
    List<Map<String, Object>> out = new ArrayList<>();
    byKey.forEach((k, n) -> {
      String[] f = k.split("\t");
      out.add(ordered("defense", f[0], "answer", f[1], "phase", f[2], "count", n));
    });
    return out;
  }

  private Map<String, Object> timelineSeries() {
    List<Timeline.Sample> samples = timeline.samples();
    Map<String, Object> t = new LinkedHashMap<>();
    List<Double> at = new ArrayList<>();
    List<Long> lobby = new ArrayList<>();
    List<Long> admitted = new ArrayList<>();
    List<Double> admissionsPerSecond = new ArrayList<>();
    List<Long> active = new ArrayList<>();
    List<Long> waiting = new ArrayList<>();
    List<Long> shopping = new ArrayList<>();
    List<Long> available = new ArrayList<>();
    List<Long> held = new ArrayList<>();
    List<Long> sold = new ArrayList<>();
    List<Double> requestsPerSecond = new ArrayList<>();
    Timeline.Sample previous = null;
    for (Timeline.Sample s : samples) {
      at.add((s.atMillis() - startsAt) / 1000.0);
      lobby.add(s.lobby());
      admitted.add(s.admittedUpTo());
      active.add(s.activeShoppers());
      waiting.add(s.waitingTabs());
      shopping.add(s.shoppingTabs());
      available.add(s.available());
      held.add(s.held());
      sold.add(s.sold());
      double dt = previous == null ? 0 : (s.atMillis() - previous.atMillis()) / 1000.0;
      admissionsPerSecond.add(dt <= 0 ? 0 : (s.admittedUpTo() - previous.admittedUpTo()) / dt);
      requestsPerSecond.add(dt <= 0 ? 0 : (s.requestsSent() - previous.requestsSent()) / dt);
      previous = s;
    }
    t.put("t", at);
    t.put("lobby", lobby);
    t.put("admittedUpTo", admitted);
    t.put("admissionsPerSecond", admissionsPerSecond);
    t.put("activeShoppers", active);
    t.put("tabsWaiting", waiting);
    t.put("tabsShopping", shopping);
    t.put("available", available);
    t.put("held", held);
    t.put("sold", sold);
    t.put("requestsPerSecond", requestsPerSecond);
    return t;
  }

  private Map<String, Object> latencyOverTime() {
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, Map<Long, Histogram>> byBucket = traffic.latencyByBucket();
    double bucketSeconds = traffic.bucketMillis() / 1000.0;
    for (String phase : ordered(byBucket.keySet())) {
      List<List<Double>> p50 = new ArrayList<>();
      List<List<Double>> p99 = new ArrayList<>();
      byBucket.get(phase).forEach((b, h) -> {
        double t = (b + 0.5) * bucketSeconds;
        p50.add(List.of(t, ms(h, 50)));
        p99.add(List.of(t, ms(h, 99)));
      });
      out.put(phase, ordered("p50", p50, "p99", p99));
    }
    return out;
  }

  /** [arrival (s from the lobby's opening), place] of every account shown a place, by cohort and kind. */
  private Map<String, Object> scatter() {
    Map<String, List<List<Double>>> series = new LinkedHashMap<>();
    for (String k : List.of("lobby humans", "lobby bots", "later humans", "later bots")) series.put(k, new ArrayList<>());
    for (Account a : crowd.accounts) {
      if (!a.joins || a.firstJoinAt == 0) continue;
      String key = (a.lobby ? "lobby " : "later ") + (a.bot ? "bots" : "humans");
      for (long p : a.places) series.get(key).add(List.of((a.firstJoinAt - sale.lobbyOpensAt) / 1000.0, (double) p));
    }
    return new LinkedHashMap<>(series);
  }

  /**
   * Bots' share (percent) of accounts, the lobby, the first K places and the tickets, with the
   * gate's limit; and what became of bot and human accounts (percent of each kind that joined).
   */
  private Map<String, Object> shares() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("categories", List.of("accounts that joined", "lobby accounts", "first " + fairness.firstK() + " places", "tickets sold"));
    s.put("bots", List.of(pct(fairness.botAccountShare()), pct(fairness.botLobbyShare()), pct(fairness.botShareFirstK()),
        pct(fairness.botShareTickets())));
    s.put("limit", pct(fairness.botAccountShare() + scenario.gate().botShareMarginPoints() / 100));
    s.put("outcomeCategories", List.of("a place in the first " + fairness.firstK(), "admitted (a tab)", "bought"));
    s.put("botOutcomes", outcomes(true));
    s.put("humanOutcomes", outcomes(false));
    return s;
  }

  private List<Double> outcomes(boolean bots) {
    List<Account> joined = crowd.accounts.stream().filter(a -> a.joins && a.bot == bots && a.firstJoinAt > 0).toList();
    long front = joined.stream().filter(a -> a.places.stream().anyMatch(p -> p <= fairness.firstK())).count();
    long admitted = joined.stream().filter(a -> a.tabs.stream().anyMatch(t -> t.admitted.get())).count();
    long bought = joined.stream().filter(a -> a.seatsBought.get() > 0).count();
    return List.of(pct(Measures.share(front, joined.size())), pct(Measures.share(admitted, joined.size())),
        pct(Measures.share(bought, joined.size())));
  }

  private static double pct(double share) {
    return Double.isNaN(share) ? Double.NaN : Math.round(share * 10000) / 100.0;
  }

  private static Map<String, Object> ordered(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i + 1 < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
    return m;
  }

  // ---- the console's screen ---------------------------------------------------------------

  String summary() {
    StringBuilder b = new StringBuilder();
    Measures.Fairness f = fairness;
    String took = String.format(Locale.ROOT, "%dm%02ds", tookMillis / 60_000, tookMillis / 1000 % 60);
    line(b, "== sim %s (seed %d): %s == event %s, %,d humans + %d bot operators (%,d accounts, %,d tabs), %,d seats, took %s",
        scenario.name(), scenario.seed(), Gate.passed(checks) ? "PASSED" : "FAILED", eventId, scenario.humans().count(),
        scenario.botOperators(), crowd.accounts.size(), crowd.tabs(), scenario.event().seats(), took);
    line(b, "fairness");
    line(b, "  bot accounts              %s of %,d that joined (%,d); of the lobby %s", Gate.pct(f.botAccountShare()), f.accounts(),
        f.botAccounts(), Gate.pct(f.botLobbyShare()));
    line(b, "  %-25s bots %s (%,d of %,d seen)", String.format(Locale.ROOT, "first %,d places", f.firstK()),
        Gate.pct(f.botShareFirstK()), f.botPlacesInFirstK(), f.placesInFirstK());
    line(b, "  tickets                   bots %s (%,d of %,d seats)", Gate.pct(f.botShareTickets()), f.ticketsBots(),
        f.ticketsBots() + f.ticketsHumans());
    line(b, "  Spearman arrival~place    lobby %+.4f (n=%,d) | later arrivals %+.4f (n=%,d)", f.spearmanLobby(), f.lobbyPairs(),
        f.spearmanLate(), f.latePairs());
    line(b, "  distinct places/account   %s | places shared %,d | never saw a place %,d", f.distinctPlaces(), f.sharedPlaces(),
        f.accountsWithoutPlace());
    line(b, "  lobby                     %,d counted by the event; %,d accounts tried to join before the start, %,d of them"
        + " were placed behind the lobby", safety.lobbyCounted(), safety.lobbyAccounts(), missedTheLobby());
    line(b, "honesty: wait shown vs had  had-shown median %+.0f s, |error| median %.0f s, p90 %.0f s, within 30 s or 25%%: %s (n=%,d)",
        eta.medianError(), eta.medianAbsError(), eta.p90AbsError(), Gate.pct(eta.shareWithin30sOr25pct()), eta.samples());
    Map<String, Object> s = saleFigures();
    line(b, "sale: sold out at %s, every seat taken at %s; confirmed to fans %,d orders, %,d seats; holds %,d",
        s.get("soldOutAfterSeconds") == null ? "never" : "t=+" + s.get("soldOutAfterSeconds") + " s",
        s.get("allSeatsTakenAfterSeconds") == null ? "never" : "t=+" + s.get("allSeatsTakenAfterSeconds") + " s",
        s.get("ordersConfirmedToFans"), s.get("seatsConfirmedToFans"), s.get("holds"));
    line(b, "  bot-held seats never paid %s, sold to others later %s, unsold at the end %s", s.get("botHeldSeatsNeverPaid"),
        s.get("ofThemSoldToOthersLater"), s.get("ofThemUnsoldAtTheEnd"));
    if (scenario.hotSeats().share() > 0) {
      line(b, "  hot seats: %,d holds naming them, %,d refused seats_taken, %,d held, %,d answered with other seats",
          sale.observed.hotTried.sum(), sale.observed.hotTaken.sum(), sale.observed.hotHeld.sum(), sale.observed.partialHolds.sum());
    }
    StringBuilder lat = new StringBuilder();
    traffic.latency().entrySet().stream().filter(e -> PHASES.contains(e.getKey()))
        .sorted((x, y) -> PHASES.indexOf(x.getKey()) - PHASES.indexOf(y.getKey()))
        .forEach(e -> lat.append(String.format(Locale.ROOT, " %s %.0f/%.0f", e.getKey(), ms(e.getValue(), 50), ms(e.getValue(), 99))));
    line(b, "latency p50/p99 ms:%s", lat);
    faultSummary(b);
    Map<String, Object> presale = presaleFigures();
    if (presale != null) {
      line(b, "presale: registered %s humans + %s bot accounts (bots %s%%); invited %s humans + %s bots (bots %s%%); %s invited bought;"
              + " %s joins refused bad_code", presale.get("registeredHumans"), presale.get("registeredBots"),
          presale.get("botShareOfRegistrants"), presale.get("invitedHumans"), presale.get("invitedBots"),
          presale.get("botShareOfInvitations"), presale.get("invitedWhoBought"), presale.get("joinsRefusedBadCode"));
    }
    Map<String, Object> pow = powFigures();
    if (pow != null) {
      line(b, "proof of work (%s bits, %s cores here): %,d hashes; %,d joins refused bad_pow; p50/p99 ms given to solved (solving only):",
          pow.get("bits"), pow.get("cores"), pow.get("hashes"), pow.get("badPowRefusals"));
      for (String who : List.of("humans", "pageBots", "fullCpuBots")) {
        @SuppressWarnings("unchecked") Map<String, Object> all = (Map<String, Object>) pow.get(who + "Millis");
        @SuppressWarnings("unchecked") Map<String, Object> solving = (Map<String, Object>) pow.get(who + "SolvingMillis");
        if (((Number) all.get("count")).longValue() == 0) continue;
        line(b, "  %-14s %,d puzzles: %.0f/%.0f (%.0f/%.0f)", who.equals("humans") ? "humans' pages" : who.equals("pageBots")
                ? "bots as pages" : "bots, all cores", all.get("count"), all.get("p50"), all.get("p99"), solving.get("p50"), solving.get("p99"));
      }
    }
    line(b, "calibration: admissions/minute %,d, active-shopper cap %,d (p99 target %d ms%s)", dials.admissionsPerMinute(),
        dials.maxActiveShoppers(), scenario.calibration().p99Target().toMillis(), dials.p99Broke() ? "" : "; a floor: p99 never broke");
    for (String why : dials.reasoning()) line(b, "  %s", why);
    Map<String, Long> byDefense = new TreeMap<>();
    for (Map<String, Object> r : refusalsByDefense(traffic.answers())) byDefense.merge((String) r.get("answer"), (Long) r.get("count"), Long::sum);
    line(b, "refusals: %s", byDefense);
    line(b, "outcomes: %s", sale.observed.outcomes());
    line(b, "before the sale (sign-up, not gated): %s", prepare.answers());
    line(b, "safety: 5xx %,d | unanswered calls %,d | oversold %,d | sold twice %,d | confirmed but not counted %,d | breaches %s",
        safety.fiveXx(), unanswered(traffic.answers()), safety.oversold(), safety.soldTwice(), safety.confirmedNotCounted(), sale.observed.breaches());
    line(b, "gate:");
    for (Gate.Check c : checks) line(b, "  [%s] %s: %s", c.passed() ? "ok" : "BROKEN", c.name(), c.value());
    return b.toString();
  }

  /** Who registered for the presale and who was invited (bots against humans), or null without a presale. */
  private Map<String, Object> presaleFigures() {
    if (!scenario.onsale().presale()) return null;
    long humans = crowd.accounts.stream().filter(a -> !a.bot && a.registered).count();
    long bots = crowd.accounts.stream().filter(a -> a.bot && a.registered).count();
    long invitedHumans = crowd.accounts.stream().filter(a -> !a.bot && a.presaleCode != null).count();
    long invitedBots = crowd.accounts.stream().filter(a -> a.bot && a.presaleCode != null).count();
    long boughtInvited = crowd.accounts.stream().filter(a -> a.presaleCode != null && a.seatsBought.get() > 0).count();
    long badCode = traffic.answers().values().stream().flatMap(m -> m.entrySet().stream()).filter(e -> e.getKey().endsWith("bad_code"))
        .mapToLong(Map.Entry::getValue).sum();
    return ordered("registeredHumans", humans, "registeredBots", bots, "invitedHumans", invitedHumans, "invitedBots", invitedBots,
        "botShareOfRegistrants", pct(Measures.share(bots, humans + bots)),
        "botShareOfInvitations", pct(Measures.share(invitedBots, invitedHumans + invitedBots)),
        "invitedWhoBought", boughtInvited, "joinsRefusedBadCode", badCode);
  }

  /** The proof of work's cost to pages and to bots with every core, or null when the sale asked for none. */
  private Map<String, Object> powFigures() {
    Puzzles p = sale.puzzles;
    if (p == null) return null;
    long refused = traffic.answers().values().stream().flatMap(m -> m.entrySet().stream())
        .filter(e -> e.getKey().endsWith("bad_pow")).mapToLong(Map.Entry::getValue).sum();
    return ordered("bits", scenario.onsale().powBits(), "hashes", p.hashes.sum(), "badPowRefusals", refused,
        "humansMillis", solveTimes(p.humans), "humansSolvingMillis", solveTimes(p.humansSolving),
        "pageBotsMillis", solveTimes(p.bots), "pageBotsSolvingMillis", solveTimes(p.botsSolving),
        "fullCpuBotsMillis", solveTimes(p.fullCpuBots), "fullCpuBotsSolvingMillis", solveTimes(p.fullCpuBotsSolving),
        "cores", Runtime.getRuntime().availableProcessors());
  }

  private static Map<String, Object> solveTimes(Histogram h) {
    synchronized (h) {
      return ordered("count", h.getTotalCount(), "p50", ms(h, 50), "p99", ms(h, 99), "max", h.getMaxValue() / 1000.0);
    }
  }

  private void faultSummary(StringBuilder b) {
    if (fault == null) {
      if (scenario.fault().any()) line(b, "fault %s: never fired (the sale never reached its peak or time)", scenario.fault().kind().label);
      return;
    }
    long undone = fault.undoneAtMillis() < 0 ? System.currentTimeMillis() : fault.undoneAtMillis();
    Fault.Stall st = Fault.stall(timeline.samples(), fault.atMillis(), undone, fault.spec().window().toMillis());
    line(b, "fault %s at t=+%.0f s, undone at t=+%.0f s: seats sold/s %.1f before, %.1f during, %.1f after; first sale %s after it;"
            + " longest stall %.0f s", fault.spec().kind().label, (fault.atMillis() - startsAt) / 1000.0, (undone - startsAt) / 1000.0,
        st.soldPerSecondBefore(), st.soldPerSecondDuring(), st.soldPerSecondAfter(),
        st.firstSaleAfterSeconds() < 0 ? "never" : String.format(Locale.ROOT, "%.0f s", st.firstSaleAfterSeconds()), st.longestStallSeconds());
    for (String l : fault.log()) line(b, "  %s", l);
    Map<String, Map<String, Map<String, Long>>> answers = traffic.answersByWindow();
    Map<String, Map<String, Histogram>> byWindow = traffic.latencyByWindow();
    for (String w : List.of(Fault.BEFORE, Fault.DURING, Fault.AFTER)) {
      Map<String, Histogram> byPhase = byWindow.getOrDefault(w, Map.of());
      StringBuilder lat = new StringBuilder();
      for (String phase : ordered(byPhase.keySet())) {
        Histogram h = byPhase.get(phase);
        Map<String, Long> a = answers.getOrDefault(w, Map.of()).getOrDefault(phase, Map.of());
        long bad = a.entrySet().stream().filter(e -> !e.getKey().startsWith("2")).mapToLong(Map.Entry::getValue).sum();
        lat.append(String.format(Locale.ROOT, " %s %.0f/%.0f%s", phase, ms(h, 50), ms(h, 99), bad == 0 ? "" : " (" + bad + " not 2xx)"));
      }
      line(b, "  %-24s p50/p99 ms:%s", w, lat);
    }
  }

  private static void line(StringBuilder b, String format, Object... args) {
    b.append(String.format(Locale.ROOT, format, args)).append('\n');
  }

  // ---- the page ---------------------------------------------------------------------------

  private String html(Map<String, Object> data) throws IOException {
    String echarts;
    try (InputStream in = Report.class.getClassLoader().getResourceAsStream(ECHARTS)) {
      if (in == null) throw new IOException("no " + ECHARTS + " on the classpath (org.webjars.npm:echarts)");
      echarts = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String json = new ObjectMapper().writeValueAsString(data).replace("</", "<\\/");
    StringBuilder gate = new StringBuilder();
    for (Gate.Check c : checks) {
      gate.append("<tr class=\"").append(c.passed() ? "ok" : "broken").append("\"><td>").append(c.passed() ? "held" : "BROKEN")
          .append("</td><td>").append(escape(c.name())).append("</td><td>").append(escape(c.value())).append("</td></tr>\n");
    }
    String template;
    try (InputStream in = Report.class.getResourceAsStream("report.html")) {
      if (in == null) throw new IOException("no report.html template next to " + Report.class.getName());
      template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    return template
        .replace("{{title}}", escape("boxoffice on-sale simulation: " + scenario.name()))
        .replace("{{verdict}}", Gate.passed(checks) ? "the gate held" : "the gate was BROKEN")
        .replace("{{summary}}", escape(summary()))
        .replace("{{gate}}", gate.toString())
        .replace("{{echarts}}", echarts.replace("</script", "<\\/script"))
        .replace("{{data}}", json);
  }

  /** Text made safe inside HTML (the reports' summaries and titles). */
  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
