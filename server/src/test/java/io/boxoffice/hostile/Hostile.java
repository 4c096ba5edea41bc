package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.cluster.sharding.typed.GetShardRegionState;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;

/** What the hostile tests check on every answer and on the node's state. */
final class Hostile {
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Hostile() {}

  /** A refusal: the status, the contract's JSON error with that code and a message, never a 5xx. */
  static void refused(HttpFan.Reply r, int status, String code) {
    assertEquals(status, r.status(), r.body());
    JsonNode body = r.json();
    assertEquals(code, body.path("error").asText(), r.body());
    assertFalse(body.path("message").asText().isEmpty(), "a refusal says why: " + r.body());
  }

  /** Any refusal: 4xx with a JSON error and message. */
  static void refusedCleanly(HttpFan.Reply r) {
    assertTrue(r.status() >= 400 && r.status() < 500, "not a 4xx: " + r.status() + " " + r.body());
    assertFalse(r.json().path("error").asText().isEmpty(), r.body());
    assertFalse(r.json().path("message").asText().isEmpty(), r.body());
  }

  /** The Prometheus text: on the management port where it is served, else on the fan port. */
  static String metrics(Node node) throws Exception {
    for (int port : List.of(node.managementPort(), node.httpPort())) {
      HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200 && r.body().contains("# TYPE")) return r.body();
    }
    throw new AssertionError("no /metrics on either port");
  }

  /** The metric series (lines that are not comments), by name and labels. */
  static Set<String> series(String metrics) {
    return metrics.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
        .map(l -> l.substring(0, l.lastIndexOf(' ')))
        .collect(Collectors.toCollection(HashSet::new));
  }

  /** The entity ids of a kind that run on the node. */
  static Set<String> entities(Node node, EntityTypeKey<?> key) {
    ShardRegion.CurrentShardRegionState state = AskPattern.<Object, ShardRegion.CurrentShardRegionState>ask(
            ClusterSharding.get(node.system()).shardState().unsafeUpcast(),
            r -> new GetShardRegionState(key, r), Duration.ofSeconds(5), node.system().scheduler())
        .toCompletableFuture().join();
    Set<String> ids = new HashSet<>();
    state.getShards().forEach(s -> ids.addAll(s.getEntityIds()));
    return ids;
  }

  /** Sends the fan's request and keeps the queue cookie it is given (or cleared). */
  static HttpFan.Reply keepingCookie(HttpFan fan, String eventId, HttpFan.Reply r) {
    r.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_" + eventId + "=")).findFirst()
        .ifPresent(c -> fan.withQueueCookie(eventId, c.substring(c.indexOf('=') + 1, c.indexOf(';'))));
    return r;
  }

  /** A POST whose body says {@code text/plain}, as a cross-site form would send it. */
  static HttpFan.Reply plain(int port, String path, String body, String forwardedFor) {
    try {
      HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .header("Content-Type", "text/plain").header("X-Forwarded-For", forwardedFor)
          .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      return new HttpFan.Reply(r.statusCode(), r.body(), r.headers());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Milliseconds at the 99th percentile (nearest rank). */
  static long p99(List<Long> millis) {
    List<Long> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * 0.99) - 1));
  }

  /** JSON string literal of {@code s}, escaping what JSON requires (so a NUL travels as \\u0000). */
  static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static String credentials(String email, String password) {
    return "{\"email\":" + json(email) + ",\"password\":" + json(password) + "}";
  }
}
