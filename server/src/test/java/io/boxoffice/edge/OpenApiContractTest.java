package io.boxoffice.edge;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.OpenApiContract;
import io.boxoffice.support.TestNode;
import io.boxoffice.support.WireShape;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document at {@code GET /api/openapi.json} tells the truth: it is valid OpenAPI 3.1,
 * a real node (PostgreSQL) answers every documented operation, successes and refusals, with a
 * status documented for it and a body that fits the documented schema, and the node serves no
 * route the document leaves out.
 */
class OpenApiContractTest {
  /**
   * Operations of the contract that this branch does not serve yet (other engineers add them);
   * each must still be missing here (404 or 405), so that a merge that adds one fails until it is
   * taken off this list and driven below.
   */
  static final Set<String> NOT_SERVED_YET = Set.of();

  /**
   * The fans' bodies as they are on the wire, pinned: for each operation and status, the shapes
   * ({@link WireShape}: field names in order, kinds of values, absent or null) of every answer this
   * test gets. A response record that renames, reorders, drops, adds or nulls a field fails here.
   */
  static final Map<String, Set<String>> PINNED_SHAPES = Map.ofEntries(
      Map.entry("POST /api/accounts 201", Set.of(
          "{\"accountId\":\"string\"}")),
      Map.entry("POST /api/session 200", Set.of(
          "{\"accountId\":\"string\"}")),
      Map.entry("POST /api/events/{eventId}/queue 200", Set.of(
          "{\"state\":\"string\"}")),
      Map.entry("GET /api/events/{eventId}/queue/status 200", Set.of(
          "{\"state\":\"string\",\"position\":\"int\",\"admittedUpTo\":\"int\",\"aheadOfYou\":\"int\",\"estimatedWaitSeconds\":\"int\",\"seatsRemaining\":\"int\"}",
          "{\"state\":\"string\",\"position\":\"null\",\"admittedUpTo\":\"int\",\"aheadOfYou\":\"int\",\"estimatedWaitSeconds\":\"int\",\"seatsRemaining\":\"int\"}")),
      Map.entry("GET /api/events/{eventId}/queue/manifest 200", Set.of(
          "{\"state\":\"string\",\"admittedUpTo\":\"int\",\"admissionPerMinute\":\"int\",\"seatsRemaining\":\"int\",\"updatedAt\":\"string\",\"startsAt\":\"string\",\"drawn\":\"boolean\"}")),
      Map.entry("GET /api/events/{eventId}/queue/challenge 200", Set.of(
          "{\"challenge\":\"string\",\"bits\":\"int\"}")),
      Map.entry("POST /api/events/{eventId}/presale/registrations 201", Set.of(
          "{\"eventId\":\"string\",\"registered\":\"boolean\"}")),
      Map.entry("POST /api/events/{eventId}/cart/holds 200", Set.of(
          "{\"seats\":[{\"seatId\":\"string\",\"priceCents\":\"int\"}],\"holdExpiresAt\":\"string\"}")),
      Map.entry("GET /api/events/{eventId}/cart 200", Set.of(
          "{\"seats\":[{\"seatId\":\"string\",\"priceCents\":\"int\"}],\"holdExpiresAt\":\"string\"}")),
      Map.entry("POST /api/events/{eventId}/cart/checkout 200", Set.of(
          "{\"orderId\":\"string\",\"eventId\":\"string\",\"status\":\"string\",\"amountCents\":\"int\",\"tickets\":[{\"ticketId\":\"string\",\"seatId\":\"string\",\"barcode\":\"string\"}]}")),
      Map.entry("GET /api/orders/{orderId} 200", Set.of(
          "{\"orderId\":\"string\",\"eventId\":\"string\",\"status\":\"string\",\"amountCents\":\"int\",\"tickets\":[{\"ticketId\":\"string\",\"seatId\":\"string\",\"barcode\":\"string\"}]}")),
      Map.entry("GET /api/me/tickets 200", Set.of(
          "{\"tickets\":[{\"ticketId\":\"string\",\"eventId\":\"string\",\"seatId\":\"string\",\"orderId\":\"string\",\"barcode\":\"string\"}]}")),
      Map.entry("POST /gate/scan 200", Set.of(
          "{\"result\":\"string\",\"eventId\":\"string\",\"seatId\":\"string\"}")),
      Map.entry("POST /gate/scan 400", Set.of(
          "{\"result\":\"string\",\"error\":\"string\",\"message\":\"string\"}",
          "{\"error\":\"string\",\"message\":\"string\"}")),
      Map.entry("POST /gate/scan 409", Set.of(
          "{\"result\":\"string\",\"error\":\"string\",\"message\":\"string\",\"eventId\":\"string\"}",
          "{\"result\":\"string\",\"error\":\"string\",\"message\":\"string\",\"scannedAt\":\"string\",\"eventId\":\"string\",\"seatId\":\"string\"}")));

