package io.boxoffice.replay;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.app.NodeConfig;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Records the journal fixture that {@link StoredJournalReplayTest} replays: a short life of a
 * node on H2 through the real HTTP API (a venue; an open sale with a sale, a scanned ticket, a
 * released hold and a declined payment; an on-sale with a lobby, a draw, an admitted sale and a
 * fan who left; a closed event), then every journal, tag and snapshot row as JSON lines.
 *
 * <p>Run it only when the stored format changes on purpose (and keep the old fixture: it is
 * what nodes in production have on disk):
 * <pre>
 * mvn -B -q -pl server test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/server.cp -Dmdep.includeScope=test
 * java -cp "server/target/test-classes:server/target/classes:$(cat /tmp/server.cp)" \
 *   io.boxoffice.replay.RecordJournalFixture server/src/test/resources/journal/&lt;date&gt;.jsonl
 * </pre>
 * and give {@link StoredJournalReplayTest} a test for the new file beside the old one.
 */
public final class RecordJournalFixture {
  static final String PASSWORD = "correct horse battery";

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args.length > 0 ? args[0] : "journal-fixture.jsonl");
    Path dir = Files.createTempDirectory("journal-fixture");
    // Snapshots every other batch, so the fixture holds snapshots of the inventory too.
    Config config = ConfigFactory.parseMap(Map.of("boxoffice.inventory.snapshot-every-batches", 2))
        .withFallback(TestNode.config("", dir.toString()));
    ObjectNode facts = JournalRows.JSON.createObjectNode();
    facts.put("recordedAt", Instant.now().toString());
    facts.put("password", PASSWORD);
    Node node = Node.start(config, new Node.Options(Clock.systemUTC(), TestNode.payments()));
    try {
      int port = node.httpPort();
      HttpFan admin = new HttpFan(port);
      expect(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"hall\",\"name\":\"Hall\",\"sections\":["
          + "{\"sectionId\":\"A\",\"zone\":\"floor\",\"rows\":[{\"rowId\":\"1\",\"seats\":10},{\"rowId\":\"2\",\"seats\":10}]},"
          + "{\"sectionId\":\"B\",\"zone\":\"upper\",\"rows\":[{\"rowId\":\"1\",\"seats\":10}]}]}"));

      // An open sale: a sale with a scanned ticket, a released hold, a declined payment (seats stay held).
      expect(201, admin.admin("POST", "/admin/events", "{\"eventId\":\"replay-open\",\"venueId\":\"hall\",\"name\":\"Open\","
          + "\"prices\":{\"floor\":5000,\"upper\":2000}}"));
      expect(200, admin.admin("POST", "/admin/events/replay-open/open", null));
      HttpFan buyer = new HttpFan(port);
      facts.put("buyerAccount", buyer.signUp("replay-buyer@example.com"));
      facts.put("buyerEmail", "replay-buyer@example.com");
      expect(200, buyer.send("POST", "/api/events/replay-open/cart/holds", "{\"best\":{\"quantity\":2,\"zone\":\"floor\"}}"));
      HttpFan.Reply order = expect(200, buyer.send("POST", "/api/events/replay-open/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
          "Idempotency-Key", "replay-1"));
      facts.put("orderId", order.json().get("orderId").asText());
      facts.put("scannedBarcode", order.json().get("tickets").get(0).get("barcode").asText());
      facts.put("unscannedBarcode", order.json().get("tickets").get(1).get("barcode").asText());
      expect(200, admin.send("POST", "/gate/scan", "{\"barcode\":\"" + facts.get("scannedBarcode").asText()
          + "\",\"eventId\":\"replay-open\"}", "Authorization", "Bearer " + TestNode.GATE_TOKEN));
      HttpFan releaser = new HttpFan(port);
      releaser.signUp("replay-releaser@example.com");
      expect(200, releaser.send("POST", "/api/events/replay-open/cart/holds", "{\"seats\":[\"B-1-1\"]}"));
      expect(204, releaser.send("DELETE", "/api/events/replay-open/cart/holds/B-1-1", null));
      HttpFan declined = new HttpFan(port);
      declined.signUp("replay-declined@example.com");
      expect(200, declined.send("POST", "/api/events/replay-open/cart/holds", "{\"best\":{\"quantity\":2,\"zone\":\"upper\"}}"));
      expect(402, declined.send("POST", "/api/events/replay-open/cart/checkout", "{\"paymentToken\":\"tok_decline\"}",
          "Idempotency-Key", "replay-2"));

      // An on-sale: two fans in the lobby, the draw, one admitted fan buys, the other leaves.
      Instant start = Instant.now().plusSeconds(3);
      expect(201, admin.admin("POST", "/admin/events", "{\"eventId\":\"replay-onsale\",\"venueId\":\"hall\",\"name\":\"On sale\","
          + "\"prices\":{\"floor\":5000,\"upper\":2000},\"onsale\":{\"lobbyOpensAt\":\"" + Instant.now().minusSeconds(1)
          + "\",\"startsAt\":\"" + start + "\",\"admissionPerMinute\":600,\"maxActiveShoppers\":100}}"));
      HttpFan first = new HttpFan(port);
      facts.put("lobbyAccount", first.signUp("replay-lobby@example.com"));
      HttpFan leaver = new HttpFan(port);
      leaver.signUp("replay-leaver@example.com");
      for (HttpFan fan : new HttpFan[] {first, leaver}) {
        HttpFan.Reply joined = expect(200, fan.send("POST", "/api/events/replay-onsale/queue", "{}"));
        String cookie = joined.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_replay-onsale="))
            .findFirst().orElseThrow();
        fan.withQueueCookie("replay-onsale", cookie.substring("bo_q_replay-onsale=".length(), cookie.indexOf(';')));
      }
      await("both lobby fans are admitted after the draw").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
          .until(() -> first.send("GET", "/api/events/replay-onsale/queue/status", null).json().path("state").asText().equals("admitted")
              && leaver.send("GET", "/api/events/replay-onsale/queue/status", null).json().path("state").asText().equals("admitted"));
      facts.put("lobbyPosition", first.send("GET", "/api/events/replay-onsale/queue/status", null).json().get("position").asLong());
      facts.put("leaverPosition", leaver.send("GET", "/api/events/replay-onsale/queue/status", null).json().get("position").asLong());
      expect(200, first.send("POST", "/api/events/replay-onsale/cart/holds", "{\"best\":{\"quantity\":1}}"));
      expect(200, first.send("POST", "/api/events/replay-onsale/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
          "Idempotency-Key", "replay-3"));
      expect(204, leaver.send("DELETE", "/api/events/replay-onsale/queue", null));

      // A closed event.
      expect(201, admin.admin("POST", "/admin/events", "{\"eventId\":\"replay-closed\",\"venueId\":\"hall\",\"name\":\"Closed\","
          + "\"prices\":{\"floor\":5000,\"upper\":2000}}"));

      facts.set("stats", JournalRows.JSON.createObjectNode()
          .<ObjectNode>set("replay-open", admin.admin("GET", "/admin/events/replay-open/stats", null).json())
          .set("replay-onsale", admin.admin("GET", "/admin/events/replay-onsale/stats", null).json()));
    } finally {
      node.stop();
    }
    Config db = NodeConfig.resolve(config).getConfig(NodeConfig.DB + ".db");
    try (Connection c = DriverManager.getConnection(db.getString("url"), db.getString("user"), db.getString("password"))) {
      JournalRows.dump(c, facts, out);
    }
    System.out.println("wrote " + out + " (" + Files.size(out) + " bytes)");
  }

  private static HttpFan.Reply expect(int status, HttpFan.Reply reply) {
    if (reply.status() != status) throw new AssertionError("expected " + status + ": " + reply.status() + " " + reply.body());
    return reply;
  }
}
