package io.boxoffice.bench;

import io.boxoffice.support.HttpFan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
 * Invariant 9 measured: one node (the packaged jar, PostgreSQL) with two open sales on the same
 * 70,000-seat venue. A quiet event's best-available 2-seat holds at {@code quiet} connections
 * run alone for {@code seconds}, then again (on a fresh quiet event, so both rounds start from
 * an empty house) while a hot event is flooded by {@code hot.readers} connections reading its
 * availability and {@code hot.holders} connections holding its seats. Each connection asks
 * again as soon as it is answered; after a 503 it waits Retry-After first, as the fan's page
 * does ({@code -Dflood.honours-retry-after=false}: a hostile flood that does not, which only the
 * per-account and per-prefix rate limits stop, raised here because every fan of the bench
 * shares one address). Printed: the quiet event's throughput and p50/p99 in both rounds, their ratios
 * (target: p99 at most 2x alone, throughput at least 0.5x), and what the hot event got and was
 * refused. Properties: {@code seconds} (10), {@code quiet} (4), {@code hot.readers} (256),
 * {@code hot.holders} (64), {@code flood.honours-retry-after} (true), {@code warmup} (60 s of
 * quiet holds and the flood, on events of their own, uncounted), {@code jar}
 * (server/target/boxoffice.jar), {@code node.opts} (-Xms1g -Xmx1g -XX:+UseParallelGC).
 */
public final class BulkheadBench {
  private static final long MAX_LATENCY_US = TimeUnit.MINUTES.toMicros(1);
  private static final String BEST = "{\"best\":{\"quantity\":2}}";

  private BulkheadBench() {}

  /** What one class of connections got: answers by status (and error code), and the latency of the successes. */
  record Tally(String name, Map<String, LongAdder> answers, Histogram latency, LongAdder ok, double[] seconds) {
    Tally(String name) {
      this(name, new ConcurrentHashMap<>(), new ConcurrentHistogram(MAX_LATENCY_US, 3), new LongAdder(), new double[1]);
    }

    void record(Answer r, long startedNanos) {
      if (r.status() == 200) {
        ok.increment();
        latency.recordValue(Math.min((System.nanoTime() - startedNanos) / 1000, MAX_LATENCY_US));
      }
      String key = r.status() == 200 ? "200" : r.status() + " " + r.error();
      answers.computeIfAbsent(key, k -> new LongAdder()).increment();
    }

    double rate() { return ok.sum() / seconds[0]; }

    long total() { return answers.values().stream().mapToLong(LongAdder::sum).sum(); }

    long count(String prefix) {
      return answers.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToLong(e -> e.getValue().sum()).sum();
    }

    String line() {
      Map<String, Long> sorted = new TreeMap<>();
      answers.forEach((k, v) -> sorted.put(k, v.sum()));
      return String.format("%-26s %,8.0f ok/s  p50 %,7.1f ms  p99 %,7.1f ms  answers %s", name, rate(),
          latency.getValueAtPercentile(50) / 1000.0, latency.getValueAtPercentile(99) / 1000.0, sorted);
    }
  }

  /**
   * CPU seconds used so far by the node, by this load generator and by PostgreSQL (its
   * processes now: the node's pooled connections live through a round), from /proc.
   */
  record Cpu(double node, double generator, double database, long nanos) {
    static Cpu now(JarNode n) {
      double pg = 0;
      try (var procs = java.nio.file.Files.list(Path.of("/proc"))) {
        for (Path d : (Iterable<Path>) procs::iterator) {
          String name = d.getFileName().toString();
          if (!name.chars().allMatch(Character::isDigit)) continue;
          try {
            if (java.nio.file.Files.readString(d.resolve("comm")).trim().equals("postgres")) {
              double s = io.boxoffice.load.ChildNode.cpuSeconds(Long.parseLong(name));
              if (!Double.isNaN(s)) pg += s;
            }
          } catch (java.io.IOException gone) {
            // The process ended meanwhile.
          }
        }
      } catch (java.io.IOException e) {
        pg = Double.NaN;
      }
      return new Cpu(n.cpuSeconds(), io.boxoffice.load.ChildNode.cpuSeconds(ProcessHandle.current().pid()), pg, System.nanoTime());
    }

    /** Cores each used between {@code before} and this snapshot. */
    String since(Cpu before) {
      double s = (nanos - before.nanos) / 1e9;
      return String.format("CPU cores used: node %.2f, load generator %.2f, PostgreSQL %.2f (of %d)", (node - before.node) / s,
          (generator - before.generator) / s, (database - before.database) / s, Runtime.getRuntime().availableProcessors());
    }
  }