  /** What {@link #checked} saw of the pinned operations: operation and status to shapes. */
  static final Map<String, Set<String>> shapes = new TreeMap<>();

  static final MutableClock clock = MutableClock.running();
  static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  static Node node;
  static String documentText;
  static OpenApiContract contract;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(clock, TestNode.payments(), ConfigFactory.parseString(
        "boxoffice.bots.rate-limits.per-account { burst = 1000, per-second = 1000 }\n"
            + "boxoffice.bots.rate-limits.per-prefix { burst = 100000, per-second = 100000 }"));
    HttpFan.Reply doc = new HttpFan(node.httpPort()).send("GET", "/api/openapi.json", null);
    assertEquals(200, doc.status(), doc.body());
    documentText = doc.body();
    contract = new OpenApiContract(HttpFan.JSON.readTree(documentText));
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  @Test
  void theDocumentIsServedPubliclyCacheableAndValidOpenApi() {
    HttpFan.Reply doc = new HttpFan(node.httpPort()).send("GET", "/api/openapi.json", null);
    assertEquals(200, doc.status());
    assertEquals("application/json", doc.headers().firstValue("Content-Type").orElse(""));
    assertTrue(doc.headers().firstValue("Cache-Control").orElse("").startsWith("public"), doc.headers().toString());
    // Nothing else is served there: other methods and longer paths are clean 4xx errors.
    HttpFan anyone = new HttpFan(node.httpPort());
    for (HttpFan.Reply r : List.of(anyone.send("POST", "/api/openapi.json", "{}"), anyone.send("DELETE", "/api/openapi.json", null),
        anyone.send("GET", "/api/openapi.json/..%2F..%2Fetc", null), anyone.send("GET", "/api/openapi.json%00", null),
        anyone.send("GET", "/api/openapi.yaml", null))) {
      assertTrue(r.status() == 404 || r.status() == 405, r.status() + " " + r.body());
      assertFalse(r.json().path("message").asText().isEmpty(), r.body());
    }
    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(documentText, null, options);
    assertNotNull(parsed.getOpenAPI(), "not OpenAPI: " + parsed.getMessages());
    assertEquals(List.of(), parsed.getMessages(), "the parser's complaints");
    assertEquals("3.1.0", parsed.getOpenAPI().getOpenapi());
    assertEquals(contract.operations().size(), parsed.getOpenAPI().getPaths().values().stream()
        .mapToInt(p -> p.readOperations().size()).sum());
  }

  @Test
  void theCheckRefusesAnAnswerThatBreaksTheDocument() {
    String order = "{\"orderId\":\"o1\",\"eventId\":\"e\",\"status\":\"confirmed\",\"amountCents\":100,"
        + "\"tickets\":[{\"ticketId\":\"t1\",\"seatId\":\"A-1-1\",\"barcode\":\"b\"}]}";
    assertEquals(List.of(), contract.problems("GET", "/api/orders/o1", 200, "application/json", order));
    // A missing field, a wrong type, an undocumented status, an undocumented media type, an undocumented path.
    assertFalse(contract.problems("GET", "/api/orders/o1", 200, "application/json", order.replace("\"barcode\":\"b\"", "\"code\":\"b\"")).isEmpty());
    assertFalse(contract.problems("GET", "/api/orders/o1", 200, "application/json", order.replace("100", "\"100\"")).isEmpty());
    assertFalse(contract.problems("GET", "/api/orders/o1", 409, "application/json", "{\"error\":\"x\",\"message\":\"y\"}").isEmpty());
    assertFalse(contract.problems("GET", "/api/orders/o1", 200, "text/plain", "hello").isEmpty());
    assertFalse(contract.problems("GET", "/api/orders", 200, "application/json", "{}").isEmpty());
    assertFalse(contract.problems("GET", "/api/orders/o1", 404, "application/json", "{\"error\":\"not_found\"}").isEmpty(),
        "an error without its message");
    assertFalse(contract.problems("GET", "/api/events/e/queue/manifest", 200, "application/json",
        "{\"state\":\"waiting\",\"admittedUpTo\":1,\"admissionPerMinute\":5,\"seatsRemaining\":3,\"updatedAt\":\"yesterday\"}").isEmpty(),
        "a time that is not ISO-8601");
  }

