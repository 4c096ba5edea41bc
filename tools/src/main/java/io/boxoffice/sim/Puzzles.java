package io.boxoffice.sim;

import io.boxoffice.queue.domain.ProofOfWork;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * The join's proof of work as the crowd solves it (API: SHA-256 of the UTF-8 bytes of
 * {@code challenge + ":" + nonce} begins with at least {@code bits} zero bits). A fan's page
 * solves on one core: puzzles of the crowd queue for {@code pageThreads} threads, one puzzle per
 * thread. A bot with {@link ProofOfWorkBot} splits each puzzle over every core. Kept for humans,
 * bots solving as a page does and bots solving with every core: the time each puzzle took from
 * being given to solved (with the wait for a free core of this machine, which a fan's own device
 * would not have) and the time spent solving it.
 */
final class Puzzles implements AutoCloseable {
  private static final long MAX_MICROS = 600_000_000L;

  private final ExecutorService pages;
  private final ExecutorService fullCpu;
  private final int cores;
  /** Given to solved, by who solved: humans, bots solving as a page, bots with every core. */
  final Histogram humans = new Histogram(MAX_MICROS, 2);
  final Histogram bots = new Histogram(MAX_MICROS, 2);
  final Histogram fullCpuBots = new Histogram(MAX_MICROS, 2);
  /** Solving only (from the first hash to the answer), by the same three. */
  final Histogram humansSolving = new Histogram(MAX_MICROS, 2);
  final Histogram botsSolving = new Histogram(MAX_MICROS, 2);
  final Histogram fullCpuBotsSolving = new Histogram(MAX_MICROS, 2);
  final LongAdder hashes = new LongAdder();

  Puzzles(int pageThreads) {
    this.cores = Runtime.getRuntime().availableProcessors();
    this.pages = Executors.newFixedThreadPool(pageThreads, daemon("sim-pow-page"));
    this.fullCpu = Executors.newFixedThreadPool(cores, daemon("sim-pow-bot"));
  }

  /** The nonce for {@code challenge}, as a page solves it (one core), timed for a human or a bot. */
  CompletableFuture<String> page(String challenge, int bits, boolean bot) {
    long given = System.nanoTime();
    long[] started = new long[1];
    return CompletableFuture.supplyAsync(() -> {
      started[0] = System.nanoTime();
      return solve(challenge, bits, 0, 1, new AtomicLong(-1));
    }, pages).whenComplete((n, e) -> {
      record(bot ? bots : humans, given);
      record(bot ? botsSolving : humansSolving, started[0]);
    });
  }

  /** The nonce for {@code challenge} with every core on it (each takes every cores-th nonce; the first found wins). */
  CompletableFuture<String> fullCpu(String challenge, int bits) {
    long given = System.nanoTime();
    AtomicLong found = new AtomicLong(-1);
    AtomicLong started = new AtomicLong();
    List<CompletableFuture<String>> parts = new ArrayList<>();
    for (int i = 0; i < cores; i++) {
      int start = i;
      parts.add(CompletableFuture.supplyAsync(() -> {
        started.compareAndSet(0, System.nanoTime());
        return solve(challenge, bits, start, cores, found);
      }, fullCpu));
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(v -> Long.toString(found.get()))
        .whenComplete((n, e) -> {
          record(fullCpuBots, given);
          record(fullCpuBotsSolving, started.get());
        });
  }

  /** Tries nonces start, start + stride, ... until one answers or another thread has found one; that nonce, or null. */
  String solve(String challenge, int bits, long start, int stride, AtomicLong found) {
    MessageDigest sha = sha256();
    byte[] prefix = (challenge + ":").getBytes(StandardCharsets.UTF_8);
    long tried = 0;
    try {
      for (long n = start; n >= 0; n += stride) {
        if ((++tried & 1023) == 0 && found.get() >= 0) return null;
        sha.update(prefix);
        if (ProofOfWork.leadingZeroBits(sha.digest(Long.toString(n).getBytes(StandardCharsets.US_ASCII))) >= bits) {
          found.compareAndSet(-1, n);
          return Long.toString(n);
        }
      }
      return null;
    } finally {
      hashes.add(tried);
    }
  }

  private static void record(Histogram h, long givenNanos) {
    synchronized (h) {
      h.recordValue(Math.min(MAX_MICROS, Math.max(1, (System.nanoTime() - givenNanos) / 1000)));
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicLong n = new AtomicLong();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  @Override
  public void close() {
    pages.shutdownNow();
    fullCpu.shutdownNow();
  }
}