  /** A status and, for a refusal, its error code. */
  record Answer(int status, String error, long retryAfterSeconds) {
    /** As the fan's page does after a 503 (fan.js): waits what Retry-After says before asking again, when told to. */
    void backOff(boolean honour) throws InterruptedException {
      if (honour && status == 503) TimeUnit.SECONDS.sleep(Math.max(1, Math.min(5, retryAfterSeconds)));
    }
  }

  /**
   * HTTP/1.1 connections of one class of load, with an I/O thread of their own: the quiet
   * fans' answers never wait in the load generator behind the flood's, so what is measured is
   * the node. A success's body is read and dropped (17.5 KB of availability, decoded per
   * answer, once cost the generator more than the node); a refusal's error code is kept.
   */
  static final class Lane {
    private static final java.util.regex.Pattern ERROR = java.util.regex.Pattern.compile("\"error\"\\s*:\\s*\"([^\"]*)\"");
    private final java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
        .version(java.net.http.HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    Lane(int port) {
      this.base = "http://127.0.0.1:" + port;
    }

    Answer send(String method, String path, String body, String cookie) {
      java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + path))
          .timeout(Duration.ofSeconds(30)).header("Cookie", "bo_id=" + cookie)
          .method(method, body == null ? java.net.http.HttpRequest.BodyPublishers.noBody()
              : java.net.http.HttpRequest.BodyPublishers.ofString(body));
      if (body != null) b.header("Content-Type", "application/json");
      try {
        java.net.http.HttpResponse<String> r = client.send(b.build(), info -> info.statusCode() == 200
            ? java.net.http.HttpResponse.BodySubscribers.replacing("")
            : java.net.http.HttpResponse.BodySubscribers.ofString(java.nio.charset.StandardCharsets.UTF_8));
        java.util.regex.Matcher m = ERROR.matcher(r.body());
        long retryAfter = r.headers().firstValue("Retry-After").map(v -> {
          try {
            return Long.parseLong(v.trim());
          } catch (NumberFormatException e) {
            return 1L;
          }
        }).orElse(1L);
        return new Answer(r.statusCode(), m.find() ? m.group(1) : "", retryAfter);
      } catch (java.io.IOException e) {
        return new Answer(0, e.getClass().getSimpleName(), 0);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Answer(0, "interrupted", 0);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    int seconds = Integer.getInteger("seconds", 10);
    int quiet = Integer.getInteger("quiet", 4);
    int readers = Integer.getInteger("hot.readers", 256);
    int holders = Integer.getInteger("hot.holders", 64);
    int warmup = Integer.getInteger("warmup", 60);
    // The fan's page waits Retry-After after a 503; a hostile flood does not (-Dflood.honours-retry-after=false).
    boolean honour = Boolean.parseBoolean(System.getProperty("flood.honours-retry-after", "true"));
    Path jar = Path.of(System.getProperty("jar", "server/target/boxoffice.jar"));
    List<String> nodeOpts = List.of(System.getProperty("node.opts", "-Xms1g -Xmx1g -XX:+UseParallelGC").trim().split("\\s+"));
    String run = "bh" + Long.toString(System.currentTimeMillis(), 36);

    Tally alone;
    Tally flooded;
    Tally hotReads;
    Tally hotHolds;
    String cpuAlone;
    String cpuFlooded;
    try (JarNode node = JarNode.start(jar, Path.of("target/bench/bulkhead-node.log"), nodeOpts, Duration.ofMinutes(3))) {
      HttpHoldBench.Admin admin = new HttpHoldBench.Admin(node.httpPort, node.adminToken);
      String venue = admin.venue(run);
      String hot = run + "-hot";
      admin.openSale(hot, venue);
      // Accounts are made before the clock runs. A quiet fan holds up to the per-account limit
      // in each quiet event (its own), so one set serves every quiet round.
      int perFan = HttpHoldBench.MAX_SEATS_PER_ACCOUNT / 2;
      int quietFans = (int) Math.min(3_000, 3_000L * seconds / perFan + quiet * 2);
      int hotFans = (int) Math.min(3_000, 3_000L * seconds / perFan + holders * 2);
      System.out.printf("signing up %,d quiet and %,d hot fans%n", quietFans, hotFans);
      List<String> quietCrowd = HttpHoldBench.signUp(node.httpPort, run + "-q", quietFans, 32).stream().map(HttpFan::cookie).toList();
      List<String> hotCrowd = HttpHoldBench.signUp(node.httpPort, run + "-h", hotFans, 32).stream().map(HttpFan::cookie).toList();
      Lane quietLane = new Lane(node.httpPort);
      Lane readLane = new Lane(node.httpPort);
      Lane holdLane = new Lane(node.httpPort);

      // Both kinds of load run uncounted first, on events of their own: on a fresh JVM the JIT
      // compiles for minutes (C2 alone took 0.3-0.45 of the 2 cores through a 5-s warm-up and
      // both rounds, and the quiet event's rate alone rose 268 -> 366 -> 483 holds/s with 5, 30
      // and 90 s of warm-up), and a flood's code paths would otherwise warm up in round 2 only.
      String warm = run + "-warm";
      admin.openSale(warm, venue);
      String warmHot = run + "-warm-hot";
      admin.openSale(warmHot, venue);
      Flood warmFlood = Flood.start(readLane, holdLane, hotCrowd, warmHot, readers, holders, honour);
      Tally warmed = holdFor(new Tally("quiet warm-up"), quietLane, quietCrowd, warm, quiet, warmup, new AtomicBoolean());
      warmFlood.stop();
      System.out.println("warm-up    " + warmed.line() + "; flood reads " + warmFlood.reads.ok().sum() + ", holds " + warmFlood.holds.ok().sum());

      String q1 = run + "-q1";
      admin.openSale(q1, venue);
      Cpu cpu0 = Cpu.now(node);
      alone = holdFor(new Tally("quiet alone"), quietLane, quietCrowd, q1, quiet, seconds, new AtomicBoolean());
      cpuAlone = Cpu.now(node).since(cpu0);
      System.out.println("round 1    " + alone.line());
      System.out.println("           " + cpuAlone);

      String q2 = run + "-q2";
      admin.openSale(q2, venue);
      Flood flood = Flood.start(readLane, holdLane, hotCrowd, hot, readers, holders, honour);
      // The flood reaches its pace before the quiet fans start.
      TimeUnit.SECONDS.sleep(3);
      Cpu cpu1 = Cpu.now(node);
      flooded = holdFor(new Tally("quiet during the flood"), quietLane, quietCrowd, q2, quiet, seconds, new AtomicBoolean());
      cpuFlooded = Cpu.now(node).since(cpu1);
      flood.stop();
      hotReads = flood.reads;
      hotHolds = flood.holds;
      System.out.println("round 2    " + flooded.line());
      System.out.println("           " + hotReads.line());
      System.out.println("           " + hotHolds.line());
      System.out.println("           " + cpuFlooded);
    } finally {
      HoldThroughputBench.deleteJournal(run);
    }

    double p99Alone = alone.latency().getValueAtPercentile(99) / 1000.0;
    double p99Flood = flooded.latency().getValueAtPercentile(99) / 1000.0;
    double p99Ratio = p99Flood / p99Alone;
    double rateRatio = flooded.rate() / alone.rate();
    System.out.println();
    System.out.printf("==== BulkheadBench: a quiet event's holds while another event on the node is flooded (%d s, PostgreSQL, packaged jar) ====%n",
        seconds);
    System.out.printf("quiet: %d connections of best-available 2-seat holds; hot: %d connections reading availability + %d holding,%n",
        quiet, readers, holders);
    System.out.println(honour ? "       each asking again at once, but after a 503 only when its Retry-After has passed (as the fan's page does)"
        : "       each asking again at once after any answer, also after a 503 (Retry-After ignored: -Dflood.honours-retry-after=false)");
    System.out.printf("quiet alone          %,8.0f holds/s   p50 %6.1f ms   p99 %6.1f ms   (%,d holds)%n", alone.rate(),
        alone.latency().getValueAtPercentile(50) / 1000.0, p99Alone, alone.ok().sum());
    System.out.printf("quiet during flood   %,8.0f holds/s   p50 %6.1f ms   p99 %6.1f ms   (%,d holds; refused %s)%n", flooded.rate(),
        flooded.latency().getValueAtPercentile(50) / 1000.0, p99Flood, flooded.ok().sum(), refusals(flooded));
    System.out.printf("hot reads            %,8.0f ok/s of %,8.0f asked/s   shed 503: %,d of %,d (%.0f%%)%n", hotReads.rate(),
        hotReads.total() / hotReads.seconds()[0], hotReads.count("503"), hotReads.total(), 100.0 * hotReads.count("503") / hotReads.total());
    System.out.printf("hot holds            %,8.0f ok/s of %,8.0f asked/s   shed 503: %,d of %,d (%.0f%%); other answers %s%n", hotHolds.rate(),
        hotHolds.total() / hotHolds.seconds()[0], hotHolds.count("503"), hotHolds.total(), 100.0 * hotHolds.count("503") / hotHolds.total(),
        refusals(hotHolds));
    System.out.println("quiet alone:         " + cpuAlone);
    System.out.println("quiet during flood:  " + cpuFlooded);
    System.out.printf("ratio quiet p99      %.2fx alone   (target <= 2x)   %s%n", p99Ratio, p99Ratio <= 2 ? "met" : "NOT met");
    System.out.printf("ratio quiet holds/s  %.2fx alone   (target >= 0.5x) %s%n", rateRatio, rateRatio >= 0.5 ? "met" : "NOT met");
  }

