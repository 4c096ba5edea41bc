package io.boxoffice.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.support.StripeSignatures;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Stripe-Signature verification and the reading of a PaymentIntent notice. */
class StripeWebhookTest {
  final StripeWebhook webhook = new StripeWebhook(StripeSignatures.WEBHOOK_SECRET, Duration.ofMinutes(5));
  final String payload = StripeSignatures.event("evt_1", "payment_intent.amount_capturable_updated", "pi_1",
      "requires_capture", "e-1.fan.1:authorize");

  @Test
  void aNoticeSignedWithTheEndpointSecretIsRead() throws Exception {
    StripeWebhook.Notice n = webhook.read(payload, StripeSignatures.header(payload));
    assertEquals("evt_1", n.eventId());
    assertEquals("payment_intent.amount_capturable_updated", n.type());
    assertEquals("pi_1", n.intentId());
    assertEquals("e-1.fan.1:authorize", n.authorizeKey());
    assertTrue(n.authorized());
    assertFalse(n.repeat());
  }

  @Test
  void aSignatureUnderAnotherSecretOrOfAnotherPayloadIsRefused() {
    assertThrows(StripeWebhook.Refused.class,
        () -> webhook.read(payload, StripeSignatures.header(payload, "whsec_someone_else", System.currentTimeMillis() / 1000)));
    assertThrows(StripeWebhook.Refused.class,
        () -> webhook.read(payload.replace("5000", "1"), StripeSignatures.header(payload)), "the payload was changed");
    assertThrows(StripeWebhook.Refused.class, () -> webhook.read(payload, null));
    assertThrows(StripeWebhook.Refused.class, () -> webhook.read(payload, "t=1,v1=00"));
  }

  @Test
  void aSignatureOlderThanTheToleranceIsRefused() {
    long sixMinutesAgo = System.currentTimeMillis() / 1000 - 360;
    StripeWebhook.Refused e = assertThrows(StripeWebhook.Refused.class,
        () -> webhook.read(payload, StripeSignatures.header(payload, StripeSignatures.WEBHOOK_SECRET, sixMinutesAgo)));
    assertTrue(e.getMessage().contains("tolerance"), e.getMessage());
  }

  @Test
  void aNoticeReadAgainIsARepeat() throws Exception {
    String header = StripeSignatures.header(payload);
    assertFalse(webhook.read(payload, header).repeat());
    assertTrue(webhook.read(payload, header).repeat(), "a replay within the tolerance is acted on once");
  }
}
