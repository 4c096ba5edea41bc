package io.boxoffice.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.app.NodeConfig;
import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.venue.domain.StadiumGenerator;
import io.boxoffice.venue.domain.VenueLayout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;

/**
 * Durable 2-seat best-available holds per second on one hot event of 70,000 seats: a whole
 * boxoffice node on PostgreSQL (fans ask the event's {@link EventInventory}, as the shop's
 * hold route does; the answer comes only after the batch is in the journal) against
 * the seed's SKIP LOCKED statement on the same database at the same concurrency.
 *
 * <p>The SQL's rate falls as seats fill (its plan walks the primary key past every held row), so
 * it depends on the window: the ratio is only comparable between runs with the same window.
 *
 * <p>Rounds alternate SQL and boxoffice so both see the same machine noise; the median round
 * of each is compared. System properties: {@code concurrency} (64), {@code inflight} (extra
 * boxoffice rounds with that many fans when it differs from concurrency), {@code rounds} (3),
 * {@code warmup} (uncounted boxoffice rounds first, 1),
 * {@code sql.window} (seconds, 15),
 * {@code baselines}, {@code db.*} (see {@link BenchDb}). Each round line ends with the machine's
 * 1-minute load average: the machine is shared, compare rounds with similar load.
 */
public final class HoldThroughputBench {
  private static final int SEATS = 70_000;
  private static final VenueLayout STADIUM = StadiumGenerator.generate("bench-stadium", "Bench Stadium", SEATS);
  private static final Map<String, Integer> PRICES = Map.of("floor", 20_000, "lower", 12_000, "upper", 6_000);
  private static final int MAX_SEATS_PER_ACCOUNT = 50;
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration ROUND_LIMIT = Duration.ofMinutes(3);
  private static final long MAX_LATENCY_US = TimeUnit.MINUTES.toMicros(1);

  /** One measured round: successful 2-seat holds, how long they took, their latency, the refusals met. */
  record Round(long holds, double seconds, Histogram latency, Map<String, Long> refusals, String note) {
    double rate() { return holds / seconds; }

    String line() {
      return String.format("%,9.0f holds/s  %,6d holds in %5.1f s  %s%s%s  load %s", rate(), holds, seconds,
          BenchDb.latencies(latency), refusals.isEmpty() ? "" : "  refusals " + refusals, note.isEmpty() ? "" : "  " + note,
          BenchDb.loadAverage());
    }
  }

  private HoldThroughputBench() {}

  public static void main(String[] args) throws Exception {
    int concurrency = Integer.getInteger("concurrency", 64);
    int inflight = Integer.getInteger("inflight", concurrency);
    int rounds = Integer.getInteger("rounds", 3);
    int warmups = Integer.getInteger("warmup", 1);
    Duration window = Duration.ofSeconds(Long.getLong("sql.window", 15));
    String setup = BenchDb.baseline("skiplocked_setup.sql");
    String hold = BenchDb.single(BenchDb.baseline("skiplocked_hold.sql"));
    // Every event id of this run starts with it: rounds and runs never share state.
    String run = "bench" + Long.toString(System.currentTimeMillis(), 36);

    List<Round> sql = new ArrayList<>();
    List<Round> box = new ArrayList<>();
    List<Round> wide = new ArrayList<>();
    Node node = Node.start(nodeConfig(run), new Node.Options(Clock.systemUTC(), null));
    try {
      ActorSystem<Void> system = node.system();
      // Uncounted rounds on events of their own: JIT compilation, shard allocation, pools.
      for (int r = 1; r <= warmups; r++) {
        System.out.println("warm-up " + r + "  boxoffice " + boxofficeRound(system, run + "-warm" + r, concurrency).line());
      }
      for (int r = 1; r <= rounds; r++) {
        sql.add(sqlRound(setup, hold, concurrency, window));
        System.out.println("round " + r + " SQL       " + sql.get(r - 1).line());
        box.add(boxofficeRound(system, run + "-c" + r, concurrency));
        System.out.println("round " + r + " boxoffice " + box.get(r - 1).line());
      }
      for (int r = 1; inflight != concurrency && r <= rounds; r++) {
        wide.add(boxofficeRound(system, run + "-w" + r, inflight));
        System.out.println("round " + r + " boxoffice, " + inflight + " fans " + wide.get(r - 1).line());
      }
    } finally {
      node.stop();
      BenchDb.dropSeats();
      deleteJournal(run);
    }

    Histogram commit = commitLatency(500);
    Round s = median(sql);
    Round b = median(box);
    double ratio = b.rate() / s.rate();
    System.out.println();
    System.out.println("==== HoldThroughputBench: durable best-available 2-seat holds, one event of 70,000 seats, PostgreSQL ====");
    System.out.printf("concurrency        %d (SQL: %d autocommit JDBC connections; boxoffice: %d fans, one ask in flight each)%n",
        concurrency, concurrency, concurrency);
    System.out.printf("rounds             %d after %d boxoffice warm-up, median shown (SQL window %d s or sold out; boxoffice until sold out)%n",
        rounds, warmups, window.toSeconds());
    System.out.printf("SQL SKIP LOCKED    %,9.0f holds/s   %s%n", s.rate(), BenchDb.latencies(s.latency()));
    System.out.printf("boxoffice          %,9.0f holds/s   %s%n", b.rate(), BenchDb.latencies(b.latency()));
    if (!wide.isEmpty()) {
      Round w = median(wide);
      System.out.printf("boxoffice %5d fans %,6.0f holds/s   %s  (%.1fx SQL at %d)%n",
          inflight, w.rate(), BenchDb.latencies(w.latency()), w.rate() / s.rate(), concurrency);
    }
    StringBuilder perRound = new StringBuilder();
    for (int r = 0; r < rounds; r++) perRound.append(String.format(" %.1fx", box.get(r).rate() / sql.get(r).rate()));
    System.out.printf("ratio boxoffice/SQL %.1fx of the medians, per round%s  (target >= 20x: %s)%n",
        ratio, perRound, ratio >= 20 ? "met" : "NOT met");
    System.out.printf("context            PostgreSQL 1-row commit, measured alone: %s%n", BenchDb.latencies(commit));
    // Decides whether CompletableFuture's default async executor is a pool or a new thread per task.
    System.out.printf("context            JVM: %d CPUs, ForkJoinPool common parallelism %d%s%n",
        Runtime.getRuntime().availableProcessors(), ForkJoinPool.getCommonPoolParallelism(),
        ForkJoinPool.getCommonPoolParallelism() < 2 ? " (async CompletionStage callbacks get a new thread each)" : "");
  }

