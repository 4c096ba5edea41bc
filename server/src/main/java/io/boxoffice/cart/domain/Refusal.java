package io.boxoffice.cart.domain;

/**
 * The cart's own refusals, each with the error code the HTTP contract fixes for it
 * ({@code edge.Refusals} maps codes to statuses). Refusals of the inventory that the cart
 * passes on keep the inventory's code.
 */
public enum Refusal {
  /** No such order in this cart. */
  NOT_FOUND("not_found"),
  /** Another checkout of this cart, under another key, is under way. */
  CHECKOUT_IN_PROGRESS("checkout_in_progress"),
  /** Nothing is held, or the hold ran out before the sale; nothing was charged. */
  HOLD_EXPIRED("hold_expired"),
  /** The card was declined; the seats stay held until their deadline. */
  PAYMENT_DECLINED("payment_declined"),
  /** The event or the processor did not answer; nothing was charged, the fan may try again. */
  UNAVAILABLE("unavailable");

  private final String code;

  Refusal(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }
}
