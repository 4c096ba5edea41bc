package io.boxoffice.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cart's hold timer through the real product on PostgreSQL: an abandoned hold is given back
 * with no other traffic, the fan's cart says when it ran out, a bought hold is not touched, and
 * the metric counts the seats. The node's clock is moved by hand past the deadline.
 */
class HoldTimerIntegrationTest {
  static final MutableClock clock = MutableClock.running();
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(clock, TestNode.payments(),
        ConfigFactory.parseMap(Map.of("boxoffice.cart.hold-recheck", "100ms")));
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  static double metric(String series) {
    String text = new HttpFan(node.managementPort()).send("GET", "/metrics", null).body();
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  static void assertCreated(int status) {
    org.junit.jupiter.api.Assertions.assertTrue(status == 201 || status == 409, "status " + status);
  }

  @Test
  void anAbandonedHoldIsGivenBackByTheCartsTimerAndTheCartSaysExpired() {
    String id = UUID.randomUUID().toString().substring(0, 8);
    String event = "e-" + id;
    HttpFan admin = new HttpFan(node.httpPort());
    // A node just started answers 503 until its shards are up: asked again until it answers
    // (201, or 409 when the ask that timed out had created it after all).
    assertCreated(Eventually.reply("the venue is created", Duration.ofSeconds(20), Duration.ofMillis(250),
        () -> admin.admin("POST", "/admin/venues", "{\"venueId\":\"v-" + id + "\",\"name\":\"H\","
            + "\"generate\":{\"layout\":\"stadium\",\"seats\":100}}"), r -> r.status() != 503).status());
    assertCreated(Eventually.reply("the event is created", Duration.ofSeconds(20), Duration.ofMillis(250),
        () -> admin.admin("POST", "/admin/events", "{\"eventId\":\"" + event + "\",\"venueId\":\"v-" + id
            + "\",\"name\":\"S\",\"prices\":{\"floor\":1,\"lower\":1,\"upper\":1},\"holdSeconds\":30,"
            + "\"holdJitterSeconds\":0}"), r -> r.status() != 503).status());
    TestCluster.open(admin, event);
    HttpFan walker = new HttpFan(node.httpPort());
    walker.signUp("walker-" + id + "@example.com");
    HttpFan buyer = new HttpFan(node.httpPort());
    buyer.signUp("buyer-" + id + "@example.com");

    HttpFan.Reply held = walker.send("POST", "/api/events/" + event + "/cart/holds", "{\"best\":{\"quantity\":2}}");
    assertEquals(200, held.status());
    String deadline = held.json().get("holdExpiresAt").asText();
    assertEquals(200, buyer.send("POST", "/api/events/" + event + "/cart/holds", "{\"best\":{\"quantity\":2}}").status());
    assertEquals(200, buyer.send("POST", "/api/events/" + event + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", "b").status());
    assertFalse(walker.send("GET", "/api/events/" + event + "/cart", null).json().has("expired"));

    // Past the deadline and the timer's grace, nobody else asks anything of the event: only the
    // cart's timer acts.
    long grace = com.typesafe.config.ConfigFactory.load().getDuration("boxoffice.cart.hold-release-grace").toMillis();
    clock.advance(Duration.ofMillis(Instant.parse(deadline).toEpochMilli() + grace - clock.millis() + 1));
    String released = "boxoffice_holds_released_by_timer_total{event=\"" + event + "\"}";
    Eventually.reply("the cart's timer released the hold", Duration.ofSeconds(10), Duration.ofMillis(100),
        () -> new HttpFan(node.managementPort()).send("GET", "/metrics", null), r -> metric(released) == 2.0);

    HttpFan.Reply cart = walker.send("GET", "/api/events/" + event + "/cart", null);
    assertEquals(200, cart.status());
    assertEquals(0, cart.json().get("seats").size());
    assertEquals(deadline, cart.json().get("expired").get("at").asText());
    HttpFan.Reply stats = admin.admin("GET", "/admin/events/" + event + "/stats", null);
    assertEquals(98, stats.json().get("seats").get("available").asInt());
    assertEquals(0, stats.json().get("seats").get("held").asInt());
    assertEquals(2, stats.json().get("seats").get("sold").asInt(), "the bought seats are not touched");
    assertFalse(buyer.send("GET", "/api/events/" + event + "/cart", null).json().has("expired"), "the buyer's hold was bought");
    assertEquals(2.0, metric(released), "only the abandoned hold's seats");
  }
}
