package io.boxoffice.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fan pages' own routes over HTTP: the event summary, the static assets, the 404 page and ticket QR codes. */
class FanRoutesTest {
  static Node node;
  static String eventId;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    HttpFan admin = new HttpFan(node.httpPort());
    String venueId = "rv-" + UUID.randomUUID().toString().substring(0, 8);
    assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"" + venueId
        + "\",\"name\":\"Hall \\\"Nord\\\" \\u00e9\",\"generate\":{\"layout\":\"stadium\",\"seats\":200}}").status());
    eventId = "re-" + UUID.randomUUID().toString().substring(0, 8);
    assertEquals(201, admin.admin("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venueId
        + "\",\"name\":\"Jazz <b>&</b> \\\"Blues\\\"\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20},\"maxSeatsPerAccount\":5}").status());
    assertEquals(200, admin.admin("POST", "/admin/events/" + eventId + "/open", null).status());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  static HttpFan fan() {
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("routes-" + UUID.randomUUID() + "@example.com");
    return fan;
  }

  @Test
  void theSummaryNamesTheEventItsVenuePricesAndLimitForAnyone() {
    HttpFan.Reply r = new HttpFan(node.httpPort()).send("GET", "/api/events/" + eventId + "/summary", null);
    assertEquals(200, r.status(), r.body());
    JsonNode s = r.json();
    assertEquals("Jazz <b>&</b> \"Blues\"", s.get("name").asText(), "names survive quoting");
    assertEquals("Hall \"Nord\" \u00e9", s.get("venueName").asText());
    assertEquals(5, s.get("maxSeatsPerAccount").asInt());
    assertEquals(100, s.get("prices").get("floor").asInt());
    assertTrue(s.get("open").asBoolean());
    assertEquals(200, s.get("seats").asInt());
    assertEquals("public, max-age=5", r.headers().firstValue("Cache-Control").orElseThrow());
  }

  @Test
  void aClosedEventsSummaryKeepsItsNameAndPricesPrivate() {
    HttpFan admin = new HttpFan(node.httpPort());
    String closed = "rc-" + UUID.randomUUID().toString().substring(0, 8);
    String venueId = "rw-" + UUID.randomUUID().toString().substring(0, 8);
    assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"" + venueId
        + "\",\"name\":\"Secret Hall\",\"generate\":{\"layout\":\"stadium\",\"seats\":200}}").status());
    assertEquals(201, admin.admin("POST", "/admin/events", "{\"eventId\":\"" + closed + "\",\"venueId\":\"" + venueId
        + "\",\"name\":\"Unannounced Tour\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}").status());
    // Until the node has heard the new room it may answer 503 (try again); then a closed event is a 404 as an unknown one.
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).ignoreExceptions().until(() ->
        new HttpFan(node.httpPort()).send("GET", "/api/events/" + closed + "/summary", null).status() != 503);
    HttpFan.Reply r = new HttpFan(node.httpPort()).send("GET", "/api/events/" + closed + "/summary", null);
    assertEquals(404, r.status(), r.body());
    assertEquals(new HttpFan(node.httpPort()).send("GET", "/api/events/no-such-event/summary", null).body(), r.body(),
        "the same answer as for an unknown event");
    assertTrue(!r.body().contains("Unannounced") && !r.body().contains("Secret") && !r.body().contains("prices"), r.body());
  }

  @Test
  void aSummaryOfNoEventOrOfANonsenseIdIsA404AndNeverA5xx() {
    HttpFan anyone = new HttpFan(node.httpPort());
    assertEquals("not_found", anyone.send("GET", "/api/events/no-such-event/summary", null).error());
    for (String id : List.of("%00", "%2E%2E", "a%20b", "x".repeat(300), "%C3%A9", "%0d%0aSet-Cookie:x=1", "-1", "99999999999999999999")) {
      HttpFan.Reply r = anyone.send("GET", "/api/events/" + id + "/summary", null);
      assertTrue(r.status() >= 400 && r.status() < 500, id + " -> " + r.status() + " " + r.body());
    }
  }

  @Test
  void assetsAreImmutableUnderTheirHashAndThePageHasAStrictPolicy() {
    HttpFan anyone = new HttpFan(node.httpPort());
    HttpFan.Reply page = anyone.send("GET", "/events/" + eventId, null);
    assertEquals(200, page.status());
    assertEquals("frame-ancestors 'none'", page.headers().firstValue("Content-Security-Policy").orElseThrow());
    assertTrue(page.body().contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; script-src 'self';"),
        "the page's own policy: no inline or foreign scripts");
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("/static/fan\\.js\\?v=([0-9a-f]+)").matcher(page.body());
    assertTrue(m.find(), "the page names its script with a content hash");
    HttpFan.Reply js = anyone.send("GET", "/static/fan.js?v=" + m.group(1), null);
    assertEquals(200, js.status());
    assertTrue(js.headers().firstValue("Content-Type").orElseThrow().startsWith("application/javascript"));
    assertEquals("public, max-age=31536000, immutable", js.headers().firstValue("Cache-Control").orElseThrow());
    assertTrue(js.body().contains("Idempotency-Key"));
    assertEquals(200, anyone.send("GET", "/static/fan.css", null).status());
    HttpFan.Reply icon = anyone.send("GET", "/favicon.ico", null);
    assertEquals(200, icon.status());
    assertTrue(icon.headers().firstValue("Content-Type").orElseThrow().startsWith("image/svg+xml"));
    for (String bad : List.of("/static/nope.js", "/static/..%2Fweb%2Ffan.js", "/static/%00", "/static/" + "a".repeat(5000))) {
      HttpFan.Reply r = anyone.send("GET", bad, null);
      assertTrue(r.status() >= 400 && r.status() < 500, bad + " -> " + r.status());
    }
  }

  /** The queue cookie a join answer sets, as {@code name=value}. */
  static String queueCookieOf(HttpFan.Reply joined) {
    String set = joined.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_")).findFirst().orElseThrow();
    return set.substring(set.indexOf('=') + 1, set.indexOf(';'));
  }

  @Test
  void thePageIsTheSameBytesForEveryFanAndEveryEventAndACacheMayKeepIt() {
    HttpFan admin = new HttpFan(node.httpPort());
    String lobbyEvent = admin.newEventWithOpenLobby(200);
    HttpFan first = fan();
    HttpFan second = fan();
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).ignoreExceptions().until(() ->
        first.send("POST", "/api/events/" + lobbyEvent + "/queue", "{}").status() == 200);
    HttpFan.Reply joined = second.send("POST", "/api/events/" + lobbyEvent + "/queue", "{}");
    assertEquals(200, joined.status(), joined.body());
    second.withQueueCookie(lobbyEvent, queueCookieOf(joined));

    // Nobody, a signed-in fan in an open sale (the shop once), two fans in a lobby (one with its
    // queue token): one page, byte for byte, with nothing set and nothing varying per fan.
    List<HttpFan.Reply> pages = List.of(
        new HttpFan(node.httpPort()).send("GET", "/events/" + eventId, null, "Accept", "text/html"),
        first.send("GET", "/events/" + eventId, null, "Accept", "text/html"),
        first.send("GET", "/events/" + lobbyEvent, null, "Accept", "text/html"),
        second.send("GET", "/events/" + lobbyEvent, null, "Accept", "text/html"),
        new HttpFan(node.httpPort()).send("GET", "/events/" + lobbyEvent, null));
    HttpFan.Reply none = pages.get(0);
    assertEquals(200, none.status());
    for (HttpFan.Reply p : pages) assertEquals(none.body(), p.body(), "the same bytes for every fan and event");
    String tag = none.headers().firstValue("ETag").orElseThrow();
    assertTrue(tag.matches("\"[0-9a-f]{16,}\""), "a strong validator: " + tag);
    for (HttpFan.Reply p : pages) {
      assertEquals(200, p.status());
      assertEquals("public, max-age=60, stale-while-revalidate=60", p.headers().firstValue("Cache-Control").orElseThrow());
      assertEquals(tag, p.headers().firstValue("ETag").orElseThrow());
      assertEquals("frame-ancestors 'none'", p.headers().firstValue("Content-Security-Policy").orElseThrow());
      assertTrue(p.headers().allValues("Set-Cookie").isEmpty(), "nothing per fan: " + p.headers().allValues("Set-Cookie"));
      assertTrue(p.headers().allValues("Vary").stream().noneMatch(v -> v.toLowerCase().contains("cookie")), "no Vary: Cookie");
    }

    // A cache that holds the page asks again with its tag: 304, no body, the same headers.
    for (String asked : List.of(tag, "W/" + tag, "\"other\", " + tag, "*")) {
      HttpFan.Reply again = second.send("GET", "/events/" + lobbyEvent, null, "If-None-Match", asked);
      assertEquals(304, again.status(), asked);
      assertEquals("", again.body());
      assertEquals(tag, again.headers().firstValue("ETag").orElseThrow());
      assertEquals("public, max-age=60, stale-while-revalidate=60", again.headers().firstValue("Cache-Control").orElseThrow());
    }
    assertEquals(200, second.send("GET", "/events/" + lobbyEvent, null, "If-None-Match", "\"stale\"").status());

    // A missing event is kept only briefly: it may be created a moment later.
    HttpFan.Reply missing = new HttpFan(node.httpPort()).send("GET", "/events/not-yet-" + UUID.randomUUID().toString().substring(0, 6),
        null, "Accept", "text/html");
    assertEquals(404, missing.status());
    assertEquals("public, max-age=5", missing.headers().firstValue("Cache-Control").orElseThrow());
  }

  @Test
  void theManifestTellsAWaitingPageTheStartAndWhetherTheLotteryWasDrawn() {
    HttpFan admin = new HttpFan(node.httpPort());
    String lobbyEvent = admin.newEventWithOpenLobby(200);
    HttpFan fan = fan();
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).ignoreExceptions().until(() ->
        fan.send("GET", "/api/events/" + lobbyEvent + "/queue/manifest", null).status() == 200);
    HttpFan.Reply r = fan.send("GET", "/api/events/" + lobbyEvent + "/queue/manifest", null);
    assertEquals("public, max-age=5", r.headers().firstValue("Cache-Control").orElseThrow());
    JsonNode m = r.json();
    assertEquals("lobby", m.get("state").asText());
    assertTrue(!m.get("drawn").asBoolean(), "not drawn before the start: " + m);
    assertTrue(!m.has("lottery"), "the draw's salt is nobody's before the draw: " + m);
    JsonNode summary = fan.send("GET", "/api/events/" + lobbyEvent + "/summary", null).json();
    assertEquals(summary.get("startsAt").asText(), m.get("startsAt").asText());

    // A sale that has started: the lottery has given the lobby its places.
    String started = admin.newEvent(200);
    java.time.Instant now = java.time.Instant.now();
    assertEquals(200, admin.admin("PUT", "/admin/events/" + started + "/onsale", "{\"lobbyOpensAt\":\"" + now
        + "\",\"startsAt\":\"" + now + "\",\"admissionPerMinute\":600,\"maxActiveShoppers\":1000}").status());
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
      JsonNode after = fan.send("GET", "/api/events/" + started + "/queue/manifest", null).json();
      return after.get("drawn").asBoolean() && after.get("state").asText().equals("waiting");
    });
    // Once drawn, the draw is public, so that the edge works out each lobby fan's place itself.
    JsonNode drawn = fan.send("GET", "/api/events/" + started + "/queue/manifest", null).json();
    assertTrue(drawn.path("lottery").path("salt").asText().matches("[0-9a-f]{64}"), "the draw's salt: " + drawn);
    assertTrue(drawn.path("lottery").path("cohort").isIntegralNumber(), "the lobby's size: " + drawn);
  }

  @Test
  void anUnknownEventIsAnHtmlPageForBrowsersAndTheContractsJsonOtherwise() {
    HttpFan anyone = new HttpFan(node.httpPort());
    HttpFan.Reply browser = anyone.send("GET", "/events/nothing-here", null, "Accept", "text/html,application/xhtml+xml");
    assertEquals(404, browser.status());
    assertTrue(browser.body().contains("Event not found"));
    HttpFan.Reply script = anyone.send("GET", "/events/nothing-here", null);
    assertEquals(404, script.status());
    assertEquals("not_found", script.error());
    HttpFan.Reply odd = anyone.send("GET", "/events/%00", null, "Accept", "text/html");
    assertEquals(404, odd.status());
  }

  @Test
  void aTicketsQrCodeIsForItsOwnerOnlyAndScansToItsBarcode() {
    HttpFan owner = fan();
    HttpFan.Reply hold = owner.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":1}}");
    assertEquals(200, hold.status(), hold.body());
    HttpFan.Reply order = owner.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", UUID.randomUUID().toString());
    assertEquals(200, order.status(), order.body());
    JsonNode ticket = order.json().get("tickets").get(0);
    String path = "/api/me/tickets/" + ticket.get("ticketId").asText() + "/qr";

    QrCodes.Png mine = QrCodes.png(node.httpPort(), owner.cookie(), path);
    assertEquals(200, mine.status());
    assertEquals("image/png", mine.contentType());
    assertEquals("private, no-store", mine.cacheControl());
    assertEquals(ticket.get("barcode").asText(), QrCodes.decode(mine.body()));

    assertEquals(404, QrCodes.png(node.httpPort(), fan().cookie(), path).status(), "someone else's ticket is not found");
    assertEquals(401, QrCodes.png(node.httpPort(), null, path).status());
    for (String id : List.of("nope", "%01", "%00", "x".repeat(2000), "..", "%2e%2e%2fqr", "-1")) {
      int status = QrCodes.png(node.httpPort(), owner.cookie(), "/api/me/tickets/" + id + "/qr").status();
      assertTrue(status >= 400 && status < 500, id + " -> " + status);
    }
  }
}
