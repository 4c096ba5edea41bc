package io.boxoffice.tickets;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A fan's order, as the contract's JSON body, for {@code GET /api/orders/{orderId}}. A port of
 * the tickets' routes: the cart, which owns orders and the format of their ids, implements it
 * ({@code cart.CartOrders}); {@code Node} wires it.
 */
public interface Orders {
  /** The order's body; empty when {@code orderId} is no order of {@code accountId} (malformed, someone else's, or unknown). */
  CompletionStage<Optional<Map<String, Object>>> find(String accountId, String orderId);
}
