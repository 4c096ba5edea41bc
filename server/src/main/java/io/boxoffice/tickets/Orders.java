package io.boxoffice.tickets;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A fan's order, as the contract's JSON body, for {@code GET /api/orders/{orderId}}. A port of
 * the tickets' routes: the cart, which owns orders and the format of their ids, implements it
 * ({@code cart.CartOrders}); {@code Node} wires it.
 */
public interface Orders {
  /**
   * The order's body; empty when {@code orderId} is no order of {@code accountId} (malformed,
   * someone else's, or unknown). Fails with an {@code edge.ApiError} 404 when the event it names
   * was never created (nothing is asked), 503 while that cannot be told yet.
   */
  CompletionStage<Optional<Order>> find(String accountId, String orderId);

  /** The contract's order body (also the answer to a checkout). */
  record Order(String orderId, String eventId, String status, long amountCents, List<OrderTicket> tickets) {}

  /** A ticket as an order lists it. */
  record OrderTicket(String ticketId, String seatId, String barcode) {}
}
