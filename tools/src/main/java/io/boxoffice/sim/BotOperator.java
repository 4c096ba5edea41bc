package io.boxoffice.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A scalper running one bot group's strategies: its accounts and their tabs (shaped by the
 * strategies), the time it arrives, and what its tabs do once admitted: hold as many seats as
 * the group wants and pay for them, unless a strategy says it never pays.
 */
final class BotOperator {
  final int id;
  final Scenario.BotGroup group;
  final List<BotStrategy> strategies;
  final BotStrategy.Shape shape = new BotStrategy.Shape();
  final List<Account> accounts = new ArrayList<>();
  final List<Account> accomplices = new ArrayList<>();
  /** When it starts joining, from the sale's start (negative: before it), ms. */
  long arrivalOffsetMillis;

  BotOperator(int id, Scenario.BotGroup group) {
    this.id = id;
    this.group = group;
    this.strategies = group.strategies().stream().map(BotStrategy::named).toList();
    for (BotStrategy s : strategies) s.shape(shape, group);
  }

  /** The operator's own network: one /24 for all its accounts, unless a strategy spreads them. */
  String network(int account) {
    return "172." + (16 + (id / 256) % 16) + "." + (id % 256) + "." + (1 + account % 250);
  }

  /** A network the operator borrows to use a token from elsewhere. */
  String elsewhere() {
    return "198.51." + (100 + (id / 256) % 50) + "." + (1 + id % 250);
  }

  /** Every tab joins (each within 50 ms of the others, as scripts fire), then follows its page alongside the strategies. */
  void arrive(Sale sale, Tab tab) {
    tab.onAdmitted = t -> admitted(sale, t);
    Page.join(sale, tab).thenAccept(joined -> {
      if (!joined) return;
      for (BotStrategy s : strategies) s.joined(this, sale, tab);
      Page.watch(sale, tab, sale.scenario.humans().poll().toMillis());
    });
  }

  private void admitted(Sale sale, Tab tab) {
    for (BotStrategy s : strategies) s.admitted(this, sale, tab);
    int quantity = Math.min(group.quantity(), sale.scenario.event().maxSeatsPerAccount());
    Shop.look(sale, tab)
        .thenCompose(v -> Shop.hold(sale, tab, quantity))
        .thenCompose(seats -> {
          if (seats.isEmpty()) return CompletableFuture.completedFuture(null);
          if (!shape.pays) {
            sale.observed.deniedHolds.add(new Observations.DeniedHold(tab.account, seats, System.currentTimeMillis()));
            sale.observed.outcome(tab.account, "held and never paid");
            return CompletableFuture.completedFuture(null);
          }
          return Shop.checkout(sale, tab, "tok_visa");
        })
        .whenComplete((v, e) -> tab.done.set(true));
  }
}
