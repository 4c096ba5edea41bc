package io.boxoffice.payment;

import java.util.concurrent.CompletionStage;

/**
 * A card processor: authorize (set money aside), capture (take it), void (release it). Every
 * call carries an idempotency key: repeating a call with the same key returns the first
 * answer and never charges twice. A stage that fails means the outcome is unknown (timeout,
 * processor error): repeat it with the same key. A real processor's adapter implements this;
 * {@link PaymentSimulator} is the built-in default.
 */
public interface PaymentGateway {

  /** The answer to an authorization. */
  sealed interface AuthResult {}

  /** Money is set aside under this authorization. */
  record Authorized(String authorizationId) implements AuthResult {}

  /** The card was declined; nothing is set aside. */
  record Declined(String reason) implements AuthResult {}

  CompletionStage<AuthResult> authorize(String idempotencyKey, String paymentToken, long amountCents);

  /** Takes the authorized money. Completes normally once captured. */
  CompletionStage<Void> capture(String idempotencyKey, String authorizationId, long amountCents);

  /** Releases an authorization (a no-op for one that never happened). Completes normally once void. */
  CompletionStage<Void> voidAuthorization(String idempotencyKey, String authorizationIdOrNull, String authorizeKey);

  /** The processor refused to answer this time: the outcome is unknown, repeat with the same key. */
  final class PaymentUnavailable extends RuntimeException {
    public PaymentUnavailable(String message) {
      super(message);
    }
  }
}
