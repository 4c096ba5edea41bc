package io.boxoffice.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The per-event metrics of an open sale on the management port: holds and sales counted once,
 * where the inventory writes them (a checkout asked again with its Idempotency-Key is one sale),
 * and the seat gauges showing the event's seats, not zeros.
 */
class SaleMetricsTest {
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  @Test
  void anOpenSaleCountsEachSaleOnceAndItsSeatGaugesAreTheSeats() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    HttpFan admin = new HttpFan(node.httpPort());
    assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"smv-" + suffix + "\",\"name\":\"Hall\","
        + "\"generate\":{\"layout\":\"stadium\",\"seats\":200}}").status());
    String eventId = "sme-" + suffix;
    assertEquals(201, admin.admin("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"smv-" + suffix
        + "\",\"name\":\"Show\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}").status());
    assertEquals(200, admin.admin("POST", "/admin/events/" + eventId + "/open", null).status());

    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("sm-" + suffix + "@example.com");
    assertEquals(200, fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}").status());
    String key = UUID.randomUUID().toString();
    HttpFan.Reply first = fan.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", key);
    assertEquals(200, first.status(), first.body());
    // The storefront did not get the answer and asks again with the same key: the same order, no second sale.
    HttpFan.Reply again = fan.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", key);
    assertEquals(200, again.status(), again.body());
    assertEquals(first.json().get("orderId"), again.json().get("orderId"));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      String metrics = new HttpFan(node.managementPort()).send("GET", "/metrics", null).body();
      assertEquals(1.0, value(metrics, "boxoffice_sales_total", eventId), "sales");
      assertEquals(2.0, value(metrics, "boxoffice_holds_total", eventId), "holds");
      assertEquals(2.0, value(metrics, "boxoffice_seats_sold", eventId), "seats sold");
      assertEquals(0.0, value(metrics, "boxoffice_seats_held", eventId), "seats held");
      assertEquals(198.0, value(metrics, "boxoffice_seats_available", eventId), "seats available");
    });
  }

  /** The value of {@code name}'s series for {@code eventId} (empty: a series without labels), or NaN when there is none. */
  static double value(String metrics, String name, String eventId) {
    for (String line : metrics.split("\n")) {
      if (eventId.isEmpty() ? line.startsWith(name + " ") || line.startsWith(name + "{}")
          : line.startsWith(name + "{") && line.contains("event=\"" + eventId + "\"")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return Double.NaN;
  }
}
