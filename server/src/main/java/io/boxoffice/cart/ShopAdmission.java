package io.boxoffice.cart;

import io.boxoffice.inventory.EventInventory;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Decides whether a signed-in account may shop an event right now, and hands the inner route
 * the queue pass to carry to the inventory (null for an open sale). A port of the shop: the
 * waiting room implements it ({@code queue.QueueAdmission}), {@code Node} wires it.
 */
public interface ShopAdmission {
  Route admitted(String eventId, String accountId, Function<EventInventory.QueuePass, Route> inner);

  /**
   * Runs {@code inner} after taking {@code tokens} more of the account's and of its network's
   * rate limits (429 + Retry-After without them): what a large answer costs beyond the one token
   * every request takes. None taken when {@code tokens} is 0.
   */
  default Route charged(String accountId, int tokens, Supplier<Route> inner) {
    return inner.get();
  }

  /** Admits every signed-in account with no pass: every event an open sale (tests of the shop alone). */
  static ShopAdmission everyone() {
    return (eventId, accountId, inner) -> inner.apply(null);
  }
}