  /**
   * Every route literal in the routes classes (the paths a node serves on its HTTP port) is a
   * segment of a documented path: a new route without its documentation fails here. Metrics are
   * on the management port, not in the document.
   */
  @Test
  void everyRouteInTheServerIsDocumented() throws IOException {
    Pattern literal = Pattern.compile("(?:path|pathPrefix|segment|slash)\\(\"([^\"]+)\"\\)|PREFIX = \"([^\"]+)\"");
    Set<String> documentedSegments = new HashSet<>();
    for (OpenApiContract.Operation op : contract.operations()) documentedSegments.addAll(List.of(op.template().split("/")));
    Set<String> undocumented = new TreeSet<>();
    List<Path> routeClasses;
    try (Stream<Path> files = Files.walk(Path.of("server/src/main/java/io/boxoffice"))) {
      routeClasses = files.filter(f -> f.getFileName().toString().endsWith("Routes.java"))
          .filter(f -> !f.getFileName().toString().equals("MetricsRoutes.java")).toList();
    }
    assertTrue(routeClasses.size() >= 7, "routes classes found: " + routeClasses);
    int literals = 0;
    for (Path f : routeClasses) {
      Matcher m = literal.matcher(Files.readString(f));
      while (m.find()) {
        String value = m.group(1) != null ? m.group(1) : m.group(2);
        for (String segment : value.split("/")) {
          if (segment.isEmpty()) continue;
          literals++;
          if (!documentedSegments.contains(segment)) undocumented.add(f.getFileName() + ": " + segment);
        }
      }
    }
    assertTrue(literals > 20, "route literals found: " + literals);
    assertEquals(Set.of(), undocumented, "route segments the OpenAPI document does not have");
  }

