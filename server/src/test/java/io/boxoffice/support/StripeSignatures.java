package io.boxoffice.support;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Signs webhook payloads as Stripe does: {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload" under the endpoint secret>}. */
public final class StripeSignatures {
  public static final String WEBHOOK_SECRET = "whsec_standin0123456789abcdefghijklmnop";

  private StripeSignatures() {}

  public static String header(String payload, String secret, long unixSeconds) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      byte[] sig = mac.doFinal((unixSeconds + "." + payload).getBytes(StandardCharsets.UTF_8));
      return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(sig);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  public static String header(String payload) {
    return header(payload, WEBHOOK_SECRET, System.currentTimeMillis() / 1000);
  }

  /** A Stripe event of {@code type} about a PaymentIntent in {@code status} that carries {@code authorizeKey}. */
  public static String event(String eventId, String type, String intentId, String status, String authorizeKey) {
    return "{\"id\":\"" + eventId + "\",\"object\":\"event\",\"api_version\":\"2024-12-18.acacia\",\"created\":"
        + System.currentTimeMillis() / 1000 + ",\"livemode\":false,\"type\":\"" + type + "\",\"data\":{\"object\":{\"id\":\""
        + intentId + "\",\"object\":\"payment_intent\",\"amount\":5000,\"currency\":\"eur\",\"capture_method\":\"manual\","
        + "\"status\":\"" + status + "\",\"metadata\":{\"boxoffice_authorize_key\":\"" + authorizeKey + "\"}}}}";
  }
}
