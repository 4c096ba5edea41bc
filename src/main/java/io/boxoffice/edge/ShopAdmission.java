package io.boxoffice.edge;

import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Decides whether a signed-in account may shop an event right now. The waiting room replaces
 * the default, which admits every signed-in account.
 */
public interface ShopAdmission {
  Route admitted(String eventId, String accountId, Supplier<Route> inner);

  /** Admits every signed-in account: the shop before there is a waiting room. */
  static ShopAdmission everyone() {
    return (eventId, accountId, inner) -> inner.get();
  }
}
