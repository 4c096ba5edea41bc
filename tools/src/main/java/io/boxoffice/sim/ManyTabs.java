package io.boxoffice.sim;

/** Many tabs per account (the group's {@code tabs}): each its own session, each joining, hoping for more draws. */
final class ManyTabs implements BotStrategy {
  static final String NAME = "many-tabs";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void shape(Shape shape, Scenario.BotGroup group) {
    shape.tabs = group.tabs();
  }
}
