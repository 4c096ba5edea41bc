package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The database settings a node derives: the inventory's own pool on the same database with the
 * same login, and the PostgreSQL driver's timeouts on every connection's URL, the operator's own
 * URL parameters winning, none of them on H2 (which refuses settings it does not know).
 */
class DatabaseSettingsTest {
  static Config resolve(String url, String user) {
    return NodeConfig.resolve(ConfigFactory.parseMap(Map.of("boxoffice.db.url", url, NodeConfig.DB + ".db.user", user))
        .withFallback(ConfigFactory.load()));
  }

  @Test
  void theInventoryHasItsOwnPoolOnTheSameDatabaseWithTheSameLogin() {
    Config c = resolve("jdbc:postgresql://db:5432/boxoffice", "boxoffice_app");
    assertEquals(c.getString(NodeConfig.DB + ".db.url"), c.getString(NodeConfig.INVENTORY_DB + ".db.url"));
    assertEquals("boxoffice_app", c.getString(NodeConfig.INVENTORY_DB + ".db.user"));
    assertEquals("org.postgresql.Driver", c.getString(NodeConfig.INVENTORY_DB + ".db.driver"));
    assertEquals("slick.jdbc.PostgresProfile$", c.getString(NodeConfig.INVENTORY_DB + ".profile"));
    assertEquals("inventory", c.getString(NodeConfig.INVENTORY_DB + ".db.poolName"));
    assertEquals("inventory", c.getString("inventory-journal.use-shared-db"));
    assertEquals("inventory", c.getString("inventory-snapshot-store.use-shared-db"));
    assertEquals("boxoffice", c.getString("jdbc-journal.use-shared-db"));
    assertEquals("inventory-journal", c.getString("boxoffice.inventory.journal-plugin"));
  }

  @Test
  void everyPostgresConnectionHasTimeoutsAndTheOperatorsUrlWins() {
    String url = resolve("jdbc:postgresql://db:5432/boxoffice", "u").getString(NodeConfig.DB + ".db.url");
    for (String p : new String[] {"socketTimeout=10", "connectTimeout=3", "loginTimeout=5", "tcpKeepAlive=true",
        "options=-c%20statement_timeout%3D8000%20-c%20idle_in_transaction_session_timeout%3D60000"}) {
      assertTrue(url.contains(p), p + " in " + url);
    }
    String tuned = resolve("jdbc:postgresql://db:5432/boxoffice?sslmode=verify-full&socketTimeout=30", "u")
        .getString(NodeConfig.DB + ".db.url");
    assertTrue(tuned.startsWith("jdbc:postgresql://db:5432/boxoffice?sslmode=verify-full&socketTimeout=30&"), tuned);
    assertFalse(tuned.contains("socketTimeout=10"), tuned);
    String h2 = resolve("", "").getString(NodeConfig.DB + ".db.url");
    assertFalse(h2.contains("socketTimeout"), h2);
  }

  @Test
  void theServerAppliesTheStatementTimeout() throws Exception {
    String url = resolve(io.boxoffice.support.TestNode.PG_URL, "postgres").getString(NodeConfig.DB + ".db.url");
    try (Connection c = DriverManager.getConnection(url, "postgres", "");
         Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SHOW statement_timeout")) {
      rs.next();
      assertEquals("8s", rs.getString(1));
    }
  }
}
