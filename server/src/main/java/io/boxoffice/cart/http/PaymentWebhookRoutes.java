package io.boxoffice.cart.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import io.boxoffice.cart.Cart;
import io.boxoffice.cart.domain.CheckoutSaga;
import io.boxoffice.edge.Api;
import io.boxoffice.payment.StripeWebhook;
import io.boxoffice.venue.domain.VenueLayout;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/payments/stripe/webhook}: Stripe's notices of late PaymentIntent results.
 * A notice that does not verify ({@link StripeWebhook}) is 400 and changes nothing. A verified one
 * is counted by type and outcome and logged; an authorization set aside is told to the order's
 * cart ({@link Cart.PaymentAuthorizedLate}: a checkout still waiting takes it, one that ended
 * voids it). A repeat of a notice is acknowledged and not acted on again. Stripe retries any
 * answer but 2xx for days, so a verified notice is acknowledged even when it names no order.
 */
public final class PaymentWebhookRoutes extends AllDirectives {
  private static final Logger log = LoggerFactory.getLogger(PaymentWebhookRoutes.class);
  /** Stripe's PaymentIntent events are a few KiB; nothing legitimate comes near this. */
  static final long MAX_BODY_BYTES = 256 * 1024;

  /** Outcomes of a notice (the {@code outcome} label of its counter). */
  public static final String REFUSED = "refused", REPEAT = "repeat", TO_CART = "to_cart", RECORDED = "recorded",
      NOT_OURS = "not_ours";

  private final Api api;
  private final StripeWebhook webhook;
  private final Function<String, RecipientRef<Cart.Command>> carts;
  private final BiConsumer<String, String> counted;

  /** {@code counted}: (event type, outcome) of each notice; the type is one of {@link StripeWebhook#TYPES} or "other". */
  public PaymentWebhookRoutes(Api api, StripeWebhook webhook, Function<String, RecipientRef<Cart.Command>> carts,
                              BiConsumer<String, String> counted) {
    this.api = api;
    this.webhook = webhook;
    this.carts = carts;
    this.counted = counted;
  }

  public Route routes() {
    return path(segment("api").slash("payments").slash("stripe").slash("webhook"), () -> post(() ->
        withSizeLimit(MAX_BODY_BYTES, () -> optionalHeaderValueByName("Stripe-Signature", signature ->
            entity(Unmarshaller.entityToString(), payload -> complete(notice(payload, signature.orElse(null))))))));
  }

  private org.apache.pekko.http.javadsl.model.HttpResponse notice(String payload, String signature) {
    StripeWebhook.Notice n;
    try {
      n = webhook.read(payload, signature);
    } catch (StripeWebhook.Refused e) {
      counted.accept("other", REFUSED);
      log.warn("stripe webhook refused: {}", e.getMessage());
      return api.error(400, "bad_signature", e.getMessage());
    }
    String type = StripeWebhook.TYPES.contains(n.type()) ? n.type() : "other";
    String outcome = n.repeat() ? REPEAT : act(n);
    counted.accept(type, outcome);
    log.info("stripe webhook {} {}: PaymentIntent {} is {}{} ({})", n.eventId(), n.type(), n.intentId(), n.status(),
        n.failure() == null ? "" : ", " + n.failure(), outcome);
    return api.json(200, Map.of("received", true));
  }

  private String act(StripeWebhook.Notice n) {
    String orderId = CheckoutSaga.orderOfAuthorizeKey(n.authorizeKey());
    // Order ids are <eventId>.<accountId>.<n> (CartOrders): anything else is no order of ours.
    String[] parts = orderId == null ? new String[0] : orderId.split("\\.");
    if (parts.length != 3 || !VenueLayout.isValidEntityId(parts[0]) || n.intentId() == null) return NOT_OURS;
    if (!n.authorized()) return RECORDED;
    carts.apply(Cart.entityId(parts[0], parts[1])).tell(new Cart.PaymentAuthorizedLate(orderId, n.intentId()));
    return TO_CART;
  }
}
