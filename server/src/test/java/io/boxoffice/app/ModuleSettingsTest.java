package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.common.SnapshotPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The tunables that were literals in {@code Node} and the entities are read from conf/: the
 * shipped values are the ones the code had (behaviour unchanged), and an operator's value reaches
 * the typed settings.
 */
class ModuleSettingsTest {
  static Config shipped() {
    return NodeConfig.resolve(ConfigFactory.load());
  }

  static Config with(String overrides) {
    return NodeConfig.resolve(ConfigFactory.parseString(overrides).withFallback(ConfigFactory.load()));
  }

  @Test
  void theShippedValuesAreTheOnesTheCodeHad() {
    Config config = shipped();
    NodeSettings node = NodeSettings.fromConfig(config);
    assertEquals(Duration.ofSeconds(30), node.startTimeout());
    assertEquals(Duration.ofSeconds(10), node.unbindDeadline());
    assertEquals(Duration.ofSeconds(15), node.metricsSweepInterval());
    PaymentsModule.Settings payments = PaymentsModule.Settings.fromConfig(config);
    assertEquals(4, payments.poolSize());
    assertEquals(Duration.ofSeconds(3), payments.connectionTimeout());
    QueueModule.Settings queue = QueueModule.Settings.fromConfig(config);
    assertEquals(Duration.ofSeconds(1), queue.lineReportInterval());
    assertEquals(new SnapshotPolicy(500, 2), queue.roomSnapshots());
    assertEquals(new SnapshotPolicy(1000, 2), queue.presaleSnapshots());
    Config snapshots = config.getConfig("boxoffice.snapshots");
    assertEquals(new SnapshotPolicy(50, 2), SnapshotPolicy.fromConfig(snapshots, "cart"));
    assertEquals(new SnapshotPolicy(100, 2), SnapshotPolicy.fromConfig(snapshots, "ticket-wallet"));
    assertEquals(Duration.ofMillis(500), config.getDuration("boxoffice.cart.retry-min"));
    assertEquals(Duration.ofSeconds(5), config.getDuration("boxoffice.cart.retry-max"));
  }

  @Test
  void anOperatorsValuesReachTheSettings() {
    Config config = with("""
        boxoffice.start-timeout = 45s
        boxoffice.payments.pool-size = 9
        boxoffice.queue.line-report-interval = 2s
        boxoffice.snapshots.waiting-room { every = 20, keep = 3 }
        """);
    assertEquals(Duration.ofSeconds(45), NodeSettings.fromConfig(config).startTimeout());
    assertEquals(9, PaymentsModule.Settings.fromConfig(config).poolSize());
    assertEquals(Duration.ofSeconds(2), QueueModule.Settings.fromConfig(config).lineReportInterval());
    assertEquals(new SnapshotPolicy(20, 3), QueueModule.Settings.fromConfig(config).roomSnapshots());
  }
}
