package io.boxoffice.cart.http;

import io.boxoffice.cart.Cart;
import io.boxoffice.edge.KnownEvents;
import io.boxoffice.tickets.Orders;
import io.boxoffice.venue.domain.VenueLayout;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * The orders kept by each account's {@link Cart}, looked up for the tickets' routes. A cart is
 * asked only for an event that exists ({@link KnownEvents}): a made-up order id starts no cart
 * (whose recovery would start the event's inventory too).
 */
public final class CartOrders implements Orders {
  private final KnownEvents events;
  private final Function<String, RecipientRef<Cart.Command>> carts;
  private final Duration askTimeout;
  private final Scheduler scheduler;

  public CartOrders(KnownEvents events, Function<String, RecipientRef<Cart.Command>> carts, Duration askTimeout,
                    Scheduler scheduler) {
    this.events = events;
    this.carts = carts;
    this.askTimeout = askTimeout;
    this.scheduler = scheduler;
  }

  /** Order ids are {@code <eventId>.<accountId>.<n>}: only the owner's cart is asked, anyone else finds nothing. */
  @Override
  public CompletionStage<Optional<Orders.Order>> find(String accountId, String orderId) {
    String[] parts = orderId.split("\\.");
    if (parts.length != 3 || !parts[1].equals(accountId) || !VenueLayout.isValidEntityId(parts[0])) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    // An event nobody created has no carts: 404 before any is asked (or 503 while this node cannot tell).
    return events.exists(parts[0])
        .thenCompose(known -> AskPattern.<Cart.Command, Cart.Reply>ask(carts.apply(Cart.entityId(parts[0], accountId)),
            r -> new Cart.GetOrder(orderId, r), askTimeout, scheduler))
        .thenApply(reply -> reply instanceof Cart.OrderView o ? Optional.of(ShopJson.order(o)) : Optional.empty());
  }
}
