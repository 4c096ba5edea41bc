package io.boxoffice.sim;

import java.util.Map;

/**
 * Shares an admitted tab's queue token: an accomplice account of the operator uses it from the
 * same network, and the same account uses it from another network. Both must be refused
 * (the token is bound to the account and the network prefix); a hold is a breach.
 */
final class ShareToken extends BotStrategy {
  ShareToken() {
    super("share-token", (shape, group) -> shape.accomplices = Math.max(shape.accomplices, 1));
  }

  @Override
  void admitted(BotOperator operator, Sale sale, Tab tab) {
    String token = tab.queueToken;
    if (token == null || operator.accomplices.isEmpty()) return;
    Tab accomplice = operator.accomplices.get(0).tabs.get(0);
    String hold = "{\"best\":{\"quantity\":2}}";
    Map<String, String> otherAccount = Tab.headersOf(sale.eventId, accomplice.identity, token, tab.forwardedFor);
    Map<String, String> otherNetwork = Tab.headersOf(sale.eventId, tab.identity, token, operator.elsewhere());
    sale.traffic.call("shared token: other account", accomplice, "POST", sale.path("/cart/holds"), hold, otherAccount)
        .thenCompose(r -> {
          if (r.status() / 100 == 2) sale.observed.breach("admitted token used by another account");
          return sale.traffic.call("shared token: other network", tab, "POST", sale.path("/cart/holds"), hold, otherNetwork);
        })
        .thenAccept(r -> {
          if (r.status() / 100 == 2) sale.observed.breach("admitted token used from another network");
        });
  }
}
