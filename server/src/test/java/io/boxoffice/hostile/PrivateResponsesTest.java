package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestNode;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Issue 8, finding 13: private responses are never stored by caches; pages cannot be framed. */
class PrivateResponsesTest {
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(new MutableClock(Instant.parse("2026-12-01T10:00:00Z")), TestNode.payments());
  }

  @AfterAll
  static void stop() {
    if (node != null) node.stop();
  }

  static void noStore(HttpFan.Reply r) {
    assertEquals("private, no-store", r.headers().firstValue("Cache-Control").orElse(""), r.toString());
  }

  static void notFramable(HttpFan.Reply r) {
    assertEquals("frame-ancestors 'none'", r.headers().firstValue("Content-Security-Policy").orElse(""));
    assertEquals("DENY", r.headers().firstValue("X-Frame-Options").orElse(""));
  }

  @Test
  void sessionsTicketsOrdersAndErrorsAreNotStored() {
    HttpFan fan = new HttpFan(node.httpPort());
    String email = "private-" + UUID.randomUUID() + "@example.com";
    String body = Hostile.credentials(email, "correct horse battery");
    noStore(fan.send("POST", "/api/accounts", body));
    noStore(fan.send("POST", "/api/session", body));
    fan.signUp("private2-" + UUID.randomUUID() + "@example.com");
    noStore(fan.send("GET", "/api/me/tickets", null));
    noStore(fan.send("GET", "/api/orders/o-unknown", null));
    noStore(fan.send("GET", "/api/events/ev-unknown/cart", null));
    noStore(fan.send("GET", "/api/events/ev-unknown/queue/status", null));
  }

  @Test
  void pagesCannotBeFramed() {
    Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
    String eventId = sales.openEvent(sales.venue());
    HttpFan fan = new HttpFan(node.httpPort());
    HttpFan.Reply page = fan.send("GET", "/events/" + eventId, null);
    assertEquals(200, page.status());
    notFramable(page);
    // The page itself is public (the same bytes for everyone, nothing of the fan's in it); what is
    // private comes from the calls the page makes, which are not stored (above).
    assertTrue(page.headers().firstValue("Cache-Control").orElseThrow().startsWith("public, "));
    assertTrue(page.headers().allValues("Set-Cookie").isEmpty());
  }
}