  @Test
  void aRealNodeAnswersEveryDocumentedOperationAsDocumented() throws Exception {
    int port = node.httpPort();
    String tag = UUID.randomUUID().toString().substring(0, 8);

    // ---- identity --------------------------------------------------------------------------
    HttpFan anon = new HttpFan(port);
    String email = "oa-" + tag + "@example.com";
    expect(201, call(anon, "POST", "/api/accounts", creds(email, "correct horse battery")));
    expect(409, call(anon, "POST", "/api/accounts", creds(email, "correct horse battery")));
    expect(400, call(anon, "POST", "/api/accounts", creds("oa-\u0007" + tag + "@example.com", "correct horse battery")));
    expect(400, call(anon, "POST", "/api/accounts", creds("x" + tag + "@example.com", "short")));
    expect(400, call(anon, "POST", "/api/accounts", "{\"email\":5,\"password\":\"correct horse battery\"}"));
    expect(415, raw("POST", "/api/accounts", creds(email, "correct horse battery"), "text/plain"));
    expect(413, call(anon, "POST", "/api/accounts", "{\"email\":\"" + "a".repeat(70_000) + "\",\"password\":\"x\"}"));
    expect(401, call(anon, "POST", "/api/session", creds(email, "wrong horse battery")));
    expect(403, call(anon, "POST", "/api/session", creds(email, "correct horse battery"), "Origin", "https://evil.example"));
    HttpFan.Reply signedIn = expect(200, call(anon, "POST", "/api/session", creds(email, "correct horse battery")));
    assertTrue(signedIn.headers().firstValue("Set-Cookie").orElse("").startsWith("bo_id="));
    expect(204, call(new HttpFan(port), "DELETE", "/api/session", null));
    String setCookie = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
    HttpFan session = new HttpFan(port).withCookie(setCookie.substring("bo_id=".length(), setCookie.indexOf(';')));
    expect(401, call(new HttpFan(port), "DELETE", "/api/sessions", null));
    expect(204, call(session, "DELETE", "/api/sessions", null));

    // ---- event managers --------------------------------------------------------------------
    String venue = "oa-v-" + tag;
    String venueBody = "{\"venueId\":\"" + venue + "\",\"name\":\"Hall\",\"sections\":["
        + "{\"sectionId\":\"A\",\"zone\":\"floor\",\"rows\":[{\"rowId\":\"1\",\"seats\":6},{\"rowId\":\"2\",\"seats\":6}]},"
        + "{\"sectionId\":\"B\",\"zone\":\"upper\",\"rows\":[{\"rowId\":\"1\",\"seats\":8}]}]}";
    expect(401, call(anon, "POST", "/admin/venues", venueBody));
    expect(403, call(anon, "POST", "/admin/venues", venueBody, "Authorization", "Bearer not-the-admin-token-at-all-0123456789"));
    expect(201, admin("POST", "/admin/venues", venueBody));
    expect(409, admin("POST", "/admin/venues", venueBody));
    expect(400, admin("POST", "/admin/venues", "{\"venueId\":\"bad\\u0000id\",\"name\":\"Hall\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}}"));
    expect(400, admin("POST", "/admin/venues", "{\"venueId\":\"" + venue + "x\",\"name\":\"Hall\",\"generate\":{\"layout\":\"stadium\",\"seats\":-5}}"));
    expect(415, raw("POST", "/admin/venues", venueBody, "text/plain", "Authorization", "Bearer " + TestNode.ADMIN_TOKEN));

    String open = "oa-open-" + tag;
    expect(201, admin("POST", "/admin/events", event(open, venue, "\"holdSeconds\":30,\"holdJitterSeconds\":0,\"maxSeatsPerAccount\":4")));
    expect(409, admin("POST", "/admin/events", event(open, venue, "")));
    expect(404, admin("POST", "/admin/events", event("oa-x-" + tag, "oa-no-venue-" + tag, "")));
    expect(400, admin("POST", "/admin/events", event("oa-y-" + tag, venue, "\"holdSeconds\":\"30\"")));
    expect(400, admin("POST", "/admin/events", event("oa-z-" + tag, venue, "\"maxSeatsPerAccount\":99999999999")));
    expect(200, admin("POST", "/admin/events/" + open + "/open", null));
    expect(404, admin("POST", "/admin/events/oa-none-" + tag + "/open", null));
    expect(200, admin("GET", "/admin/events", null));
    expect(200, admin("GET", "/admin/events/" + open + "/stats", null));
    expect(404, admin("GET", "/admin/events/oa-none-" + tag + "/stats", null));
    expect(401, call(anon, "GET", "/admin/events/" + open + "/stats", null));
    expect(200, admin("GET", "/admin/venues", null));
    expect(401, call(anon, "GET", "/admin/venues", null));
    expect(200, call(anon, "GET", "/admin/console", null));  // the page; the token is entered in it
    expect(200, live(open, TestNode.ADMIN_TOKEN));
    expect(404, live("oa-none-" + tag, TestNode.ADMIN_TOKEN));
    expect(401, call(anon, "GET", "/admin/events/" + open + "/live", null));
    expect(403, live(open, "not-the-admin-token-at-all-0123456789"));

    // A waiting room: the lobby is open now, the sale starts in an hour.
    String queued = "oa-q-" + tag;
    Instant now = clock.instant();
    expect(201, admin("POST", "/admin/events", event(queued, venue, "\"onsale\":" + onsale(now, now.plusSeconds(3600), ""))));
    expect(200, admin("PATCH", "/admin/events/" + queued + "/onsale", "{\"admissionPerMinute\":600}"));
    expect(400, admin("PATCH", "/admin/events/" + queued + "/onsale", "{}"));
    expect(400, admin("PATCH", "/admin/events/" + queued + "/onsale", "{\"admissionPerMinute\":-1}"));
    expect(404, admin("PATCH", "/admin/events/oa-none-" + tag + "/onsale", "{\"admissionPerMinute\":600}"));
    expect(200, admin("POST", "/admin/events/" + queued + "/onsale/pause", null));
    expect(200, admin("POST", "/admin/events/" + queued + "/onsale/resume", null));
    expect(404, admin("POST", "/admin/events/oa-none-" + tag + "/onsale/pause", null));
    expect(404, admin("POST", "/admin/events/oa-none-" + tag + "/onsale/resume", null));

    // Created closed, then scheduled with a lobby in the future.
    String later = "oa-later-" + tag;
    expect(201, admin("POST", "/admin/events", event(later, venue, "")));
    expect(200, admin("PUT", "/admin/events/" + later + "/onsale", onsale(now.plusSeconds(3600), now.plusSeconds(7200), "")));
    expect(400, admin("PUT", "/admin/events/" + later + "/onsale", "{\"lobbyOpensAt\":\"tomorrow\",\"startsAt\":\"" + now + "\","
        + "\"admissionPerMinute\":60,\"maxActiveShoppers\":10}"));
    expect(404, admin("PUT", "/admin/events/oa-none-" + tag + "/onsale", onsale(now, now.plusSeconds(60), "")));

    String closed = "oa-closed-" + tag;
    expect(201, admin("POST", "/admin/events", event(closed, venue, "")));

    expect(200, admin("PUT", "/admin/payments/simulator", "{\"slowDelayMs\":300,\"failureRate\":0.0}"));
    expect(400, admin("PUT", "/admin/payments/simulator", "{\"failureRate\":2}"));

    // ---- fans: the waiting room ------------------------------------------------------------
    HttpFan fan = fan(port, "oa-fan-" + tag);
    String q = "/api/events/" + queued;
    expect(401, call(anon, "POST", q + "/queue", "{}"));
    expect(404, call(fan, "POST", "/api/events/oa-none-" + tag + "/queue", "{}"));
    expect(400, call(fan, "POST", q + "/queue", "{\"code\":5}"));
    expect(200, call(fan, "GET", q + "/queue/challenge", null));
    expect(403, call(fan, "GET", q + "/queue/status", null));  // not_admitted: no place yet
    expect(200, call(fan, "POST", q + "/queue", "{}"));
    expect(200, call(fan, "GET", q + "/queue/status", null));
    expect(200, call(fan, "GET", q + "/queue/manifest", null));
    expect(404, call(fan, "GET", "/api/events/oa-none-" + tag + "/queue/manifest", null));
    HttpFan forged = new HttpFan(port).withCookie(fan.cookie()).withQueueCookie(queued, "AAAA" + fan.queueCookie(queued).substring(4));
    expect(403, call(forged, "GET", q + "/queue/status", null));
    expect(409, call(fan, "POST", "/api/events/" + later + "/queue", "{}"));
    expect(403, call(fan, "POST", "/api/events/" + closed + "/queue", "{}"));
    expect(409, call(fan, "POST", q + "/presale/registrations", null));  // no presale

    HttpFan leaver = fan(port, "oa-leaver-" + tag);
    expect(200, call(leaver, "POST", q + "/queue", "{}"));
    expect(204, call(leaver, "DELETE", q + "/queue", null));
    expect(403, call(leaver, "DELETE", "/api/events/" + closed + "/queue", null));

    // A presale: registration, invitations, a join with and without the code.
    String presale = "oa-pre-" + tag;
    expect(201, admin("POST", "/admin/events", event(presale, venue, "\"onsale\":" + onsale(now, now.plusSeconds(3600), ",\"presale\":true"))));
    expect(201, call(fan, "POST", "/api/events/" + presale + "/presale/registrations", null));
    expect(404, call(fan, "POST", "/api/events/oa-none-" + tag + "/presale/registrations", null));
    JsonNode invitations = expect(200, admin("POST", "/admin/events/" + presale + "/presale/invitations", "{\"count\":5}")).json();
    expect(400, admin("POST", "/admin/events/" + presale + "/presale/invitations", "{\"count\":0}"));
    expect(403, call(fan, "POST", "/api/events/" + presale + "/queue", "{}"));  // bad_code
    String code = invitations.get("invitations").get(0).get("code").asText();
    expect(200, call(fan, "POST", "/api/events/" + presale + "/queue", "{\"code\":\"" + code + "\"}"));

    // Proof of work: refused without, accepted with a solved puzzle.
    String pow = "oa-pow-" + tag;
    expect(201, admin("POST", "/admin/events", event(pow, venue, "\"onsale\":" + onsale(now, now.plusSeconds(3600), ",\"powBits\":8"))));
    expect(403, call(fan, "POST", "/api/events/" + pow + "/queue", "{}"));  // bad_pow
    JsonNode puzzle = expect(200, call(fan, "GET", "/api/events/" + pow + "/queue/challenge", null)).json();
    String challenge = puzzle.get("challenge").asText();
    expect(200, call(fan, "POST", "/api/events/" + pow + "/queue",
        "{\"pow\":{\"challenge\":\"" + challenge + "\",\"nonce\":\"" + solve(challenge, puzzle.get("bits").asInt()) + "\"}}"));

    // The page.
    String pageTag = expect(200, call(fan, "GET", "/events/" + queued, null)).headers().firstValue("ETag").orElseThrow();
    expect(304, call(fan, "GET", "/events/" + queued, null, "If-None-Match", pageTag));
    expect(404, call(fan, "GET", "/events/oa-none-" + tag, null));

    // ---- fans: shopping --------------------------------------------------------------------
    // Not admitted yet (the sale has not started): the shop refuses.
    expect(403, call(fan, "GET", q + "/seatmap", null));
    expect(403, call(fan, "GET", q + "/availability", null));
    expect(403, call(fan, "POST", q + "/cart/holds", "{\"best\":{\"quantity\":1}}"));
    expect(403, call(fan, "GET", q + "/cart", null));
    expect(403, call(fan, "DELETE", q + "/cart/holds/A-1-1", null));
    expect(403, call(fan, "POST", q + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "k0"));
    expect(401, call(anon, "GET", q + "/seatmap", null));
    expect(404, call(fan, "GET", "/api/events/oa-none-" + tag + "/seatmap", null));
    // The sale starts: the lottery runs and the line reaches the fan.
    clock.advance(Duration.ofSeconds(3601));
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
        fan.send("GET", q + "/queue/status", null).json().path("state").asText().equals("admitted"));
    expect(200, call(fan, "GET", q + "/queue/status", null));
    expect(200, call(fan, "GET", q + "/seatmap", null));
    expect(200, call(fan, "GET", q + "/seatmap?format=compact", null));
    expect(400, call(fan, "GET", q + "/seatmap?format=everything", null));
    expect(200, call(anon, "GET", q + "/summary", null));
    expect(404, call(anon, "GET", "/api/events/oa-none-" + tag + "/summary", null));
    expect(200, call(fan, "GET", q + "/availability", null));
    expect(200, call(fan, "POST", q + "/cart/holds", "{\"best\":{\"quantity\":1,\"zone\":\"upper\"}}"));

