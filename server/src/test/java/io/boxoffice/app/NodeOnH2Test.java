package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** The embedded default: a node on H2 files creates its tables (the payment ledger too), sells, and keeps the sale across a restart. */
class NodeOnH2Test {

  @Test
  void sellsOnTheEmbeddedDatabaseAndRemembersAfterARestart() throws Exception {
    Path dir = Files.createTempDirectory("boxoffice-h2");
    Node node = Node.start(TestNode.config("", dir.toString()), new Node.Options(Clock.systemUTC(), null));
    String orderId;
    String cookie;
    try {
      HttpFan admin = new HttpFan(node.httpPort());
      assertEquals(201, admin.admin("POST", "/admin/venues",
          "{\"venueId\":\"arena\",\"name\":\"Arena\",\"generate\":{\"layout\":\"stadium\",\"seats\":70000}}").status());
      assertEquals(201, admin.admin("POST", "/admin/events",
          "{\"eventId\":\"show\",\"venueId\":\"arena\",\"name\":\"Show\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":10}}").status());
      io.boxoffice.support.TestCluster.open(admin, "show");
      HttpFan fan = new HttpFan(node.httpPort());
      fan.signUp("h2@example.com");
      cookie = fan.cookie();
      HttpFan.Reply hold = fan.send("POST", "/api/events/show/cart/holds", "{\"best\":{\"quantity\":2,\"zone\":\"lower\"}}");
      assertEquals(200, hold.status(), hold.body());
      HttpFan.Reply order = fan.send("POST", "/api/events/show/cart/checkout", "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "1");
      assertEquals(200, order.status(), order.body());
      orderId = order.json().get("orderId").asText();
    } finally {
      node.stop();
    }
    assertEquals(true, Files.list(dir).findAny().isPresent(), "H2 files under the data dir");

    Node again = Node.start(TestNode.config("", dir.toString()), new Node.Options(Clock.systemUTC(), null));
    try {
      HttpFan fan = new HttpFan(again.httpPort()).withCookie(cookie);
      HttpFan.Reply order = fan.send("GET", "/api/orders/" + orderId, null);
      assertEquals(200, order.status(), order.body());
      assertEquals(2, order.json().get("tickets").size());
      HttpFan.Reply stats = new HttpFan(again.httpPort()).admin("GET", "/admin/events/show/stats", null);
      assertEquals(2, stats.json().get("seats").get("sold").asInt());
    } finally {
      again.stop();
    }
  }
}
