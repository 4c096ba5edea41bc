package io.boxoffice.support;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.inventory.InventorySettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Random;
import org.apache.pekko.persistence.testkit.PersistenceTestKitPlugin;
import org.apache.pekko.persistence.testkit.PersistenceTestKitSnapshotPlugin;

/** Configuration for tests: the project's own serialization bindings on a local actor system. */
public final class TestConfigs {
  private TestConfigs() {}

  /** A local actor system with the persistence testkit's in-memory journal and snapshot store. */
  public static Config entityConfig() {
    return PersistenceTestKitPlugin.getInstance().config()
        .withFallback(PersistenceTestKitSnapshotPlugin.config())
        .withFallback(ConfigFactory.parseString("""
            pekko.actor.provider = local
            pekko.coordinated-shutdown.exit-jvm = off
            pekko.loglevel = WARNING
            pekko.persistence.typed.stash-capacity = 20000
            """))
        .withFallback(ConfigFactory.parseResources("serialization.conf"))
        .withFallback(ConfigFactory.load());
  }

  /** Inventory settings for tests: the given clock, seeded jitter, the default journal. */
  public static InventorySettings inventory(Clock clock, int snapshotEvery) {
    return inventory(clock, snapshotEvery, null);
  }

  public static InventorySettings inventory(Clock clock, int snapshotEvery, io.boxoffice.queue.domain.QueueToken queueTokens) {
    return inventory(clock, snapshotEvery, queueTokens, Duration.ofDays(1));
  }

  /** With a heartbeat: after a gap of more than two, live holds get the gap back on recovery. */
  public static InventorySettings inventory(Clock clock, int snapshotEvery, io.boxoffice.queue.domain.QueueToken queueTokens,
                                            Duration heartbeat) {
    return inventory(clock, snapshotEvery, queueTokens, heartbeat, io.boxoffice.inventory.PlatformFaults.NONE);
  }

  /** With the node's count of platform fault time, during which hold clocks stop. */
  public static InventorySettings inventory(Clock clock, int snapshotEvery, io.boxoffice.queue.domain.QueueToken queueTokens,
                                            Duration heartbeat, io.boxoffice.inventory.PlatformFaults faults) {
    Config shipped = ConfigFactory.load().getConfig("boxoffice.inventory");
    return new InventorySettings(clock, () -> new Random(7), 2000, 20000, snapshotEvery, Duration.ofSeconds(1), "", "", queueTokens,
        io.boxoffice.inventory.InventoryMetrics.NONE, heartbeat, faults, io.boxoffice.common.Tracing.OFF,
        shipped.getDuration("warm-up"), shipped.getInt("recent-holds"), shipped.getInt("snapshot-keep"));
  }
}
