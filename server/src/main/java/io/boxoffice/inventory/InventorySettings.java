package io.boxoffice.inventory;

import com.typesafe.config.Config;
import io.boxoffice.inventory.domain.QueuePassCheck;
import java.time.Clock;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Settings of the {@link EventInventory}, read once at start; the clock and randomness are
 * injected, and the queue-token verifier with which it checks admissions again (null: none), and
 * the node's count of platform fault time that hold clocks do not run for. A moved or new event
 * goes to a node up at least {@code warmUp} when there is one (a node that has just started again
 * recovers an event seconds slower while its JIT warms up); {@code recentHolds} holds are
 * remembered by request id (see {@link io.boxoffice.inventory.domain.RecentHolds}); the last
 * {@code snapshotKeep} snapshots are kept.
 */
public record InventorySettings(
    Clock clock,
    Supplier<RandomGenerator> random,
    int maxBatch,
    int maxPending,
    int snapshotEveryEvents,
    Duration availabilityInterval,
    String journalPluginId,
    String snapshotPluginId,
    QueuePassCheck queueTokens,
    InventoryMetrics metrics,
    Duration heartbeat,
    PlatformFaults faults,
    io.boxoffice.common.Tracing tracing,
    Duration warmUp,
    int recentHolds,
    int snapshotKeep) {

  /** These settings with spans through {@code tracing} (commands that carry a traceparent get a span each, batches a journal span). */
  public InventorySettings withTracing(io.boxoffice.common.Tracing tracing) {
    return new InventorySettings(clock, random, maxBatch, maxPending, snapshotEveryEvents, availabilityInterval, journalPluginId,
        snapshotPluginId, queueTokens, metrics, heartbeat, faults, tracing, warmUp, recentHolds, snapshotKeep);
  }

  /** These settings reporting to {@code metrics}. */
  public InventorySettings withMetrics(InventoryMetrics metrics) {
    return new InventorySettings(clock, random, maxBatch, maxPending, snapshotEveryEvents, availabilityInterval, journalPluginId,
        snapshotPluginId, queueTokens, metrics, heartbeat, faults, tracing, warmUp, recentHolds, snapshotKeep);
  }

  public static InventorySettings fromConfig(Config config, Clock clock, QueuePassCheck queueTokens, InventoryMetrics metrics,
                                             PlatformFaults faults) {
    Config c = config.getConfig("boxoffice.inventory");
    return new InventorySettings(
        clock,
        SplittableRandom::new,
        c.getInt("max-batch"),
        c.getInt("max-pending"),
        c.getInt("snapshot-every-batches"),
        c.getDuration("availability-interval"),
        c.getString("journal-plugin"),
        c.getString("snapshot-plugin"),
        queueTokens,
        metrics,
        c.getDuration("heartbeat"),
        faults,
        io.boxoffice.common.Tracing.OFF,
        c.getDuration("warm-up"),
        c.getInt("recent-holds"),
        c.getInt("snapshot-keep"));
  }
}
