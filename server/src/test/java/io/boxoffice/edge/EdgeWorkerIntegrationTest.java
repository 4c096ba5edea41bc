package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.app.Node;
import io.boxoffice.queue.domain.QueueToken;
import io.boxoffice.queue.domain.QueueTokenSettings;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A small on-sale through the edge worker: the real worker under the real workerd (from
 * edge-worker/node_modules, which the build's edge-worker module installs) in front of a real
 * node on PostgreSQL. Waiting fans get the page, the manifest and their status from the edge
 * with no origin request for them (the node's own request counters say so), admitted fans hold
 * and pay through it, forged, expired and moved tokens are refused at the edge, and a paused
 * sale shows at the edge within 5 s.
 */
class EdgeWorkerIntegrationTest {
  static final Path WORKER = Path.of("edge-worker");
  static final String KEY = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  static Node node;
  static Process worker;
  static int edgePort;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Files.isDirectory(WORKER.resolve("node_modules").resolve("workerd")),
        "edge-worker/node_modules is missing: run `npm ci` in edge-worker (mvn -B verify does)");
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    edgePort = TestCluster.freePort();
    ProcessBuilder pb = new ProcessBuilder("node", "scripts/serve.js").directory(WORKER.toFile()).redirectErrorStream(true)
        .redirectOutput(Path.of("server", "target", "edge-worker-it.log").toAbsolutePath().toFile());
    Map<String, String> env = pb.environment();
    env.put("PORT", Integer.toString(edgePort));
    env.put("ORIGIN", "http://127.0.0.1:" + node.httpPort());
    env.put("QUEUE_KEYS", KEY);
    env.put("IDENTITY_KEYS", KEY);
    env.put("MANIFEST_REFRESH_SECONDS", "1");
    env.put("PAGE_REFRESH_SECONDS", "60");
    env.put("NEAR_SECONDS", "0");
    env.put("NEAR_PLACES", "1");
    worker = pb.start();
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
      try (Socket s = new Socket("127.0.0.1", edgePort)) {
        return true;
      } catch (Exception e) {
        assertTrue(worker.isAlive(), "the worker exited: see server/target/edge-worker-it.log");
        return false;
      }
    });
  }

  @AfterAll
  static void stop() {
    if (worker != null) {
      worker.descendants().forEach(ProcessHandle::destroy);
      worker.destroy();
    }
    if (node != null) node.stop();
  }

  /** A fan talking to the edge from a network of its own, carrying its cookies by hand. */
  static final class EdgeFan {
    final String ip;
    final String account;
    final String identity;
    final Map<String, String> queueTokens = new ConcurrentHashMap<>();

    EdgeFan(String ip, String account, String identity) {
      this.ip = ip;
      this.account = account;
      this.identity = identity;
    }

    HttpResponse<String> send(String method, String path, String body, String... headers) throws Exception {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + edgePort + path)).timeout(Duration.ofSeconds(30))
          .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
          .header("CF-Connecting-IP", ip);
      if (body != null) b.header("Content-Type", "application/json");
      StringBuilder cookies = new StringBuilder("bo_id=").append(identity);
      queueTokens.forEach((event, token) -> cookies.append("; bo_q_").append(event).append('=').append(token));
      b.header("Cookie", cookies.toString());
      for (int i = 0; i + 1 < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
      HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
      for (String c : r.headers().allValues("Set-Cookie")) {
        if (c.startsWith("bo_q_")) {
          queueTokens.put(c.substring(5, c.indexOf('=')), c.substring(c.indexOf('=') + 1, c.indexOf(';')));
        }
      }
      return r;
    }

    JsonNode json(String method, String path, String body, String... headers) throws Exception {
      return HttpFan.JSON.readTree(send(method, path, body, headers).body());
    }
  }

  /** Requests the node answered on a route (its own counters), all statuses. */
  static long originRequests(String route) throws Exception {
    String text = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.managementPort() + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    long n = 0;
    for (String line : text.split("\n")) {
      if (line.startsWith("boxoffice_http_request_seconds_count{") && line.contains("route=\"" + route + "\"")) {
        n += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return n;
  }

  @Test
  void aSmallOnSaleThroughTheEdge() throws Exception {
    HttpFan admin = new HttpFan(node.httpPort());
    String event = admin.newEvent(100);
    Instant startsAt = Instant.now().plusSeconds(6);
    HttpFan.Reply put = admin.admin("PUT", "/admin/events/" + event + "/onsale", "{\"lobbyOpensAt\":\"" + Instant.now()
        + "\",\"startsAt\":\"" + startsAt + "\",\"admissionPerMinute\":60,\"maxActiveShoppers\":1000}");
    assertEquals(200, put.status(), put.body());

    // 40 fans sign up at the origin and join the lobby through the edge, each from its own /24.
    List<EdgeFan> fans = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      HttpFan signUp = new HttpFan(node.httpPort());
      String account = signUp.signUp("edge-" + UUID.randomUUID() + "@example.com");
      EdgeFan f = new EdgeFan("10.77." + i + ".9", account, signUp.cookie());
      HttpResponse<String> join = f.send("POST", "/api/events/" + event + "/queue", "{}");
      assertEquals(200, join.statusCode(), join.body());
      assertNotNull(f.queueTokens.get(event), "the join's token came through the edge");
      fans.add(f);
    }
    String status = "/api/events/" + event + "/queue/status";
    String manifest = "/api/events/" + event + "/queue/manifest";
    EdgeFan first = fans.get(0);
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> first.json("GET", manifest, null).path("state").asText().equals("waiting"));
    // The lottery: each fan's first status after the draw asks the origin, which alone maps the lobby to places.
    for (EdgeFan f : fans) assertEquals(200, f.send("GET", status, null).statusCode());

    // Waiting: fans far behind the line poll page, manifest and status for a few seconds.
    long admittedUpTo = first.json("GET", manifest, null).path("admittedUpTo").asLong();
    List<EdgeFan> waiting = new ArrayList<>();
    for (EdgeFan f : fans) {
      if (f.json("GET", status, null).path("position").asLong() > admittedUpTo + 10) waiting.add(f);
    }
    assertTrue(waiting.size() >= 10, "fans far back: " + waiting.size());
    assertEquals(200, first.send("GET", "/events/" + event, null).statusCode()); // the page is cached
    long pages = originRequests("page");
    long statuses = originRequests("queue_status");
    long manifests = originRequests("queue_manifest");
    long started = System.nanoTime();
    int asked = 0;
    while (System.nanoTime() - started < 3_000_000_000L) {
      for (EdgeFan f : waiting) {
        HttpResponse<String> page = f.send("GET", "/events/" + event, null);
        assertEquals(200, page.statusCode());
        assertEquals(200, f.send("GET", manifest, null).statusCode());
        HttpResponse<String> s = f.send("GET", status, null);
        assertEquals("answered", s.headers().firstValue("X-Edge").orElse(""), s.body());
        assertEquals("waiting", HttpFan.JSON.readTree(s.body()).path("state").asText());
        asked += 3;
      }
    }
    long seconds = (System.nanoTime() - started) / 1_000_000_000L + 1;
    System.out.printf("edge: %d waiting fans made %d requests in %d s; the origin answered %d pages, %d statuses, %d manifests%n",
        waiting.size(), asked, seconds, originRequests("page") - pages, originRequests("queue_status") - statuses,
        originRequests("queue_manifest") - manifests);
    assertEquals(pages, originRequests("page"), "no page reached the origin while " + asked + " requests waited");
    assertEquals(statuses, originRequests("queue_status"), "no waiting fan's status reached the origin");
    assertTrue(originRequests("queue_manifest") - manifests <= seconds + 1,
        "the manifest: at most one origin request a second, whatever the crowd");

    // Admitted: the first fan the line reaches holds and pays through the edge.
    EdgeFan admitted = null;
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (admitted == null && System.nanoTime() < deadline) {
      for (EdgeFan f : fans) {
        if (f.json("GET", status, null).path("state").asText().equals("admitted")) {
          admitted = f;
          break;
        }
      }
      if (admitted == null) Thread.sleep(200);
    }
    if (admitted == null) {
      StringBuilder states = new StringBuilder(first.json("GET", manifest, null).toString());
      for (EdgeFan f : fans) states.append('\n').append(f.send("GET", status, null).body());
      assertNotNull(admitted, "someone was admitted: " + states);
    }
    HttpResponse<String> hold = admitted.send("POST", "/api/events/" + event + "/cart/holds", "{\"best\":{\"quantity\":2}}");
    assertEquals(200, hold.statusCode(), hold.body());
    assertFalse(hold.headers().firstValue("X-Edge").isPresent(), "the origin answered the hold");
    HttpResponse<String> paid = admitted.send("POST", "/api/events/" + event + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", "edge-" + event);
    assertEquals(200, paid.statusCode(), paid.body());
    assertEquals(2, HttpFan.JSON.readTree(paid.body()).path("tickets").size());

    // Forged, moved and expired tokens are refused at the edge with the origin's answer.
    String token = admitted.queueTokens.get(event);
    EdgeFan forged = new EdgeFan(admitted.ip, admitted.account, admitted.identity);
    char c = token.charAt(token.length() - 3);
    forged.queueTokens.put(event, token.substring(0, token.length() - 3) + (c == 'A' ? 'B' : 'A') + token.substring(token.length() - 2));
    EdgeFan moved = new EdgeFan("10.99.1.9", admitted.account, admitted.identity);
    moved.queueTokens.put(event, token);
    EdgeFan expired = new EdgeFan(admitted.ip, admitted.account, admitted.identity);
    QueueToken signer = new QueueTokenSettings(Clock.systemUTC(), Base64.getDecoder().decode(KEY), (byte[]) null,
        Duration.ofHours(24), Duration.ofMinutes(30), Duration.ofSeconds(15)).tokens();
    String prefix = admitted.ip.substring(0, admitted.ip.lastIndexOf('.')) + ".0/24";
    expired.queueTokens.put(event, signer.issue(new QueueToken.Claims(event, admitted.account, 1, prefix,
        Instant.now().minus(Duration.ofHours(25)).getEpochSecond(), 0)));
    for (EdgeFan f : List.of(forged, moved, expired)) {
      HttpResponse<String> refused = f.send("POST", "/api/events/" + event + "/cart/holds", "{\"best\":{\"quantity\":1}}");
      assertEquals(403, refused.statusCode(), refused.body());
      assertEquals("bad_token", HttpFan.JSON.readTree(refused.body()).path("error").asText());
      assertEquals("refused", refused.headers().firstValue("X-Edge").orElse(""), "refused at the edge");
    }

    // A paused sale shows at the edge within 5 s, in the manifest and in a waiting fan's status.
    assertEquals(200, admin.admin("POST", "/admin/events/" + event + "/onsale/pause", null).status());
    long pausedAt = System.nanoTime();
    EdgeFan far = waiting.get(waiting.size() - 1);
    Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
        .until(() -> far.json("GET", manifest, null).path("state").asText().equals("paused"));
    assertTrue(System.nanoTime() - pausedAt < 5_000_000_000L);
    assertEquals("paused", far.json("GET", status, null).path("state").asText());
  }
}
