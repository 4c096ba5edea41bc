package io.boxoffice.payment;

import java.util.Map;

/**
 * Where the {@link PaymentSimulator} keeps what it answered: in memory (one process), or in the
 * database (every node and every restart sees the same authorizations, so idempotency keys hold
 * across crashes and the chaos verdict can count captures without tickets).
 */
public interface PaymentLedger {

  /** Where one authorization stands. */
  enum Status { AUTHORIZED, CAPTURED, VOIDED, DECLINED }

  /** One answer to an authorization key; {@code authorizationId} is null for a decline. */
  record Entry(String authorizeKey, String authorizationId, long amountCents, Status status) {}

  /** The entry first stored under the key, storing {@code fresh} if there is none. */
  Entry authorizeOnce(Entry fresh);

  /** The entry of an authorization id, or null. */
  Entry byAuthorization(String authorizationId);

  /** The entry of an authorization key, or null. */
  Entry byKey(String authorizeKey);

  /** Moves an AUTHORIZED entry to {@code to}; any other entry stays as it is. Answers the entry after, or null. */
  Entry transition(String authorizationId, Status to);

  /** Every entry, by authorization key. */
  Map<String, Entry> entries();
}