  private static Map<String, Long> refusals(Tally t) {
    Map<String, Long> m = new TreeMap<>();
    t.answers().forEach((k, v) -> { if (!k.equals("200")) m.put(k, v.sum()); });
    return m;
  }

  /** The hot event's flood: {@code readers} connections reading its availability and {@code holders} holding its seats, until stopped. */
  static final class Flood {
    final Tally reads = new Tally("hot availability reads");
    final Tally holds = new Tally("hot holds");
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService pool;
    private final List<Future<?>> connections = new ArrayList<>();
    private final long started = System.nanoTime();

    private Flood(int threads) {
      pool = Executors.newFixedThreadPool(threads);
    }

    static Flood start(Lane readLane, Lane holdLane, List<String> crowd, String eventId, int readers, int holders, boolean honour) {
      Flood f = new Flood(readers + holders);
      AtomicInteger nextFan = new AtomicInteger();
      String path = "/api/events/" + eventId + "/availability";
      for (int i = 0; i < readers; i++) {
        String reader = crowd.get(i % crowd.size());
        f.connections.add(f.pool.submit(() -> {
          while (!f.stop.get()) {
            long t0 = System.nanoTime();
            Answer r = readLane.send("GET", path, null, reader);
            f.reads.record(r, t0);
            r.backOff(honour);
          }
          return null;
        }));
      }
      for (int i = 0; i < holders; i++) {
        f.connections.add(f.pool.submit(() -> {
          holdUntilStopped(f.holds, holdLane, crowd, nextFan, eventId, f.stop, honour);
          return null;
        }));
      }
      return f;
    }

