package io.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Holds as a fan meets them: best-available 2-seat holds through the real HTTP routes (signed
 * identity cookie checked, JSON parsed, the event's inventory asked, the answer only after the
 * journal write) until a 70,000-seat open sale is sold out, by {@code concurrency} HTTP/1.1
 * connections, each working through its own signed-in fans (an account may hold
 * {@value #MAX_SEATS_PER_ACCOUNT} seats). In the same run, on the same database and at the same
 * concurrency: the seed's SKIP LOCKED statement ({@link HoldThroughputBench#sqlRound}), and the
 * same node's inventory asked directly ({@link HoldThroughputBench#boxofficeRound}), so the
 * edge's share of the cost shows as the ratio of the two boxoffice figures.
 *
 * <p>System properties: {@code concurrency} (64), {@code rounds} (3, medians compared),
 * {@code warmup} (1 uncounted HTTP round), {@code sql.window} (15 s), {@code db.*}, {@code baselines}.
 */
public final class HttpHoldBench {
  static final int SEATS = 70_000;
  static final int MAX_SEATS_PER_ACCOUNT = 50;
  private static final Duration ROUND_LIMIT = Duration.ofMinutes(3);
  private static final long MAX_LATENCY_US = TimeUnit.MINUTES.toMicros(1);

  private HttpHoldBench() {}

  public static void main(String[] args) throws Exception {
    int concurrency = Integer.getInteger("concurrency", 64);
    int rounds = Integer.getInteger("rounds", 3);
    int warmups = Integer.getInteger("warmup", 1);
    Duration window = Duration.ofSeconds(Long.getLong("sql.window", 15));
    String setup = BenchDb.baseline("skiplocked_setup.sql");
    String hold = BenchDb.single(BenchDb.baseline("skiplocked_hold.sql"));
    String run = "hbench" + Long.toString(System.currentTimeMillis(), 36);
    String adminToken = run + "-admin-token-0123456789abcdefghijklmnop";

    List<HoldThroughputBench.Round> sql = new ArrayList<>();
    List<HoldThroughputBench.Round> http = new ArrayList<>();
    List<HoldThroughputBench.Round> actor = new ArrayList<>();
    Node node = Node.start(nodeConfig(run, adminToken), new Node.Options(Clock.systemUTC(), null));
    try {
      Admin admin = new Admin(node.httpPort(), adminToken);
      String venue = admin.venue(run);
      // Accounts are made before the clock runs: signing up is not what this measures.
      int fansNeeded = SEATS / MAX_SEATS_PER_ACCOUNT + concurrency * 2;
      for (int r = 1; r <= warmups; r++) {
        System.out.println("warm-up " + r + "  HTTP      " + httpRound(node, admin, venue, run + "-warm" + r, concurrency, fansNeeded).line());
      }
      for (int r = 1; r <= rounds; r++) {
        sql.add(HoldThroughputBench.sqlRound(setup, hold, concurrency, window));
        System.out.println("round " + r + " SQL       " + sql.get(r - 1).line());
        http.add(httpRound(node, admin, venue, run + "-h" + r, concurrency, fansNeeded));
        System.out.println("round " + r + " HTTP      " + http.get(r - 1).line());
        actor.add(HoldThroughputBench.boxofficeRound(node.system(), run + "-a" + r, concurrency));
        System.out.println("round " + r + " actor ask " + actor.get(r - 1).line());
      }
    } finally {
      node.stop();
      BenchDb.dropSeats();
      HoldThroughputBench.deleteJournal(run);
    }

    HoldThroughputBench.Round s = median(sql);
    HoldThroughputBench.Round h = median(http);
    HoldThroughputBench.Round a = median(actor);
    System.out.println();
    System.out.println("==== HttpHoldBench: best-available 2-seat holds through HTTP, one open sale of 70,000 seats, PostgreSQL ====");
    System.out.printf("concurrency        %d (SQL: autocommit JDBC connections; HTTP: keep-alive connections, one request in flight each)%n",
        concurrency);
    System.out.printf("rounds             %d after %d HTTP warm-up, median shown (SQL window %d s or sold out; boxoffice until sold out)%n",
        rounds, warmups, window.toSeconds());
    System.out.printf("SQL SKIP LOCKED    %,9.0f holds/s   %s%n", s.rate(), BenchDb.latencies(s.latency()));
    System.out.printf("boxoffice HTTP     %,9.0f holds/s   %s   sell-out %.1f s%n", h.rate(), BenchDb.latencies(h.latency()),
        h.seconds());
    System.out.printf("boxoffice ask      %,9.0f holds/s   %s%n", a.rate(), BenchDb.latencies(a.latency()));
    StringBuilder perRound = new StringBuilder();
    for (int r = 0; r < rounds; r++) perRound.append(String.format(" %.1fx", http.get(r).rate() / sql.get(r).rate()));
    System.out.printf("ratio HTTP/SQL     %.1fx of the medians, per round%s%n", h.rate() / s.rate(), perRound);
    System.out.printf("ratio HTTP/ask     %.2fx (the edge's share of the cost: %.0f%%)%n", h.rate() / a.rate(),
        100 * (1 - h.rate() / a.rate()));
  }

  static Config nodeConfig(String run, String adminToken) {
    return ConfigFactory.parseMap(Map.of(
            "boxoffice.secrets.admin-token", adminToken,
            // One client address sends every fan's requests: no per-prefix or per-account limit
            // may be what the bench measures.
            "boxoffice.bots.rate-limits.per-account.burst", 1_000_000,
            "boxoffice.bots.rate-limits.per-account.per-second", 1_000_000,
            "boxoffice.bots.rate-limits.per-prefix.burst", 1_000_000,
            "boxoffice.bots.rate-limits.per-prefix.per-second", 1_000_000,
            "boxoffice.accounts.rate-limits.per-prefix.burst", 1_000_000,
            "boxoffice.accounts.rate-limits.per-email.burst", 1_000,
            "boxoffice.accounts.pbkdf2-iterations", 1_000))
        .withFallback(HoldThroughputBench.nodeConfig(run));
  }

  /** The admin API with this run's token. */
  record Admin(int port, String token) {
    HttpFan.Reply send(String method, String path, String body) {
      return new HttpFan(port).send(method, path, body, "Authorization", "Bearer " + token);
    }

    String venue(String run) {
      String id = run + "-v";
      expect(201, send("POST", "/admin/venues", "{\"venueId\":\"" + id + "\",\"name\":\"Bench Stadium\",\"generate\":"
          + "{\"layout\":\"stadium\",\"seats\":" + SEATS + "}}"), "venue");
      return id;
    }

    void openSale(String eventId, String venueId) {
      expect(201, send("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venueId
          + "\",\"name\":\"Bench\",\"prices\":{\"floor\":20000,\"lower\":12000,\"upper\":6000},\"holdSeconds\":600,"
          + "\"maxSeatsPerAccount\":" + MAX_SEATS_PER_ACCOUNT + "}"), "event");
      expect(200, send("POST", "/admin/events/" + eventId + "/open", null), "open");
    }

    JsonNode stats(String eventId) {
      HttpFan.Reply r = send("GET", "/admin/events/" + eventId + "/stats", null);
      expect(200, r, "stats");
      return r.json();
    }
  }

  static void expect(int status, HttpFan.Reply reply, String what) {
    if (reply.status() != status) throw new IllegalStateException(what + ": " + reply.status() + " " + reply.body());
  }

  /** A fresh open sale; {@code connections} threads hold 2 seats at a time through HTTP until nothing is left. */
  static HoldThroughputBench.Round httpRound(Node node, Admin admin, String venue, String eventId, int connections,
                                             int fansNeeded) throws Exception {
    admin.openSale(eventId, venue);
    List<HttpFan> fans = signUp(node.httpPort(), eventId, fansNeeded, connections);
    AtomicInteger nextFan = new AtomicInteger();
    LongAdder holds = new LongAdder();
    Histogram latency = new ConcurrentHistogram(MAX_LATENCY_US, 3);
    Map<String, LongAdder> refusals = new ConcurrentHashMap<>();
    AtomicBoolean soldOut = new AtomicBoolean();
    CyclicBarrier start = new CyclicBarrier(connections + 1);
    ExecutorService pool = Executors.newFixedThreadPool(connections);
    String path = "/api/events/" + eventId + "/cart/holds";
    String body = "{\"best\":{\"quantity\":2}}";
    long[] startedAt = new long[1];
    List<Future<?>> workers = new ArrayList<>();
    try {
      for (int i = 0; i < connections; i++) {
        workers.add(pool.submit(() -> {
          start.await(60, TimeUnit.SECONDS);
          long deadline = startedAt[0] + ROUND_LIMIT.toNanos();
          int f = nextFan.getAndIncrement();
          while (!soldOut.get() && f < fans.size() && System.nanoTime() < deadline) {
            long t0 = System.nanoTime();
            HttpFan.Reply r = fans.get(f).send("POST", path, body);
            if (r.status() == 200) {
              latency.recordValue(Math.min((System.nanoTime() - t0) / 1000, MAX_LATENCY_US));
              holds.increment();
              continue;
            }
            String code = r.status() + " " + r.error();
            refusals.computeIfAbsent(code, c -> new LongAdder()).increment();
            if (r.status() == 422) {
              f = nextFan.getAndIncrement(); // this account holds its limit: the next fan
            } else if (r.status() == 409 && "no_seats".equals(r.error())) {
              soldOut.set(true);
            }
          }
          return null;
        }));
      }
      startedAt[0] = System.nanoTime();
      start.await(60, TimeUnit.SECONDS);
      for (Future<?> w : workers) w.get();
      double seconds = (System.nanoTime() - startedAt[0]) / 1e9;
      Map<String, Long> refused = new TreeMap<>();
      refusals.forEach((code, n) -> refused.put(code, n.sum()));
      JsonNode seats = admin.stats(eventId).get("seats");
      String note = (soldOut.get() ? "sold out" : "NOT sold out") + "; seats " + seats;
      return new HoldThroughputBench.Round(holds.sum(), seconds, latency, refused, note);
    } finally {
      pool.shutdownNow();
    }
  }

  /** {@code count} new accounts, signed in, {@code parallel} at a time. */
  static List<HttpFan> signUp(int port, String run, int count, int parallel) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(parallel);
    try {
      List<Future<HttpFan>> made = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String email = run + "-" + i + "@bench.example";
        made.add(pool.submit(() -> signUpWithRetries(port, email)));
      }
      List<HttpFan> fans = new ArrayList<>(count);
      for (Future<HttpFan> f : made) fans.add(f.get());
      return fans;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Signs an account up and in, asking again after a 503 or 429 (a busy node while thousands sign up at once). */
  static HttpFan signUpWithRetries(int port, String email) throws InterruptedException {
    String body = "{\"email\":\"" + email + "\",\"password\":\"correct horse battery\"}";
    HttpFan fan = new HttpFan(port);
    for (int attempt = 1; ; attempt++) {
      HttpFan.Reply created = fan.send("POST", "/api/accounts", body);
      if (created.status() == 201 || created.status() == 409) break;
      retryOrFail(created, attempt, "sign-up");
    }
    for (int attempt = 1; ; attempt++) {
      HttpFan.Reply session = fan.send("POST", "/api/session", body);
      if (session.status() == 200) {
        String setCookie = session.headers().firstValue("Set-Cookie").orElseThrow();
        return fan.withCookie(setCookie.substring("bo_id=".length(), setCookie.indexOf(';')));
      }
      retryOrFail(session, attempt, "sign-in");
    }
  }

  private static void retryOrFail(HttpFan.Reply reply, int attempt, String what) throws InterruptedException {
    if ((reply.status() != 503 && reply.status() != 429) || attempt >= 20) {
      throw new IllegalStateException(what + ": " + reply.status() + " " + reply.body());
    }
    Thread.sleep(200L * attempt); // a load generator backing off, as a browser would
  }

  private static HoldThroughputBench.Round median(List<HoldThroughputBench.Round> rounds) {
    List<HoldThroughputBench.Round> sorted = new ArrayList<>(rounds);
    sorted.sort(java.util.Comparator.comparingDouble(HoldThroughputBench.Round::rate));
    return sorted.get(sorted.size() / 2);
  }
}
