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
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The node reaches PostgreSQL through a proxy that the test cuts, as when the database goes
 * down: holds are refused fast (503 + Retry-After, no hanging request), nothing is confirmed
 * that is not durable, and sales come back by themselves when the database does.
 */
class DatabaseOutageIntegrationTest {
  static Node start(int proxyPort) throws Exception {
    Config config = TestNode.config("jdbc:postgresql://127.0.0.1:" + proxyPort + "/test", "target/unused");
    return Node.start(config, new Node.Options(Clock.systemUTC(), TestNode.payments()));
  }

  static Set<String> seatsOf(HttpFan.Reply reply) {
    Set<String> seats = new TreeSet<>();
    reply.json().get("seats").forEach(s -> seats.add(s.get("seatId").asText()));
    return seats;
  }

  @Test
  void writesAreRefusedFastDuringAnOutageAndSalesComeBackByThemselves() throws Exception {
    int proxyPort = TestCluster.freePort();
    try (DbProxy proxy = new DbProxy(new InetSocketAddress("127.0.0.1", proxyPort), new InetSocketAddress("127.0.0.1", 5432))) {
      proxy.restore();
      String id = UUID.randomUUID().toString().substring(0, 8);
      String eventId = "db-" + id;
      String cart = "/api/events/" + eventId + "/cart";
      Set<String> toldHeld = new TreeSet<>();
      String cookie;
      Node node = start(proxyPort);
      try {
        TestCluster.createEvent(new HttpFan(node.httpPort()), "dbv-" + id, 500, eventId, "");
        HttpFan fan = new HttpFan(node.httpPort());
        fan.signUp("db-" + id + "@example.com");
        cookie = fan.cookie();
        HttpFan.Reply first = fan.send("POST", cart + "/holds", "{\"best\":{\"quantity\":2}}");
        assertEquals(200, first.status(), first.body());
        toldHeld.addAll(seatsOf(first));

        proxy.cut();
        for (int i = 0; i < 4; i++) {
          long started = System.nanoTime();
          HttpFan.Reply refused = fan.send("POST", cart + "/holds", "{\"best\":{\"quantity\":1}}");
          long millis = (System.nanoTime() - started) / 1_000_000;
          assertEquals(503, refused.status(), "while the database is down: " + refused.body());
          assertTrue(refused.headers().firstValue("Retry-After").isPresent());
          assertTrue(millis < 10_000, "refused after " + millis + " ms: asks do not hang");
        }

        proxy.restore();
        long restored = System.nanoTime();
        HttpFan.Reply back = Eventually.reply("a hold answered other than 503 once the database is back",
            Duration.ofSeconds(60), Duration.ofMillis(500),
            () -> fan.send("POST", cart + "/holds", "{\"best\":{\"quantity\":1}}"), r -> r.status() != 503);
        assertEquals(200, back.status(), "holds work again without a restart: " + back.body());
        System.out.printf("holds again %d ms after the database came back%n", (System.nanoTime() - restored) / 1_000_000);
        toldHeld.addAll(seatsOf(back));
      } finally {
        node.stop();
      }

      // A fresh node recovers everything from the database: every hold a fan was told of is there.
      Node again = start(proxyPort);
      try {
        HttpFan.Reply mine = new HttpFan(again.httpPort()).withCookie(cookie).send("GET", cart, null);
        assertEquals(200, mine.status(), mine.body());
        assertTrue(seatsOf(mine).containsAll(toldHeld), "told held " + toldHeld + ", durable " + seatsOf(mine));
      } finally {
        again.stop();
      }
    }
  }
}
