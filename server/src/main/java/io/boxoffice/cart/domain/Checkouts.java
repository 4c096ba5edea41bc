package io.boxoffice.cart.domain;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A cart's checkouts, oldest first. {@link #apply} is the only way they change; it runs on every
 * replay, so it reads no clock and decides nothing.
 */
public record Checkouts(List<Order> orders) {
  public static final Checkouts NONE = new Checkouts(List.of());

  public Order byId(String orderId) {
    for (Order o : orders) if (o.orderId().equals(orderId)) return o;
    return null;
  }

  /** The checkout this Idempotency-Key made, or null; one that may be retried no longer holds the key. */
  public Order byKey(String key) {
    for (Order o : orders) if (o.key().equals(key) && !o.retryable()) return o;
    return null;
  }

  /** The checkout under way, or null. */
  public Order running() {
    for (Order o : orders) if (o.running()) return o;
    return null;
  }

  public Checkouts apply(CheckoutEvent event) {
    return event.accept(new CheckoutEvent.Visitor<>() {
      public Checkouts started(CheckoutEvent.Started e) {
        Order order = new Order(e.key(), e.orderId(), e.seats(), e.amountCents(), e.paymentToken(), Step.STARTED,
            null, List.of(), null, false);
        return new Checkouts(Stream.concat(orders.stream(), Stream.of(order)).toList());
      }

      public Checkouts authorized(CheckoutEvent.Authorized e) {
        return change(e, o -> o.withStep(Step.AUTHORIZED).withAuthorizationId(e.authorizationId()));
      }

      public Checkouts declined(CheckoutEvent.Declined e) {
        return change(e, o -> o.withStep(Step.DECLINED).withFailure(Failure.PAYMENT_DECLINED));
      }

      public Checkouts sold(CheckoutEvent.Sold e) {
        return change(e, o -> o.withStep(Step.SOLD).withTickets(e.tickets()));
      }

      public Checkouts captured(CheckoutEvent.Captured e) {
        return change(e, o -> o.withStep(Step.CAPTURED));
      }

      public Checkouts failed(CheckoutEvent.Failed e) {
        return change(e, o -> o.withStep(Step.VOIDING).withFailure(e.failure()));
      }

      public Checkouts voided(CheckoutEvent.Voided e) {
        return change(e, o -> o.withStep(Step.VOIDED));
      }

      public Checkouts filed(CheckoutEvent.Filed e) {
        return change(e, o -> o.withFiled(true));
      }
    });
  }

  private Checkouts change(CheckoutEvent event, UnaryOperator<Order> change) {
    return new Checkouts(orders.stream().map(o -> o.orderId().equals(event.orderId()) ? change.apply(o) : o).toList());
  }
}
