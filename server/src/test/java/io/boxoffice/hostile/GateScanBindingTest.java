package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A gate admits to its own event only: another event's barcode is 409 wrong_event and stays unused
 * (finding 15), and a scan must name its event (issue 31, finding 14).
 */
class GateScanBindingTest {
  static Node node;
  static Sales sales;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  static HttpFan.Reply scan(String body) {
    return new HttpFan(node.httpPort()).send("POST", "/gate/scan", body, "Authorization", "Bearer " + TestNode.GATE_TOKEN);
  }

  static String body(String barcode, String eventId) {
    return "{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + eventId + "\"}";
  }

  @Test
  void aTicketOfAnotherEventIsRefusedAndNotBurned() {
    String venue = sales.venue();
    String a = sales.openEvent(venue);
    String b = sales.openEvent(venue);
    String barcode = Sales.buyTwo(sales.fan(), a).get(0);

    HttpFan.Reply wrong = scan(body(barcode, b));
    assertEquals(409, wrong.status(), wrong.body());
    assertEquals("wrong_event", wrong.json().get("result").asText());
    HttpFan.Reply unknown = scan(body(barcode, "no-such-event"));
    assertEquals(409, unknown.status(), unknown.body());
    assertEquals("wrong_event", unknown.json().get("result").asText());

    HttpFan.Reply admit = scan(body(barcode, a));
    assertEquals(200, admit.status(), admit.body());
    assertEquals("admit", admit.json().get("result").asText(), "the wrong gate did not burn it");
    assertEquals(a, admit.json().get("eventId").asText());
    HttpFan.Reply again = scan(body(barcode, a));
    assertEquals(409, again.status());
    assertEquals("already_scanned", again.json().get("result").asText());
  }

  @Test
  void aScanWithoutEventIdIsRefusedAndBurnsNothing() {
    String a = sales.openEvent(sales.venue());
    String barcode = Sales.buyTwo(sales.fan(), a).get(1);
    HttpFan.Reply refused = scan("{\"barcode\":\"" + barcode + "\"}");
    assertEquals(400, refused.status(), refused.body());
    assertEquals("invalid", refused.json().get("result").asText(), "a scanner reading result does not admit");
    assertEquals("bad_request", refused.error());
    HttpFan.Reply admit = scan(body(barcode, a));
    assertEquals(200, admit.status(), "the refused scan did not burn the ticket: " + admit.body());
  }

  @Test
  void badInputIsA4xxWithAJsonBodyAndChangesNothing() {
    String a = sales.openEvent(sales.venue());
    String barcode = Sales.buyTwo(sales.fan(), a).get(0);
    List<String> hostile = List.of(
        body(barcode, "../" + a),
        body(barcode, a + "\\u0000"),
        body(barcode, "x".repeat(65)),
        body(barcode, ""),
        "{\"barcode\":\"" + barcode + "\",\"eventId\":{\"$ne\":1}}",
        "{\"barcode\":\"" + barcode + "\",\"eventId\":[\"" + a + "\"]}",
        "{\"barcode\":null,\"eventId\":\"" + a + "\"}",
        "{\"eventId\":\"" + a + "\"}",
        "{\"barcode\":\"" + "A".repeat(100_000) + "\",\"eventId\":\"" + a + "\"}",
        "{\"barcode\":[1,2],\"eventId\":\"" + a + "\"}",
        "{\"barcode\":\"" + barcode + "\"",
        "[]",
        "null",
        "");
    for (String body : hostile) {
      HttpFan.Reply r = scan(body);
      String what = body.length() > 80 ? body.substring(0, 80) + "..." : body;
      assertTrue(r.status() >= 400 && r.status() < 500, what + " -> " + r.status() + " " + r.body());
      assertFalse(r.json().path("error").asText().isEmpty(), what + ": a JSON error body, got " + r.body());
    }
    HttpFan.Reply anonymous = new HttpFan(node.httpPort()).send("POST", "/gate/scan", body(barcode, a));
    assertEquals(401, anonymous.status());
    assertEquals("unauthenticated", anonymous.error());
    HttpFan.Reply wrongToken = new HttpFan(node.httpPort()).send("POST", "/gate/scan", body(barcode, a),
        "Authorization", "Bearer " + TestNode.ADMIN_TOKEN);
    assertEquals(403, wrongToken.status());
    assertEquals("forbidden", wrongToken.error());

    HttpFan.Reply admit = scan(body(barcode, a));
    assertEquals(200, admit.status(), "none of the refused scans burned the ticket: " + admit.body());
  }
}
