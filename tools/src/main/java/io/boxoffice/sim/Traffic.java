package io.boxoffice.sim;

import io.boxoffice.load.Counts;
import io.boxoffice.load.Storefront;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * The crowd's HTTP: every simulated call goes through here, without a thread per fan. At most
 * {@code inFlight} calls are on the wire at once (the crowd's connections); more wait here and
 * their wait is not counted as latency. Each call is timed from the moment it is sent, by phase
 * (join, status, seatmap, hold, checkout...) and by time bucket from the sale's start, and each
 * answer is counted by phase, status and error code. A tab's queue cookie follows the answers it
 * gets, as a browser's would.
 */
final class Traffic {
  /** The highest latency a histogram keeps, in microseconds. */
  private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(2);

  private final Storefront store;
  private final String eventId;
  private final Duration timeout;
  private final long bucketMillis;
  private final ScheduledExecutorService scheduler;
  private final Semaphore permits;
  private final ConcurrentLinkedQueue<Runnable> waiting = new ConcurrentLinkedQueue<>();
  private final Map<String, Histogram> latency = new ConcurrentHashMap<>();
  private final Map<String, Map<Long, Histogram>> latencyByBucket = new ConcurrentHashMap<>();
  /** phase -> "status error" -> count. */
  private final Counts<String> answers = new Counts<>();
  final LongAdder sent = new LongAdder();
  private final LongAdder fiveXx = new LongAdder();
  /** Status of a call not sent because the run had ended ({@link #close}). */
  static final int NOT_SENT = -3;

  private final int inFlightLimit;
  private volatile boolean closed;
  private volatile long origin;
  /** The part of the run calls sent now belong to (around a fault: before, during, after), or null. */
  private volatile String window;
  private final Map<String, Map<String, Histogram>> latencyByWindow = new ConcurrentHashMap<>();
  private final Map<String, Counts<String>> answersByWindow = new ConcurrentHashMap<>();

  Traffic(Storefront store, String eventId, int inFlight, Duration timeout, Duration bucket, ScheduledExecutorService scheduler) {
    this.store = store;
    this.eventId = eventId;
    this.timeout = timeout;
    this.bucketMillis = bucket.toMillis();
    this.scheduler = scheduler;
    this.permits = new Semaphore(inFlight);
    this.inFlightLimit = inFlight;
  }

  /** Latency buckets count from here (the sale's start), epoch ms. */
  void origin(long originMillis) {
    this.origin = originMillis;
  }

  long bucketMillis() {
    return bucketMillis;
  }

  /** Calls now, or as soon as one of the crowd's connections is free. */
  CompletableFuture<Storefront.Reply> call(String phase, Tab tab, String method, String path, String body, Map<String, String> headers) {
    return call(phase, tab, method, path, body, headers, true);
  }

  /** As above; without {@code keepOkBody} a 200's body is read and dropped (see {@link Storefront#send}). */
  CompletableFuture<Storefront.Reply> call(String phase, Tab tab, String method, String path, String body, Map<String, String> headers,
                                           boolean keepOkBody) {
    CompletableFuture<Storefront.Reply> out = new CompletableFuture<>();
    if (closed) {
      out.complete(notSent());
      return out;
    }
    Runnable send = () -> {
      if (closed) {
        release();
        out.complete(notSent());
        return;
      }
      long started = System.nanoTime();
      String inWindow = window;
      sent.increment();
      int node = tab == null ? 0 : tab.account.id % store.nodes();
      store.send(phase, node, method, path, body, timeout, headers, keepOkBody).whenComplete((r, error) -> {
        release();
        Storefront.Reply reply = r != null ? r : new Storefront.Reply(Storefront.NO_ANSWER, String.valueOf(error), null, node);
        record(phase, reply, (System.nanoTime() - started) / 1000, inWindow);
        if (tab != null) reply.setCookie("bo_q_" + eventId).ifPresent(t -> tab.queueToken = t.isEmpty() ? null : t);
        out.complete(reply);
      });
    };
    if (permits.tryAcquire()) {
      send.run();
    } else {
      waiting.add(send);
      drain();
    }
    return out;
  }

  /** A call with the tab's own cookies and network. */
  CompletableFuture<Storefront.Reply> call(String phase, Tab tab, String method, String path, String body) {
    return call(phase, tab, method, path, body, tab.headers(eventId));
  }

  /**
   * A call that is sent again, as a fan clicks again, while it is answered 429 or 503 (after its
   * Retry-After, at most 5 s) or not at all, up to {@code attempts} times.
   */
  CompletableFuture<Storefront.Reply> retrying(String phase, Tab tab, String method, String path, String body,
                                              Map<String, String> extra, int attempts) {
    return retrying(phase, tab, method, path, body, extra, attempts, true);
  }

  /** As above; without {@code keepOkBody} a 200's body is read and dropped (see {@link Storefront#send}). */
  CompletableFuture<Storefront.Reply> retrying(String phase, Tab tab, String method, String path, String body,
                                              Map<String, String> extra, int attempts, boolean keepOkBody) {
    Map<String, String> headers = tab.headers(eventId);
    headers.putAll(extra);
    return call(phase, tab, method, path, body, headers, keepOkBody).thenCompose(r -> {
      boolean again = !r.answered() || r.status() == 429 || r.status() == 503;
      if (!again || attempts <= 1 || closed) return CompletableFuture.completedFuture(r);
      long wait = r.answered() ? Math.min(5000, r.retryAfterMillis()) : 500;
      return after(wait).thenCompose(v -> closed ? CompletableFuture.completedFuture(r)
          : retrying(phase, tab, method, path, body, extra, attempts - 1, keepOkBody));
    });
  }

  /** Completes after {@code millis}, on the scheduler. */
  CompletableFuture<Void> after(long millis) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    scheduler.schedule(() -> done.complete(null), Math.max(0, millis), TimeUnit.MILLISECONDS);
    return done;
  }

  private void release() {
    Runnable next = waiting.poll();
    if (next != null) {
      next.run();
      return;
    }
    permits.release();
    drain();
  }

  private void drain() {
    while (!waiting.isEmpty() && permits.tryAcquire()) {
      Runnable next = waiting.poll();
      if (next == null) {
        permits.release();
        return;
      }
      next.run();
    }
  }

  int waitingCalls() {
    return waiting.size();
  }

  /**
   * The run ended: no call is sent from now on (queued ones and retries complete as
   * {@link #NOT_SENT}), so once the calls in flight are answered, what the crowd saw is final
   * and the event's own count can be read against it. A retry sent after that read used to
   * report a sale the read had not seen ("confirmed but not counted").
   */
  void close() {
    closed = true;
  }

  private Storefront.Reply notSent() {
    return new Storefront.Reply(NOT_SENT, "", null, 0);
  }

  int inFlight() {
    return inFlightLimit - permits.availablePermits();
  }

  long fiveXx() {
    return fiveXx.sum();
  }

  /** Calls sent from now on are counted in {@code label} too (null: in no window). */
  void window(String label) {
    this.window = label;
  }

  private void record(String phase, Storefront.Reply reply, long micros, String inWindow) {
    if (reply.status() >= 500) fiveXx.increment();
    if (reply.answered() && inWindow != null) {
      Histogram h = latencyByWindow.computeIfAbsent(inWindow, w -> new ConcurrentHashMap<>())
          .computeIfAbsent(phase, p -> new Histogram(MAX_MICROS, 2));
      synchronized (h) {
        h.recordValue(Math.min(MAX_MICROS, Math.max(1, micros)));
      }
    }
    if (reply.answered()) {
      long bucket = Math.floorDiv(System.currentTimeMillis() - origin, bucketMillis);
      Histogram all = latency.computeIfAbsent(phase, p -> new Histogram(MAX_MICROS, 2));
      Histogram inBucket = latencyByBucket.computeIfAbsent(phase, p -> new ConcurrentHashMap<>())
          .computeIfAbsent(bucket, b -> new Histogram(MAX_MICROS, 2));
      long v = Math.min(MAX_MICROS, Math.max(1, micros));
      synchronized (all) {
        all.recordValue(v);
      }
      synchronized (inBucket) {
        inBucket.recordValue(v);
      }
    }
    String key = !reply.answered() ? (reply.status() == Storefront.TIMED_OUT ? "timed out" : "no answer")
        : reply.status() < 400 ? Integer.toString(reply.status()) : reply.status() + " " + reply.error();
    answers.increment(phase, key);
    if (inWindow != null) answersByWindow.computeIfAbsent(inWindow, w -> new Counts<>()).increment(phase, key);
  }

  /** window -> phase -> latency of the calls sent in it (copies). */
  Map<String, Map<String, Histogram>> latencyByWindow() {
    Map<String, Map<String, Histogram>> out = new TreeMap<>();
    latencyByWindow.forEach((w, byPhase) -> {
      Map<String, Histogram> copy = new TreeMap<>();
      byPhase.forEach((phase, h) -> {
        synchronized (h) {
          copy.put(phase, h.copy());
        }
      });
      out.put(w, copy);
    });
    return out;
  }

  /** window -> phase -> "status error" -> count, of the calls sent in it. */
  Map<String, Map<String, Map<String, Long>>> answersByWindow() {
    Map<String, Map<String, Map<String, Long>>> out = new TreeMap<>();
    answersByWindow.forEach((w, c) -> out.put(w, c.snapshot()));
    return out;
  }

  /** Every phase's latency over the whole run (a copy). */
  Map<String, Histogram> latency() {
    Map<String, Histogram> out = new TreeMap<>();
    latency.forEach((phase, h) -> {
      synchronized (h) {
        out.put(phase, h.copy());
      }
    });
    return out;
  }

  /** phase -> bucket (from the sale's start, of {@link #bucketMillis}) -> latency (copies). */
  Map<String, Map<Long, Histogram>> latencyByBucket() {
    Map<String, Map<Long, Histogram>> out = new TreeMap<>();
    latencyByBucket.forEach((phase, buckets) -> {
      Map<Long, Histogram> copy = new TreeMap<>();
      buckets.forEach((b, h) -> {
        synchronized (h) {
          copy.put(b, h.copy());
        }
      });
      out.put(phase, copy);
    });
    return out;
  }

  /** phase -> "status error" -> count. */
  Map<String, Map<String, Long>> answers() {
    return answers.snapshot();
  }
}
