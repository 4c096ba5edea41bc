package io.boxoffice.app;

import com.typesafe.config.Config;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.boxoffice.payment.JdbcLedger;
import io.boxoffice.payment.PaymentGateway;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.payment.StripeGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;

/**
 * The card processor the configuration names: Stripe, or the built-in simulator (its ledger in
 * the database unless configured in memory), which a production node refuses.
 */
final class PaymentsModule {
  private PaymentsModule() {}

  /** Which processor. */
  enum Provider { SIMULATOR, STRIPE }

  /** {@code boxoffice.payments.stripe}: the adapter's settings and the webhook's signing secret. */
  record StripeSettings(StripeGateway.Settings gateway, String webhookSecret, Duration webhookTolerance) {
    static StripeSettings fromConfig(Config config) {
      Config s = config.getConfig("boxoffice.payments.stripe");
      return new StripeSettings(new StripeGateway.Settings(s.getString("api-base"), s.getString("secret-key").trim(),
          s.getString("currency").toLowerCase(Locale.ROOT), s.getDuration("connect-timeout"), s.getDuration("read-timeout"),
          s.getString("statement-descriptor-suffix")), s.getString("webhook-secret").trim(), s.getDuration("webhook-tolerance"));
    }
  }

  /** {@code boxoffice.payments}: the processor, the simulator's behaviour and its ledger's own connection pool. */
  record Settings(Provider provider, boolean production, boolean allowSimulatorInProduction, StripeSettings stripe,
                  boolean inMemory, Duration slowDelay, double failureRate, int poolSize, Duration connectionTimeout) {
    static Settings fromConfig(Config config) {
      Config p = config.getConfig("boxoffice.payments");
      String provider = p.getString("provider").trim().toUpperCase(Locale.ROOT);
      Provider chosen;
      try {
        chosen = Provider.valueOf(provider);
      } catch (IllegalArgumentException e) {
        throw new NodeSecrets.Refused("boxoffice refuses to start: boxoffice.payments.provider (BOXOFFICE_PAYMENTS_PROVIDER) is '"
            + p.getString("provider") + "'; it must be stripe or simulator");
      }
      return new Settings(chosen, PaymentsModule.production(config), p.getBoolean("allow-simulator-in-production"),
          StripeSettings.fromConfig(config), p.getString("ledger").equals("memory"), p.getDuration("slow-delay"),
          p.getDouble("failure-rate"), p.getInt("pool-size"), p.getDuration("connection-timeout"));
    }

    /**
     * {@link NodeSecrets.Refused} when this node must not start with these payments: the simulator
     * in production without the drill flag, or Stripe without its keys (missing, placeholders,
     * not Stripe's formats).
     */
    Settings checked() {
      if (provider == Provider.SIMULATOR && production && !allowSimulatorInProduction) {
        throw new NodeSecrets.Refused("boxoffice refuses to start: this node runs in production (boxoffice.profile = production "
            + "or Kubernetes discovery) with the payment simulator, whose tok_visa sells real tickets unpaid. Set "
            + "BOXOFFICE_PAYMENTS_PROVIDER=stripe with BOXOFFICE_STRIPE_SECRET_KEY and BOXOFFICE_STRIPE_WEBHOOK_SECRET, or, "
            + "for a drill only, BOXOFFICE_ALLOW_SIMULATOR_IN_PRODUCTION=on");
      }
      if (provider != Provider.STRIPE) return this;
      List<String> problems = new ArrayList<>();
      problems.add(problem("BOXOFFICE_STRIPE_SECRET_KEY", stripe.gateway().secretKey(), "sk_", "rk_"));
      problems.add(problem("BOXOFFICE_STRIPE_WEBHOOK_SECRET", stripe.webhookSecret(), "whsec_"));
      if (!stripe.gateway().currency().matches("[a-z]{3}")) {
        problems.add("boxoffice.payments.stripe.currency is not a three-letter ISO 4217 code");
      }
      problems.removeIf(java.util.Objects::isNull);
      if (!problems.isEmpty()) {
        throw new NodeSecrets.Refused("boxoffice refuses to start with payments.provider = stripe: " + String.join("; ", problems)
            + ". Both come from the Stripe dashboard (Developers: API keys; Webhooks: the endpoint's signing secret).");
      }
      return this;
    }

    private static String problem(String variable, String value, String... prefixes) {
      if (value.isEmpty()) return variable + " is not set";
      String lower = value.toLowerCase(Locale.ROOT);
      for (String p : NodeSecrets.PLACEHOLDERS) {
        if (lower.contains(p)) return variable + " is a placeholder (" + p.toUpperCase(Locale.ROOT) + "), not a secret";
      }
      for (String prefix : prefixes) {
        if (value.startsWith(prefix)) return null;
      }
      return variable + " does not start with " + String.join(" or ", prefixes) + " as Stripe's do";
    }
  }

  /** A node in production: told so ({@code boxoffice.profile = production}), or joining through Kubernetes discovery. */
  static boolean production(Config config) {
    return config.getString("boxoffice.profile").trim().equalsIgnoreCase("production")
        || config.getString("boxoffice.discovery").equals("kubernetes");
  }

  /** The configured processor; its blocking calls run on their own dispatcher. */
  static PaymentGateway gateway(ActorSystem<Void> system, Config config) {
    Settings s = Settings.fromConfig(config).checked();
    if (s.provider() == Provider.STRIPE) {
      Executor blocking = system.dispatchers().lookup(DispatcherSelector.fromConfig("boxoffice.stripe-dispatcher"));
      return new StripeGateway(s.stripe().gateway(), blocking);
    }
    return simulator(system, config, s);
  }

  private static PaymentSimulator simulator(ActorSystem<Void> system, Config config, Settings s) {
    if (s.inMemory()) return new PaymentSimulator(s.slowDelay(), s.failureRate());
    Config db = config.getConfig(NodeConfig.DB + ".db");
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(db.getString("url"));
    hikari.setUsername(db.getString("user"));
    hikari.setPassword(db.getString("password"));
    hikari.setMaximumPoolSize(s.poolSize());
    hikari.setConnectionTimeout(s.connectionTimeout().toMillis());
    hikari.setPoolName("payment-simulator");
    hikari.setRegisterMbeans(true);
    HikariDataSource source = new HikariDataSource(hikari);
    system.getWhenTerminated().thenRun(source::close);
    Executor blocking = system.dispatchers().lookup(DispatcherSelector.fromConfig("boxoffice.payment-dispatcher"));
    return new PaymentSimulator(s.slowDelay(), s.failureRate(), new JdbcLedger(source), blocking);
  }
}
