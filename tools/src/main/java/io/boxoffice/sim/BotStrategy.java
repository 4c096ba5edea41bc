package io.boxoffice.sim;

import java.util.List;
import java.util.Locale;

/**
 * One trick of a bot operator, switched on by name in a scenario's bot group
 * ({@code strategies = [many-tabs, earliest-join]}). An operator runs every strategy of its group:
 * each may shape it (accounts, tabs, networks, when it joins), act alongside a tab once it has
 * joined, act when a tab is admitted, and say whether the operator pays for what it holds.
 */
interface BotStrategy {
  /** Every strategy's name, as scenarios write it. */
  List<String> NAMES = List.of(ManyTabs.NAME, Sybils.NAME, EarliestJoin.NAME, Hammer.NAME, ShareToken.NAME, NoToken.NAME,
      HoldMaxNeverPay.NAME);

  static BotStrategy named(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case ManyTabs.NAME -> new ManyTabs();
      case Sybils.NAME -> new Sybils();
      case EarliestJoin.NAME -> new EarliestJoin();
      case Hammer.NAME -> new Hammer();
      case ShareToken.NAME -> new ShareToken();
      case NoToken.NAME -> new NoToken();
      case HoldMaxNeverPay.NAME -> new HoldMaxNeverPay();
      default -> throw new IllegalArgumentException("no bot strategy " + name + " (there are " + NAMES + ")");
    };
  }

  /** How an operator is built before the sale; strategies change what concerns them. */
  final class Shape {
    int accounts = 1;
    int tabs = 1;
    /** Extra accounts that never join: they only lend their identity to a shared token. */
    int accomplices;
    boolean earliest;
    boolean networkPerAccount;
    boolean pays = true;
  }

  String name();

  default void shape(Shape shape, Scenario.BotGroup group) {}

  /** Once {@code tab} has joined, alongside its page. */
  default void joined(BotOperator operator, Sale sale, Tab tab) {}

  /** When {@code tab} is admitted, before it shops. */
  default void admitted(BotOperator operator, Sale sale, Tab tab) {}
}
