package io.boxoffice.replay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.boxoffice.app.Node;
import io.boxoffice.app.NodeConfig;
import io.boxoffice.app.Schema;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Stored data stays readable: a node of this build starts on the journal that main wrote on
 * 2026-11-30 ({@link RecordJournalFixture}) and shows what it recorded: the events and their
 * states, the sale, the tickets (one scanned), the account's password, the lobby place. A
 * persisted class that is renamed, moved or changed incompatibly fails here, before a
 * production node fails to recover its events.
 */
class StoredJournalReplayTest {
  static final Path FIXTURE = Path.of("server/src/test/resources/journal/main-2026-11-30.jsonl");

  private Node node;

  @AfterEach
  void stop() {
    if (node != null) node.stop();
  }

  @Test
  void aNodeOfThisBuildReadsTheJournalThatMainWroteOn20261130() throws Exception {
    JsonNode facts = JournalRows.facts(FIXTURE);
    Path dir = Files.createTempDirectory("journal-replay");
    Config config = TestNode.config("", dir.toString());
    Config db = NodeConfig.resolve(config).getConfig(NodeConfig.DB + ".db");
    Schema.ensure(NodeConfig.resolve(config));
    try (Connection c = DriverManager.getConnection(db.getString("url"), db.getString("user"), db.getString("password"))) {
      assertTrue(JournalRows.load(c, FIXTURE) > 50, "the fixture's rows are loaded");
    }
    node = Node.start(config, new Node.Options(Clock.systemUTC(), TestNode.payments()));
    HttpFan admin = new HttpFan(node.httpPort());

    // The rooms: the scheduled one runs again (on-sale tag), the others answer when asked.
    await("the node runs the recorded on-sale again").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertEquals("waiting", states(admin.admin("GET", "/admin/events", null).json()).get("replay-onsale")));
    assertEquals("open", admin.admin("GET", "/admin/events/replay-open/stats", null).json().get("state").asText());
    assertEquals("closed", admin.admin("GET", "/admin/events/replay-closed/stats", null).json().get("state").asText());

    // The inventories, from their snapshots and batches: the same sales and orders.
    for (String event : new String[] {"replay-open", "replay-onsale"}) {
      JsonNode recorded = facts.get("stats").get(event);
      JsonNode now = admin.admin("GET", "/admin/events/" + event + "/stats", null).json();
      assertEquals(recorded.get("seats").get("sold").asInt(), now.get("seats").get("sold").asInt(), event + " sold");
      assertEquals(recorded.get("orders").asInt(), now.get("orders").asInt(), event + " orders");
      assertEquals(30, now.get("seats").get("sold").asInt() + now.get("seats").get("held").asInt()
          + now.get("seats").get("available").asInt(), event + ": every seat is in exactly one state");
    }
    assertEquals(2, facts.get("stats").get("replay-open").get("seats").get("sold").asInt());
    assertEquals(2, facts.get("stats").get("replay-onsale").get("lobby").asInt());
    assertEquals(2, admin.admin("GET", "/admin/events/replay-onsale/stats", null).json().get("lobby").asInt(),
        "the lobby counts the accounts that joined");

    // The account: its password still signs in, to the same account id.
    HttpFan buyer = signIn(facts.get("buyerEmail").asText(), facts.get("password").asText(), facts.get("buyerAccount").asText());

    // The cart's order and the wallet's tickets.
    HttpFan.Reply order = buyer.send("GET", "/api/orders/" + facts.get("orderId").asText(), null);
    assertEquals(200, order.status(), order.body());
    assertEquals(2, order.json().get("tickets").size(), order.body());
    HttpFan.Reply tickets = buyer.send("GET", "/api/me/tickets", null);
    assertEquals(2, tickets.json().get("tickets").size(), tickets.body());

    // The gate: the scanned ticket stays scanned, the other admits once.
    HttpFan.Reply again = scan(admin, facts.get("scannedBarcode").asText());
    assertEquals(409, again.status(), again.body());
    assertEquals("already_scanned", again.json().get("result").asText());
    assertEquals(200, scan(admin, facts.get("unscannedBarcode").asText()).status());

    // The lobby fan's place: joining again (the recorded token has long expired) gives it back.
    HttpFan lobby = signIn("replay-lobby@example.com", facts.get("password").asText(), facts.get("lobbyAccount").asText());
    HttpFan.Reply joined = lobby.send("POST", "/api/events/replay-onsale/queue", "{}");
    assertEquals(200, joined.status(), joined.body());
    assertEquals(facts.get("lobbyPosition").asLong(), joined.json().get("position").asLong(), joined.body());
  }

  /** Signs in with the recorded password; the session is the recorded account's. */
  private HttpFan signIn(String email, String password, String account) {
    HttpFan fan = new HttpFan(node.httpPort());
    HttpFan.Reply session = fan.send("POST", "/api/session", "{\"email\":\"" + email + "\",\"password\":\"" + password + "\"}");
    assertEquals(200, session.status(), email + ": " + session.body());
    assertEquals(account, session.json().get("accountId").asText(), email);
    String setCookie = session.headers().firstValue("Set-Cookie").orElseThrow();
    return fan.withCookie(setCookie.substring("bo_id=".length(), setCookie.indexOf(';')));
  }

  private static HttpFan.Reply scan(HttpFan admin, String barcode) {
    return admin.send("POST", "/gate/scan", "{\"barcode\":\"" + barcode + "\",\"eventId\":\"replay-open\"}",
        "Authorization", "Bearer " + TestNode.GATE_TOKEN);
  }

  private static Map<String, String> states(JsonNode list) {
    Map<String, String> states = new HashMap<>();
    for (JsonNode e : list.get("events")) {
      if (e.get("eventId").asText().startsWith("replay-")) states.put(e.get("eventId").asText(), e.get("state").asText());
    }
    return states;
  }
}
