package io.boxoffice.cart.domain;

import io.boxoffice.tickets.domain.Ticket;
import java.util.List;

/**
 * What happened to a checkout, as the saga decides it and {@link Checkouts#apply} replays it.
 * The cart stores each under its own journal event ({@code Cart.CheckoutStarted}, ...); a
 * {@link Visitor} maps them without a chain of type tests.
 */
public sealed interface CheckoutEvent {
  String orderId();

  <R> R accept(Visitor<R> visitor);

  /** One method per event: adding an event breaks every mapping until it handles it. */
  interface Visitor<R> {
    R started(Started e);

    R authorized(Authorized e);

    R declined(Declined e);

    R sold(Sold e);

    R captured(Captured e);

    R failed(Failed e);

    R voided(Voided e);

    R filed(Filed e);
  }

  /** A checkout began for the seats held at {@code at} (epoch ms); the authorization is asked for next. */
  record Started(String key, String orderId, List<PricedSeat> seats, long amountCents, String paymentToken, long at)
      implements CheckoutEvent {
    public <R> R accept(Visitor<R> visitor) {
      return visitor.started(this);
    }
  }

  /** The money is set aside under the authorization; the sale is confirmed next. */
  record Authorized(String orderId, String authorizationId) implements CheckoutEvent {
    public <R> R accept(Visitor<R> visitor) {
      return visitor.authorized(this);
    }
  }

  /** The card was declined; nothing was set aside. */
  record Declined(String orderId, String reason) implements CheckoutEvent {
    public <R> R accept(Visitor<R> visitor) {
      return visitor.declined(this);
    }
  }

  /** The inventory recorded the sale and the tickets are issued; capture and filing follow. */
  record Sold(String orderId, List<Ticket> tickets) implements CheckoutEvent {
    public <R> R accept(Visitor<R> visitor) {
      return visitor.sold(this);
    }
  }

  /** The money is taken. */
  record Captured(String orderId) implements CheckoutEvent {
    public <R> R accept(Visitor<R> visitor) {
      return visitor.captured(this);
    }
  }

  /** The sale cannot go ahead; the authorization is voided next. */
  record Failed(String orderId, Failure failure) implements CheckoutEvent {
    public <R> R accept(Visitor<R> visitor) {
      return visitor.failed(this);
    }
  }

  /** The authorization is released: nothing was charged. */
  record Voided(String orderId) implements CheckoutEvent {
    public <R> R accept(Visitor<R> visitor) {
      return visitor.voided(this);
    }
  }

  /** The tickets are in the fan's wallet. */
  record Filed(String orderId) implements CheckoutEvent {
    public <R> R accept(Visitor<R> visitor) {
      return visitor.filed(this);
    }
  }
}
