package io.boxoffice.sim;

/** Many accounts per operator (the group's {@code accounts}), each from a network of its own (residential proxies). */
final class Sybils implements BotStrategy {
  static final String NAME = "sybils";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void shape(Shape shape, Scenario.BotGroup group) {
    shape.accounts = group.accounts();
    shape.networkPerAccount = true;
  }
}
