package io.boxoffice.cart.domain;

import io.boxoffice.tickets.domain.Ticket;
import java.util.List;

/**
 * One checkout attempt. The cart's snapshots store it field by field (no class name), so its
 * component names are part of that format; {@code failure} is a {@link Failure#code()}.
 */
public record Order(String key, String orderId, List<PricedSeat> seats, long amountCents, String paymentToken,
                    Step step, String authorizationId, List<Ticket> tickets, String failure, boolean filed) {

  /** Under way: authorizing or confirming. A cart runs at most one such checkout at a time. */
  public boolean running() {
    return step == Step.STARTED || step == Step.AUTHORIZED;
  }

  /** Failed for our reasons (the processor did not answer): the fan may retry with the same key. */
  public boolean retryable() {
    return (step == Step.VOIDED || step == Step.VOIDING) && failedWith(Failure.PAYMENT_UNAVAILABLE);
  }

  public boolean failedWith(Failure f) {
    return f.code().equals(failure);
  }

  public List<String> seatIds() {
    return seats.stream().map(PricedSeat::seatId).toList();
  }

  Order withStep(Step s) {
    return new Order(key, orderId, seats, amountCents, paymentToken, s, authorizationId, tickets, failure, filed);
  }

  Order withAuthorizationId(String id) {
    return new Order(key, orderId, seats, amountCents, paymentToken, step, id, tickets, failure, filed);
  }

  Order withTickets(List<Ticket> t) {
    return new Order(key, orderId, seats, amountCents, paymentToken, step, authorizationId, t, failure, filed);
  }

  Order withFailure(Failure f) {
    return new Order(key, orderId, seats, amountCents, paymentToken, step, authorizationId, tickets, f.code(), filed);
  }

  Order withFiled(boolean f) {
    return new Order(key, orderId, seats, amountCents, paymentToken, step, authorizationId, tickets, failure, f);
  }
}
