package io.boxoffice.cart.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import io.boxoffice.cart.Cart;
import io.boxoffice.cart.ShopAdmission;
import io.boxoffice.cart.ShopMetrics;
import io.boxoffice.common.Refusal;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ApiError;
import io.boxoffice.edge.Bulkhead;
import io.boxoffice.edge.BulkheadDirectives;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.Refusals;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.venue.domain.VenueLayout;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The admitted fan's shop under {@code /api/events/{eventId}}: seat map and availability from
 * this node's memory ({@link SeatMapResponses}); holds, releases and the cart straight from the event's inventory (the
 * one writer of its seats); checkout through the fan's {@link Cart}. After answering a hold or
 * a release the edge tells the fan's cart (fire and forget), which keeps the hold timer: the
 * reply never waits for the cart, and the single writer of a hot event spends nothing on it.
 */
public final class ShopRoutes extends AllDirectives {

  /** {@code {"seats":[...]}} or {@code {"best":{...}}}. */
  public record HoldRequest(List<String> seats, BestRequest best) {}

  public record BestRequest(Integer quantity, Integer maxPriceCents, String zone) {}

  /**
   * {@code {"paymentToken","expectedSeats"?}}: with {@code expectedSeats} the checkout pays only
   * if exactly those seats are held (409 {@code cart_changed} otherwise, nothing charged).
   */
  public record CheckoutRequest(String paymentToken, List<String> expectedSeats) {}

  private final Api api;
  private final BulkheadDirectives bulkheads;
  private final Identity identity;
  private final ShopAdmission admission;
  private final EventViews views;
  private final Function<String, RecipientRef<EventInventory.Command>> inventories;
  private final Function<String, RecipientRef<Cart.Command>> carts;
  private final Scheduler scheduler;
  private final Duration retryDeadline;
  private final AskAgain askAgain;
  private final CartView cartView;
  private final SeatMapResponses maps;
  private final ShopMetrics metrics;

  public ShopRoutes(Api api, BulkheadDirectives bulkheads, Identity identity, ShopAdmission admission, EventViews views,
                    Function<String, RecipientRef<EventInventory.Command>> inventories,
                    Function<String, RecipientRef<Cart.Command>> carts, Scheduler scheduler, ShopSettings settings,
                    ShopMetrics metrics) {
    this.retryDeadline = settings.retryDeadline();
    this.askAgain = settings.askAgain();
    this.cartView = new CartView(api, inventories, carts, scheduler, settings.expiryWait());
    this.maps = new SeatMapResponses(api, views, admission, settings.seatMap());
    this.metrics = metrics;
    this.api = api;
    this.bulkheads = bulkheads;
    this.identity = identity;
    this.admission = admission;
    this.views = views;
    this.inventories = inventories;
    this.carts = carts;
    this.scheduler = scheduler;
  }

  public Route routes() {
    return pathPrefix(segment("api").slash("events").slash(segment()), eventId -> {
      if (!VenueLayout.isValidEntityId(eventId)) return complete(api.error(404, "not_found", "no such event"));
      // The door comes first: the fan's identity, queue pass and per-account and per-network
      // limits (cheap HMAC checks and token buckets) answer 401/403/429 before the request takes
      // a turn of its event's pace or a place in its bulkhead. Junk naming a real event thus
      // neither paces nor crowds out that event's admitted fans; what goes past the door is
      // rate limited per fan, and the bulkhead sheds it before its body is read.
      return concat(
          path("seatmap", () -> get(() -> admitted(eventId, (account, pass) -> read(eventId, () -> maps.seatMap(eventId, account))))),
          path("availability", () -> get(() -> admitted(eventId, (account, pass) -> read(eventId, () -> maps.availability(eventId))))),
          path("cart", () -> get(() -> admitted(eventId, (account, pass) -> read(eventId, () -> api.respond(cartView.of(eventId, account)))))),
          path(segment("cart").slash("holds"), () -> post(() -> admitted(eventId, (account, pass) ->
              bulkheads.guard(eventId, Bulkhead.Priority.HOLD, () -> traced(
                  traceparent -> api.body(HoldRequest.class, r -> hold(eventId, account, pass, r, traceparent))))))),
          path(segment("cart").slash("holds").slash(segment()), seatId -> delete(() -> admitted(eventId, (account, pass) ->
              bulkheads.guard(eventId, Bulkhead.Priority.HOLD, () -> traced(
                  traceparent -> release(eventId, account, seatId, traceparent)))))),
          path(segment("cart").slash("checkout"), () -> post(() -> admitted(eventId, (account, pass) ->
              bulkheads.guard(eventId, Bulkhead.Priority.CHECKOUT, () -> traced(traceparent -> checkout(eventId, account, traceparent)))))),
          // Any other path under the event: the fan's identity and admission still answer first (401, 403, 404).
          admitted(eventId, (account, pass) -> reject()));
    });
  }

