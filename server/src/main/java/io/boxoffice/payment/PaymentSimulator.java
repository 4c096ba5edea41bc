package io.boxoffice.payment;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The built-in card processor: {@code tok_visa} is authorized, {@code tok_declined} (and any
 * unknown token) is declined, {@code tok_slow} is authorized after the configured delay. A
 * configurable share of calls fails as a processor error would. Every answer is kept in its
 * {@link PaymentLedger}, under the call's idempotency key, so a repeated call gets the first
 * answer; the delay and failure rate can be changed while it runs (chaos drills).
 */
public final class PaymentSimulator implements PaymentGateway {

  /** Where one authorization stands. */
  public enum Status { AUTHORIZED, CAPTURED, VOIDED }

  /** One authorization in the ledger. */
  public record Entry(String authorizationId, String authorizeKey, long amountCents, Status status) {}

  private final PaymentLedger ledger;
  private final Executor executor;
  private volatile Duration slowDelay;
  private volatile double failureRate;

  /** An in-memory simulator (tests, single-process trials). */
  public PaymentSimulator(Duration slowDelay, double failureRate) {
    this(slowDelay, failureRate, new InMemoryLedger(), Runnable::run);
  }

  /** A simulator whose ledger calls (they may block) run on {@code executor}. */
  public PaymentSimulator(Duration slowDelay, double failureRate, PaymentLedger ledger, Executor executor) {
    this.slowDelay = slowDelay;
    this.failureRate = failureRate;
    this.ledger = ledger;
    this.executor = executor;
  }

  /** Changes how slow {@code tok_slow} is and how often calls fail, from now on. */
  public void tune(Duration slowDelay, double failureRate) {
    this.slowDelay = slowDelay;
    this.failureRate = failureRate;
  }

  public Duration slowDelay() { return slowDelay; }
  public double failureRate() { return failureRate; }

  @Override
  public CompletionStage<AuthResult> authorize(String idempotencyKey, String paymentToken, long amountCents) {
    if (fails()) return CompletableFuture.failedFuture(new PaymentUnavailable("simulated processor error"));
    CompletableFuture<AuthResult> result = CompletableFuture.supplyAsync(() -> {
      boolean accepted = "tok_visa".equals(paymentToken) || "tok_slow".equals(paymentToken);
      PaymentLedger.Entry fresh = accepted
          ? new PaymentLedger.Entry(idempotencyKey, "auth_" + UUID.randomUUID(), amountCents, PaymentLedger.Status.AUTHORIZED)
          : new PaymentLedger.Entry(idempotencyKey, null, amountCents, PaymentLedger.Status.DECLINED);
      PaymentLedger.Entry stored = ledger.authorizeOnce(fresh);
      return stored.status() == PaymentLedger.Status.DECLINED
          ? new Declined("card declined") : (AuthResult) new Authorized(stored.authorizationId());
    }, executor);
    if ("tok_slow".equals(paymentToken)) {
      Executor later = CompletableFuture.delayedExecutor(slowDelay.toMillis(), TimeUnit.MILLISECONDS, executor);
      return result.thenApplyAsync(r -> r, later);
    }
    return result;
  }

  @Override
  public CompletionStage<Void> capture(String idempotencyKey, String authorizationId, long amountCents) {
    if (fails()) return CompletableFuture.failedFuture(new PaymentUnavailable("simulated processor error"));
    return CompletableFuture.supplyAsync(() -> {
      PaymentLedger.Entry e = ledger.transition(authorizationId, PaymentLedger.Status.CAPTURED);
      if (e == null || e.status() != PaymentLedger.Status.CAPTURED) throw new IllegalStateException("cannot capture " + authorizationId);
      return null;
    }, executor);
  }

  @Override
  public CompletionStage<Void> voidAuthorization(String idempotencyKey, String authorizationIdOrNull, String authorizeKey) {
    if (fails()) return CompletableFuture.failedFuture(new PaymentUnavailable("simulated processor error"));
    return CompletableFuture.supplyAsync(() -> {
      String id = authorizationIdOrNull;
      if (id == null) {
        PaymentLedger.Entry e = ledger.byKey(authorizeKey);
        id = e == null ? null : e.authorizationId();
      }
      if (id != null) ledger.transition(id, PaymentLedger.Status.VOIDED);
      return null;
    }, executor);
  }

  /** Every authorization the simulator made (declines left out), by authorization id. */
  public Map<String, Entry> ledger() {
    Map<String, Entry> out = new java.util.HashMap<>();
    for (PaymentLedger.Entry e : ledger.entries().values()) {
      if (e.authorizationId() == null) continue;
      out.put(e.authorizationId(), new Entry(e.authorizationId(), e.authorizeKey(), e.amountCents(), Status.valueOf(e.status().name())));
    }
    return Map.copyOf(out);
  }

  private boolean fails() {
    return failureRate > 0 && ThreadLocalRandom.current().nextDouble() < failureRate;
  }
}
