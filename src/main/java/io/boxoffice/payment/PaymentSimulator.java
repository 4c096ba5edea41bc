package io.boxoffice.payment;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The built-in card processor: {@code tok_visa} is authorized, {@code tok_declined} (and any
 * unknown token) is declined, {@code tok_slow} is authorized after the configured delay. A
 * configurable share of calls fails as a processor error would. It keeps a ledger of every
 * authorization, so tests and the chaos verdict can count captures without tickets.
 */
public final class PaymentSimulator implements PaymentGateway {

  /** Where one authorization stands. */
  public enum Status { AUTHORIZED, CAPTURED, VOIDED }

  /** One authorization in the ledger. */
  public record Entry(String authorizationId, String authorizeKey, long amountCents, Status status) {}

  private final Duration slowDelay;
  private final double failureRate;
  private final Map<String, AuthResult> authorizeByKey = new ConcurrentHashMap<>();
  private final Map<String, Entry> ledger = new ConcurrentHashMap<>();

  public PaymentSimulator(Duration slowDelay, double failureRate) {
    this.slowDelay = slowDelay;
    this.failureRate = failureRate;
  }

  @Override
  public CompletionStage<AuthResult> authorize(String idempotencyKey, String paymentToken, long amountCents) {
    if (fails()) return CompletableFuture.failedFuture(new PaymentUnavailable("simulated processor error"));
    AuthResult result = authorizeByKey.computeIfAbsent(idempotencyKey, k -> {
      if (!"tok_visa".equals(paymentToken) && !"tok_slow".equals(paymentToken)) return new Declined("card declined");
      String id = "auth_" + UUID.randomUUID();
      ledger.put(id, new Entry(id, k, amountCents, Status.AUTHORIZED));
      return new Authorized(id);
    });
    if ("tok_slow".equals(paymentToken)) {
      Executor later = CompletableFuture.delayedExecutor(slowDelay.toMillis(), TimeUnit.MILLISECONDS);
      return CompletableFuture.supplyAsync(() -> result, later);
    }
    return CompletableFuture.completedFuture(result);
  }

  @Override
  public CompletionStage<Void> capture(String idempotencyKey, String authorizationId, long amountCents) {
    if (fails()) return CompletableFuture.failedFuture(new PaymentUnavailable("simulated processor error"));
    Entry e = ledger.computeIfPresent(authorizationId, (id, old) ->
        old.status() == Status.AUTHORIZED ? new Entry(id, old.authorizeKey(), old.amountCents(), Status.CAPTURED) : old);
    if (e == null || e.status() != Status.CAPTURED) {
      return CompletableFuture.failedFuture(new IllegalStateException("cannot capture " + authorizationId));
    }
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletionStage<Void> voidAuthorization(String idempotencyKey, String authorizationIdOrNull, String authorizeKey) {
    if (fails()) return CompletableFuture.failedFuture(new PaymentUnavailable("simulated processor error"));
    String id = authorizationIdOrNull;
    if (id == null && authorizeByKey.get(authorizeKey) instanceof Authorized a) id = a.authorizationId();
    if (id != null) {
      ledger.computeIfPresent(id, (k, old) ->
          old.status() == Status.AUTHORIZED ? new Entry(k, old.authorizeKey(), old.amountCents(), Status.VOIDED) : old);
    }
    return CompletableFuture.completedFuture(null);
  }

  /** Every authorization the simulator made, by authorization id. */
  public Map<String, Entry> ledger() {
    return Map.copyOf(ledger);
  }

  private boolean fails() {
    return failureRate > 0 && ThreadLocalRandom.current().nextDouble() < failureRate;
  }
}
