package io.boxoffice.sim;

/** Many accounts per operator (the group's {@code accounts}), each from a network of its own (residential proxies). */
final class Sybils extends BotStrategy {
  Sybils() {
    super("sybils", (shape, group) -> {
      shape.accounts = group.accounts();
      shape.networkPerAccount = true;
    });
  }
}
