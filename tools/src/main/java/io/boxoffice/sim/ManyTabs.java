package io.boxoffice.sim;

/** Many tabs per account (the group's {@code tabs}): each its own session, each joining, hoping for more draws. */
final class ManyTabs extends BotStrategy {
  ManyTabs() {
    super("many-tabs", (shape, group) -> shape.tabs = group.tabs());
  }
}
