package io.boxoffice.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The managers' lists, live stream and console page over real HTTP on PostgreSQL: what they
 * list, the bearer token on each, the stream's fields moving after a sale, and bad input
 * answered 4xx without changing anything.
 */
class ManagerApiTest {
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  static Node node;
  static HttpFan admin;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    admin = new HttpFan(node.httpPort());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  static String id(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  static String venue(int seats) {
    String venueId = id("mv");
    HttpFan.Reply r = admin.admin("POST", "/admin/venues", "{\"venueId\":\"" + venueId + "\",\"name\":\"Hall " + venueId
        + "\",\"generate\":{\"layout\":\"stadium\",\"seats\":" + seats + "}}");
    assertEquals(201, r.status(), r.body());
    return venueId;
  }

  static String event(String venueId) {
    String eventId = id("me");
    HttpFan.Reply r = admin.admin("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venueId
        + "\",\"name\":\"Show " + eventId + "\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}");
    assertEquals(201, r.status(), r.body());
    return eventId;
  }

  static JsonNode listed(String list, String idField, String id) {
    for (JsonNode row : admin.admin("GET", "/admin/" + list, null).json().get(list)) {
      if (row.get(idField).asText().equals(id)) return row;
    }
    return null;
  }

  @Test
  void venuesAndEventsAreListedWithTheirNamesSizesAndStates() {
    String venueId = venue(300);
    String closed = event(venueId);
    String open = event(venueId);
    assertEquals(200, admin.admin("POST", "/admin/events/" + open + "/open", null).status());

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      JsonNode venue = listed("venues", "venueId", venueId);
      assertTrue(venue != null, "venue listed");
      assertEquals("Hall " + venueId, venue.get("name").asText());
      assertEquals(300, venue.get("seatCount").asInt());
    });
    JsonNode c = listed("events", "eventId", closed);
    assertEquals("Show " + closed, c.get("name").asText());
    assertEquals(venueId, c.get("venueId").asText());
    assertEquals("closed", c.get("state").asText());
    assertEquals("open", listed("events", "eventId", open).get("state").asText());
  }

  @Test
  void everyManagerCallNeedsTheBearerToken() {
    HttpFan anonymous = new HttpFan(node.httpPort());
    for (String path : List.of("/admin/venues", "/admin/events", "/admin/events/nothing/live", "/admin/events/nothing/stats")) {
      HttpFan.Reply none = anonymous.send("GET", path, null);
      assertEquals(401, none.status(), path);
      assertEquals("unauthenticated", none.error());
      HttpFan.Reply wrong = anonymous.send("GET", path, null, "Authorization", "Bearer not-the-token-0123456789abcdefghij");
      assertEquals(403, wrong.status(), path);
      assertEquals("forbidden", wrong.error());
    }
    // The page itself carries no data: it loads without a token, framed by nobody, scripts from us only.
    HttpFan.Reply page = anonymous.send("GET", "/admin/console", null);
    assertEquals(200, page.status());
    assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
    List<String> csp = page.headers().allValues("Content-Security-Policy");
    assertTrue(csp.stream().anyMatch(v -> v.contains("frame-ancestors 'none'")), csp.toString());
    assertTrue(csp.stream().anyMatch(v -> v.contains("script-src 'self'") && !v.contains("unsafe-inline")), csp.toString());
    assertEquals(200, anonymous.send("GET", "/admin/console/console.js", null).status());
    assertEquals(200, anonymous.send("GET", "/admin/console/console.css", null).status());
  }

  @Test
  void badInputIsRefusedWith4xxAndChangesNothing() {
    String venueId = venue(100);
    String eventId = event(venueId);
    // The venue list is a projection that lags a moment: count once it shows the venue just made
    // (and so every venue made before it, read in journal order), or a late row counts as "made".
    int venuesBefore = org.awaitility.Awaitility.await("the venue list showing " + venueId)
        .atMost(java.time.Duration.ofSeconds(20)).pollInterval(java.time.Duration.ofMillis(100))
        .until(() -> admin.admin("GET", "/admin/venues", null).json().get("venues"),
            venues -> venues.findValuesAsText("venueId").contains(venueId)).size();
    List<String> venueBodies = List.of(
        "{\"venueId\":\"bad\\u0000id\",\"name\":\"x\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}}",
        "{\"venueId\":\"" + id("mv") + "\",\"name\":\"x\",\"generate\":{\"layout\":\"stadium\",\"seats\":-5}}",
        "{\"venueId\":\"" + id("mv") + "\",\"name\":\"x\",\"generate\":{\"layout\":\"stadium\",\"seats\":\"100\"}}",
        "{\"venueId\":\"" + id("mv") + "\",\"name\":\"x\",\"generate\":{\"layout\":\"stadium\",\"seats\":99999999999}}",
        "{\"venueId\":\"" + id("mv") + "\",\"name\":\"x\",\"generate\":{\"layout\":\"dome\",\"seats\":100}}",
        "{\"venueId\":\"" + id("mv") + "\",\"name\":\"x\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}} trailing",
        "{\"venueId\":\"" + id("mv") + "\",\"name\":\"Hall\\u0000\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}}",
        "{\"venueId\":\"" + id("mv") + "\",\"name\":\"Hall\\u202e\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}}",
        "[1,2]");
    for (String body : venueBodies) {
      HttpFan.Reply r = admin.admin("POST", "/admin/venues", body);
      assertEquals(400, r.status(), body + " -> " + r.body());
    }
    List<String> eventBodies = List.of(
        "{\"eventId\":\"" + id("me") + "\",\"venueId\":\"" + venueId + "\",\"name\":\"x\",\"prices\":{\"floor\":-1}}",
        "{\"eventId\":\"" + id("me") + "\",\"venueId\":\"" + venueId + "\",\"name\":\"x\",\"prices\":{\"floor\":49.99}}",
        "{\"eventId\":\"" + id("me") + "\",\"venueId\":\"" + venueId + "\",\"name\":\"x\",\"prices\":{\"floor\":100},\"holdSeconds\":-3}",
        "{\"eventId\":\"" + id("me") + "\",\"venueId\":\"" + venueId + "\",\"name\":\"x\",\"prices\":{\"floor\":100},\"maxSeatsPerAccount\":\"8\"}",
        "{\"eventId\":\"a\\nb\",\"venueId\":\"" + venueId + "\",\"name\":\"x\",\"prices\":{\"floor\":100}}",
        "{\"eventId\":\"" + id("me") + "\",\"venueId\":\"" + venueId + "\",\"name\":\"Show\\u0000\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}");
    for (String body : eventBodies) {
      HttpFan.Reply r = admin.admin("POST", "/admin/events", body);
      assertTrue(r.status() >= 400 && r.status() < 500, body + " -> " + r.status() + " " + r.body());
    }
    for (String body : List.of("{\"admissionPerMinute\":0}", "{\"admissionPerMinute\":-1}", "{\"maxActiveShoppers\":1e12}",
        "{\"admissionPerMinute\":\"5\"}", "{}")) {
      HttpFan.Reply r = admin.admin("PATCH", "/admin/events/" + eventId + "/onsale", body);
      assertEquals(400, r.status(), body + " -> " + r.body());
    }
    // Unknown and malformed ids on the stream: 404 before any stream starts.
    for (String bad : List.of("nothing-" + UUID.randomUUID(), "%00x", "a%0Ab", "x".repeat(300))) {
      HttpFan.Reply r = admin.admin("GET", "/admin/events/" + bad + "/live", null);
      assertEquals(404, r.status(), bad + " -> " + r.body());
      assertEquals("not_found", r.error());
    }
    assertEquals(venuesBefore, admin.admin("GET", "/admin/venues", null).json().get("venues").size(), "no venue was made");
    assertEquals("closed", listed("events", "eventId", eventId).get("state").asText());
  }

  @Test
  void theLiveStreamSendsStatsAndRatesThatMoveAfterASale() throws Exception {
    String venueId = venue(200);
    String eventId = event(venueId);
    assertEquals(200, admin.admin("POST", "/admin/events/" + eventId + "/open", null).status());

    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort() + "/admin/events/" + eventId + "/live"))
        .header("Authorization", "Bearer " + TestNode.ADMIN_TOKEN).header("Accept", "text/event-stream").build();
    HttpResponse<Stream<String>> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofLines());
    assertEquals(200, response.statusCode());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
    List<JsonNode> events = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> {
      try {
        response.body().forEach(line -> {
          if (line.startsWith("data:")) {
            try {
              events.add(HttpFan.JSON.readTree(line.substring(5).trim()));
            } catch (java.io.IOException e) {
              throw new AssertionError(line, e);
            }
          }
        });
      } catch (java.io.UncheckedIOException closed) {
        // the test closed the stream
      }
    });
    reader.setDaemon(true);
    reader.start();
    try {
      await().atMost(Duration.ofSeconds(15)).until(() -> events.size() >= 2);
      JsonNode first = events.get(0);
      for (String field : List.of("state", "lobby", "admittedUpTo", "activeShoppers", "seats", "orders", "admissionsPerMinute",
          "holdsPerSecond", "salesPerSecond", "shed")) {
        assertTrue(first.has(field), field + " in " + first);
      }
      for (String c : List.of("read", "hold", "checkout")) assertTrue(first.get("shed").has(c), c + " in " + first);
      assertEquals(0, first.get("seats").get("sold").asInt());

      HttpFan fan = new HttpFan(node.httpPort());
      fan.signUp(id("fan") + "@example.com");
      HttpFan.Reply hold = fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}");
      assertEquals(200, hold.status(), hold.body());
      HttpFan.Reply paid = fan.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
          "Idempotency-Key", UUID.randomUUID().toString());
      assertEquals(200, paid.status(), paid.body());

      await().atMost(Duration.ofSeconds(15)).until(() -> events.stream().anyMatch(e -> e.get("seats").get("sold").asInt() == 2));
      assertTrue(events.stream().anyMatch(e -> e.get("salesPerSecond").asDouble() > 0), "a tick saw the sale as a rate");
      assertTrue(events.stream().anyMatch(e -> e.get("holdsPerSecond").asDouble() > 0), "a tick saw the hold as a rate");
      JsonNode last = events.get(events.size() - 1);
      long started = System.nanoTime();
      HttpFan.Reply list = admin.admin("GET", "/admin/events", null);
      System.out.printf("live event: %d bytes of JSON; GET /admin/events: %d events, %d bytes, %.1f ms%n",
          last.toString().length(), list.json().get("events").size(), list.body().length(), (System.nanoTime() - started) / 1e6);
      assertEquals(1, last.get("orders").asInt());
      assertEquals("open", last.get("state").asText());
      assertEquals(1.0, SaleMetricsTest.value(metrics(), "boxoffice_admin_live_streams", ""), "one stream open");
    } finally {
      response.body().close();
    }
    // The client went away: the stream stops on the server too.
    await().atMost(Duration.ofSeconds(15)).until(() -> SaleMetricsTest.value(metrics(), "boxoffice_admin_live_streams", "") == 0.0);
  }

  static String metrics() {
    return new HttpFan(node.managementPort()).send("GET", "/metrics", null).body();
  }

  @Test
  void theConsoleScriptNeverBuildsMarkupFromData() throws Exception {
    // Names and ids come from managers' input: the script writes them as text, never as HTML.
    try (InputStream in = getClass().getClassLoader().getResourceAsStream("web/console/console.js")) {
      String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertFalse(script.contains("innerHTML"), "innerHTML in console.js");
      assertFalse(script.contains("insertAdjacentHTML"), "insertAdjacentHTML in console.js");
      assertFalse(script.contains("localStorage"), "the token stays in sessionStorage");
    }
  }
}
