package io.boxoffice.cart.domain;

import java.util.List;
import java.util.Optional;

/**
 * What the saga decided about one input: the events to store, then the actions to carry out in
 * order, and the answer due now to whoever asked (empty when there is none yet, or nobody asked).
 */
public record Decision(List<CheckoutEvent> events, List<Action> actions, Optional<Answer> reply) {
  public static final Decision NOTHING = new Decision(List.of(), List.of(), Optional.empty());

  static Decision reply(Answer answer) {
    return new Decision(List.of(), List.of(), Optional.of(answer));
  }

  static Decision act(List<Action> actions) {
    return new Decision(List.of(), actions, Optional.empty());
  }

  static Decision store(CheckoutEvent event, List<Action> then) {
    return new Decision(List.of(event), then, Optional.empty());
  }
}
