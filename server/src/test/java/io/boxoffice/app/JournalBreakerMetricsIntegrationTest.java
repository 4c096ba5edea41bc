package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import io.boxoffice.support.DbProxy;
import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The journal's circuit breaker, seen on /metrics (management port): with the database cut, the
 * inventories' failed journal calls are counted by cause and, once the breaker refuses them,
 * {@code boxoffice_journal_breaker_open} is 1; it is 0 again once a write gets through.
 */
class JournalBreakerMetricsIntegrationTest {

  static double value(Node node, String series) {
    return ObservabilityIntegrationTest.value(new HttpFan(node.managementPort()).send("GET", "/metrics", null).body(), series);
  }

  /** Failed calls with this cause, to either store. */
  static double failures(Node node, String cause) {
    String text = new HttpFan(node.managementPort()).send("GET", "/metrics", null).body();
    return ObservabilityIntegrationTest.value(text, "boxoffice_journal_failures_total{cause=\"" + cause + "\",store=\"journal\"}")
        + ObservabilityIntegrationTest.value(text, "boxoffice_journal_failures_total{cause=\"" + cause + "\",store=\"snapshot\"}");
  }

  @Test
  void theBreakerOpensOnMetricsWhileTheDatabaseIsCutAndClosesWhenWritesGetThrough() throws Exception {
    int proxyPort = TestCluster.freePort();
    try (DbProxy proxy = new DbProxy(new InetSocketAddress("127.0.0.1", proxyPort), new InetSocketAddress("127.0.0.1", 5432))) {
      proxy.restore();
      // The breakers open after 3 failures in a row instead of 10: each failure here waits for the
      // pool's connection timeout (3 s), and the entity's backoff spaces them out.
      Config config = com.typesafe.config.ConfigFactory.parseString(
              "inventory-journal.circuit-breaker.max-failures = 3\ninventory-snapshot-store.circuit-breaker.max-failures = 3")
          .withFallback(TestNode.config("jdbc:postgresql://127.0.0.1:" + proxyPort + "/test", "target/unused"));
      Node node = Node.start(config, new Node.Options(Clock.systemUTC(), TestNode.payments()));
      try {
        String id = UUID.randomUUID().toString().substring(0, 8);
        String cart = "/api/events/jb-" + id + "/cart";
        TestCluster.createEvent(new HttpFan(node.httpPort()), "jbv-" + id, 500, "jb-" + id, "");
        HttpFan fan = new HttpFan(node.httpPort());
        fan.signUp("jb-" + id + "@example.com");
        assertEquals(200, fan.send("POST", cart + "/holds", "{\"best\":{\"quantity\":1}}").status());
        assertEquals(0.0, value(node, "boxoffice_journal_breaker_open"), "closed while the database answers");
        assertEquals(0.0, failures(node, "breaker_open"));

        proxy.cut();
        Eventually.reply("the breaker open on /metrics while the database is cut", Duration.ofSeconds(60), Duration.ofMillis(300),
            () -> {
              fan.send("POST", cart + "/holds", "{\"best\":{\"quantity\":1}}");
              return new HttpFan(node.managementPort()).send("GET", "/metrics", null);
            },
            r -> ObservabilityIntegrationTest.value(r.body(), "boxoffice_journal_breaker_open") == 1.0);
        assertTrue(failures(node, "breaker_open") >= 1, "refusals counted by cause");
        assertTrue(failures(node, "error")
            + failures(node, "timeout") >= 1, "the failures that opened it, too");

        proxy.restore();
        Eventually.reply("a hold written once the database is back", Duration.ofSeconds(60), Duration.ofMillis(500),
            () -> fan.send("POST", cart + "/holds", "{\"best\":{\"quantity\":1}}"), r -> r.status() == 200);
        assertEquals(0.0, value(node, "boxoffice_journal_breaker_open"), "closed again after a write got through");
      } finally {
        node.stop();
      }
    }
  }
}
