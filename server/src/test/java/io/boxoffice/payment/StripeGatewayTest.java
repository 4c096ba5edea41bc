package io.boxoffice.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.support.StripeStandIn;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Stripe adapter against a local stand-in that checks each request against Stripe's API shapes. */
class StripeGatewayTest {
  StripeStandIn stripe;
  StripeGateway gateway;

  @BeforeEach
  void start() throws Exception {
    stripe = new StripeStandIn();
    gateway = new StripeGateway(new StripeGateway.Settings(stripe.apiBase(), StripeStandIn.SECRET_KEY, "eur",
        Duration.ofSeconds(2), Duration.ofMillis(700), ""), Executors.newFixedThreadPool(2));
  }

  @AfterEach
  void stop() {
    assertEquals(List.of(), stripe.violations(), "every request had Stripe's shape");
    stripe.close();
  }

  @Test
  void anAuthorizationIsAManualCapturePaymentIntentThatTheCaptureTakes() {
    String key = "order-" + UUID.randomUUID() + ":authorize";
    var auth = assertInstanceOf(PaymentGateway.Authorized.class, join(gateway.authorize(key, "pm_card_visa", 5000)));
    assertEquals("requires_capture", stripe.status(auth.authorizationId()), "money set aside, not taken");
    var create = stripe.requests().get(0);
    assertEquals("POST", create.method());
    assertEquals("/v1/payment_intents", create.path());
    assertEquals(key, create.idempotencyKey(), "the checkout's key is Stripe's Idempotency-Key");
    assertEquals("5000", create.form().get("amount"));
    assertEquals("eur", create.form().get("currency"));
    assertEquals("manual", create.form().get("capture_method"));
    assertEquals("true", create.form().get("confirm"));
    assertEquals("pm_card_visa", create.form().get("payment_method"));
    assertEquals(key, create.form().get("metadata[" + StripeGateway.KEY_METADATA + "]"));

    join(gateway.capture("cap-" + key, auth.authorizationId(), 5000));
    assertEquals("succeeded", stripe.status(auth.authorizationId()), "captured");
    var capture = stripe.requests().get(1);
    assertEquals("/v1/payment_intents/" + auth.authorizationId() + "/capture", capture.path());
    assertEquals("cap-" + key, capture.idempotencyKey());

    join(gateway.capture("cap-again-" + key, auth.authorizationId(), 5000));
    assertEquals("succeeded", stripe.status(auth.authorizationId()), "a capture repeated under another key is done already");
  }

  @Test
  void aCardTokenIsConfirmedAsACardPaymentMethod() {
    var auth = assertInstanceOf(PaymentGateway.Authorized.class,
        join(gateway.authorize("tok-" + UUID.randomUUID(), "tok_visa", 1200)));
    var create = stripe.requests().get(0);
    assertEquals("card", create.form().get("payment_method_data[type]"));
    assertEquals("tok_visa", create.form().get("payment_method_data[card][token]"));
    assertEquals("requires_capture", stripe.status(auth.authorizationId()));
  }

  @Test
  void aDeclinedCardIsADeclineAndNothingIsSetAside() {
    var declined = assertInstanceOf(PaymentGateway.Declined.class,
        join(gateway.authorize("declined-" + UUID.randomUUID(), "pm_card_chargeDeclined", 5000)));
    assertEquals("generic_decline", declined.reason(), "Stripe's decline_code");
    assertTrue(stripe.intents().values().stream().noneMatch(i -> "requires_capture".equals(i.get("status"))
        || "succeeded".equals(i.get("status"))), "nothing set aside or taken: " + stripe.intents());
  }

  @Test
  void aPaymentMethodStripeDoesNotKnowIsADeclineNotAProcessorError() {
    var declined = assertInstanceOf(PaymentGateway.Declined.class,
        join(gateway.authorize("junk-" + UUID.randomUUID(), "pm_made_up", 5000)));
    assertEquals("resource_missing", declined.reason());
  }

  @Test
  void aVoidCancelsTheAuthorization() {
    String key = "void-" + UUID.randomUUID();
    var auth = (PaymentGateway.Authorized) join(gateway.authorize(key, "pm_card_visa", 5000));
    join(gateway.voidAuthorization(key + ":void", auth.authorizationId(), key));
    assertEquals("canceled", stripe.status(auth.authorizationId()));
    var cancel = stripe.requests().get(1);
    assertEquals("/v1/payment_intents/" + auth.authorizationId() + "/cancel", cancel.path());
    assertEquals(key + ":void", cancel.idempotencyKey());
    join(gateway.voidAuthorization(key + ":void-again", auth.authorizationId(), key));
    assertEquals("canceled", stripe.status(auth.authorizationId()), "a second void is harmless");
  }

  @Test
  void aVoidWithoutTheAuthorizationIdFindsItByItsKey() {
    String key = "lost-" + UUID.randomUUID();
    var auth = (PaymentGateway.Authorized) join(gateway.authorize(key, "pm_card_visa", 5000));
    join(gateway.voidAuthorization(key + ":void", null, key));
    assertEquals("canceled", stripe.status(auth.authorizationId()), "found by metadata search and canceled");
  }

  @Test
  void aRetryAfterATimeoutReusesTheKeyAndChargesOnce() {
    String key = "slow-" + UUID.randomUUID();
    stripe.answerLate(1, 1500);
    CompletionException timedOut = assertThrows(CompletionException.class, () -> join(gateway.authorize(key, "pm_card_visa", 5000)));
    assertInstanceOf(PaymentGateway.PaymentUnavailable.class, timedOut.getCause(), "no answer: outcome unknown");
    var again = assertInstanceOf(PaymentGateway.Authorized.class, join(gateway.authorize(key, "pm_card_visa", 5000)));
    assertEquals(1, stripe.intents().size(), "one PaymentIntent for the two calls: " + stripe.intents());
    assertNotNull(stripe.intents().get(again.authorizationId()));
    assertEquals(List.of(key, key), stripe.requests().stream().map(StripeStandIn.Request::idempotencyKey).toList(),
        "the same Idempotency-Key on the retry");
  }

  @Test
  void aWrongSecretKeyIsAProcessorErrorNotADecline() {
    StripeGateway wrong = new StripeGateway(new StripeGateway.Settings(stripe.apiBase(), "sk_test_wrong", "eur",
        Duration.ofSeconds(2), Duration.ofSeconds(2), ""), Runnable::run);
    CompletionException e = assertThrows(CompletionException.class, () -> join(wrong.authorize("k-" + UUID.randomUUID(), "pm_card_visa", 5000)));
    assertInstanceOf(PaymentGateway.PaymentUnavailable.class, e.getCause());
  }

  private static <T> T join(java.util.concurrent.CompletionStage<T> stage) {
    return stage.toCompletableFuture().join();
  }
}
