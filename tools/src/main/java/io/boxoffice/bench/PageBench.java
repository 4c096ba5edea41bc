package io.boxoffice.bench;

import io.boxoffice.load.ChildNode;
import io.boxoffice.load.ChildNode.CpuTime;
import io.boxoffice.support.HttpFan;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The waiting-room page for a waiting fan under {@code wrk}: boxoffice (identity cookie and
 * queue token verified on every request, the page answered from memory) as an operator runs it,
 * the packaged jar in a JVM of its own ({@link JarNode}), against nginx serving the same bytes
 * from disk on the same machine, and against {@link BarePekkoHttpPeer} (pekko-http answering the
 * same bytes and doing nothing else: what our stack costs before any work of ours), rounds
 * alternating, with each wrk thread count in turn; with the CPU time each server spent per request
 * and the kernel's share of it (nginx: its master and workers).
 * Properties: {@code connections} (64), {@code threads} (1,2: one measurement per count),
 * {@code seconds} (15), {@code rounds} (3), {@code jar} (server/target/boxoffice.jar),
 * {@code node.opts} (-Xms1g -Xmx1g -XX:+UseParallelGC). Needs {@code wrk} and {@code nginx} on the
 * PATH (Debian packages wrk and nginx-light).
 */
public final class PageBench {
  private static final int NGINX_PORT = Integer.getInteger("nginx.port", 18080);
  private static final int BARE_PORT = Integer.getInteger("bare.port", 18090);

