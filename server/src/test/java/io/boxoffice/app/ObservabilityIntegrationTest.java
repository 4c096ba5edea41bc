package io.boxoffice.app;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** /metrics (on the management port) appears and moves with the sale; the management port answers readiness and liveness. */
class ObservabilityIntegrationTest {
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  static double value(String metrics, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(metrics);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }

  @Test
  void metricsAppearAndMoveWithTheSale() throws Exception {
    String id = UUID.randomUUID().toString().substring(0, 8);
    HttpFan admin = new HttpFan(node.httpPort());
    admin.admin("POST", "/admin/venues", "{\"venueId\":\"v-" + id + "\",\"name\":\"H\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}}");
    admin.admin("POST", "/admin/events", "{\"eventId\":\"e-" + id + "\",\"venueId\":\"v-" + id + "\",\"name\":\"S\","
        + "\"prices\":{\"floor\":1,\"lower\":1,\"upper\":1}}");
    io.boxoffice.support.TestCluster.open(admin, "e-" + id);
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("metrics-" + id + "@example.com");
    assertEquals(200, fan.send("POST", "/api/events/e-" + id + "/cart/holds", "{\"best\":{\"quantity\":2}}").status());
    assertEquals(200, fan.send("POST", "/api/events/e-" + id + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", "m").status());

    HttpFan.Reply scrape = new HttpFan(node.managementPort()).send("GET", "/metrics", null);
    assertEquals(200, scrape.status());
    String text = scrape.body();
    assertEquals(2.0, value(text, "boxoffice_holds_total{event=\"e-" + id + "\"}"), "holds counted");
    assertEquals(1.0, value(text, "boxoffice_sales_total{event=\"e-" + id + "\"}"));
    assertTrue(value(text, "boxoffice_journal_batch_commands_count{event=\"e-" + id + "\"}") >= 2, "group commits measured");
    assertTrue(text.contains("boxoffice_http_request_seconds_count{route=\"hold\",status=\"2xx\"}"), "latency per route");
    assertTrue(text.contains("jvm_memory_used_bytes"), "the JVM");
    // The pools: the journal's (Slick's HikariCP, found in JMX) and the read side's.
    await("the pools' gauges").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
      String pools = new HttpFan(node.managementPort()).send("GET", "/metrics", null).body();
      return pools.contains("boxoffice_db_pool_open{pool=\"journal\"}") && pools.contains("boxoffice_db_pool_open{pool=\"inventory\"}")
          && pools.contains("boxoffice_db_pool_open{pool=\"read-side\"}");
    });

    // An on-sale's waiting room feeds per-event gauges from the manifests this node hears.
    admin.admin("PUT", "/admin/events/e-" + id + "/onsale", "{\"lobbyOpensAt\":\"" + Instant.now() + "\",\"startsAt\":\""
        + Instant.now().plusSeconds(3600) + "\",\"admissionPerMinute\":60,\"maxActiveShoppers\":10}");
    HttpFan second = new HttpFan(node.httpPort());
    second.signUp("metrics2-" + id + "@example.com");
    assertEquals(200, second.send("POST", "/api/events/e-" + id + "/queue", "{}").status());
    String[] scraped = {""};
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
      String later = new HttpFan(node.managementPort()).send("GET", "/metrics", null).body();
      scraped[0] = later;
      return value(later, "boxoffice_lobby{event=\"e-" + id + "\"}") >= 1
          && value(later, "boxoffice_seats_sold{event=\"e-" + id + "\"}") >= 2;
    });
    String later = scraped[0];
    assertEquals(1.0, value(later, "boxoffice_lobby{event=\"e-" + id + "\"}"), "the lobby gauge moves");
    assertEquals(2.0, value(later, "boxoffice_seats_sold{event=\"e-" + id + "\"}"));
    assertEquals(1.0, value(later, "boxoffice_cluster_members_up"));
    assertEquals(0.0, value(later, "boxoffice_platform_fault_seconds"), "a calm single node counts no fault time");
  }

  @Test
  void readinessAndLivenessAnswerOnTheManagementPort() throws Exception {
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    for (String path : new String[] {"/ready", "/alive"}) {
      var response = client.send(java.net.http.HttpRequest.newBuilder(
              java.net.URI.create("http://127.0.0.1:" + node.managementPort() + path)).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertEquals(200, response.statusCode(), path + ": " + response.body());
    }
  }
}
