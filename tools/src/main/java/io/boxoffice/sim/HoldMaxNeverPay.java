package io.boxoffice.sim;

/** Inventory denial: once admitted, holds the most seats it may and never pays; they should expire and sell to others. */
final class HoldMaxNeverPay extends BotStrategy {
  HoldMaxNeverPay() {
    super("hold-max-never-pay", (shape, group) -> shape.pays = false);
  }
}