  public static void main(String[] args) throws Exception {
    int connections = Integer.getInteger("connections", 64);
    List<Integer> threadCounts = Arrays.stream(System.getProperty("threads", "1,2").split(","))
        .map(String::trim).map(Integer::valueOf).toList();
    int seconds = Integer.getInteger("seconds", 15);
    int rounds = Integer.getInteger("rounds", 3);
    Path dir = Path.of("target/bench/nginx").toAbsolutePath();
    Files.createDirectories(dir.resolve("root"));
    byte[] page;
    try (InputStream in = PageBench.class.getClassLoader().getResourceAsStream("web/waiting-room.html")) {
      page = in.readAllBytes();
    }
    Files.write(dir.resolve("root/waiting-room.html"), page);
    Files.writeString(dir.resolve("nginx.conf"), nginxConfig(dir));

    Path jar = Path.of(System.getProperty("jar", "server/target/boxoffice.jar"));
    // The throughput collector, as the README runs nodes: a waiting page allocates little and
    // lives shortly, and the parallel collector's young collections cost the least per request.
    List<String> nodeOpts = List.of(System.getProperty("node.opts", "-Xms1g -Xmx1g -XX:+UseParallelGC").trim().split("\\s+"));
    JarNode node = JarNode.start(jar, Path.of("target/bench/page-node.log"), nodeOpts, Duration.ofMinutes(3));
    // pekko-http's own server with the same bytes and nothing else, in a JVM like the node's.
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> peerCommand = new ArrayList<>(List.of(java));
    peerCommand.addAll(nodeOpts);
    peerCommand.addAll(List.of("-cp", System.getProperty("java.class.path"), BarePekkoHttpPeer.class.getName(),
        dir.resolve("root/waiting-room.html").toString(), Integer.toString(BARE_PORT)));
    Process bare = new ProcessBuilder(peerCommand).redirectErrorStream(true).start();
    Runtime.getRuntime().addShutdownHook(new Thread(bare::destroy));
    BufferedReader said = new BufferedReader(new InputStreamReader(bare.getInputStream()));
    for (String line = said.readLine(); !"up".equals(line); line = said.readLine()) {
      if (line == null) {
        node.close();
        throw new IllegalStateException("the bare pekko-http peer did not start: exit " + bare.waitFor());
      }
    }
    Thread drain = new Thread(() -> said.lines().forEach(l -> {}), "bare-peer-output");
    drain.setDaemon(true);
    drain.start();
    Process nginx = new ProcessBuilder("nginx", "-c", dir.resolve("nginx.conf").toString(), "-p", dir.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("nginx.out").toFile()).start();
    try {
      String eventId = "page-" + UUID.randomUUID().toString().substring(0, 8);
      HttpFan fan = waitingFan(new HttpHoldBench.Admin(node.httpPort, node.adminToken), node.httpPort, eventId);
      String cookie = "bo_id=" + fan.cookie() + "; bo_q_" + eventId + "=" + fan.queueCookie(eventId);
      String ours = "http://127.0.0.1:" + node.httpPort + "/events/" + eventId;
      String theirs = "http://127.0.0.1:" + NGINX_PORT + "/events/" + eventId;
      String bares = "http://127.0.0.1:" + BARE_PORT + "/events/" + eventId;
      HttpFan.Reply check = fan.send("GET", "/events/" + eventId, null);
      if (!check.body().contains("Waiting room")) throw new IllegalStateException("not the waiting page: " + check.status());

      System.out.println("warming up all three (10 s each)");
      wrk(threadCounts.get(0), connections, 10, ours, cookie);
      wrk(threadCounts.get(0), connections, 10, theirs, cookie);
      wrk(threadCounts.get(0), connections, 10, bares, cookie);
      List<String> summary = new ArrayList<>();
      for (int threads : threadCounts) {
        List<Double> box = new ArrayList<>();
        List<Double> ngx = new ArrayList<>();
        List<Double> peer = new ArrayList<>();
        Cpu boxCpu = new Cpu();
        Cpu ngxCpu = new Cpu();
        Cpu peerCpu = new Cpu();
        for (int r = 1; r <= rounds; r++) {
          CpuTime nginxBefore = ChildNode.cpuTimeOfTree(nginx.toHandle());
          Result n = wrk(threads, connections, seconds, theirs, cookie);
          String nginxCpu = ngxCpu.add(ChildNode.cpuTimeOfTree(nginx.toHandle()).minus(nginxBefore), n.requests());
          CpuTime peerBefore = ChildNode.cpuTime(bare.pid());
          Result p = wrk(threads, connections, seconds, bares, cookie);
          String bareCpu = peerCpu.add(ChildNode.cpuTime(bare.pid()).minus(peerBefore), p.requests());
          CpuTime nodeBefore = node.cpuTime();
          Result b = wrk(threads, connections, seconds, ours, cookie);
          String nodeCpu = boxCpu.add(node.cpuTime().minus(nodeBefore), b.requests());
          ngx.add(n.rps());
          peer.add(p.rps());
          box.add(b.rps());
          System.out.printf("-t%d round %d  nginx %,7.0f req/s (p99 %s, %s)   bare pekko-http %,7.0f req/s (%s)"
              + "   boxoffice %,7.0f req/s (p99 %s, %s)   ratio %.2fx%n", threads, r, n.rps(), n.p99(), nginxCpu,
              p.rps(), bareCpu, b.rps(), b.p99(), nodeCpu, b.rps() / n.rps());
        }
        double n = median(ngx);
        double b = median(box);
        double pb = median(peer);
        summary.add(String.format("wrk -t%d   nginx %,7.0f req/s (%s)   bare pekko-http %,7.0f req/s (%s, %.2fx nginx)"
            + "   boxoffice %,7.0f req/s (%s)   ratio %.2fx nginx (target >= 0.8x), %.2fx bare pekko-http",
            threads, n, ngxCpu.median(), pb, peerCpu.median(), pb / n, b, boxCpu.median(), b / n, b / pb));
      }
      System.out.println();
      System.out.println("==== PageBench: waiting-room page for a waiting fan (2 signatures checked per request), wrk -c"
          + connections + " -d" + seconds + "s, medians of " + rounds + " rounds ====");
      System.out.println("boxoffice: the packaged jar, " + String.join(" ", nodeOpts) + "; bare pekko-http: the same bytes from"
          + " memory, no work, same JVM options; nginx: the same bytes from disk, 2 workers");
      summary.forEach(System.out::println);
    } finally {
      nginx.destroy();
      nginx.waitFor(5, TimeUnit.SECONDS);
      bare.destroy();
      bare.waitFor(5, TimeUnit.SECONDS);
      node.close();
    }
  }

