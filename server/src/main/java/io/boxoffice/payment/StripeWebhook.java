package io.boxoffice.payment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.net.Webhook;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Stripe's webhook notices of PaymentIntents, verified: the {@code Stripe-Signature} header must
 * carry an HMAC-SHA256, under the endpoint's signing secret, of {@code <timestamp>.<payload>}
 * whose timestamp is within the tolerance of now (older: a replay, refused), compared in
 * constant time (stripe-java's {@code Webhook.Signature}). A notice read twice (Stripe delivers
 * at least once, and a replay within the tolerance verifies) is reported as a repeat, so that
 * it is acted on once per node; acting on it twice would be harmless too.
 */
public final class StripeWebhook {

  /** The PaymentIntent events this endpoint subscribes to. */
  public static final Set<String> TYPES = Set.of("payment_intent.succeeded", "payment_intent.payment_failed",
      "payment_intent.canceled", "payment_intent.amount_capturable_updated");

  /** What a verified notice says: the event, its PaymentIntent, and the authorization key the adapter put on it (or null). */
  public record Notice(String eventId, String type, String intentId, String status, String authorizeKey, String failure,
                       boolean repeat) {
    /** The money is set aside now (a late authorization, e.g. after a timeout or a card authentication). */
    public boolean authorized() {
      return "requires_capture".equals(status);
    }
  }

  /** Why a request is refused: never the secret, never what a valid signature would have been. */
  public static final class Refused extends Exception {
    public Refused(String message) {
      super(message);
    }
  }

  private static final int REMEMBERED = 10_000;
  private final ObjectMapper json = new ObjectMapper();
  private final String secret;
  private final long toleranceSeconds;
  private final Map<String, Boolean> seen = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > REMEMBERED;
    }
  });

  public StripeWebhook(String secret, Duration tolerance) {
    this.secret = secret;
    this.toleranceSeconds = tolerance.toSeconds();
  }

  /** The notice of a signed payload; {@link Refused} for a missing, wrong or stale signature or a payload that is not an event. */
  public Notice read(String payload, String signatureHeader) throws Refused {
    if (signatureHeader == null || signatureHeader.isBlank()) throw new Refused("the Stripe-Signature header is missing");
    try {
      Webhook.Signature.verifyHeader(payload, signatureHeader, secret, toleranceSeconds);
    } catch (SignatureVerificationException e) {
      throw new Refused(e.getMessage().startsWith("Timestamp outside")
          ? "the signature's timestamp is outside the tolerance (a replay, or a clock far off)"
          : "the Stripe-Signature does not verify");
    }
    JsonNode event;
    try {
      event = json.readTree(payload);
    } catch (java.io.IOException e) {
      throw new Refused("the payload is not JSON");
    }
    if (event == null || !event.path("id").isTextual() || !event.path("type").isTextual()) {
      throw new Refused("the payload is not a Stripe event");
    }
    JsonNode intent = event.path("data").path("object");
    String key = intent.path("metadata").path(StripeGateway.KEY_METADATA).asText(null);
    JsonNode error = intent.path("last_payment_error");
    String failure = error.isMissingNode() || error.isNull() ? null
        : error.path("decline_code").asText(error.path("code").asText(null));
    boolean repeat = seen.put(event.get("id").asText(), Boolean.TRUE) != null;
    return new Notice(event.get("id").asText(), event.get("type").asText(), intent.path("id").asText(null),
        intent.path("status").asText(null), key, failure, repeat);
  }
}