  /** {@code inner} with the request's traceparent (null when the request is not traced), for the commands it sends on. */
  private Route traced(java.util.function.Function<String, Route> inner) {
    return optionalAttribute(io.boxoffice.edge.RequestTracing.TRACEPARENT, traceparent -> inner.apply(traceparent.orElse(null)));
  }

  /** The signed-in fan (401 otherwise) admitted to the event's shop (403/404 otherwise), with the fan's queue pass. */
  private Route admitted(String eventId, java.util.function.BiFunction<String, EventInventory.QueuePass, Route> inner) {
    return identity.account(account -> admission.admitted(eventId, account, pass -> inner.apply(account, pass)));
  }

  private Route read(String eventId, java.util.function.Supplier<Route> inner) {
    return bulkheads.guard(eventId, Bulkhead.Priority.READ, inner);
  }

  private Route hold(String eventId, String account, EventInventory.QueuePass pass, HoldRequest r, String traceparent) {
    if ((r.seats() == null) == (r.best() == null)) throw ApiError.badRequest("give either seats or best");
    if (r.seats() != null) {
      if (r.seats().isEmpty()) throw ApiError.badRequest("seats must name at least one seat");
      if (r.seats().size() > EventDefinition.MAX_SEATS_PER_ACCOUNT) {
        throw new ApiError(422, "limit_exceeded", "too many seats in one hold");
      }
      if (r.seats().stream().anyMatch(s -> s == null || s.isEmpty() || s.length() > 100)) {
        throw ApiError.badRequest("seat ids must be non-empty strings");
      }
      if (new HashSet<>(r.seats()).size() != r.seats().size()) throw ApiError.badRequest("a seat is named twice");
      List<String> seats = List.copyOf(r.seats());
      String requestId = newRequestId();
      return holdUntil(eventId, account, pass == null, ref -> new EventInventory.HoldSeats(account, seats, pass, requestId, traceparent, ref));
    }
    BestRequest b = r.best();
    if (b.quantity() == null || b.quantity() < 1 || b.quantity() > EventDefinition.MAX_SEATS_PER_ACCOUNT) {
      throw ApiError.badRequest("best.quantity must be 1-" + EventDefinition.MAX_SEATS_PER_ACCOUNT);
    }
    if (b.maxPriceCents() != null && b.maxPriceCents() < 0) throw ApiError.badRequest("best.maxPriceCents must not be negative");
    if (b.zone() != null && (b.zone().isEmpty() || b.zone().length() > 32)) throw ApiError.badRequest("best.zone must be 1-32 characters");
    String requestId = newRequestId();
    return holdUntil(eventId, account, pass == null,
        ref -> new EventInventory.HoldBest(account, b.quantity(), b.maxPriceCents(), b.zone(), pass, requestId, traceparent, ref));
  }

  /**
   * Asks the inventory for a hold, and asks again with the same request id while it does not
   * answer and the deadline allows: sharding drops messages buffered for a shard that is being
   * handed over, and the request id makes the inventory answer a repeated ask with the hold it
   * already made instead of holding more.
   */
  private Route holdUntil(String eventId, String account, boolean openSale,
                          Function<org.apache.pekko.actor.typed.ActorRef<EventInventory.Reply>, EventInventory.Command> message) {
    RecipientRef<EventInventory.Command> inventory = inventories.apply(eventId);
    CompletionStage<EventInventory.Reply> reply = askAgain.until(api.askTimeout(),
        timeout -> AskPattern.<EventInventory.Command, EventInventory.Reply>ask(inventory, message::apply, timeout, scheduler),
        r -> false, System.nanoTime() + retryDeadline.toNanos());
    return inventoryResponse(reply, r -> held(eventId, account, openSale, r));
  }

  private static String newRequestId() {
    return java.util.UUID.randomUUID().toString();
  }

