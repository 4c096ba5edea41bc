package io.boxoffice.sim;

/** Inventory denial: once admitted, holds the most seats it may and never pays; they should expire and sell to others. */
final class HoldMaxNeverPay implements BotStrategy {
  static final String NAME = "hold-max-never-pay";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void shape(Shape shape, Scenario.BotGroup group) {
    shape.pays = false;
  }
}