    // The open sale: contention, limits, payment.
    String o = "/api/events/" + open;
    HttpFan rival = fan(port, "oa-rival-" + tag);
    expect(200, call(fan, "POST", o + "/queue", "{}"));
    expect(200, call(fan, "POST", o + "/cart/holds", "{\"seats\":[\"A-1-1\",\"A-1-2\"]}"));
    expect(409, call(rival, "POST", o + "/cart/holds", "{\"seats\":[\"A-1-2\",\"A-1-3\"]}"));  // seats_taken
    expect(409, call(rival, "POST", o + "/cart/holds", "{\"best\":{\"quantity\":2,\"maxPriceCents\":1}}"));  // no_seats
    expect(422, call(rival, "POST", o + "/cart/holds", "{\"best\":{\"quantity\":5}}"));
    expect(400, call(rival, "POST", o + "/cart/holds", "{\"seats\":[]}"));
    expect(400, call(rival, "POST", o + "/cart/holds", "{\"best\":{\"quantity\":2.5}}"));
    expect(400, call(rival, "POST", o + "/cart/holds", "{\"seats\":[\"NO-SUCH-SEAT\"]}"));
    expect(415, raw("POST", o + "/cart/holds", "{\"best\":{\"quantity\":1}}", "text/plain", "Cookie", "bo_id=" + rival.cookie()));
    expect(200, call(fan, "GET", o + "/cart", null));
    expect(204, call(fan, "DELETE", o + "/cart/holds/A-1-2", null));
    expect(400, call(fan, "DELETE", o + "/cart/holds/" + "x".repeat(101), null));
    expect(400, call(fan, "POST", o + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}"));  // no Idempotency-Key
    expect(400, call(fan, "POST", o + "/cart/checkout", "{\"paymentToken\":7}", "Idempotency-Key", "k1"));
    expect(400, call(fan, "POST", o + "/cart/checkout", "{\"paymentToken\":\"tok_visa\",\"expectedSeats\":[]}", "Idempotency-Key", "k1"));
    expect(400, call(fan, "POST", o + "/cart/checkout", "{\"paymentToken\":\"tok_visa\",\"expectedSeats\":[\"A-1-1\",\"A-1-1\"]}",
        "Idempotency-Key", "k1"));
    JsonNode changed = expect(409, call(fan, "POST", o + "/cart/checkout",
        "{\"paymentToken\":\"tok_visa\",\"expectedSeats\":[\"A-1-1\",\"A-1-2\"]}", "Idempotency-Key", "k-stale")).json();
    assertEquals("cart_changed", changed.get("error").asText());
    assertEquals("[\"A-1-1\"]", changed.get("seats").toString(), "the seats held now");
    expect(402, call(fan, "POST", o + "/cart/checkout", "{\"paymentToken\":\"tok_declined\"}", "Idempotency-Key", "k-declined"));
    JsonNode order = expect(200, call(fan, "POST", o + "/cart/checkout",
        "{\"paymentToken\":\"tok_visa\",\"expectedSeats\":[\"A-1-1\"]}", "Idempotency-Key", "k-paid")).json();
    JsonNode again = expect(200, call(fan, "POST", o + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "k-paid")).json();
    assertEquals(order.get("orderId"), again.get("orderId"));
    String orderId = order.get("orderId").asText();

    // ---- orders and tickets ----------------------------------------------------------------
    expect(200, call(fan, "GET", "/api/orders/" + orderId, null));
    expect(404, call(rival, "GET", "/api/orders/" + orderId, null));
    expect(401, call(anon, "GET", "/api/orders/" + orderId, null));
    expect(200, call(fan, "GET", "/api/me/tickets", null));
    expect(401, call(anon, "GET", "/api/me/tickets", null));
    String qr = "/api/me/tickets/" + order.get("tickets").get(0).get("ticketId").asText() + "/qr";
    expect(200, call(fan, "GET", qr, null));
    expect(404, call(rival, "GET", qr, null));
    expect(401, call(anon, "GET", qr, null));

    // ---- gates -----------------------------------------------------------------------------
    String barcode = order.get("tickets").get(0).get("barcode").asText();
    expect(401, call(anon, "POST", "/gate/scan", "{\"barcode\":\"" + barcode + "\"}"));
    expect(403, gate("{\"barcode\":\"" + barcode + "\"}", "not-the-gate-token-0123456789abcdefgh"));
    expect(409, gate("{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + queued + "\"}", TestNode.GATE_TOKEN));  // wrong_event
    expect(200, gate("{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + open + "\"}", TestNode.GATE_TOKEN));
    expect(409, gate("{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + open + "\"}", TestNode.GATE_TOKEN));  // already_scanned
    expect(400, gate("{\"barcode\":\"forged\",\"eventId\":\"" + open + "\"}", TestNode.GATE_TOKEN));  // invalid
    expect(400, gate("{\"barcode\":\"" + barcode + "\"}", TestNode.GATE_TOKEN));  // no eventId
    expect(400, gate("{\"barcode\":\"" + barcode + "\",\"eventId\":\"no such\\u0007event\"}", TestNode.GATE_TOKEN));
    expect(400, gate("{\"barcode\":[1]}", TestNode.GATE_TOKEN));

    // ---- a hold that ran out: 410, last, since it moves the node's clock on ------------------
    expect(200, call(rival, "POST", o + "/cart/holds", "{\"seats\":[\"B-1-8\"]}"));
    clock.advance(Duration.ofSeconds(31));
    expect(410, call(rival, "POST", o + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "k-late"));

    expect(200, call(anon, "GET", "/api/openapi.json", null));
    // This node pays with the simulator: Stripe's webhook is not served (StripeCheckoutIntegrationTest drives it).
    expect(404, call(anon, "POST", "/api/payments/stripe/webhook", "{}", "Stripe-Signature", "t=1,v1=00"));

    // ---- what was covered ------------------------------------------------------------------
    Set<String> missing = new TreeSet<>();
    for (OpenApiContract.Operation op : contract.operations()) {
      if (!contract.covered().contains(op) && !NOT_SERVED_YET.contains(op.toString())) missing.add(op.toString());
    }
    assertEquals(Set.of(), missing, "documented operations never driven; seen: " + contract.seen());
    for (String op : NOT_SERVED_YET) {
      String path = op.substring(op.indexOf(' ') + 1).replace("{eventId}", open);
      HttpFan.Reply r = new HttpFan(port).admin(op.substring(0, op.indexOf(' ')), path, null);
      assertTrue(r.status() == 404 || r.status() == 405,
          op + " is served now (" + r.status() + "): take it off NOT_SERVED_YET and drive it here");
    }

    // No method the document leaves out is served on a documented path, for a signed-in fan or a manager.
    Set<String> served = new TreeSet<>();
    Set<String> documented = contract.operations().stream().map(OpenApiContract.Operation::toString).collect(Collectors.toSet());
    for (OpenApiContract.Operation op : contract.operations()) {
      String path = op.template().replace("{eventId}", open).replace("{seatId}", "A-1-3").replace("{orderId}", orderId)
          .replace("{ticketId}", order.get("tickets").get(0).get("ticketId").asText());
      for (String method : List.of("GET", "POST", "PUT", "PATCH", "DELETE")) {
        if (documented.contains(method + " " + op.template())) continue;
        HttpFan.Reply r = fan.send(method, path, method.equals("GET") ? null : "{}", "Authorization", "Bearer " + TestNode.ADMIN_TOKEN);
        if (r.status() != 404 && r.status() != 405) served.add(method + " " + op.template() + " " + r.status());
      }
    }
    assertEquals(Set.of(), served, "methods served but not documented");

    // ---- the wire's shapes -----------------------------------------------------------------
    assertEquals(new TreeMap<>(PINNED_SHAPES), shapes, "the bodies' shapes on the wire");
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** Sends, keeps the queue cookie it is given, and notes whatever the document does not describe. */
  static HttpFan.Reply call(HttpFan fan, String method, String path, String body, String... headers) {
    HttpFan.Reply r = fan.send(method, path, body, headers);
    r.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_")).forEach(c -> {
      String name = c.substring("bo_q_".length(), c.indexOf('='));
      fan.withQueueCookie(name, c.substring(c.indexOf('=') + 1, c.indexOf(';')));
    });
    return checked(method, path, r);
  }

  static HttpFan.Reply checked(String method, String path, HttpFan.Reply r) {
    List<String> found = contract.problems(method, path, r.status(), r.headers().firstValue("Content-Type").orElse(null), r.body());
    assertEquals(List.of(), found, "an answer the document does not describe");
    String operation = method + " " + contract.template(path) + " " + r.status();
    boolean json = r.headers().firstValue("Content-Type").orElse("").startsWith("application/json");
    if (json && PINNED_SHAPES.containsKey(operation)) {
      shapes.computeIfAbsent(operation, k -> new TreeSet<>()).add(WireShape.of(r.body()));
    }
    return r;
  }

  static HttpFan.Reply expect(int status, HttpFan.Reply r) {
    assertEquals(status, r.status(), r.body());
    return r;
  }

  static HttpFan.Reply admin(String method, String path, String body) {
    return checked(method, path, new HttpFan(node.httpPort()).admin(method, path, body));
  }

  static HttpFan.Reply gate(String body, String token) {
    return checked("POST", "/gate/scan", new HttpFan(node.httpPort()).send("POST", "/gate/scan", body, "Authorization", "Bearer " + token));
  }

  /** The live stream of an event as a manager reads it: its first event's data is the body (or the error answer's). */
  static HttpFan.Reply live(String eventId, String token) throws Exception {
    String path = "/admin/events/" + eventId + "/live";
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort() + path))
        .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token).GET().build();
    var r = CLIENT.send(request, java.net.http.HttpResponse.BodyHandlers.ofInputStream());
    String contentType = r.headers().firstValue("Content-Type").orElse(null);
    String body;
    try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      if (r.statusCode() != 200) {
        body = in.lines().collect(Collectors.joining("\n"));
      } else {
        String line;
        while ((line = in.readLine()) != null && !line.startsWith("data:")) {
          // comments, event names, blank lines before the first event
        }
        body = line == null ? "" : line.substring("data:".length()).trim();
      }
    }
    HttpFan.Reply reply = new HttpFan.Reply(r.statusCode(), body, r.headers());
    List<String> found = contract.streamProblems("GET", path, reply.status(), contentType, body);
    assertEquals(List.of(), found, "an answer the document does not describe");
    return reply;
  }

  /** A request whose body has its own content type (HttpFan always says JSON). */
  static HttpFan.Reply raw(String method, String path, String body, String contentType, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort() + path))
        .timeout(Duration.ofSeconds(30)).header("Content-Type", contentType)
        .method(method, HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i + 1 < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
    var r = CLIENT.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    return checked(method, path, new HttpFan.Reply(r.statusCode(), r.body(), r.headers()));
  }

  static HttpFan fan(int port, String name) {
    HttpFan fan = new HttpFan(port);
    fan.signUp(name + "@example.com");
    return fan;
  }

  static String creds(String email, String password) {
    ObjectNode n = HttpFan.JSON.createObjectNode();
    n.put("email", email);
    n.put("password", password);
    return n.toString();
  }

  static String event(String eventId, String venueId, String more) {
    return "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venueId + "\",\"name\":\"Show\","
        + "\"prices\":{\"floor\":1000,\"upper\":500}" + (more.isEmpty() ? "" : "," + more) + "}";
  }

  static String onsale(Instant lobby, Instant start, String more) {
    return "{\"lobbyOpensAt\":\"" + lobby + "\",\"startsAt\":\"" + start + "\",\"admissionPerMinute\":600,"
        + "\"maxActiveShoppers\":100" + more + "}";
  }

  /** A nonce whose SHA-256 of {@code challenge:nonce} starts with {@code bits} zero bits. */
  static String solve(String challenge, int bits) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (long nonce = 0; ; nonce++) {
      byte[] h = sha.digest((challenge + ":" + nonce).getBytes(StandardCharsets.UTF_8));
      int zeros = 0;
      for (byte b : h) {
        if (b == 0) {
          zeros += 8;
          continue;
        }
        zeros += Integer.numberOfLeadingZeros(b & 0xff) - 24;
        break;
      }
      if (zeros >= bits) return Long.toString(nonce);
    }
  }
}
