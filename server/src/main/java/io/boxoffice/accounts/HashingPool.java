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
 * journal have their own threads, so a flood of sign-ins slows sign-ins only. One client
 * network has at most {@code perNetwork} runs queued or running at once (beyond: 429
 * {@code rate_limited} for it alone), so one network's flood cannot fill the queue that every
 * other network's fans wait in.
 */
public final class HashingPool implements AutoCloseable {
  private final ThreadPoolExecutor executor;
  private final int perNetwork;
  private final java.util.concurrent.ConcurrentHashMap<String, Integer> inFlight = new java.util.concurrent.ConcurrentHashMap<>();

  public HashingPool(int threads, int queue) {
    this(threads, queue, Integer.MAX_VALUE);
  }

  public HashingPool(int threads, int queue, int perNetwork) {
    if (perNetwork < 1) throw new IllegalArgumentException("perNetwork must be at least 1");
    this.perNetwork = perNetwork;
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

  /**
   * Runs {@code work} for a client of {@code network} (its prefix): 429 {@code rate_limited} when
   * that network already has its share queued or running, else as {@link #run(Supplier)}.
   */
  public <T> CompletionStage<T> run(String network, Supplier<T> work) {
    boolean[] admitted = new boolean[1];
    inFlight.compute(network, (k, n) -> {
      int now = n == null ? 0 : n;
      if (now >= perNetwork) return n;
      admitted[0] = true;
      return now + 1;
    });
    if (!admitted[0]) {
      return CompletableFuture.failedFuture(io.boxoffice.edge.Refusals.toApiError(io.boxoffice.common.Refusal.RATE_LIMITED,
          "too many sign-ins from your network at once, slow down", null));
    }
    CompletionStage<T> running = run(work);
    running.whenComplete((v, e) -> inFlight.computeIfPresent(network, (k, n) -> n <= 1 ? null : n - 1));
    return running;
  }

  /** Runs queued or running for {@code network} now. */
  int inFlight(String network) {
    return inFlight.getOrDefault(network, 0);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