  /** Latency of one small INSERT committed on its own (WAL flush included): the floor under every journal write. */
  static Histogram commitLatency(int commits) throws SQLException {
    Histogram h = new Histogram(MAX_LATENCY_US, 3);
    try (Connection c = BenchDb.connect(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS bench_commit_probe (id BIGINT, payload BYTEA)");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO bench_commit_probe VALUES (?, ?)")) {
        byte[] payload = new byte[3_000]; // about one batch of ~60 holds
        for (int i = 0; i < commits; i++) {
          long t0 = System.nanoTime();
          insert.setLong(1, i);
          insert.setBytes(2, payload);
          insert.executeUpdate();
          h.recordValue((System.nanoTime() - t0) / 1000);
        }
      } finally {
        st.execute("DROP TABLE bench_commit_probe");
      }
    }
    return h;
  }

  private static Round median(List<Round> rounds) {
    List<Round> sorted = new ArrayList<>(rounds);
    sorted.sort(Comparator.comparingDouble(Round::rate));
    return sorted.get(sorted.size() / 2);
  }

  // ---- the seed's SQL ----------------------------------------------------------------------

  /**
   * Fresh 70,000-seat table, then {@code connections} threads each running the hold statement
   * in autocommit (so each hold is committed, as durable as a journal write) until the window
   * ends or the statement finds fewer than 2 seats.
   */
  static Round sqlRound(String setup, String hold, int connections, Duration window) throws Exception {
    try (Connection c = BenchDb.connect()) {
      BenchDb.runScript(c, setup);
    }
    Histogram latency = new ConcurrentHistogram(MAX_LATENCY_US, 3);
    LongAdder holds = new LongAdder();
    LongAdder shortAnswers = new LongAdder();
    CyclicBarrier start = new CyclicBarrier(connections + 1);
    long[] startedAt = new long[1];
    ExecutorService pool = Executors.newFixedThreadPool(connections);
    List<Future<?>> workers = new ArrayList<>();
    try {
      for (int i = 0; i < connections; i++) {
        workers.add(pool.submit(() -> {
          try (Connection c = BenchDb.connect(); PreparedStatement st = c.prepareStatement(hold)) {
            c.setAutoCommit(true);
            start.await(60, TimeUnit.SECONDS);
            long deadline = startedAt[0] + window.toNanos();
            while (System.nanoTime() < deadline) {
              long t0 = System.nanoTime();
              int rows = 0;
              try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) rows++;
              }
              if (rows < 2) {
                shortAnswers.increment();
                break;
              }
              latency.recordValue(Math.min((System.nanoTime() - t0) / 1000, MAX_LATENCY_US));
              holds.increment();
            }
          }
          return null;
        }));
      }
      startedAt[0] = System.nanoTime();
      start.await(60, TimeUnit.SECONDS); // every connection is open: the clock starts now
      for (Future<?> w : workers) w.get();
      double seconds = (System.nanoTime() - startedAt[0]) / 1e9;
      String note = shortAnswers.sum() > 0 ? "sold out (" + shortAnswers.sum() + " short answers)" : "";
      return new Round(holds.sum(), seconds, latency, Map.of(), note);
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- boxoffice ---------------------------------------------------------------------------

  static Config nodeConfig(String token) {
    Map<String, Object> o = new HashMap<>();
    o.put("boxoffice.db.url", BenchDb.URL);
    o.put(NodeConfig.DB + ".db.user", BenchDb.USER);
    o.put(NodeConfig.DB + ".db.password", BenchDb.PASSWORD);
    o.put("boxoffice.http.interface", "127.0.0.1");
    o.put("boxoffice.http.port", 0);
    o.put("pekko.remote.artery.canonical.port", 0);
    // On PostgreSQL a node starts only with its keys configured, tokens of 32 characters or more.
    byte[] random = new byte[32];
    new java.security.SecureRandom().nextBytes(random);
    String key = java.util.Base64.getEncoder().encodeToString(random);
    o.put("boxoffice.secrets.admin-token", token + "-admin-" + key);
    o.put("boxoffice.secrets.gate-token", token + "-gate-" + key);
    for (String k : List.of("secrets.identity-key", "secrets.ticket-key", "queue.keys.active", "bots.presale-key", "bots.pow-key")) {
      o.put("boxoffice." + k, key);
    }
    o.put("pekko.loglevel", "WARNING");
    // Stopping the node must not end this JVM before the results are printed.
    o.put("pekko.coordinated-shutdown.exit-jvm", "off");
    return ConfigFactory.parseMap(o).withFallback(ConfigFactory.load());
  }

  /** Creates a fresh event, lets {@code fans} fans hold 2 seats at a time until it is sold out. */
  static Round boxofficeRound(ActorSystem<?> system, String eventId, int fans) throws Exception {
    ClusterSharding sharding = ClusterSharding.get(system);
    EventDefinition definition = new EventDefinition(eventId, "Bench " + eventId, STADIUM, PRICES, 600, 90,
        MAX_SEATS_PER_ACCOUNT).validated();
    EntityRef<EventInventory.Command> inventory = sharding.entityRefFor(EventInventory.ENTITY_TYPE_KEY, eventId);
    EventInventory.Reply created = inventory
        .<EventInventory.Reply>ask(r -> new EventInventory.Create(definition, r), Duration.ofSeconds(60))
        .toCompletableFuture().get();
    if (!(created instanceof EventInventory.Created)) throw new IllegalStateException("create failed: " + created);

    Shared shared = new Shared(system, eventId, new CountDownLatch(fans));
    long start = System.nanoTime();
    for (int i = 0; i < fans; i++) new Fan(shared, "f" + i).next();
    boolean soldOut = shared.done.await(ROUND_LIMIT.toSeconds(), TimeUnit.SECONDS);
    double seconds = (System.nanoTime() - start) / 1e9;
    shared.stop.set(true);

    Map<String, Long> refusals = new TreeMap<>();
    shared.refusals.forEach((code, n) -> refusals.put(code, n.sum()));
    EventInventory.Reply stats = inventory
        .<EventInventory.Reply>ask(EventInventory.GetStats::new, Duration.ofSeconds(10)).toCompletableFuture().get();
    String note = (soldOut ? "" : "NOT sold out within " + ROUND_LIMIT.toSeconds() + " s; ")
        + stats + "; " + journalShape(eventId, shared.holds.sum(), seconds)
        // The first hold of an account also starts (recovers) its cart: that cost shows here.
        + String.format("; first hold of an account p50 %,d µs (n=%,d)",
            shared.firstOfAccount.getValueAtPercentile(50), shared.firstOfAccount.getTotalCount());
    return new Round(shared.holds.sum(), seconds, shared.latency, refusals, note);
  }

  /** What the fans of one round share. */
  private record Shared(ClusterSharding sharding, Executor callbacks, String eventId,
                        CountDownLatch done, LongAdder holds, Histogram latency, Histogram firstOfAccount,
                        Map<String, LongAdder> refusals, AtomicBoolean stop) {
    Shared(ActorSystem<?> system, String eventId, CountDownLatch done) {
      this(ClusterSharding.get(system), system.executionContext(), eventId, done, new LongAdder(),
          new ConcurrentHistogram(MAX_LATENCY_US, 3), new ConcurrentHistogram(MAX_LATENCY_US, 3),
          new ConcurrentHashMap<>(), new AtomicBoolean());
    }

    void refused(String code) {
      refusals.computeIfAbsent(code, c -> new LongAdder()).increment();
    }
  }

  /**
   * One fan: asks the event for the best 2 seats, and again as soon as it has the answer, until
   * the event has none left. Each account may hold {@value MAX_SEATS_PER_ACCOUNT} seats, so a
   * fan refused with limit_exceeded goes on under a new account.
   */
  private static final class Fan {
    private static final String HELD = "held";
    private final Shared shared;
    private final String name;
    private final EntityRef<EventInventory.Command> inventory;
    private int accounts;
    private String account;
    private boolean firstOfAccount;

    Fan(Shared shared, String name) {
      this.shared = shared;
      this.name = name;
      this.inventory = shared.sharding().entityRefFor(EventInventory.ENTITY_TYPE_KEY, shared.eventId());
      nextAccount();
    }

    private void nextAccount() {
      firstOfAccount = true;
      account = name + "a" + accounts++;
    }

    void next() {
      if (shared.stop().get()) {
        shared.done().countDown();
        return;
      }
      long t0 = System.nanoTime();
      CompletionStage<?> answer = inventory.<EventInventory.Reply>ask(
          (ActorRef<EventInventory.Reply> r) -> new EventInventory.HoldBest(account, 2, null, null, r), ASK_TIMEOUT);
      // With an explicit executor: the stage of an ask is a Scala future's CompletableFuture, which
      // runs plain whenComplete callbacks async on the common pool, and with fewer than 3 cores
      // that "pool" is a new thread per callback, which would make the load generator the bottleneck.
      answer.whenCompleteAsync((reply, error) -> answered(outcome(reply, error), t0), shared.callbacks());
    }

    private void answered(String outcome, long t0) {
      switch (outcome) {
        case HELD -> {
          long micros = Math.min((System.nanoTime() - t0) / 1000, MAX_LATENCY_US);
          shared.latency().recordValue(micros);
          if (firstOfAccount) shared.firstOfAccount().recordValue(micros);
          firstOfAccount = false;
          shared.holds().increment();
          next();
        }
        case "no_seats" -> shared.done().countDown();
        case "limit_exceeded" -> {
          nextAccount();
          next();
        }
        default -> {
          // busy, unavailable, an ask timeout: count it, back off a little, go on.
          shared.refused(outcome);
          CompletableFuture.delayedExecutor(10, TimeUnit.MILLISECONDS, shared.callbacks()).execute(this::next);
        }
      }
    }

    /** "held" for 2 seats held, else the refusal's code. */
    private static String outcome(Object reply, Throwable error) {
      if (error != null) return "ask_timeout";
      if (reply instanceof EventInventory.Held h) return h.seats().size() == 2 ? HELD : "held_" + h.seats().size();
      if (reply instanceof EventInventory.Rejected r) return r.code().code();
      return String.valueOf(reply);
    }
  }

  /** How the inventory's journal looks after a round: one row per group commit. */
  private static String journalShape(String eventId, long holds, double seconds) {
    String q = "SELECT count(*), coalesce(avg(length(event_payload)), 0), coalesce(max(length(event_payload)), 0)"
        + " FROM event_journal WHERE persistence_id = ?";
    try (Connection c = BenchDb.connect(); PreparedStatement st = c.prepareStatement(q)) {
      st.setString(1, EventInventory.ENTITY_TYPE_KEY.name() + "|" + eventId);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        long batches = rs.getLong(1) - 1; // the first row is EventCreated
        return String.format("journal: %,d batches, %.1f holds/batch, %.1f ms/batch, avg %,.0f B, max %,d B",
            batches, batches > 0 ? (double) holds / batches : 0, batches > 0 ? seconds * 1000 / batches : 0,
            rs.getDouble(2), rs.getLong(3));
      }
    } catch (SQLException e) {
      return "journal: " + e.getMessage();
    }
  }

  /** Removes this run's journal and snapshot rows (its ids all start with {@code run}). */
  static void deleteJournal(String run) {
    try (Connection c = BenchDb.connect()) {
      for (String table : List.of("event_journal", "snapshot")) {
        try (PreparedStatement st = c.prepareStatement("DELETE FROM " + table + " WHERE persistence_id LIKE ?")) {
          st.setString(1, EventInventory.ENTITY_TYPE_KEY.name() + "|" + run + "%");
          st.executeUpdate();
        }
      }
    } catch (SQLException e) {
      System.err.println("could not delete this run's journal rows: " + e.getMessage());
    }
  }
}
