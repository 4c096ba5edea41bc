package io.boxoffice.replay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import io.boxoffice.app.Node;
import io.boxoffice.app.NodeConfig;
import io.boxoffice.app.Schema;
import io.boxoffice.support.TestNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The read side on the journal that main wrote on 2026-11-30, before projections and slices:
 * a node of this build reads every event of the old tags into its tables, the carts' under
 * the legacy {@code checkout} tag included, and stores offsets at their last events.
 */
class StoredJournalReadSideTest {
  private Node node;

  @AfterEach
  void stop() {
    if (node != null) node.stop();
  }

  @Test
  void theProjectionsReadTheOldTagsOfAStoredJournalToTheirEnd() throws Exception {
    Path dir = Files.createTempDirectory("journal-read-side");
    Config config = TestNode.config("", dir.toString());
    Config db = NodeConfig.resolve(config).getConfig(NodeConfig.DB + ".db");
    Schema.ensure(NodeConfig.resolve(config));
    Map<String, Long> lastByTag = new HashMap<>();
    Set<String> tagged = new HashSet<>();
    try (Connection c = DriverManager.getConnection(db.getString("url"), db.getString("user"), db.getString("password"))) {
      JournalRows.load(c, StoredJournalReplayTest.FIXTURE);
      try (Statement st = c.createStatement();
           ResultSet rs = st.executeQuery("SELECT t.\"tag\", t.\"event_id\", j.\"persistence_id\" FROM \"event_tag\" t"
               + " JOIN \"event_journal\" j ON j.\"ordering\" = t.\"event_id\"")) {
        while (rs.next()) {
          lastByTag.merge(rs.getString(1), rs.getLong(2), Math::max);
          String pid = rs.getString(3);
          if (!rs.getString(1).equals("checkout")) tagged.add(rs.getString(1) + ":" + pid.substring(pid.indexOf('|') + 1));
        }
      }
    }
    assertTrue(lastByTag.containsKey("checkout") && lastByTag.containsKey("event") && lastByTag.containsKey("onsale"),
        "the fixture has events under every old tag: " + lastByTag.keySet());

    node = Node.start(config, new Node.Options(Clock.systemUTC(), TestNode.payments()));
    try (Connection c = DriverManager.getConnection(db.getString("url"), db.getString("user"), db.getString("password"))) {
      await("each old tag's projection reaches its last event").atMost(Duration.ofSeconds(45)).untilAsserted(() -> assertEquals(
          Map.of("checkout-recovery/checkout", lastByTag.get("checkout"), "onsale-catalogue/event", lastByTag.get("event"),
              "onsale-catalogue/onsale", lastByTag.get("onsale"), "admin-directory/event", lastByTag.get("event")),
          offsets(c)));
      assertEquals(tagged, catalogue(c), "every event and every schedule of the stored journal is in the catalogue");
      Set<String> defined = new HashSet<>();
      for (String row : tagged) if (row.startsWith("event:")) defined.add(row.substring("event:".length()));
      assertEquals(defined, directory(c), "every event of the stored journal is in the managers' directory");
      assertEquals(Set.of(), open(c), "the recorded checkouts all finished: none is pending");
    }
  }

  /** The stored offsets of the old tags' projections, by name/key. */
  private static Map<String, Long> offsets(Connection c) throws Exception {
    Map<String, Long> offsets = new HashMap<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT \"projection_name\", \"projection_key\", \"current_offset\" FROM \"pekko_projection_offset_store\""
            + " WHERE \"projection_key\" IN ('checkout', 'event', 'onsale')")) {
      while (rs.next()) offsets.put(rs.getString(1) + "/" + rs.getString(2), Long.parseLong(rs.getString(3)));
    }
    return offsets;
  }

  private static Set<String> catalogue(Connection c) throws Exception {
    Set<String> rows = new HashSet<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT tag, event_id FROM onsale_catalogue")) {
      while (rs.next()) rows.add(rs.getString(1) + ":" + rs.getString(2));
    }
    return rows;
  }

  private static Set<String> directory(Connection c) throws Exception {
    Set<String> rows = new HashSet<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT event_id FROM event_directory")) {
      while (rs.next()) rows.add(rs.getString(1));
    }
    return rows;
  }

  private static Set<String> open(Connection c) throws Exception {
    Set<String> orders = new HashSet<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT order_id FROM checkout_pending")) {
      while (rs.next()) orders.add(rs.getString(1));
    }
    return orders;
  }
}