    /** Stops every connection once its answer is in; the tallies' rates count from the start. */
    void stop() throws Exception {
      stop.set(true);
      for (Future<?> c : connections) c.get(2, TimeUnit.MINUTES);
      pool.shutdownNow();
      double seconds = (System.nanoTime() - started) / 1e9;
      reads.seconds()[0] = seconds;
      holds.seconds()[0] = seconds;
    }
  }

  /** {@code connections} threads hold 2 seats at a time in {@code eventId} for {@code seconds}, each through its own fans. */
  static Tally holdFor(Tally tally, Lane lane, List<String> fans, String eventId, int connections, int seconds, AtomicBoolean stop)
      throws Exception {
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(connections);
    long started = System.nanoTime();
    long end = started + TimeUnit.SECONDS.toNanos(seconds);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        workers.add(pool.submit(() -> {
          int f = next.getAndIncrement();
          String path = "/api/events/" + eventId + "/cart/holds";
          while (!stop.get() && System.nanoTime() < end && f < fans.size()) {
            long t0 = System.nanoTime();
            Answer r = lane.send("POST", path, BEST, fans.get(f));
            tally.record(r, t0);
            r.backOff(true);
            if (r.status() == 422) f = next.getAndIncrement();
            else if (r.status() == 409 && "no_seats".equals(r.error())) stop.set(true);
          }
          return null;
        }));
      }
      for (Future<?> w : workers) w.get();
    } finally {
      pool.shutdownNow();
    }
    tally.seconds()[0] = (System.nanoTime() - started) / 1e9;
    return tally;
  }

  /** One flooding holder: holds in the hot event until told to stop, moving to the next fan at the per-account limit. */
  private static void holdUntilStopped(Tally tally, Lane lane, List<String> fans, AtomicInteger next, String eventId, AtomicBoolean stop,
                                       boolean honour) throws InterruptedException {
    String path = "/api/events/" + eventId + "/cart/holds";
    int f = next.getAndIncrement() % fans.size();
    while (!stop.get()) {
      long t0 = System.nanoTime();
      Answer r = lane.send("POST", path, BEST, fans.get(f));
      tally.record(r, t0);
      r.backOff(honour);
      if (r.status() == 422) f = next.getAndIncrement() % fans.size();
    }
  }
}
