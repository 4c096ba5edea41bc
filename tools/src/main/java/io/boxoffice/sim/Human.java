package io.boxoffice.sim;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A person with one tab: arrives at its time, joins, follows the page's pace until admitted,
 * then looks at the map, thinks, holds the best seats and pays. Some pay with a card that is
 * declined first (then with a good one), some are slow (a long think and a slow card), some walk
 * away from their hold. Every choice was drawn from the run's seed when the crowd was made.
 */
final class Human {
  /** What this person will do, drawn from the seed. */
  record Plan(long arrivalOffsetMillis, int quantity, long thinkMillis, boolean declinedFirst, boolean slow, long slowThinkMillis,
              boolean abandons, boolean wantsHotSeats) {}

  final Tab tab;
  final Plan plan;
  private volatile Sale sale;

  Human(Tab tab, Plan plan) {
    this.tab = tab;
    this.plan = plan;
    tab.onAdmitted = t -> shop();
  }

  /** Arrives at the sale's start plus its offset: joins and watches. */
  void arrive(Sale sale) {
    this.sale = sale;
    Page.join(sale, tab).thenAccept(joined -> {
      if (joined) Page.watch(sale, tab, sale.scenario.humans().poll().toMillis());
    });
  }

  private void shop() {
    Shop.look(sale, tab)
        .thenCompose(v -> sale.traffic.after(plan.thinkMillis()))
        .thenCompose(v -> plan.wantsHotSeats()
            ? Shop.holdHot(sale, tab, plan.quantity(), new java.util.HashSet<>(), sale.scenario.hotSeats().attempts())
            : Shop.hold(sale, tab, plan.quantity()))
        .thenCompose(this::pay)
        .whenComplete((v, e) -> {
          tab.doneAt = System.currentTimeMillis();
          tab.done.set(true);
        });
  }

  private CompletableFuture<Void> pay(List<String> seats) {
    if (seats.isEmpty()) return CompletableFuture.completedFuture(null);
    if (plan.abandons()) {
      sale.observed.outcome(tab.account, "abandoned the hold");
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Integer> first = plan.declinedFirst()
        ? Shop.checkout(sale, tab, "tok_declined").thenCompose(status -> {
          if (status != 402) return CompletableFuture.completedFuture(status);
          sale.observed.outcome(tab.account, "declined, paid again");
          return sale.traffic.after(plan.thinkMillis()).thenCompose(v -> Shop.checkout(sale, tab, "tok_visa"));
        })
        : plan.slow()
            ? sale.traffic.after(plan.slowThinkMillis()).thenCompose(v -> Shop.checkout(sale, tab, "tok_slow"))
            : Shop.checkout(sale, tab, "tok_visa");
    return first.thenApply(status -> null);
  }
}
