package io.boxoffice.cart;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A node dies in the middle of a checkout and the fan never comes back: the next node finishes the sale by itself. */
class CheckoutRecoveryIntegrationTest {

  @Test
  void aCheckoutLeftHalfDoneByACrashIsFinishedWithoutTheFan() throws Exception {
    PaymentSimulator payments = new PaymentSimulator(Duration.ofSeconds(6), 0.0);
    var fastSweep = ConfigFactory.parseString("boxoffice.checkout-recovery { interval = 300ms, stalled-after = 1s }");
    String id = UUID.randomUUID().toString().substring(0, 8);
    // The first node goes before the processor answers: its stop does not wait for requests in
    // flight (a graceful stop would let the 6-s payment finish within the 12-s drain).
    Node first = TestNode.postgres(Clock.systemUTC(), payments, fastSweep.withFallback(ConfigFactory.parseString(
        "pekko.coordinated-shutdown.phases.service-requests-done.timeout = 1s")));
    String cookie;
    try {
      HttpFan admin = new HttpFan(first.httpPort());
      assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"v-" + id + "\",\"name\":\"Hall\",\"sections\":"
          + "[{\"sectionId\":\"S\",\"zone\":\"stalls\",\"rows\":[{\"rowId\":\"A\",\"seats\":4}]}]}").status());
      assertEquals(201, admin.admin("POST", "/admin/events", "{\"eventId\":\"e-" + id + "\",\"venueId\":\"v-" + id
          + "\",\"name\":\"Show\",\"prices\":{\"stalls\":1000}}").status());
      io.boxoffice.support.TestCluster.open(admin, "e-" + id);
      HttpFan fan = new HttpFan(first.httpPort());
      fan.signUp("gone-" + id + "@example.com");
      cookie = fan.cookie();
      assertEquals(200, fan.send("POST", "/api/events/e-" + id + "/cart/holds", "{\"seats\":[\"S-A-1\"]}").status());
      // tok_slow: the processor answers after 6 s; the node dies before that, right after asking.
      fan.sendAsync("POST", "/api/events/e-" + id + "/cart/checkout", "{\"paymentToken\":\"tok_slow\"}", "Idempotency-Key", "once");
      await("the authorization asked for").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
          .until(() -> !payments.ledger().isEmpty());
      assertEquals(1, payments.ledger().size(), "the authorization was asked for");
    } finally {
      first.stop();
    }
    assertTrue(payments.ledger().values().stream().allMatch(e -> e.status() == PaymentSimulator.Status.AUTHORIZED));

    Node second = TestNode.postgres(Clock.systemUTC(), payments, fastSweep);
    try {
      await("the capture by the woken cart").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
          .untilAsserted(() -> assertEquals(PaymentSimulator.Status.CAPTURED, payments.ledger().values().iterator().next().status(),
              "the woken cart finished the sale and captured"));
      HttpFan fan = new HttpFan(second.httpPort()).withCookie(cookie);
      HttpFan.Reply tickets = Eventually.reply("the fan's tickets", Duration.ofSeconds(10), Duration.ofMillis(100),
          () -> fan.send("GET", "/api/me/tickets", null), r -> r.json().get("tickets").size() > 0);
      assertEquals(1, tickets.json().get("tickets").size(), tickets.body());
    } finally {
      second.stop();
    }
  }
}
