package io.boxoffice.edge;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How saturated this node is, read as its dispatcher's lag: every {@code probeMillis} a no-op is
 * handed to the dispatcher the routes run on, and the time until it runs is what any request's
 * next step waits too, behind the work queued before it and behind other processes on the
 * cores. Every {@code windowMillis} the mean lag of the window's probes (a probe still waiting
 * counts with its wait so far) is compared with {@code saturatedMillis} and handed on, with the
 * time, to whoever listens ({@link FairPace#tick}). One daemon thread; {@link #close} stops it.
 */
public final class DispatcherLag implements AutoCloseable {

  /** Told at the end of each window whether the node was saturated in it. */
  public interface Listener {
    void window(boolean saturated, double meanLagMillis, long nowNanos);
  }

  private final Executor dispatcher;
  private final long saturatedNanos;
  private final ScheduledExecutorService timer;
  private final AtomicLong lagSum = new AtomicLong();
  private final AtomicLong probesRun = new AtomicLong();
  /** When the probe not yet run was handed over; 0 when none is waiting. */
  private final AtomicLong waitingSince = new AtomicLong();
  private volatile double lastMeanMillis;

  public DispatcherLag(Executor dispatcher, long probeMillis, long windowMillis, double saturatedMillis, Listener listener) {
    if (probeMillis < 1 || windowMillis < probeMillis) throw new IllegalArgumentException("a window holds one probe or more");
    this.dispatcher = dispatcher;
    this.saturatedNanos = (long) (saturatedMillis * 1_000_000);
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "boxoffice-dispatcher-lag");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleAtFixedRate(this::probe, probeMillis, probeMillis, TimeUnit.MILLISECONDS);
    timer.scheduleAtFixedRate(() -> endWindow(listener), windowMillis, windowMillis, TimeUnit.MILLISECONDS);
  }

  private void probe() {
    long now = System.nanoTime();
    // One probe at a time: while one waits, the lag is at least its wait, counted at the window's end.
    if (!waitingSince.compareAndSet(0, now)) return;
    try {
      dispatcher.execute(() -> {
        long since = waitingSince.getAndSet(0);
        lagSum.addAndGet(System.nanoTime() - since);
        probesRun.incrementAndGet();
      });
    } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
      waitingSince.set(0);
    }
  }

  private void endWindow(Listener listener) {
    long now = System.nanoTime();
    long sum = lagSum.getAndSet(0);
    long n = probesRun.getAndSet(0);
    long since = waitingSince.get();
    if (since != 0) {
      sum += now - since;
      n++;
    }
    double mean = n == 0 ? 0 : (double) sum / n;
    lastMeanMillis = mean / 1e6;
    try {
      listener.window(mean > saturatedNanos, lastMeanMillis, now);
    } catch (RuntimeException e) {
      // A task of a scheduled executor that throws is never run again: the pace would stop moving.
      org.slf4j.LoggerFactory.getLogger(DispatcherLag.class).error("a dispatcher-lag listener failed", e);
    }
  }

  /** The last window's mean lag in milliseconds. */
  public double meanLagMillis() {
    return lastMeanMillis;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
