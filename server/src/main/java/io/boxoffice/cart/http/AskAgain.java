package io.boxoffice.cart.http;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.pekko.pattern.AskTimeoutException;

/**
 * The edge's answer to shard hand-overs: sharding drops messages buffered for a shard being
 * moved, so a hold or a checkout whose entity is silent is asked again, until the request's
 * retry deadline, and the entity on its new node answers the repeat.
 */
record AskAgain(Duration minAttempt, Duration pause) {

  /**
   * Runs an idempotent ask (each attempt under at most the ask timeout) again while it times out
   * or its answer says to, until the deadline (an at-once answer waits {@code pause} first; no
   * attempt starts with less than {@code minAttempt} left). Only for asks that carry what makes
   * a repeat harmless: an Idempotency-Key, a request id.
   */
  <R> CompletionStage<R> until(Duration askTimeout, Function<Duration, CompletionStage<R>> ask, Predicate<R> askAgain,
                                long deadline) {
    Duration attempt = Duration.ofNanos(Math.min(askTimeout.toNanos(), Math.max(0, deadline - System.nanoTime())));
    return ask.apply(attempt)
        .handle((reply, error) -> {
          boolean timedOut = error != null && isTimeout(error);
          boolean again = timedOut || (error == null && askAgain.test(reply));
          if (again && deadline - System.nanoTime() > minAttempt.toNanos()) {
            Executor later = timedOut ? Runnable::run
                : CompletableFuture.delayedExecutor(pause.toMillis(), TimeUnit.MILLISECONDS);
            return CompletableFuture.supplyAsync(() -> null, later).thenCompose(ignored -> until(askTimeout, ask, askAgain, deadline));
          }
          return error != null ? CompletableFuture.<R>failedFuture(error) : CompletableFuture.completedFuture(reply);
        })
        .thenCompose(stage -> stage);
  }

  private static boolean isTimeout(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    return cause instanceof TimeoutException || cause instanceof AskTimeoutException;
  }
}
