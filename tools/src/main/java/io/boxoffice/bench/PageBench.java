package io.boxoffice.bench;

import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The waiting-room page for a waiting fan under {@code wrk}: boxoffice (identity cookie and
 * queue token verified on every request, the page answered from memory) against nginx serving
 * the same bytes from disk on the same machine, rounds alternating. Properties:
 * {@code connections} (64), {@code threads} (2), {@code seconds} (15), {@code rounds} (3).
 * Needs {@code wrk} and {@code nginx} on the PATH (Debian packages wrk and nginx-light).
 */
public final class PageBench {
  private static final int NGINX_PORT = Integer.getInteger("nginx.port", 18080);

  public static void main(String[] args) throws Exception {
    int connections = Integer.getInteger("connections", 64);
    int threads = Integer.getInteger("threads", 2);
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

    Node node = TestNode.postgres(Clock.systemUTC(), TestNode.payments(), com.typesafe.config.ConfigFactory.parseString(
        "pekko.loglevel = WARNING\nboxoffice.bots.rate-limits.per-account.burst = 1000000000\n"
            + "boxoffice.bots.rate-limits.per-account.per-second = 1000000000\n"
            + "boxoffice.bots.rate-limits.per-prefix.burst = 1000000000\nboxoffice.bots.rate-limits.per-prefix.per-second = 1000000000"));
    Process nginx = new ProcessBuilder("nginx", "-c", dir.resolve("nginx.conf").toString(), "-p", dir.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("nginx.out").toFile()).start();
    try {
      String eventId = "page-" + UUID.randomUUID().toString().substring(0, 8);
      HttpFan fan = waitingFan(node.httpPort(), eventId);
      String cookie = "bo_id=" + fan.cookie() + "; bo_q_" + eventId + "=" + fan.queueCookie(eventId);
      String ours = "http://127.0.0.1:" + node.httpPort() + "/events/" + eventId;
      String theirs = "http://127.0.0.1:" + NGINX_PORT + "/events/" + eventId;
      HttpFan.Reply check = fan.send("GET", "/events/" + eventId, null);
      if (!check.body().contains("Waiting room")) throw new IllegalStateException("not the waiting page: " + check.status());

      System.out.println("warming up both (10 s each)");
      wrk(threads, connections, 10, ours, cookie);
      wrk(threads, connections, 10, theirs, cookie);
      List<Double> box = new ArrayList<>();
      List<Double> ngx = new ArrayList<>();
      for (int r = 1; r <= rounds; r++) {
        Result n = wrk(threads, connections, seconds, theirs, cookie);
        Result b = wrk(threads, connections, seconds, ours, cookie);
        ngx.add(n.rps());
        box.add(b.rps());
        System.out.printf("round %d  nginx %,10.0f req/s (p99 %s)   boxoffice %,10.0f req/s (p99 %s)   ratio %.2fx%n",
            r, n.rps(), n.p99(), b.rps(), b.p99(), b.rps() / n.rps());
      }
      double n = median(ngx);
      double b = median(box);
      System.out.println();
      System.out.println("==== PageBench: waiting-room page for a waiting fan, wrk -t" + threads + " -c" + connections + " -d" + seconds + "s ====");
      System.out.printf("nginx (same bytes from disk)           %,10.0f req/s (median of %d)%n", n, rounds);
      System.out.printf("boxoffice (2 signatures checked each)  %,10.0f req/s (median of %d)%n", b, rounds);
      System.out.printf("ratio boxoffice/nginx                  %.2fx   (target >= 0.8x)%n", b / n);
    } finally {
      nginx.destroy();
      nginx.waitFor(5, TimeUnit.SECONDS);
      node.stop();
    }
  }

  /** A signed-in fan in the lobby of an on-sale that starts in an hour: the page it gets is the waiting room. */
  private static HttpFan waitingFan(int port, String eventId) {
    HttpFan admin = new HttpFan(port);
    String venue = "v-" + eventId;
    admin.admin("POST", "/admin/venues", "{\"venueId\":\"" + venue + "\",\"name\":\"Hall\",\"generate\":{\"layout\":\"stadium\",\"seats\":1000}}");
    admin.admin("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venue + "\",\"name\":\"Show\","
        + "\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}");
    Instant now = Instant.now();
    admin.admin("PUT", "/admin/events/" + eventId + "/onsale", "{\"lobbyOpensAt\":\"" + now + "\",\"startsAt\":\""
        + now.plusSeconds(3600) + "\",\"admissionPerMinute\":100,\"maxActiveShoppers\":100}");
    HttpFan fan = new HttpFan(port);
    fan.signUp("page-" + UUID.randomUUID() + "@example.com");
    HttpFan.Reply joined = fan.send("POST", "/api/events/" + eventId + "/queue", "{}");
    String setCookie = joined.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_")).findFirst().orElseThrow();
    fan.withQueueCookie(eventId, setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';')));
    return fan;
  }

  record Result(double rps, String p99) {}

  private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern P99 = Pattern.compile("\\s99%\\s+(\\S+)");

  private static Result wrk(int threads, int connections, int seconds, String url, String cookie) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("wrk", "-t" + threads, "-c" + connections, "-d" + seconds + "s", "--latency",
        "-H", "Cookie: " + cookie, url).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor();
    Matcher m = RPS.matcher(out);
    if (!m.find()) throw new IllegalStateException("wrk said: " + out);
    if (out.contains("Non-2xx")) throw new IllegalStateException("errors under load: " + out);
    Matcher p99 = P99.matcher(out);
    return new Result(Double.parseDouble(m.group(1)), p99.find() ? p99.group(1) : "?");
  }

  private static String nginxConfig(Path dir) {
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
            location / {
              default_type "text/html; charset=utf-8";
              add_header Cache-Control "private, no-store";
              try_files /waiting-room.html =404;
            }
          }
        }
        """.formatted(dir, NGINX_PORT);
  }

  private static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(null);
    return s.get(s.size() / 2);
  }
}
