package io.boxoffice.payment;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link PaymentLedger} in this process's memory: tests, and single-process trials. */
public final class InMemoryLedger implements PaymentLedger {
  private final Map<String, Entry> byKey = new ConcurrentHashMap<>();
  private final Map<String, String> keyOfAuthorization = new ConcurrentHashMap<>();

  @Override
  public Entry authorizeOnce(Entry fresh) {
    Entry stored = byKey.computeIfAbsent(fresh.authorizeKey(), k -> fresh);
    if (stored.authorizationId() != null) keyOfAuthorization.putIfAbsent(stored.authorizationId(), stored.authorizeKey());
    return stored;
  }

  @Override
  public Entry byAuthorization(String authorizationId) {
    String key = keyOfAuthorization.get(authorizationId);
    return key == null ? null : byKey.get(key);
  }

  @Override
  public Entry byKey(String authorizeKey) {
    return byKey.get(authorizeKey);
  }

  @Override
  public Entry transition(String authorizationId, Status to) {
    String key = keyOfAuthorization.get(authorizationId);
    if (key == null) return null;
    return byKey.computeIfPresent(key, (k, old) ->
        old.status() == Status.AUTHORIZED ? new Entry(k, old.authorizationId(), old.amountCents(), to) : old);
  }

  @Override
  public Map<String, Entry> entries() {
    return Map.copyOf(byKey);
  }
}
