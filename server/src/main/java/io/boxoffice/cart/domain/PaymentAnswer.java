package io.boxoffice.cart.domain;

/** The processor's answer to an authorization, as the saga reads it. */
public sealed interface PaymentAnswer {

  /** The money is set aside under this authorization. */
  record Authorized(String authorizationId) implements PaymentAnswer {}

  /** The card was declined, for this reason; a decline without one is read as {@link NoAnswer}. */
  record Declined(String reason) implements PaymentAnswer {}

  /** The call failed or timed out: an authorization may or may not exist under the key. */
  record NoAnswer() implements PaymentAnswer {}
}
