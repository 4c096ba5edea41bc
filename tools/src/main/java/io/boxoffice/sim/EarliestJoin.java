package io.boxoffice.sim;

/** Joins at the earliest moment: from a second before the lobby opens, again every 250 ms until it is let in. */
final class EarliestJoin extends BotStrategy {
  EarliestJoin() {
    super("earliest-join", (shape, group) -> shape.earliest = true);
  }
}
