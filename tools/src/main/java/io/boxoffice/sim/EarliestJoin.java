package io.boxoffice.sim;

/** Joins at the earliest moment: from a second before the lobby opens, again every 250 ms until it is let in. */
final class EarliestJoin implements BotStrategy {
  static final String NAME = "earliest-join";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void shape(Shape shape, Scenario.BotGroup group) {
    shape.earliest = true;
  }
}
