package io.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.support.HttpFan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Holds as a fan meets them: best-available 2-seat holds through the real HTTP routes of the
 * packaged jar (signed identity cookie checked, JSON parsed, the event's inventory asked, the
 * answer only after the journal write) until a 70,000-seat open sale is sold out. The load is
 * wrk with a Lua script ({@code concurrency} keep-alive connections over {@code wrk.threads}
 * threads, each thread working through its own signed-in fans, each fan
 * {@value #MAX_SEATS_PER_ACCOUNT} seats): a load generator that costs little, in a process of its
 * own, so the node's JVM is the only Java on the clock. The sell-out is seen by polling the
 * event's stats. In the same run, on the same database and at the same concurrency: the seed's
 * SKIP LOCKED statement ({@link HoldThroughputBench#sqlRound}).
 *
 * <p>Also printed: the node's CPU time per hold ({@code /proc}), which shared-machine noise
 * moves far less than a rate.
 *
 * <p>System properties: {@code concurrency} (64), {@code wrk.threads} (2), {@code rounds} (3,
 * medians compared), {@code warmup} (1 uncounted HTTP round), {@code sql.window} (15 s),
 * {@code jar} (server/target/boxoffice.jar), {@code node.opts} (-Xms1g -Xmx1g -XX:+UseParallelGC),
 * {@code db.*}, {@code baselines}.
 */
public final class HttpHoldBench {
  static final int SEATS = 70_000;
  static final int MAX_SEATS_PER_ACCOUNT = 50;
  private static final int HOLDS_PER_FAN = MAX_SEATS_PER_ACCOUNT / 2;
  private static final Duration ROUND_LIMIT = Duration.ofMinutes(3);
  private static final Pattern WRK_P50 = Pattern.compile("\\s50%\\s+(\\S+)");
  private static final Pattern WRK_P99 = Pattern.compile("\\s99%\\s+(\\S+)");
  private static final Pattern WRK_CODES = Pattern.compile("codes (.*)");

  private HttpHoldBench() {}

  public static void main(String[] args) throws Exception {
    int concurrency = Integer.getInteger("concurrency", 64);
    int threads = Integer.getInteger("wrk.threads", 2);
    int rounds = Integer.getInteger("rounds", 3);
    int warmups = Integer.getInteger("warmup", 1);
    Duration window = Duration.ofSeconds(Long.getLong("sql.window", 15));
    Path jar = Path.of(System.getProperty("jar", "server/target/boxoffice.jar"));
    List<String> nodeOpts = List.of(System.getProperty("node.opts", "-Xms1g -Xmx1g -XX:+UseParallelGC").trim().split("\\s+"));
    String setup = BenchDb.baseline("skiplocked_setup.sql");
    String hold = BenchDb.single(BenchDb.baseline("skiplocked_hold.sql"));
    String run = "hbench" + Long.toString(System.currentTimeMillis(), 36);

    List<HoldThroughputBench.Round> sql = new ArrayList<>();
    List<WrkRound> http = new ArrayList<>();
    try (JarNode node = JarNode.start(jar, Path.of("target/bench/http-holds-node.log"), nodeOpts, Duration.ofMinutes(3))) {
      Admin admin = new Admin(node.httpPort, node.adminToken);
      String venue = admin.venue(run);
      // Accounts are made before the clock runs (signing up is not what this measures); the
      // per-account limit is per event, so one crowd serves every round.
      int fansNeeded = SEATS / MAX_SEATS_PER_ACCOUNT + concurrency * 2;
      System.out.printf("signing up %,d fans%n", fansNeeded);
      List<String> cookies = signUp(node.httpPort, run, fansNeeded, 32).stream().map(HttpFan::cookie).toList();
      for (int r = 1; r <= warmups; r++) {
        System.out.println("warm-up " + r + "  HTTP  " + wrkRound(node, admin, venue, run + "-warm" + r, threads, concurrency, cookies).line());
      }
      for (int r = 1; r <= rounds; r++) {
        sql.add(HoldThroughputBench.sqlRound(setup, hold, concurrency, window));
        System.out.println("round " + r + " SQL   " + sql.get(r - 1).line());
        http.add(wrkRound(node, admin, venue, run + "-h" + r, threads, concurrency, cookies));
        System.out.println("round " + r + " HTTP  " + http.get(r - 1).line());
      }
    } finally {
      BenchDb.dropSeats();
      HoldThroughputBench.deleteJournal(run);
    }

    HoldThroughputBench.Round s = median(sql);
    WrkRound h = http.stream().sorted(Comparator.comparingDouble(WrkRound::rate)).toList().get(http.size() / 2);
    System.out.println();
    System.out.println("==== HttpHoldBench: best-available 2-seat holds through HTTP, one open sale of 70,000 seats, PostgreSQL ====");
    System.out.printf("concurrency        %d (SQL: autocommit JDBC connections; HTTP: wrk -t%d keep-alive connections, one request"
        + " in flight each, to the packaged jar)%n", concurrency, threads);
    System.out.printf("rounds             %d after %d HTTP warm-up, median shown (SQL window %d s or sold out; boxoffice until sold out)%n",
        rounds, warmups, window.toSeconds());
    System.out.printf("SQL SKIP LOCKED    %,9.0f holds/s   %s%n", s.rate(), BenchDb.latencies(s.latency()));
    System.out.printf("boxoffice HTTP     %,9.0f holds/s   sell-out %.2f s   p50 %s  p99 %s   node CPU %,.0f µs per hold (%.0f%% in the kernel)%n",
        h.rate(), h.seconds(), h.p50(), h.p99(), h.cpuMicrosPerHold(), 100 * h.kernelShare());
    StringBuilder perRound = new StringBuilder();
    for (int r = 0; r < rounds; r++) perRound.append(String.format(" %.1fx", http.get(r).rate() / sql.get(r).rate()));
    System.out.printf("ratio HTTP/SQL     %.1fx of the medians, per round%s%n", h.rate() / s.rate(), perRound);
  }

  /** One sell-out through wrk: holds until nothing is left, when the poll of the stats saw 0 available. */
  record WrkRound(long holds, double seconds, double cpuSeconds, double kernelShare, String p50, String p99, String codes) {
    double rate() { return holds / seconds; }

    double cpuMicrosPerHold() { return cpuSeconds * 1e6 / holds; }

    String line() {
      return String.format("%,9.0f holds/s  %,6d holds in %5.2f s  p50 %s  p99 %s  node CPU %.1f s (%,.0f µs/hold, %.0f%% in the kernel)  answers %s  load %s",
          rate(), holds, seconds, p50, p99, cpuSeconds, cpuMicrosPerHold(), 100 * kernelShare, codes, BenchDb.loadAverage());
    }
  }

  /**
   * A fresh open sale held until sold out by wrk: each of its threads takes every
   * {@code threads}-th fan, {@value #HOLDS_PER_FAN} holds each (the per-account limit), so no
   * answer has to steer the load. The clock runs from wrk's start to the first stats poll that
   * sees no seat available; wrk is then stopped (SIGINT, on which it prints its figures).
   */
  static WrkRound wrkRound(JarNode node, Admin admin, String venue, String eventId, int threads, int connections,
                           List<String> cookies) throws Exception {
    admin.openSale(eventId, venue);
    Path script = Path.of("target/bench/http-holds.lua").toAbsolutePath();
    Files.createDirectories(script.getParent());
    Files.writeString(script, luaScript(eventId, threads, cookies));
    ProcessBuilder pb = new ProcessBuilder("wrk", "-t" + threads, "-c" + connections, "-d" + ROUND_LIMIT.toSeconds() + "s",
        "--latency", "-s", script.toString(), "http://127.0.0.1:" + node.httpPort).redirectErrorStream(true);
    io.boxoffice.load.ChildNode.CpuTime cpu0 = node.cpuTime();
    long t0 = System.nanoTime();
    Process wrk = pb.start();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
      try {
        return new String(wrk.getInputStream().readAllBytes());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    long soldOutAt = 0;
    long available = -1;
    while (System.nanoTime() - t0 < ROUND_LIMIT.toNanos() && wrk.isAlive()) {
      available = admin.stats(eventId).get("seats").get("available").asLong();
      if (available == 0) {
        soldOutAt = System.nanoTime();
        break;
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
    io.boxoffice.load.ChildNode.CpuTime cpu = node.cpuTime().minus(cpu0);
    new ProcessBuilder("kill", "-INT", Long.toString(wrk.pid())).start().waitFor();
    String said = out.get(30, TimeUnit.SECONDS);
    wrk.waitFor(30, TimeUnit.SECONDS);
    if (soldOutAt == 0) throw new IllegalStateException("not sold out (" + available + " left); wrk said: " + said);
    JsonNode seats = admin.stats(eventId).get("seats");
    long holds = seats.get("held").asLong() / 2;
    return new WrkRound(holds, (soldOutAt - t0) / 1e9, cpu.total(), cpu.kernelShare(), find(WRK_P50, said), find(WRK_P99, said), find(WRK_CODES, said));
  }

  private static String find(Pattern p, String text) {
    Matcher m = p.matcher(text);
    return m.find() ? m.group(1) : "?";
  }

  /** wrk's script: each thread's n-th request is the hold of fan {@code thread + threads * (n / HOLDS_PER_FAN)}. */
  static String luaScript(String eventId, int threads, List<String> cookies) {
    StringBuilder lua = new StringBuilder("local cookies = {\n");
    for (String c : cookies) lua.append("  \"bo_id=").append(c).append("\",\n");
    lua.append("}\n");
    lua.append("local path = \"/api/events/").append(eventId).append("/cart/holds\"\n");
    lua.append("""
        local body = '{"best":{"quantity":2}}'
        local threads = {}
        local next_id = 0
        function setup(thread)
          thread:set("tid", next_id)
          next_id = next_id + 1
          table.insert(threads, thread)
        end
        function init(args)
          n = 0
          answers = {}
        end
        function request()
          local fan = tid + %d * math.floor(n / %d)
          n = n + 1
          return wrk.format("POST", path, {["Cookie"] = cookies[(fan %% #cookies) + 1], ["Content-Type"] = "application/json"}, body)
        end
        function response(status, headers, body)
          answers[status] = (answers[status] or 0) + 1
        end
        function done(summary, latency, requests)
          local all = {}
          for _, t in ipairs(threads) do
            for status, count in pairs(t:get("answers")) do all[status] = (all[status] or 0) + count end
          end
          local line = ""
          for status, count in pairs(all) do line = line .. status .. "=" .. count .. " " end
          print("codes " .. line)
        end
        """.formatted(threads, HOLDS_PER_FAN));
    return lua.toString();
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
