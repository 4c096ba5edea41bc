package io.boxoffice.sim;

import java.util.Map;

/**
 * Hammers join and status (every {@code hammer-every}, alternately) from the moment a tab has
 * joined until it is admitted, instead of following the page's pace; a status that says
 * "admitted" is taken at once.
 */
final class Hammer extends BotStrategy {
  Hammer() {
    super("hammer");
  }

  @Override
  void joined(BotOperator operator, Sale sale, Tab tab) {
    hammer(sale, tab, operator.group.hammerEvery().toMillis(), 0);
  }

  private static void hammer(Sale sale, Tab tab, long everyMillis, long n) {
    if (sale.over() || tab.done.get() || tab.admitted.get()) return;
    sale.traffic.after(everyMillis).thenCompose(v -> n % 2 == 0
            ? sale.traffic.call("hammer join", tab, "POST", sale.path("/queue"), "{}", tabHeaders(sale, tab))
            : sale.traffic.call("hammer status", tab, "GET", sale.path("/queue/status"), null))
        .whenComplete((r, e) -> {
          if (r != null && r.status() == 200 && !sale.over()) Page.observe(sale, tab, r.json());
          hammer(sale, tab, everyMillis, n + 1);
        });
  }

  private static Map<String, String> tabHeaders(Sale sale, Tab tab) {
    return tab.headers(sale.eventId);
  }
}
