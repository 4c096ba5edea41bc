package io.boxoffice.cart.domain;

import io.boxoffice.tickets.domain.Ticket;
import java.util.List;

/**
 * What the saga asks the cart to do once a decision's events are stored, in the decision's
 * order. Each answer comes back to the saga as an input ({@link CheckoutSaga#holdsFound},
 * {@link CheckoutSaga#authorizeAnswered}, ...). A {@link Visitor} carries them out.
 */
public sealed interface Action {
  void accept(Visitor visitor);

  /** One method per action: adding an action breaks the cart until it carries it out. */
  interface Visitor {
    void lookUpHolds(LookUpHolds a);

    void waitForAnswer(WaitForAnswer a);

    void answerWaiting(AnswerWaiting a);

    void authorize(Authorize a);

    void confirm(Confirm a);

    void capture(Capture a);

    void voidAuthorization(VoidAuthorization a);

    void fileTickets(FileTickets a);

    void checkedOut(CheckedOut a);

    void retryLater(RetryLater a);

    void resetBackoff(ResetBackoff a);
  }

  /**
   * Ask the inventory for the fan's live holds; the answer goes to {@link CheckoutSaga#holdsFound}
   * with {@code expectedSeats} (null: whatever is held).
   */
  record LookUpHolds(String key, String paymentToken, List<String> expectedSeats) implements Action {
    public LookUpHolds(String key, String paymentToken) {
      this(key, paymentToken, null);
    }

    public void accept(Visitor visitor) {
      visitor.lookUpHolds(this);
    }
  }

  /** Keep the fan who asked until the order is answered ({@link AnswerWaiting}). */
  record WaitForAnswer(String orderId) implements Action {
    public void accept(Visitor visitor) {
      visitor.waitForAnswer(this);
    }
  }

  /** Tell everyone waiting for the order this answer. */
  record AnswerWaiting(String orderId, Answer answer) implements Action {
    public void accept(Visitor visitor) {
      visitor.answerWaiting(this);
    }
  }

  /** Ask the processor to set the money aside; a repeat with the key returns the first answer. */
  record Authorize(String orderId, String idempotencyKey, String paymentToken, long amountCents) implements Action {
    public void accept(Visitor visitor) {
      visitor.authorize(this);
    }
  }

  /** Ask the inventory to turn the fan's holds on these seats into the order's sale (idempotent by order id). */
  record Confirm(String orderId, List<String> seatIds) implements Action {
    public void accept(Visitor visitor) {
      visitor.confirm(this);
    }
  }

  /** Ask the processor to take the authorized money. */
  record Capture(String orderId, String idempotencyKey, String authorizationId, long amountCents) implements Action {
    public void accept(Visitor visitor) {
      visitor.capture(this);
    }
  }

  /**
   * Ask the processor to release the authorization: by its id, or by the key it was asked for
   * under ({@code authorizeKey}) when no answer ever told the id.
   */
  record VoidAuthorization(String orderId, String idempotencyKey, String authorizationId, String authorizeKey)
      implements Action {
    public void accept(Visitor visitor) {
      visitor.voidAuthorization(this);
    }
  }

  /** Put the order's tickets in the fan's wallet (idempotent by order id). */
  record FileTickets(String orderId, List<Ticket> tickets) implements Action {
    public void accept(Visitor visitor) {
      visitor.fileTickets(this);
    }
  }

  /** The fan has bought: their place in line stops counting as an active shopper. */
  record CheckedOut() implements Action {
    public void accept(Visitor visitor) {
      visitor.checkedOut(this);
    }
  }

  /** A step did not go through: carry every unfinished checkout on after the {@link Backoff} delay. */
  record RetryLater() implements Action {
    public void accept(Visitor visitor) {
      visitor.retryLater(this);
    }
  }

  /** A step went through: the next failure backs off from the shortest delay again. */
  record ResetBackoff() implements Action {
    public void accept(Visitor visitor) {
      visitor.resetBackoff(this);
    }
  }
}
