package io.boxoffice.sim;

import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * One trick of a bot operator, switched on by name in a scenario's bot group
 * ({@code strategies = [many-tabs, earliest-join]}). An operator runs every strategy of its group:
 * each may shape it (accounts, tabs, networks, when it joins), act alongside a tab once it has
 * joined, act when a tab is admitted, and say whether the operator pays for what it holds.
 */
abstract class BotStrategy {
  /** Every strategy, as a new instance. */
  private static final List<Supplier<BotStrategy>> ALL = List.of(ManyTabs::new, Sybils::new, EarliestJoin::new, Hammer::new,
      ShareToken::new, NoToken::new, HoldMaxNeverPay::new, ProofOfWorkBot::new);

  /** Every strategy's name, as scenarios write it. */
  static final List<String> NAMES = ALL.stream().map(s -> s.get().name()).toList();

  static BotStrategy named(String name) {
    return ALL.stream().map(Supplier::get).filter(s -> s.name().equals(name.toLowerCase(Locale.ROOT))).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no bot strategy " + name + " (there are " + NAMES + ")"));
  }

  /** How an operator is built before the sale; strategies change what concerns them. */
  static final class Shape {
    int accounts = 1;
    int tabs = 1;
    /** Extra accounts that never join: they only lend their identity to a shared token. */
    int accomplices;
    boolean earliest;
    boolean networkPerAccount;
    boolean pays = true;
    /** Solves the join's proof of work with every core (see {@link ProofOfWorkBot}). */
    boolean fullCpuPow;
  }

  private final String name;
  private final BiConsumer<Shape, Scenario.BotGroup> shaping;

  /** A strategy that acts during the sale ({@link #joined}, {@link #admitted}). */
  BotStrategy(String name) {
    this(name, (shape, group) -> { });
  }

  /** A strategy that only shapes the operator. */
  BotStrategy(String name, BiConsumer<Shape, Scenario.BotGroup> shaping) {
    this.name = name;
    this.shaping = shaping;
  }

  String name() {
    return name;
  }

  void shape(Shape shape, Scenario.BotGroup group) {
    shaping.accept(shape, group);
  }

  /** Once {@code tab} has joined, alongside its page. */
  void joined(BotOperator operator, Sale sale, Tab tab) {}

  /** When {@code tab} is admitted, before it shops. */
  void admitted(BotOperator operator, Sale sale, Tab tab) {}
}
