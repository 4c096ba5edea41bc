package io.boxoffice.sim;

import java.util.Map;

/**
 * Side doors: while a tab waits, calls the shop (hold, checkout) without a queue token and with
 * a forged one, a few times. Anything but a refusal is a breach.
 */
final class NoToken extends BotStrategy {
  private static final int TRIES = 3;

  NoToken() {
    super("no-token");
  }

  @Override
  void joined(BotOperator operator, Sale sale, Tab tab) {
    probe(sale, tab, 0);
  }

  private static void probe(Sale sale, Tab tab, int n) {
    if (n >= TRIES || sale.over() || tab.admitted.get() || tab.done.get()) return;
    Map<String, String> none = Tab.headersOf(sale.eventId, tab.identity, null, tab.forwardedFor);
    Map<String, String> forged = Tab.headersOf(sale.eventId, tab.identity, "AAAA" + Long.toHexString(System.nanoTime()) + ".forged",
        tab.forwardedFor);
    String hold = "{\"best\":{\"quantity\":2}}";
    sale.traffic.after(1000 + 2000L * n)
        .thenCompose(v -> sale.traffic.call("no-token hold", tab, "POST", sale.path("/cart/holds"), hold, none))
        .thenCompose(r -> {
          if (r.status() / 100 == 2) sale.observed.breach("hold without a queue token");
          return sale.traffic.call("no-token checkout", tab, "POST", sale.path("/cart/checkout"), "{\"paymentToken\":\"tok_visa\"}",
              withKey(none));
        })
        .thenCompose(r -> {
          if (r.status() / 100 == 2) sale.observed.breach("checkout without a queue token");
          return sale.traffic.call("forged-token hold", tab, "POST", sale.path("/cart/holds"), hold, forged);
        })
        .whenComplete((r, e) -> {
          if (r != null && r.status() / 100 == 2) sale.observed.breach("hold with a forged queue token");
          probe(sale, tab, n + 1);
        });
  }

  private static Map<String, String> withKey(Map<String, String> headers) {
    Map<String, String> h = new java.util.LinkedHashMap<>(headers);
    h.put("Idempotency-Key", java.util.UUID.randomUUID().toString());
    return h;
  }
}
