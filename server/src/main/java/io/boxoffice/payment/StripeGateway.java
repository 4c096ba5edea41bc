package io.boxoffice.payment;

import com.stripe.StripeClient;
import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.CardException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.model.StripeError;
import com.stripe.net.RequestOptions;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.PaymentIntentSearchParams;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link PaymentGateway} on Stripe's PaymentIntents with manual capture: authorize creates
 * and confirms a PaymentIntent ({@code capture_method=manual}), which then waits in
 * {@code requires_capture}; capture and void are its {@code /capture} and {@code /cancel}. Every
 * POST carries the call's idempotency key as Stripe's {@code Idempotency-Key}, so a call repeated
 * after a timeout (by this node or another, after a crash) gets Stripe's first answer and never
 * a second charge. Each PaymentIntent carries its authorization key in {@code metadata}, so a
 * void without an authorization id finds it by search, and a late result reported by webhook
 * ({@link StripeWebhook}) finds its order. The client blocks: calls run on {@code executor}.
 */
public final class StripeGateway implements PaymentGateway {
  private static final Logger log = LoggerFactory.getLogger(StripeGateway.class);

  /** The metadata key under which each PaymentIntent carries its authorization's idempotency key. */
  public static final String KEY_METADATA = "boxoffice_authorize_key";
  /** States of a PaymentIntent that a cancel can still end (Stripe: "Cancel a PaymentIntent"). */
  private static final Set<String> CANCELABLE = Set.of("requires_payment_method", "requires_capture",
      "requires_confirmation", "requires_action", "processing");

  /** {@code boxoffice.payments.stripe}: where Stripe is, how long a call may take, and the currency of the prices. */
  public record Settings(String apiBase, String secretKey, String currency, Duration connectTimeout, Duration readTimeout,
                         String statementDescriptorSuffix) {}

  private final StripeClient client;
  private final Settings settings;
  private final Executor executor;

  public StripeGateway(Settings settings, Executor executor) {
    this.settings = settings;
    this.executor = executor;
    this.client = StripeClient.builder()
        .setApiKey(settings.secretKey())
        .setApiBase(settings.apiBase())
        .setConnectTimeout((int) settings.connectTimeout().toMillis())
        .setReadTimeout((int) settings.readTimeout().toMillis())
        // The cart repeats a call that has no answer, with the same key: no hidden retries here.
        .setMaxNetworkRetries(0)
        .build();
  }

  @Override
  public CompletionStage<AuthResult> authorize(String idempotencyKey, String paymentToken, long amountCents) {
    return CompletableFuture.supplyAsync(() -> {
      PaymentIntentCreateParams.Builder params = PaymentIntentCreateParams.builder()
          .setAmount(amountCents)
          .setCurrency(settings.currency())
          .setCaptureMethod(PaymentIntentCreateParams.CaptureMethod.MANUAL)
          .setConfirm(true)
          // A checkout cannot send the fan to a bank's page: a card that needs it is declined.
          .setErrorOnRequiresAction(true)
          .addPaymentMethodType("card")
          .putMetadata(KEY_METADATA, idempotencyKey);
      if (paymentToken != null && paymentToken.startsWith("tok_")) {
        // A card token (Stripe.js createToken): confirmed as a card payment method made from it.
        params.putExtraParam("payment_method_data", java.util.Map.of("type", "card", "card", java.util.Map.of("token", paymentToken)));
      } else {
        params.setPaymentMethod(paymentToken);
      }
      if (!settings.statementDescriptorSuffix().isEmpty()) params.setStatementDescriptorSuffix(settings.statementDescriptorSuffix());
      try {
        PaymentIntent intent = client.paymentIntents().create(params.build(), keyed(idempotencyKey));
        if ("requires_capture".equals(intent.getStatus())) return new Authorized(intent.getId());
        // Confirmed but not set aside (requires_payment_method after a soft decline, or anything
        // unexpected): nothing to capture. Release what may be pending and tell the fan no.
        cancelQuietly(intent, idempotencyKey + ":cancel-unusable");
        return new Declined("the card was not authorized (" + intent.getStatus() + ")");
      } catch (CardException declined) {
        return new Declined(reason(declined));
      } catch (InvalidRequestException refused) {
        if (declinedToken(refused)) return new Declined(reason(refused));
        throw unavailable("authorize", refused);
      } catch (StripeException e) {
        throw unavailable("authorize", e);
      }
    }, executor);
  }