  /** A signed-in fan in the lobby of an on-sale that starts in an hour: the page it gets is the waiting room. */
  static HttpFan waitingFan(HttpHoldBench.Admin admin, int port, String eventId) {
    String venue = "v-" + eventId;
    HttpHoldBench.expect(201, admin.send("POST", "/admin/venues", "{\"venueId\":\"" + venue + "\",\"name\":\"Hall\","
        + "\"generate\":{\"layout\":\"stadium\",\"seats\":1000}}"), "venue");
    HttpHoldBench.expect(201, admin.send("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venue
        + "\",\"name\":\"Show\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}"), "event");
    Instant now = Instant.now();
    HttpHoldBench.expect(200, admin.send("PUT", "/admin/events/" + eventId + "/onsale", "{\"lobbyOpensAt\":\"" + now
        + "\",\"startsAt\":\"" + now.plusSeconds(3600) + "\",\"admissionPerMinute\":100,\"maxActiveShoppers\":100}"), "on-sale");
    HttpFan fan = new HttpFan(port);
    fan.signUp("page-" + UUID.randomUUID() + "@example.com");
    HttpFan.Reply joined = fan.send("POST", "/api/events/" + eventId + "/queue", "{}");
    String setCookie = joined.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_")).findFirst().orElseThrow();
    fan.withQueueCookie(eventId, setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';')));
    return fan;
  }

  record Result(double rps, long requests, String p99) {}

  /**
   * A server's CPU time per request over the rounds, and the kernel's share of it: pekko's
   * selector hands every read and write to other threads (system calls and wake-ups), nginx
   * reads and writes in the thread that polls.
   */
  private static final class Cpu {
    private final List<Double> micros = new ArrayList<>();
    private final List<Double> kernelShares = new ArrayList<>();

    /** Adds a round and says it: "26 µs CPU/request, 45% in the kernel". */
    String add(CpuTime used, long requests) {
      micros.add(used.total() * 1e6 / requests);
      kernelShares.add(used.kernelShare());
      return said(micros.get(micros.size() - 1), kernelShares.get(kernelShares.size() - 1));
    }

    String median() {
      return said(PageBench.median(micros), PageBench.median(kernelShares));
    }

    private static String said(double micros, double kernelShare) {
      return String.format("%.0f µs CPU/request, %.0f%% in the kernel", micros, 100 * kernelShare);
    }
  }

  private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern REQUESTS = Pattern.compile("([0-9]+) requests in");
  private static final Pattern P99 = Pattern.compile("\\s99%\\s+(\\S+)");

  static Result wrk(int threads, int connections, int seconds, String url, String cookie) throws IOException, InterruptedException {
    return wrk(threads, connections, seconds, url, List.of("Cookie: " + cookie));
  }

  /** wrk with these request headers ({@code Name: value}); every answer must be a 2xx. */
  static Result wrk(int threads, int connections, int seconds, String url, List<String> headers) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("wrk", "-t" + threads, "-c" + connections, "-d" + seconds + "s", "--latency"));
    for (String h : headers) command.addAll(List.of("-H", h));
    command.add(url);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor();
    Matcher m = RPS.matcher(out);
    if (!m.find()) throw new IllegalStateException("wrk said: " + out);
    if (out.contains("Non-2xx")) throw new IllegalStateException("errors under load: " + out);
    Matcher p99 = P99.matcher(out);
    Matcher requests = REQUESTS.matcher(out);
    if (!requests.find()) throw new IllegalStateException("wrk said: " + out);
    return new Result(Double.parseDouble(m.group(1)), Long.parseLong(requests.group(1)), p99.find() ? p99.group(1) : "?");
  }

  private static String nginxConfig(Path dir) {
    return nginxConfig(dir, NGINX_PORT, """
            location / {
              default_type "text/html; charset=utf-8";
              add_header Cache-Control "public, max-age=60";
              try_files /waiting-room.html =404;
            }
        """);
  }

  /** nginx as the benches' peer: 2 workers, no logs, files under {@code dir/root}, these locations on loopback {@code port}. */
  static String nginxConfig(Path dir, int port, String locations) {
    return """
        worker_processes 2;
        daemon off;
        user root;
        pid %1$s/nginx.pid;
        error_log %1$s/error.log warn;
        events { worker_connections 4096; }
        http {
          access_log off;
          sendfile on;
          tcp_nopush on;
          keepalive_requests 1000000;
          client_body_temp_path %1$s/tmp;
          proxy_temp_path %1$s/tmp;
          fastcgi_temp_path %1$s/tmp;
          uwsgi_temp_path %1$s/tmp;
          scgi_temp_path %1$s/tmp;
          server {
            listen 127.0.0.1:%2$d;
            root %1$s/root;
        %3$s
          }
        }
        """.formatted(dir, port, locations);
  }

  static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(null);
    return s.get(s.size() / 2);
  }
}