  private Route release(String eventId, String account, String seatId, String traceparent) {
    if (seatId.length() > 100) throw ApiError.badRequest("no such seat");
    return askInventory(eventId, ref -> new EventInventory.Release(account, List.of(seatId), traceparent, ref), v -> {
      if (v instanceof EventInventory.Released r && !r.seatIds().isEmpty()) {
        carts.apply(Cart.entityId(eventId, account)).tell(new Cart.HoldGivenUp(r.seatIds()));
      }
      return HttpResponse.create().withStatus(204);
    });
  }

  private Route checkout(String eventId, String account, String traceparent) {
    return optionalHeaderValueByName("Idempotency-Key", key -> {
      if (key.isEmpty() || key.get().isBlank() || key.get().length() > 200) {
        return complete(api.error(400, "bad_request", "an Idempotency-Key header of 1-200 characters is required"));
      }
      return api.body(CheckoutRequest.class, r -> {
        if (r.paymentToken() == null || r.paymentToken().isBlank() || r.paymentToken().length() > 200) {
          throw ApiError.badRequest("paymentToken is required");
        }
        List<String> expected = r.expectedSeats();
        if (expected != null) {
          if (expected.isEmpty() || expected.size() > EventDefinition.MAX_SEATS_PER_ACCOUNT) {
            throw ApiError.badRequest("expectedSeats must name 1-" + EventDefinition.MAX_SEATS_PER_ACCOUNT + " seats");
          }
          if (expected.stream().anyMatch(s -> s == null || s.isEmpty() || s.length() > 100)) {
            throw ApiError.badRequest("seat ids must be non-empty strings");
          }
          if (new HashSet<>(expected).size() != expected.size()) throw ApiError.badRequest("a seat is named twice");
          expected = List.copyOf(expected);
        }
        List<String> expectedSeats = expected;
        RecipientRef<Cart.Command> cart = carts.apply(Cart.entityId(eventId, account));
        long deadline = System.nanoTime() + retryDeadline.toNanos();
        return api.respond(checkoutUntil(cart, key.get(), r.paymentToken(), expectedSeats, traceparent, deadline).thenApply(reply -> {
          if (reply instanceof Cart.Rejected rejected) {
            return api.error(Refusals.toApiError(rejected.code(), rejected.message(), rejected.seatIds()));
          }
          return cartView.order(reply);
        }));
      });
    });
  }

  /**
   * Asks the cart to check out, and asks again with the same key while it does not answer or
   * answers {@code unavailable} (nothing started, or nothing charged) and the deadline allows.
   * During a hand-over the cart that took the first ask may stop before it answers; the next
   * ask reaches it on its new node, where the checkout, found by its key, goes on.
   */
  private CompletionStage<Cart.Reply> checkoutUntil(RecipientRef<Cart.Command> cart, String key, String paymentToken,
                                                   List<String> expectedSeats, String traceparent, long deadline) {
    return askAgain.until(api.askTimeout(),
        timeout -> AskPattern.<Cart.Command, Cart.Reply>ask(cart,
            ref -> new Cart.Checkout(key, paymentToken, expectedSeats, traceparent, ref), timeout, scheduler),
        reply -> reply instanceof Cart.Rejected rejected && rejected.code() == Refusal.UNAVAILABLE, deadline);
  }

  private Route askInventory(String eventId,
                             Function<org.apache.pekko.actor.typed.ActorRef<EventInventory.Reply>, EventInventory.Command> message,
                             Function<EventInventory.Reply, HttpResponse> onReply) {
    return inventoryResponse(AskPattern.<EventInventory.Command, EventInventory.Reply>ask(
        inventories.apply(eventId), message::apply, api.askTimeout(), scheduler), onReply);
  }

  private Route inventoryResponse(CompletionStage<EventInventory.Reply> reply, Function<EventInventory.Reply, HttpResponse> onReply) {
    return api.respond(reply.thenApply(r -> {
      if (r instanceof EventInventory.Rejected rejected) {
        return api.error(Refusals.toApiError(rejected.code(), rejected.message(), rejected.seatIds()));
      }
      return onReply.apply(r);
    }));
  }

  private HttpResponse held(String eventId, String account, boolean openSale, EventInventory.Reply reply) {
    HttpResponse response = cartView.holds(reply, 0);
    if (reply instanceof EventInventory.Held h) {
      List<String> seatIds = h.seats().stream().map(SeatPrice::seatId).toList();
      carts.apply(Cart.entityId(eventId, account)).tell(new Cart.HoldPlaced(seatIds, h.holdExpiresAt(), openSale));
    }
    return response;
  }
}
