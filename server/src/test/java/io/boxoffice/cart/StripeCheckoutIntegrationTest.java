package io.boxoffice.cart;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.payment.StripeGateway;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.StripeSignatures;
import io.boxoffice.support.StripeStandIn;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A whole node with {@code boxoffice.payments.provider = stripe}, pointed at a local stand-in of
 * Stripe's API that checks every request's shape: fans' checkouts authorize, capture, decline
 * and void through PaymentIntents, and signed webhooks reach the checkout.
 */
class StripeCheckoutIntegrationTest {
  static StripeStandIn stripe;
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    stripe = new StripeStandIn();
    node = Node.start(ConfigFactory.parseMap(Map.of(
            "boxoffice.payments.provider", "stripe",
            "boxoffice.payments.stripe.api-base", stripe.apiBase(),
            "boxoffice.payments.stripe.secret-key", StripeStandIn.SECRET_KEY,
            "boxoffice.payments.stripe.webhook-secret", StripeSignatures.WEBHOOK_SECRET,
            "boxoffice.payments.stripe.read-timeout", "1500ms"))
        .withFallback(TestNode.config(TestNode.PG_URL, "target/unused")), new Node.Options(Clock.systemUTC(), null));
  }

  @AfterAll
  static void stop() {
    if (node != null) node.stop();
    if (stripe != null) stripe.close();
  }

  @AfterEach
  void shapes() {
    assertEquals(List.of(), stripe.violations(), "every request the node made had Stripe's shape");
  }

  record Shop(String eventId, HttpFan fan) {}

  /** A fresh event of four seats open for sale, and a signed-in fan holding S-A-1. */
  static Shop holding() {
    String id = UUID.randomUUID().toString().substring(0, 8);
    HttpFan admin = new HttpFan(node.httpPort());
    assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"v-" + id + "\",\"name\":\"Hall\",\"sections\":"
        + "[{\"sectionId\":\"S\",\"zone\":\"stalls\",\"rows\":[{\"rowId\":\"A\",\"seats\":4}]}]}").status());
    assertEquals(201, admin.admin("POST", "/admin/events", "{\"eventId\":\"e-" + id + "\",\"venueId\":\"v-" + id
        + "\",\"name\":\"Show\",\"prices\":{\"stalls\":5000}}").status());
    io.boxoffice.support.TestCluster.open(admin, "e-" + id);
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("fan-" + id + "@example.com");
    HttpFan.Reply hold = fan.send("POST", "/api/events/e-" + id + "/cart/holds", "{\"seats\":[\"S-A-1\"]}");
    assertEquals(200, hold.status(), hold.body());
    return new Shop("e-" + id, fan);
  }

  static HttpFan.Reply checkout(Shop shop, String token) {
    return shop.fan().send("POST", "/api/events/" + shop.eventId() + "/cart/checkout", "{\"paymentToken\":\"" + token + "\"}",
        "Idempotency-Key", UUID.randomUUID().toString());
  }

  /** The PaymentIntents made for the event's orders. */
  static List<Map<String, Object>> intentsOf(Shop shop) {
    return stripe.intents().values().stream()
        .filter(i -> String.valueOf(((Map<?, ?>) i.get("metadata")).get(StripeGateway.KEY_METADATA)).startsWith(shop.eventId() + "."))
        .toList();
  }

  static HttpFan.Reply webhook(String payload, String signature) {
    HttpFan stripeCalling = new HttpFan(node.httpPort());
    return signature == null ? stripeCalling.send("POST", "/api/payments/stripe/webhook", payload)
        : stripeCalling.send("POST", "/api/payments/stripe/webhook", payload, "Stripe-Signature", signature);
  }

  @Test
  void aPaidCheckoutIsAuthorizedThenCaptured() {
    Shop shop = holding();
    HttpFan.Reply order = checkout(shop, "pm_card_visa");
    assertEquals(200, order.status(), order.body());
    assertEquals(1, order.json().get("tickets").size(), order.body());
    await("the capture").atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertEquals(List.of("succeeded"), intentsOf(shop).stream().map(i -> i.get("status")).toList()));
    Map<String, Object> intent = intentsOf(shop).get(0);
    assertEquals(5000L, ((Number) intent.get("amount")).longValue(), "the seat's price, in cents");
    assertEquals("eur", intent.get("currency"));
  }

  @Test
  void aDeclinedCardIs402AndNothingIsCaptured() {
    Shop shop = holding();
    HttpFan.Reply order = checkout(shop, "pm_card_chargeDeclined");
    assertEquals(402, order.status(), order.body());
    assertEquals("payment_declined", order.error());
    assertTrue(intentsOf(shop).stream().noneMatch(i -> List.of("succeeded", "requires_capture").contains(i.get("status"))),
        "nothing set aside or taken: " + intentsOf(shop));
    assertTrue(stripe.requests().stream().noneMatch(r -> r.path().endsWith("/capture")
        && intentsOf(shop).stream().anyMatch(i -> r.path().contains((String) i.get("id")))), "no capture asked for");
  }

  @Test
  void aSaleRefusedAfterTheAuthorizationCancelsIt() {
    Shop shop = holding();
    // The authorization takes a second (inside the read timeout); the fan lets the seat go meanwhile.
    stripe.answerLate(1, 1000);
    var pending = shop.fan().sendAsync("POST", "/api/events/" + shop.eventId() + "/cart/checkout",
        "{\"paymentToken\":\"pm_card_visa\"}", "Idempotency-Key", UUID.randomUUID().toString());
    await("the authorization asked for").atMost(Duration.ofSeconds(5)).until(() -> !intentsOf(shop).isEmpty());
    assertEquals(204, shop.fan().send("DELETE", "/api/events/" + shop.eventId() + "/cart/holds/S-A-1", null).status());
    await("the void").atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertEquals(List.of("canceled"), intentsOf(shop).stream().map(i -> i.get("status")).toList()));
    assertEquals(410, pending.join().status(), pending.join().body());
  }

  @Test
  void anAuthorizationWhoseAnswerWasLostIsVoidedWhenItsWebhookArrives() {
    Shop shop = holding();
    // Stripe sets the money aside but the answer comes after the node's read timeout, and its
    // search does not see the PaymentIntent yet: the void by key finds nothing.
    stripe.searchLags(true);
    stripe.answerLate(1, 3000);
    try {
      // The node asks again on its own (a fresh order, while the fan's deadline allows): whatever
      // the fan is told, the first order's authorization is the one left behind.
      checkout(shop, "pm_card_visa");
      await("the void by key tried").atMost(Duration.ofSeconds(10)).until(() -> stripe.requests().stream()
          .anyMatch(r -> r.path().equals("/v1/payment_intents/search") && r.form().getOrDefault("query", "").contains(shop.eventId())));
    } finally {
      stripe.searchLags(false);
    }
    Map<String, Object> intent = intentsOf(shop).stream()
        .filter(i -> ((Map<?, ?>) i.get("metadata")).get(StripeGateway.KEY_METADATA).toString().endsWith(".1:authorize"))
        .findFirst().orElseThrow();
    String intentId = (String) intent.get("id");
    assertEquals("requires_capture", stripe.status(intentId), "still set aside: nothing found it");

    String authorizeKey = (String) ((Map<?, ?>) intent.get("metadata")).get(StripeGateway.KEY_METADATA);
    String payload = StripeSignatures.event("evt_" + UUID.randomUUID(), "payment_intent.amount_capturable_updated", intentId,
        "requires_capture", authorizeKey);
    assertEquals(200, webhook(payload, StripeSignatures.header(payload)).status());
    await("the late authorization voided").atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertEquals("canceled", stripe.status(intentId)));
    assertEquals(200, webhook(payload, StripeSignatures.header(payload)).status(), "a replay is acknowledged and harmless");
    assertEquals("canceled", stripe.status(intentId));
  }

  @Test
  void aWebhookThatDoesNotVerifyIs400AndChangesNothing() {
    Shop shop = holding();
    assertEquals(200, checkout(shop, "pm_card_visa").status());
    await().atMost(Duration.ofSeconds(10)).until(() -> "succeeded".equals(intentsOf(shop).get(0).get("status")));
    Map<String, Object> intent = intentsOf(shop).get(0);
    String payload = StripeSignatures.event("evt_" + UUID.randomUUID(), "payment_intent.amount_capturable_updated",
        (String) intent.get("id"), "requires_capture", (String) ((Map<?, ?>) intent.get("metadata")).get(StripeGateway.KEY_METADATA));
    int before = stripe.requests().size();
    HttpFan.Reply forged = webhook(payload, StripeSignatures.header(payload, "whsec_not_the_endpoints", System.currentTimeMillis() / 1000));
    assertEquals(400, forged.status(), forged.body());
    assertEquals("bad_signature", forged.error());
    HttpFan.Reply old = webhook(payload, StripeSignatures.header(payload, StripeSignatures.WEBHOOK_SECRET,
        System.currentTimeMillis() / 1000 - 600));
    assertEquals(400, old.status(), old.body());
    assertEquals(400, webhook(payload, null).status(), "no signature at all");
    assertEquals(before, stripe.requests().size(), "nothing asked of Stripe");
    assertEquals("succeeded", intentsOf(shop).get(0).get("status"));
  }
}
