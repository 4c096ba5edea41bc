package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.cart.http.ShopSettings;
import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.common.Supervision;
import io.boxoffice.inventory.InventoryMetrics;
import io.boxoffice.inventory.InventorySettings;
import io.boxoffice.inventory.PlatformFaults;
import io.boxoffice.queue.Manifests;
import io.boxoffice.support.TestConfigs;
import java.time.Clock;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
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
    assertEquals(Duration.ofSeconds(60), node.listenAfterUpWait());
    assertEquals(Duration.ofSeconds(10), node.unbindDeadline());
    assertEquals(Duration.ofSeconds(15), node.metricsSweepInterval());
    PaymentsModule.Settings payments = PaymentsModule.Settings.fromConfig(config);
    assertEquals(4, payments.poolSize());
    assertEquals(Duration.ofSeconds(3), payments.connectionTimeout());
    // Out of the box: the simulator (tests, trials), Stripe's API in euros, 3 s / 10 s, 5 min of webhook tolerance.
    assertEquals(PaymentsModule.Provider.SIMULATOR, payments.provider());
    assertEquals(false, payments.production());
    assertEquals(false, payments.allowSimulatorInProduction());
    assertEquals("https://api.stripe.com", payments.stripe().gateway().apiBase());
    assertEquals("eur", payments.stripe().gateway().currency());
    assertEquals(Duration.ofSeconds(3), payments.stripe().gateway().connectTimeout());
    assertEquals(Duration.ofSeconds(10), payments.stripe().gateway().readTimeout());
    assertEquals(Duration.ofMinutes(5), payments.stripe().webhookTolerance());
    assertEquals(16, config.getInt("boxoffice.stripe-dispatcher.thread-pool-executor.fixed-pool-size"));
    QueueModule.Settings queue = QueueModule.Settings.fromConfig(config);
    assertEquals(Duration.ofSeconds(5), queue.keeperInterval());
    assertEquals(new SnapshotPolicy(500, 2), queue.roomSnapshots());
    assertEquals(new SnapshotPolicy(1000, 2), queue.presaleSnapshots());
    Config snapshots = config.getConfig("boxoffice.snapshots");
    assertEquals(new SnapshotPolicy(50, 2), SnapshotPolicy.fromConfig(snapshots, "cart"));
    assertEquals(new SnapshotPolicy(100, 2), SnapshotPolicy.fromConfig(snapshots, "ticket-wallet"));
    assertEquals(Duration.ofMillis(500), config.getDuration("boxoffice.cart.retry-min"));
    assertEquals(Duration.ofSeconds(5), config.getDuration("boxoffice.cart.retry-max"));
    // Longer than the longest hold (1 h, 10 min of jitter, the release grace): every hold timer fires first.
    assertEquals(Duration.ofHours(2), config.getDuration("boxoffice.cart.passivate-idle-after"));
  }

  @Test
  void theLiteralsMovedToConfKeepTheirValues() {
    Config config = shipped();
    assertEquals(new Supervision(Duration.ofMillis(200), Duration.ofSeconds(5), 0.2, 20, Duration.ofSeconds(30)),
        Supervision.fromConfig(config));
    assertEquals(new ShopSettings(Duration.ofSeconds(9), Duration.ofMillis(500), Duration.ofMillis(250), Duration.ofMillis(500),
            new ShopSettings.SeatMapLimits(2 << 20, 256 << 10)),
        ShopSettings.fromConfig(config));
    assertEquals(new Manifests.Settings(Duration.ofSeconds(3), Duration.ofSeconds(1)), Manifests.Settings.fromConfig(config));
    assertEquals(Duration.ofSeconds(2), QueueModule.Settings.fromConfig(config).pageFactsWait());
    InventorySettings inventory = inventory(config);
    assertEquals(Duration.ofSeconds(60), inventory.warmUp());
    assertEquals(4096, inventory.recentHolds());
    assertEquals(2, inventory.snapshotKeep());
    NodeSettings node = NodeSettings.fromConfig(config);
    assertEquals(Duration.ofSeconds(5), node.shardGaugesDelay());
    assertEquals(Duration.ofSeconds(10), node.shardGaugesInterval());
    assertEquals(Duration.ofSeconds(30), node.stopTimeout());
    Config podCost = config.getConfig("boxoffice.kubernetes.pod-deletion-cost");
    assertEquals(Duration.ofSeconds(5), podCost.getDuration("connect-timeout"));
    assertEquals(Duration.ofSeconds(10), podCost.getDuration("request-timeout"));
  }

  @Test
  void anOperatorsValuesReachTheMovedSettings() {
    Config config = with("""
        boxoffice.supervision { min-backoff = 1s, max-backoff = 20s, random-factor = 0.5, max-restarts = 7, reset-after = 1m }
        boxoffice.http { retry-min-attempt = 1s, retry-pause = 100ms, cart-expiry-wait = 2s }
        boxoffice.http.seat-map { max-plain-bytes = 3m, bytes-per-token = 64k }
        boxoffice.queue { room-start-wait = 7s, catalogue-retry = 4s, page-facts-wait = 3s, join-wait = 5s }
        boxoffice.inventory { warm-up = 2m, recent-holds = 100, snapshot-keep = 5 }
        boxoffice.metrics { shard-gauges-delay = 1s, shard-gauges-interval = 1m }
        boxoffice.stop-timeout = 50s
        """);
    assertEquals(new Supervision(Duration.ofSeconds(1), Duration.ofSeconds(20), 0.5, 7, Duration.ofMinutes(1)),
        Supervision.fromConfig(config));
    ShopSettings shop = ShopSettings.fromConfig(config);
    assertEquals(Duration.ofSeconds(1), shop.retryMinAttempt());
    assertEquals(Duration.ofMillis(100), shop.retryPause());
    assertEquals(Duration.ofSeconds(2), shop.expiryWait());
    assertEquals(new ShopSettings.SeatMapLimits(3 << 20, 64 << 10), shop.seatMap());
    assertEquals(new Manifests.Settings(Duration.ofSeconds(7), Duration.ofSeconds(4)), Manifests.Settings.fromConfig(config));
    assertEquals(Duration.ofSeconds(3), QueueModule.Settings.fromConfig(config).pageFactsWait());
    assertEquals(Duration.ofSeconds(5), QueueModule.Settings.fromConfig(config).joinWait());
    InventorySettings inventory = inventory(config);
    assertEquals(Duration.ofMinutes(2), inventory.warmUp());
    assertEquals(100, inventory.recentHolds());
    assertEquals(5, inventory.snapshotKeep());
    NodeSettings node = NodeSettings.fromConfig(config);
    assertEquals(Duration.ofSeconds(1), node.shardGaugesDelay());
    assertEquals(Duration.ofMinutes(1), node.shardGaugesInterval());
    assertEquals(Duration.ofSeconds(50), node.stopTimeout());
  }

  /** The entities read their supervision from their actor system's configuration. */
  @Test
  void entitiesTakeTheirSupervisionFromTheSystemsConfig() {
    ActorTestKit testKit = ActorTestKit.create(
        ConfigFactory.parseString("boxoffice.supervision.max-restarts = 7").withFallback(TestConfigs.entityConfig()));
    try {
      assertEquals(7, Supervision.of(testKit.system()).maxRestarts());
      assertEquals(Duration.ofMillis(200), Supervision.of(testKit.system()).minBackoff());
    } finally {
      testKit.shutdownTestKit();
    }
  }

  private static InventorySettings inventory(Config config) {
    return InventorySettings.fromConfig(config, Clock.systemUTC(), null, InventoryMetrics.NONE, PlatformFaults.NONE);
  }

  @Test
  void anOperatorsValuesReachTheSettings() {
    Config config = with("""
        boxoffice.start-timeout = 45s
        boxoffice.payments.pool-size = 9
        boxoffice.queue.keeper-interval = 2s
        boxoffice.snapshots.waiting-room { every = 20, keep = 3 }
        """);
    assertEquals(Duration.ofSeconds(45), NodeSettings.fromConfig(config).startTimeout());
    assertEquals(9, PaymentsModule.Settings.fromConfig(config).poolSize());
    PaymentsModule.Settings stripe = PaymentsModule.Settings.fromConfig(with("""
        boxoffice.payments.provider = stripe
        boxoffice.payments.stripe { secret-key = sk_live_x, webhook-secret = whsec_y, currency = CHF, read-timeout = 4s }
        """));
    assertEquals(PaymentsModule.Provider.STRIPE, stripe.provider());
    assertEquals("sk_live_x", stripe.stripe().gateway().secretKey());
    assertEquals("whsec_y", stripe.stripe().webhookSecret());
    assertEquals("chf", stripe.stripe().gateway().currency());
    assertEquals(Duration.ofSeconds(4), stripe.stripe().gateway().readTimeout());
    assertEquals(Duration.ofSeconds(2), QueueModule.Settings.fromConfig(config).keeperInterval());
    assertEquals(new SnapshotPolicy(20, 3), QueueModule.Settings.fromConfig(config).roomSnapshots());
  }
}
