package io.boxoffice.support;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.payment.PaymentSimulator;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

/** A whole boxoffice node for integration tests: PostgreSQL at 127.0.0.1:5432/test, HTTP on a free port. */
public final class TestNode {
  public static final String ADMIN_TOKEN = "test-admin-token-0123456789abcdefgh";
  public static final String GATE_TOKEN = "test-gate-token-0123456789abcdefghi";
  public static final String PG_URL = System.getProperty("boxoffice.test.db-url", "jdbc:postgresql://127.0.0.1:5432/test");
  private static final String KEY = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

  private TestNode() {}

  /** Test settings over the node's own configuration; {@code dbUrl} empty means the embedded H2 under {@code dataDir}. */
  public static Config config(String dbUrl, String dataDir) {
    return ConfigFactory.parseMap(Map.ofEntries(
            Map.entry("boxoffice.db.url", dbUrl),
            Map.entry("boxoffice.data-dir", dataDir),
            Map.entry("pekko-persistence-jdbc.shared-databases.boxoffice.db.user", dbUrl.isEmpty() ? "" : "postgres"),
            Map.entry("boxoffice.http.port", 0),
            Map.entry("boxoffice.http.interface", "127.0.0.1"),
            Map.entry("pekko.remote.artery.canonical.port", 0),
            Map.entry("pekko.management.http.port", 0),
            Map.entry("pekko.coordinated-shutdown.exit-jvm", "off"),
            Map.entry("pekko.loglevel", "WARNING"),
            Map.entry("boxoffice.secrets.admin-token", ADMIN_TOKEN),
            Map.entry("boxoffice.secrets.gate-token", GATE_TOKEN),
            Map.entry("boxoffice.secrets.identity-key", KEY),
            Map.entry("boxoffice.secrets.ticket-key", KEY),
            Map.entry("boxoffice.queue.keys.active", KEY),
            Map.entry("boxoffice.bots.presale-key", KEY),
            Map.entry("boxoffice.bots.pow-key", KEY),
            Map.entry("boxoffice.accounts.pbkdf2-iterations", 1000),
            // Whole crowds sign up from 127.0.0.1 in these tests; the hostile tests set real limits.
            Map.entry("boxoffice.accounts.rate-limits.per-prefix.burst", 1000000),
            Map.entry("boxoffice.accounts.rate-limits.per-email.burst", 1000),
            Map.entry("boxoffice.accounts.rate-limits.per-email-network.burst", 1000),
            Map.entry("boxoffice.accounts.rate-limits.known-network.burst", 1000),
            // ... and shop, open sales too, each fan faster than a person would: these tests are
            // not about the shop's limits. The tests that are set them (the shipped ones or their own).
            Map.entry("boxoffice.bots.rate-limits.per-account.burst", 1000000),
            Map.entry("boxoffice.bots.rate-limits.per-account.per-second", 1000000),
            Map.entry("boxoffice.bots.rate-limits.per-prefix.burst", 1000000),
            Map.entry("boxoffice.bots.rate-limits.per-prefix.per-second", 1000000)))
        .withFallback(ConfigFactory.load());
  }

  public static Node postgres(Clock clock, PaymentSimulator payments) throws Exception {
    return postgres(clock, payments, ConfigFactory.empty());
  }

  public static Node postgres(Clock clock, PaymentSimulator payments, Config overrides) throws Exception {
    return Node.start(overrides.withFallback(config(PG_URL, "target/unused")), new Node.Options(clock, payments));
  }

  /** A signed-in fan's {@code bo_id} value for {@code accountId}, as a node of {@link #config} issues it (no sign-up asked). */
  public static String identityOf(String accountId, Clock clock) {
    return new io.boxoffice.edge.IdentityToken(io.boxoffice.common.Hmac.fromBase64OrRandom(KEY), clock, Duration.ofHours(1))
        .issue(accountId);
  }

  public static PaymentSimulator payments() {
    return new PaymentSimulator(Duration.ofMillis(300), 0.0);
  }
}
