package io.boxoffice.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.boxoffice.app.NodeConfig;
import io.boxoffice.app.Schema;
import io.boxoffice.support.TestNode;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulator's ledger in PostgreSQL: one answer per key across simulators (nodes) and restarts. */
class JdbcLedgerTest {
  static HikariDataSource db;

  @BeforeAll
  static void connect() {
    Schema.ensure(NodeConfig.resolve(TestNode.config(TestNode.PG_URL, "target/unused")));
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(TestNode.PG_URL);
    c.setUsername("postgres");
    c.setMaximumPoolSize(2);
    db = new HikariDataSource(c);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void twoNodesShareOneAnswerPerKeyAndEachStepHappensOnce() {
    PaymentSimulator a = new PaymentSimulator(Duration.ZERO, 0, new JdbcLedger(db), Runnable::run);
    PaymentSimulator b = new PaymentSimulator(Duration.ZERO, 0, new JdbcLedger(db), Runnable::run);
    String key = "order-" + UUID.randomUUID() + ":authorize";
    var first = (PaymentGateway.Authorized) a.authorize(key, "tok_visa", 5000).toCompletableFuture().join();
    var again = (PaymentGateway.Authorized) b.authorize(key, "tok_visa", 5000).toCompletableFuture().join();
    assertEquals(first.authorizationId(), again.authorizationId(), "a retry on another node gets the same authorization");
    b.capture("c", first.authorizationId(), 5000).toCompletableFuture().join();
    a.voidAuthorization("v", null, key).toCompletableFuture().join();
    assertEquals(PaymentSimulator.Status.CAPTURED, a.ledger().get(first.authorizationId()).status(), "a void after a capture changes nothing");

    String declinedKey = "order-" + UUID.randomUUID() + ":authorize";
    assertInstanceOf(PaymentGateway.Declined.class, a.authorize(declinedKey, "tok_declined", 10).toCompletableFuture().join());
    assertInstanceOf(PaymentGateway.Declined.class, b.authorize(declinedKey, "tok_visa", 10).toCompletableFuture().join(),
        "the first answer to a key stands");
    assertNull(new JdbcLedger(db).byKey("never-asked"));
  }
}
