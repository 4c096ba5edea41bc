package io.boxoffice.bench;

import io.boxoffice.load.ChildNode;
import io.boxoffice.load.ChildNode.CpuTime;
import io.boxoffice.load.EdgeWorker;
import io.boxoffice.load.OriginRequests;
import io.boxoffice.support.HttpFan;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The waiting room at the edge ({@code bench/run edge}), in two parts, each beside its peer in
 * the same run:
 *
 * <ol>
 *   <li>The CDN edge worker ({@code edge-worker/}, under Cloudflare's own runtime {@code workerd},
 *       one process) serving a waiting fan (identity and queue cookies, its network in
 *       {@code CF-Connecting-IP}) the waiting page and the event's manifest from its cache, against
 *       nginx serving the same bytes from disk; with each one's CPU time per request (workerd
 *       and the script that started it; nginx's master and workers) and the requests that reached
 *       the origin meanwhile (its own counters, by kind of route). No target: a CDN runs the
 *       worker in every location; here it is one process on a 2-core machine.</li>
 *   <li>The origin's own answer to a waiting fan's status (both cookies verified, the place read
 *       from the edge's manifest) against bare pekko-http answering the same bytes and doing
 *       nothing else (the ceiling of our stack): the CPU time per request of each and their
 *       ratio (target at most 1.25x).</li>
 * </ol>
 *
 * Properties: {@code connections} (64), {@code threads} (1), {@code seconds} (15), {@code rounds}
 * (3), {@code jar} (server/target/boxoffice.jar), {@code node.opts} (-Xms1g -Xmx1g
 * -XX:+UseParallelGC). Needs {@code wrk}, {@code nginx} and {@code node} on the PATH.
 */
public final class EdgeBench {
  private static final int NGINX_PORT = Integer.getInteger("nginx.port", 18070);
  private static final int BARE_PORT = Integer.getInteger("bare.port", 18091);

  public static void main(String[] args) throws Exception {
    int connections = Integer.getInteger("connections", 64);
    int threads = Integer.getInteger("threads", 1);
    int seconds = Integer.getInteger("seconds", 15);
    int rounds = Integer.getInteger("rounds", 3);
    Path dir = Path.of("target/bench/edge").toAbsolutePath();
    Files.createDirectories(dir.resolve("root"));
    Files.createDirectories(dir.resolve("tmp"));

    Path jar = Path.of(System.getProperty("jar", "server/target/boxoffice.jar"));
    List<String> nodeOpts = List.of(System.getProperty("node.opts", "-Xms1g -Xmx1g -XX:+UseParallelGC").trim().split("\\s+"));
    JarNode node = JarNode.start(jar, Path.of("target/bench/edge-node.log"), nodeOpts, Duration.ofMinutes(3));
    EdgeWorker worker = null;
    Process nginx = null;
    Process bare = null;
    try {
      String eventId = "edge-" + UUID.randomUUID().toString().substring(0, 8);
      HttpFan fan = PageBench.waitingFan(new HttpHoldBench.Admin(node.httpPort, node.adminToken), node.httpPort, eventId);
      String cookie = "bo_id=" + fan.cookie() + "; bo_q_" + eventId + "=" + fan.queueCookie(eventId);
      String origin = "http://127.0.0.1:" + node.httpPort;
      String pagePath = "/events/" + eventId;
      String manifestPath = "/api/events/" + eventId + "/queue/manifest";
      String statusPath = "/api/events/" + eventId + "/queue/status";

      // The same bytes for nginx and the bare peer, as the origin answers them.
      byte[] page = get(origin + pagePath, cookie);
      byte[] manifest = get(origin + manifestPath, cookie);
      byte[] status = get(origin + statusPath, cookie);
      Files.write(dir.resolve("root/page.html"), page);
      Files.write(dir.resolve("root/manifest.json"), manifest);
      Files.write(dir.resolve("status.json"), status);
      Files.writeString(dir.resolve("nginx.conf"), nginxConfig(dir, eventId));
      nginx = new ProcessBuilder("nginx", "-c", dir.resolve("nginx.conf").toString(), "-p", dir.toString())
          .redirectErrorStream(true).redirectOutput(dir.resolve("nginx.out").toFile()).start();
      bare = bare(dir.resolve("status.json"), nodeOpts);

      worker = EdgeWorker.start(Path.of("").toAbsolutePath(), origin, node.queueKey, node.identityKey, Map.of(),
          Path.of("target/bench/edge-worker.log"));
      List<String> fanHeaders = List.of("Cookie: " + cookie, "CF-Connecting-IP: 127.0.0.1");
      String edgeBase = worker.url;
      String nginxBase = "http://127.0.0.1:" + NGINX_PORT;
      String bareBase = "http://127.0.0.1:" + BARE_PORT;
      String metrics = "http://127.0.0.1:" + node.managementPort + "/metrics";

      System.out.println("warming up (10 s each)");
      for (String path : List.of(pagePath, manifestPath)) {
        PageBench.wrk(threads, connections, 10, edgeBase + path, fanHeaders);
        PageBench.wrk(threads, connections, 10, nginxBase + path, fanHeaders);
      }
      PageBench.wrk(threads, connections, 10, origin + statusPath, fanHeaders);
      PageBench.wrk(threads, connections, 10, bareBase + statusPath, fanHeaders);

      List<String> summary = new ArrayList<>();
      for (String[] what : List.of(new String[] {"waiting page", pagePath}, new String[] {"manifest", manifestPath})) {
        List<Double> edgeRps = new ArrayList<>();
        List<Double> nginxRps = new ArrayList<>();
        List<Double> edgeCpu = new ArrayList<>();
        List<Double> nginxCpu = new ArrayList<>();
        long originRequests = 0;
        long edgeRequests = 0;
        for (int r = 1; r <= rounds; r++) {
          CpuTime nBefore = ChildNode.cpuTimeOfTree(nginx.toHandle());
          PageBench.Result n = PageBench.wrk(threads, connections, seconds, nginxBase + what[1], fanHeaders);
          double nMicros = ChildNode.cpuTimeOfTree(nginx.toHandle()).minus(nBefore).total() * 1e6 / n.requests();
          Map<String, Long> originBefore = OriginRequests.byRoute(metrics);
          CpuTime eBefore = worker.cpuTime();
          PageBench.Result e = PageBench.wrk(threads, connections, seconds, edgeBase + what[1], fanHeaders);
          double eMicros = worker.cpuTime().minus(eBefore).total() * 1e6 / e.requests();
          long reached = OriginRequests.total(OriginRequests.byRoute(metrics)) - OriginRequests.total(originBefore);
          originRequests += reached;
          edgeRequests += e.requests();
          edgeRps.add(e.rps());
          nginxRps.add(n.rps());
          edgeCpu.add(eMicros);
          nginxCpu.add(nMicros);
          System.out.printf("%s round %d   nginx %,8.0f req/s (p99 %s, %.0f µs CPU/request)   edge worker %,8.0f req/s (p99 %s,"
              + " %.0f µs CPU/request)   origin requests meanwhile %,d of %,d%n", what[0], r, n.rps(), n.p99(), nMicros, e.rps(), e.p99(),
              eMicros, reached, e.requests());
        }
        summary.add(String.format("%-13s nginx %,8.0f req/s, %5.1f µs CPU/request | edge worker (workerd) %,8.0f req/s, %5.1f µs"
                + " CPU/request (%.1fx nginx's CPU) | origin requests %,d of %,d answered at the edge (%.4f%% reached it)", what[0],
            PageBench.median(nginxRps), PageBench.median(nginxCpu), PageBench.median(edgeRps), PageBench.median(edgeCpu),
            PageBench.median(edgeCpu) / PageBench.median(nginxCpu), originRequests, edgeRequests,
            100.0 * originRequests / Math.max(1, edgeRequests)));
      }

      List<Double> nodeCpu = new ArrayList<>();
      List<Double> bareCpu = new ArrayList<>();
      List<Double> nodeRps = new ArrayList<>();
      List<Double> bareRps = new ArrayList<>();
      for (int r = 1; r <= rounds; r++) {
        CpuTime bBefore = ChildNode.cpuTime(bare.pid());
        PageBench.Result b = PageBench.wrk(threads, connections, seconds, bareBase + statusPath, fanHeaders);
        double bMicros = ChildNode.cpuTime(bare.pid()).minus(bBefore).total() * 1e6 / b.requests();
        CpuTime oBefore = node.cpuTime();
        PageBench.Result o = PageBench.wrk(threads, connections, seconds, origin + statusPath, fanHeaders);
        double oMicros = node.cpuTime().minus(oBefore).total() * 1e6 / o.requests();
        bareCpu.add(bMicros);
        nodeCpu.add(oMicros);
        bareRps.add(b.rps());
        nodeRps.add(o.rps());
        System.out.printf("status round %d   bare pekko-http %,8.0f req/s (%.0f µs CPU/request)   origin %,8.0f req/s (p99 %s, %.0f µs"
            + " CPU/request)   %.2fx%n", r, b.rps(), bMicros, o.rps(), o.p99(), oMicros, oMicros / bMicros);
      }
      summary.add(String.format("%-13s bare pekko-http %,8.0f req/s, %5.1f µs CPU/request | origin %,8.0f req/s, %5.1f µs CPU/request:"
              + " %.2fx bare (target <= 1.25x)", "origin status", PageBench.median(bareRps), PageBench.median(bareCpu),
          PageBench.median(nodeRps), PageBench.median(nodeCpu), PageBench.median(nodeCpu) / PageBench.median(bareCpu)));

      System.out.println();
      System.out.println("==== EdgeBench: a waiting fan's requests, wrk -t" + threads + " -c" + connections + " -d" + seconds
          + "s, medians of " + rounds + " rounds ====");
      System.out.println("edge worker: edge-worker/ under workerd (one process); nginx: the same bytes from disk, 2 workers;"
          + " origin: the packaged jar, " + String.join(" ", nodeOpts) + "; bare pekko-http: the status's bytes, no work");
      summary.forEach(System.out::println);
    } finally {
      if (worker != null) worker.close();
      if (nginx != null) {
        nginx.destroy();
        nginx.waitFor(5, TimeUnit.SECONDS);
      }
      if (bare != null) {
        bare.destroy();
        bare.waitFor(5, TimeUnit.SECONDS);
      }
      node.close();
    }
  }

  private static byte[] get(String url, String cookie) throws IOException, InterruptedException {
    HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).header("Cookie", cookie).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) throw new IllegalStateException(url + " answered " + r.statusCode());
    return r.body();
  }

  /** The bare pekko-http peer answering {@code body} to every request, in a JVM like the node's. */
  private static Process bare(Path body, List<String> nodeOpts) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(nodeOpts);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), BarePekkoHttpPeer.class.getName(), body.toString(),
        Integer.toString(BARE_PORT)));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    Runtime.getRuntime().addShutdownHook(new Thread(p::destroy));
    BufferedReader said = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    for (String line = said.readLine(); !"up".equals(line); line = said.readLine()) {
      if (line == null) throw new IllegalStateException("the bare pekko-http peer did not start");
    }
    Thread drain = new Thread(() -> said.lines().forEach(l -> { }), "bare-peer-output");
    drain.setDaemon(true);
    drain.start();
    return p;
  }

  private static String nginxConfig(Path dir, String eventId) {
    return PageBench.nginxConfig(dir, NGINX_PORT, """
            location = /api/events/%1$s/queue/manifest {
              default_type "application/json";
              add_header Cache-Control "public, max-age=5";
              try_files /manifest.json =404;
            }
            location / {
              default_type "text/html; charset=utf-8";
              add_header Cache-Control "public, max-age=60";
              try_files /page.html =404;
            }
        """.formatted(eventId));
  }
}
