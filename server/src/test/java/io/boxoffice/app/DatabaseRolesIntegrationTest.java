package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.ScratchDatabase;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Production's division of rights on PostgreSQL (schema/roles.sql, run by psql as it is
 * documented): the owner migrates, a node logs in as the app role with DML only, only validates
 * the schema at start, and sells; the app role can neither create nor drop nor truncate a table.
 */
class DatabaseRolesIntegrationTest {
  @Test
  void theOwnerMigratesAndANodeRunsAsAnAppRoleThatCannotChangeTables() throws Exception {
    String id = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String owner = "bo_owner_" + id;
    String app = "bo_app_" + id;
    try (ScratchDatabase db = ScratchDatabase.create(ScratchDatabase.Kind.POSTGRES)) {
      try {
        psqlRoles(db.name(), owner, app);
        Config asOwner = as(owner, db.config());
        assertEquals(SchemaMigrationTest.MIGRATIONS, Schema.migrate(asOwner).migrationsExecuted);

        Config nodeConfig = as(app, ConfigFactory.parseString(Schema.AT_START + " = validate")
            .withFallback(TestNode.config(db.url(), db.dir().toString())));
        Node node = Node.start(nodeConfig, new Node.Options(Clock.systemUTC(), TestNode.payments()));
        try {
          String eventId = "roles-" + id;
          TestCluster.createEvent(new HttpFan(node.httpPort()), "rolesv-" + id, 200, eventId, "");
          HttpFan fan = new HttpFan(node.httpPort());
          fan.signUp("roles-" + id + "@example.com");
          HttpFan.Reply held = fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}");
          assertEquals(200, held.status(), "a node on the app role sells: " + held.body());
          HttpFan.Reply bought = fan.send("POST", "/api/events/" + eventId + "/cart/checkout",
              "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "k-" + id);
          assertEquals(200, bought.status(), "and checks out: " + bought.body());
        } finally {
          node.stop();
        }

        try (Connection c = DriverManager.getConnection(db.url(), app, "");
             Statement st = c.createStatement()) {
          for (String ddl : List.of("CREATE TABLE intruder (x INT)", "DROP TABLE event_journal", "TRUNCATE event_journal",
              "ALTER TABLE event_journal ADD COLUMN x INT", "CREATE SCHEMA intruders")) {
            SQLException refused = assertThrows(SQLException.class, () -> st.execute(ddl), ddl);
            assertEquals("42501", refused.getSQLState(), ddl + ": " + refused.getMessage());
          }
        }
        try (Connection c = DriverManager.getConnection(db.url(), owner, "");
             Statement st = c.createStatement()) {
          st.execute("CREATE TABLE later_migration (x INT)");
        }
        try (Connection c = DriverManager.getConnection(db.url(), app, "");
             Statement st = c.createStatement()) {
          st.execute("INSERT INTO later_migration VALUES (1)");
          assertEquals(1, st.executeUpdate("DELETE FROM later_migration"), "default privileges reach tables the owner adds later");
        }
      } finally {
        db.close();
        try (Connection c = DriverManager.getConnection(TestNode.PG_URL, "postgres", "");
             Statement st = c.createStatement()) {
          st.execute("DROP ROLE IF EXISTS " + app);
          st.execute("DROP ROLE IF EXISTS " + owner);
        }
      }
    }
  }

  static Config as(String role, Config config) {
    return config.withValue(NodeConfig.DB + ".db.user", ConfigValueFactory.fromAnyRef(role));
  }

  /** Runs schema/roles.sql with psql, as the runbook says, against the scratch database. */
  static void psqlRoles(String database, String owner, String app) throws Exception {
    URI pg = URI.create(TestNode.PG_URL.substring("jdbc:".length()));
    Process psql = new ProcessBuilder("psql", "-h", pg.getHost(), "-p", Integer.toString(pg.getPort()), "-U", "postgres",
        "-d", database, "-v", "owner=" + owner, "-v", "app=" + app, "-v", "owner_password=o-" + owner,
        "-v", "app_password=a-" + app, "-f", "schema/roles.sql")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.PIPE).start();
    String output = new String(psql.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(psql.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, psql.exitValue(), "psql -f schema/roles.sql: " + output);
    assertTrue(new File("schema/roles.sql").isFile());
  }
}
