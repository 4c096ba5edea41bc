package io.boxoffice;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.app.Node;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Whole nodes over HTTP on the real PostgreSQL: contention, restarts, expiry, declines and gates. */
class OnSaleIntegrationTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  PaymentSimulator payments;
  Node node;
  String eventId;

  @BeforeEach
  void start() throws Exception {
    payments = TestNode.payments();
    node = TestNode.postgres(clock, payments);
    String id = UUID.randomUUID().toString().substring(0, 8);
    eventId = "ev-" + id;
    HttpFan admin = new HttpFan(node.httpPort());
    String venue = "{\"venueId\":\"v-" + id + "\",\"name\":\"Club\",\"sections\":[{\"sectionId\":\"F1\",\"zone\":\"floor\","
        + "\"rows\":[{\"rowId\":\"A\",\"seats\":10},{\"rowId\":\"B\",\"seats\":10}]}]}";
    assertEquals(201, admin.admin("POST", "/admin/venues", venue).status());
    String event = "{\"eventId\":\"" + eventId + "\",\"venueId\":\"v-" + id + "\",\"name\":\"Show\","
        + "\"prices\":{\"floor\":5000},\"holdSeconds\":480,\"holdJitterSeconds\":90,\"maxSeatsPerAccount\":4}";
    assertEquals(201, admin.admin("POST", "/admin/events", event).status());
    // Events are created closed; these tests shop an open sale.
    io.boxoffice.support.TestCluster.open(admin, eventId);
  }

  @AfterEach
  void stop() {
    if (node != null) node.stop();
  }

  HttpFan fan() {
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("fan-" + UUID.randomUUID() + "@example.com");
    return fan;
  }

  String path(String rest) {
    return "/api/events/" + eventId + rest;
  }

  static String seats(String... ids) {
    return "{\"seats\":[\"" + String.join("\",\"", ids) + "\"]}";
  }

  @Test
  void fiveHundredFansFightingForTenSeatsBuyEachSeatOnce() {
    int fans = 500;
    List<HttpFan> crowd = new ArrayList<>();
    for (int i = 0; i < fans; i++) crowd.add(fan());
    Random rnd = new Random(500);
    List<CompletableFuture<HttpFan.Reply>> checkouts = new ArrayList<>();
    for (HttpFan f : crowd) {
      int a = 1 + rnd.nextInt(10);
      int b = 1 + (a + rnd.nextInt(9)) % 10;
      checkouts.add(f.sendAsync("POST", path("/cart/holds"), seats("F1-A-" + a, "F1-A-" + b)).thenCompose(hold -> {
        if (hold.status() != 200) return CompletableFuture.completedFuture(hold);
        return f.sendAsync("POST", path("/cart/checkout"), "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "k");
      }));
    }
    Map<String, String> seatToOrder = new HashMap<>();
    int orders = 0;
    for (CompletableFuture<HttpFan.Reply> c : checkouts) {
      HttpFan.Reply r = c.join();
      if (r.status() == 409) {
        assertEquals("seats_taken", r.error());
        continue;
      }
      assertEquals(200, r.status(), r.body());
      orders++;
      for (JsonNode t : r.json().get("tickets")) {
        String previous = seatToOrder.put(t.get("seatId").asText(), r.json().get("orderId").asText());
        assertEquals(null, previous, "seat " + t.get("seatId").asText() + " sold twice");
      }
    }
    assertTrue(orders >= 1 && seatToOrder.size() <= 10, "orders " + orders + ", seats " + seatToOrder.size());
    JsonNode stats = new HttpFan(node.httpPort()).admin("GET", "/admin/events/" + eventId + "/stats", null).json();
    assertEquals(seatToOrder.size(), stats.get("seats").get("sold").asInt());
    assertEquals(orders, stats.get("orders").asInt());
    long captured = awaitCaptured(orders);
    assertEquals(orders, captured, "every order captured once, nothing else");
  }

  @Test
  void salesAndTicketsSurviveARestartOfTheWholeNode() throws Exception {
    HttpFan fan = fan();
    assertEquals(200, fan.send("POST", path("/cart/holds"), seats("F1-B-1", "F1-B-2")).status());
    HttpFan.Reply order = fan.send("POST", path("/cart/checkout"), "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "one");
    assertEquals(200, order.status(), order.body());
    String orderId = order.json().get("orderId").asText();
    awaitCaptured(1);

    node.stop();
    node = TestNode.postgres(clock, payments);
    HttpFan same = new HttpFan(node.httpPort()).withCookie(fan.cookie());
    // A restarted node knows the event once its waiting room is heard again.
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
        .until(() -> same.send("GET", path("/queue/manifest"), null).status() == 200);
    HttpFan.Reply again = same.send("GET", "/api/orders/" + orderId, null);
    assertEquals(200, again.status(), again.body());
    assertEquals(order.json().get("tickets"), again.json().get("tickets"));
    JsonNode mine = same.send("GET", "/api/me/tickets", null).json().get("tickets");
    assertEquals(2, mine.size());
    // The retried checkout after the restart answers the same order.
    assertEquals(orderId, same.send("POST", path("/cart/checkout"), "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", "one").json().get("orderId").asText());
    HttpFan other = fan();
    HttpFan.Reply taken = other.send("POST", path("/cart/holds"), seats("F1-B-2"));
    assertEquals(409, taken.status());
    String barcode = order.json().get("tickets").get(0).get("barcode").asText();
    HttpFan gate = new HttpFan(node.httpPort());
    HttpFan.Reply admit = gate.send("POST", "/gate/scan", "{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + eventId + "\"}", "Authorization", "Bearer " + TestNode.GATE_TOKEN);
    assertEquals(200, admit.status(), admit.body());
    assertEquals("admit", admit.json().get("result").asText());
  }

  @Test
  void aHoldThatExpiredCannotBeCheckedOutAndNothingIsCaptured() {
    HttpFan fan = fan();
    HttpFan.Reply hold = fan.send("POST", path("/cart/holds"), seats("F1-A-5"));
    assertEquals(200, hold.status());
    Instant deadline = Instant.parse(hold.json().get("holdExpiresAt").asText());
    assertFalse(deadline.isBefore(clock.instant().plusSeconds(480)));
    assertFalse(deadline.isAfter(clock.instant().plusSeconds(570)));
    clock.advance(Duration.between(clock.instant(), deadline));
    HttpFan.Reply checkout = fan.send("POST", path("/cart/checkout"), "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "x");
    assertEquals(410, checkout.status(), checkout.body());
    assertEquals("hold_expired", checkout.error());
    assertTrue(payments.ledger().values().stream().noneMatch(e -> e.status() == PaymentSimulator.Status.CAPTURED));
    assertEquals(200, fan().send("POST", path("/cart/holds"), seats("F1-A-5")).status(), "the seat is on sale again");
  }

  @Test
  void aDeclinedCardLeavesTheSeatsHeldForTheFan() {
    HttpFan fan = fan();
    assertEquals(200, fan.send("POST", path("/cart/holds"), seats("F1-A-7", "F1-A-8")).status());
    HttpFan.Reply declined = fan.send("POST", path("/cart/checkout"), "{\"paymentToken\":\"tok_declined\"}", "Idempotency-Key", "d1");
    assertEquals(402, declined.status());
    assertEquals("payment_declined", declined.error());
    assertEquals(2, fan.send("GET", path("/cart"), null).json().get("seats").size());
    HttpFan.Reply rival = fan().send("POST", path("/cart/holds"), seats("F1-A-8"));
    assertEquals(409, rival.status());
    assertEquals("F1-A-8", rival.json().get("seats").get(0).asText());
    assertTrue(payments.ledger().isEmpty(), "nothing authorized for a declined card");
  }

  @Test
  void aTicketIsAdmittedOnceAndForgeriesAreInvalid() {
    HttpFan fan = fan();
    assertEquals(200, fan.send("POST", path("/cart/holds"), seats("F1-B-9")).status());
    HttpFan.Reply order = fan.send("POST", path("/cart/checkout"), "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "g");
    String barcode = order.json().get("tickets").get(0).get("barcode").asText();
    HttpFan gate = new HttpFan(node.httpPort());
    String auth = "Bearer " + TestNode.GATE_TOKEN;
    assertEquals(200, gate.send("POST", "/gate/scan", "{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + eventId + "\"}", "Authorization", auth).status());
    HttpFan.Reply second = gate.send("POST", "/gate/scan", "{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + eventId + "\"}", "Authorization", auth);
    assertEquals(409, second.status());
    assertEquals("already_scanned", second.json().get("result").asText());
    assertTrue(second.json().has("scannedAt"));
    String forged = barcode.substring(0, barcode.length() - 2) + (barcode.endsWith("A") ? "BB" : "AA");
    HttpFan.Reply bad = gate.send("POST", "/gate/scan", "{\"barcode\":\"" + forged + "\",\"eventId\":\"" + eventId + "\"}", "Authorization", auth);
    assertEquals(400, bad.status());
    assertEquals("invalid", bad.json().get("result").asText());
    assertEquals(401, gate.send("POST", "/gate/scan", "{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + eventId + "\"}").status());
    assertEquals(403, gate.send("POST", "/gate/scan", "{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + eventId + "\"}", "Authorization", "Bearer nope").status());
  }

  @Test
  void badInputGetsTheContractsErrorsAndChangesNothing() {
    HttpFan fan = fan();
    assertEquals(200, fan.send("POST", path("/cart/holds"), seats("F1-A-1")).status());
    HttpFan admin = new HttpFan(node.httpPort());
    String before = admin.admin("GET", "/admin/events/" + eventId + "/stats", null).body();

    Map<String, HttpFan.Reply> replies = new HashMap<>();
    replies.put("400 malformed", fan.send("POST", path("/cart/holds"), "{\"seats\":[\"F1-A-2\""));
    replies.put("400 wrong type", fan.send("POST", path("/cart/holds"), "{\"best\":{\"quantity\":\"two\"}}"));
    replies.put("400 unknown seats", fan.send("POST", path("/cart/holds"), seats("F1-A-2", "Z-9-99")));
    replies.put("400 both", fan.send("POST", path("/cart/holds"), "{\"seats\":[\"F1-A-2\"],\"best\":{\"quantity\":1}}"));
    replies.put("400 quantity", fan.send("POST", path("/cart/holds"), "{\"best\":{\"quantity\":0}}"));
    replies.put("400 no key", fan.send("POST", path("/cart/checkout"), "{\"paymentToken\":\"tok_visa\"}"));
    replies.put("400 no token", fan.send("POST", path("/cart/checkout"), "{}", "Idempotency-Key", "z"));
    replies.put("413 huge", fan.send("POST", path("/cart/holds"), "{\"seats\":[\"" + "x".repeat(70_000) + "\"]}"));
    replies.put("422 over cap", fan.send("POST", path("/cart/holds"), seats("F1-A-2", "F1-A-3", "F1-A-4", "F1-A-6")));
    replies.put("401 no cookie", new HttpFan(node.httpPort()).send("POST", path("/cart/holds"), seats("F1-A-2")));
    replies.put("401 forged cookie", new HttpFan(node.httpPort()).withCookie(fan.cookie() + "x").send("POST", path("/cart/holds"), seats("F1-A-2")));
    replies.put("404 unknown event", fan.send("POST", "/api/events/no-such-event/cart/holds", seats("F1-A-2")));
    replies.put("404 odd event id", fan.send("GET", "/api/events/%2E%2E/seatmap", null));
    replies.put("401 admin without token", new HttpFan(node.httpPort()).send("POST", "/admin/events", "{}"));
    replies.put("403 admin wrong token", new HttpFan(node.httpPort()).send("POST", "/admin/events", "{}", "Authorization", "Bearer wrong"));
    replies.put("400 admin bad event", admin.admin("POST", "/admin/events", "{\"eventId\":\"e\",\"venueId\":\"v\",\"prices\":5}"));
    replies.put("404 admin unknown venue", admin.admin("POST", "/admin/events", "{\"eventId\":\"e-x\",\"venueId\":\"nope\",\"name\":\"n\",\"prices\":{}}"));
    replies.put("409 event exists", admin.admin("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"v-"
        + eventId.substring(3) + "\",\"name\":\"n\",\"prices\":{\"floor\":1}}"));
    replies.put("400 short password", new HttpFan(node.httpPort()).send("POST", "/api/accounts", "{\"email\":\"a@b.co\",\"password\":\"short\"}"));
    replies.put("400 long email", new HttpFan(node.httpPort()).send("POST", "/api/accounts",
        "{\"email\":\"a@" + "x".repeat(220) + ".co\",\"password\":\"long enough pw\"}"));
    replies.put("400 bad email", new HttpFan(node.httpPort()).send("POST", "/api/accounts", "{\"email\":\"nope\",\"password\":\"long enough pw\"}"));
    replies.put("401 bad login", new HttpFan(node.httpPort()).send("POST", "/api/session", "{\"email\":\"nobody@b.co\",\"password\":\"long enough pw\"}"));
    replies.put("404 order of another", fan().send("GET", "/api/orders/" + eventId + ".someone.1", null));
    replies.put("405 wrong method", fan.send("PUT", path("/cart/holds"), "{}"));

    for (Map.Entry<String, HttpFan.Reply> e : replies.entrySet()) {
      int expected = Integer.parseInt(e.getKey().substring(0, 3));
      assertEquals(expected, e.getValue().status(), e.getKey() + ": " + e.getValue().body());
      JsonNode body = e.getValue().json();
      assertTrue(body.hasNonNull("error") && body.hasNonNull("message"), e.getKey() + ": " + e.getValue().body());
    }
    assertEquals(before, admin.admin("GET", "/admin/events/" + eventId + "/stats", null).body());
    assertEquals(1, fan.send("GET", path("/cart"), null).json().get("seats").size());
    assertTrue(payments.ledger().isEmpty());
    assertEquals(409, new HttpFan(node.httpPort()).send("POST", "/api/accounts",
        "{\"email\":\"dup-" + eventId + "@b.co\",\"password\":\"long enough pw\"}").status() == 201
        ? new HttpFan(node.httpPort()).send("POST", "/api/accounts", "{\"email\":\"DUP-" + eventId + "@b.co\",\"password\":\"long enough pw\"}").status()
        : -1);
  }

  @Test
  void theSeatMapIsImmutableAndAvailabilityIsTwoBitsASeat() throws Exception {
    HttpFan fan = fan();
    assertEquals(200, fan.send("POST", path("/cart/holds"), seats("F1-A-2")).status());
    HttpFan.Reply map = fan.send("GET", path("/seatmap"), null);
    assertEquals(200, map.status());
    assertEquals(20, map.json().get("seats").size());
    JsonNode first = map.json().get("seats").get(0);
    assertEquals("F1-A-1", first.get("seatId").asText());
    assertEquals(5000, first.get("priceCents").asInt());
    String etag = map.headers().firstValue("ETag").orElseThrow();
    assertTrue(map.headers().firstValue("Cache-Control").orElseThrow().contains("max-age=31536000"));
    assertEquals(304, fan.send("GET", path("/seatmap"), null, "If-None-Match", etag).status());

    clock.advance(Duration.ofSeconds(2));
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    HttpFan.Reply av = fan.send("GET", path("/availability"), null);
    assertEquals(200, av.status());
    assertEquals("public, max-age=1", av.headers().firstValue("Cache-Control").orElseThrow());
    assertTrue(av.headers().firstValue("X-Snapshot-Version").isPresent());
    byte[] bits = av.body().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    assertEquals(5, bits.length);
    assertEquals(0b00_01_00_00, bits[0] & 0xff);
    // The body as bytes, not through a text decoding: exactly 2 bits a seat, nothing else set.
    java.net.http.HttpResponse<byte[]> raw = client.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://127.0.0.1:" + node.httpPort() + path("/availability")))
        .header("Cookie", "bo_id=" + fan.cookie()).build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, raw.statusCode());
    assertEquals("application/octet-stream", raw.headers().firstValue("Content-Type").orElseThrow());
    assertArrayEquals(new byte[] {0b00_01_00_00, 0, 0, 0, 0}, raw.body(), "20 seats in 5 bytes: F1-A-2 held, the rest available");
  }

  private long awaitCaptured(int expected) {
    long captured = await(expected + " captures").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
        .until(() -> payments.ledger().values().stream().filter(e -> e.status() == PaymentSimulator.Status.CAPTURED).count(),
            n -> n >= expected);
    Set<String> keys = new HashSet<>();
    for (PaymentSimulator.Entry e : payments.ledger().values()) assertTrue(keys.add(e.authorizeKey()), "two authorizations for one key");
    return captured;
  }
}
