package io.boxoffice.cart.http;

import io.boxoffice.cart.Cart;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.Refusals;
import io.boxoffice.inventory.EventInventory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * The fan's cart as the shop answers it: the holds from the event's inventory (with, when
 * nothing is held, the cart's word on when the last hold ran out) and an order's JSON.
 */
final class CartView {
  private final Api api;
  private final Function<String, RecipientRef<EventInventory.Command>> inventories;
  private final Function<String, RecipientRef<Cart.Command>> carts;
  private final Scheduler scheduler;
  private final Duration expiryWait;

  CartView(Api api, Function<String, RecipientRef<EventInventory.Command>> inventories,
           Function<String, RecipientRef<Cart.Command>> carts, Scheduler scheduler, Duration expiryWait) {
    this.api = api;
    this.inventories = inventories;
    this.carts = carts;
    this.scheduler = scheduler;
    this.expiryWait = expiryWait;
  }

  /**
   * The fan's holds from the inventory; when nothing is held, the cart's word on when the last
   * hold ran out (asked only then, and left out if the cart does not answer within the expiry wait).
   */
  CompletionStage<HttpResponse> of(String eventId, String account) {
    CompletionStage<EventInventory.Reply> holds = AskPattern.ask(inventories.apply(eventId),
        r -> new EventInventory.GetHolds(account, r), api.askTimeout(), scheduler);
    return holds.thenCompose(r -> {
      if (r instanceof EventInventory.Rejected rejected) {
        return CompletableFuture.completedFuture(api.error(Refusals.toApiError(rejected.code(), rejected.message(), rejected.seatIds())));
      }
      if (!(r instanceof EventInventory.Holds h) || !h.seats().isEmpty()) return CompletableFuture.completedFuture(holds(r, 0));
      return AskPattern.<Cart.Command, Cart.Reply>ask(carts.apply(Cart.entityId(eventId, account)), Cart.GetExpiry::new,
              min(api.askTimeout(), expiryWait), scheduler)
          .handle((e, error) -> holds(r, e instanceof Cart.Expiry x ? x.expiredAt() : 0));
    });
  }

  /** The holds of an inventory's reply, with when the last one ran out (0: not known). */
  HttpResponse holds(EventInventory.Reply reply, long expiredAt) {
    return api.json(200, ShopJson.holds(reply, expiredAt));
  }

  HttpResponse order(Cart.Reply reply) {
    return api.json(200, ShopJson.order((Cart.OrderView) reply));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