  @Override
  public CompletionStage<Void> capture(String idempotencyKey, String authorizationId, long amountCents) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        client.paymentIntents().capture(authorizationId, keyed(idempotencyKey));
        return null;
      } catch (InvalidRequestException e) {
        // Captured before under another key (a capture whose answer was lost): it is done.
        if ("succeeded".equals(intentStatus(e))) return null;
        throw unavailable("capture", e);
      } catch (StripeException e) {
        throw unavailable("capture", e);
      }
    }, executor);
  }

  @Override
  public CompletionStage<Void> voidAuthorization(String idempotencyKey, String authorizationIdOrNull, String authorizeKey) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        if (authorizationIdOrNull != null) {
          cancel(authorizationIdOrNull, idempotencyKey);
          return null;
        }
        // The authorization's answer was lost: find what Stripe made under its key, if anything.
        // Search is eventually consistent (about a minute); one made later still arrives as a
        // webhook (payment_intent.amount_capturable_updated), which voids it then.
        var found = client.paymentIntents().search(PaymentIntentSearchParams.builder()
            .setQuery("metadata['" + KEY_METADATA + "']:'" + authorizeKey.replace("'", "\\'") + "'").build());
        for (PaymentIntent intent : found.getData()) {
          if (CANCELABLE.contains(intent.getStatus())) cancel(intent.getId(), idempotencyKey + ":" + intent.getId());
        }
        return null;
      } catch (StripeException e) {
        throw unavailable("void", e);
      }
    }, executor);
  }

  private void cancel(String intentId, String idempotencyKey) throws StripeException {
    try {
      client.paymentIntents().cancel(intentId, keyed(idempotencyKey));
    } catch (InvalidRequestException e) {
      // Already canceled, or captured (a void after a capture changes nothing, as in the simulator).
      String status = intentStatus(e);
      if ("canceled".equals(status) || "succeeded".equals(status)) return;
      throw e;
    }
  }

  private void cancelQuietly(PaymentIntent intent, String idempotencyKey) {
    if (!CANCELABLE.contains(intent.getStatus())) return;
    try {
      cancel(intent.getId(), idempotencyKey);
    } catch (StripeException e) {
      log.warn("could not cancel unusable PaymentIntent {} ({}): {}", intent.getId(), intent.getStatus(), e.getMessage());
    }
  }

  private static RequestOptions keyed(String idempotencyKey) {
    return RequestOptions.builder().setIdempotencyKey(idempotencyKey).build();
  }

  private static String intentStatus(StripeException e) {
    StripeError error = e.getStripeError();
    return error == null || error.getPaymentIntent() == null ? null : error.getPaymentIntent().getStatus();
  }

  /**
   * A card Stripe refuses as such (a token used already, an expired card, a payment method or
   * token it does not know: a made-up {@code paymentToken}) is the fan's card problem, not ours.
   */
  private static boolean declinedToken(InvalidRequestException e) {
    String code = e.getCode();
    String param = e.getParam() == null ? "" : e.getParam();
    return "token_already_used".equals(code) || "expired_card".equals(code)
        || "resource_missing".equals(code) && (param.contains("token") || param.contains("payment_method"));
  }

  private static String reason(StripeException e) {
    String decline = e instanceof CardException c ? c.getDeclineCode() : null;
    String code = e.getCode();
    return decline != null ? decline : code != null ? code : "card declined";
  }

  private static PaymentUnavailable unavailable(String call, StripeException e) {
    // The outcome is unknown: the caller repeats the call with the same key.
    String kind = e instanceof ApiConnectionException ? "no answer" : "HTTP " + e.getStatusCode();
    log.warn("stripe {} failed ({}): {} (request {})", call, kind, e.getMessage(), e.getRequestId());
    return new PaymentUnavailable("stripe " + call + ": " + kind);
  }
}
