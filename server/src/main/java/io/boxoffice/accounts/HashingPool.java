package io.boxoffice.accounts;

import io.boxoffice.edge.ApiError;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The threads that run PBKDF2, and nothing else: a fixed number of them and a bounded queue.
 * When the queue is full the work is refused at once with 503 {@code overloaded} (+ Retry-After)
 * rather than queued without bound, or run on the caller's thread (what a Pekko dispatcher
 * does with a full bounded queue) where it would block an actor or a route. Payments and the
 * journal have their own threads, so a flood of sign-ins slows sign-ins only.
 */
public final class HashingPool implements AutoCloseable {
  private final ThreadPoolExecutor executor;

  public HashingPool(int threads, int queue) {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory factory = r -> {
      Thread t = new Thread(r, "password-hashing-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(queue), factory,
        new ThreadPoolExecutor.AbortPolicy());
  }

  /** Runs {@code work} on the pool; a stage failed with 503 {@code overloaded} when the queue is full. */
  public <T> CompletionStage<T> run(Supplier<T> work) {
    try {
      return CompletableFuture.supplyAsync(work, executor);
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(new ApiError(503, "overloaded", "too many sign-ins right now, try again shortly"));
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
