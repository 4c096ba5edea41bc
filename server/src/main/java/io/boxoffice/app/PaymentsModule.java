package io.boxoffice.app;

import com.typesafe.config.Config;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.boxoffice.payment.JdbcLedger;
import io.boxoffice.payment.PaymentSimulator;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;

/** The built-in payment simulator, its ledger in the database unless configured in memory. */
final class PaymentsModule {
  private PaymentsModule() {}

  /** {@code boxoffice.payments}: the simulator's behaviour and its ledger's own connection pool. */
  record Settings(boolean inMemory, Duration slowDelay, double failureRate, int poolSize, Duration connectionTimeout) {
    static Settings fromConfig(Config config) {
      Config p = config.getConfig("boxoffice.payments");
      return new Settings(p.getString("ledger").equals("memory"), p.getDuration("slow-delay"), p.getDouble("failure-rate"),
          p.getInt("pool-size"), p.getDuration("connection-timeout"));
    }
  }

  static PaymentSimulator simulator(ActorSystem<Void> system, Config config) {
    Settings s = Settings.fromConfig(config);
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
