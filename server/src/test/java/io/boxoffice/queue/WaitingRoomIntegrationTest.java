package io.boxoffice.queue;

import io.boxoffice.queue.domain.ProofOfWork;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Fans through the waiting room over HTTP: lobby, lottery, admission, tokens, presale, proof of work, limits. */
class WaitingRoomIntegrationTest {
  static final Instant T0 = Instant.parse("2026-12-01T09:50:00Z");
  static final MutableClock clock = new MutableClock(T0);
  static Node node;
  static HttpFan admin;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(clock, TestNode.payments(), ConfigFactory.parseString(
        "boxoffice.bots.rate-limits.per-account { burst = 30, per-second = 1000 }"));
    admin = new HttpFan(node.httpPort());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  /** A 1,000-seat event whose lobby is open now and whose sale starts in ten minutes. */
  static String onSale(int perMinute, boolean presale, int powBits) {
    String id = UUID.randomUUID().toString().substring(0, 8);
    assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"v-" + id + "\",\"name\":\"Hall\",\"generate\":"
        + "{\"layout\":\"stadium\",\"seats\":1000}}").status());
    assertEquals(201, admin.admin("POST", "/admin/events", "{\"eventId\":\"e-" + id + "\",\"venueId\":\"v-" + id
        + "\",\"name\":\"Show\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}").status());
    HttpFan.Reply put = admin.admin("PUT", "/admin/events/e-" + id + "/onsale", "{\"lobbyOpensAt\":\"" + clock.instant()
        + "\",\"startsAt\":\"" + clock.instant().plusSeconds(600) + "\",\"admissionPerMinute\":" + perMinute
        + ",\"maxActiveShoppers\":100000,\"presale\":" + presale + ",\"powBits\":" + powBits + "}");
    assertEquals(200, put.status(), put.body());
    return "e-" + id;
  }

  static HttpFan fan() {
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("wr-" + UUID.randomUUID() + "@example.com");
    return fan;
  }

  static HttpFan.Reply join(HttpFan fan, String eventId, String body) {
    HttpFan.Reply r = fan.send("POST", "/api/events/" + eventId + "/queue", body);
    r.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_")).findFirst()
        .ifPresent(c -> fan.withQueueCookie(eventId, c.substring(c.indexOf('=') + 1, c.indexOf(';'))));
    return r;
  }

  static HttpFan.Reply status(HttpFan fan, String eventId) {
    HttpFan.Reply r = fan.send("GET", "/api/events/" + eventId + "/queue/status", null);
    r.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_")).findFirst()
        .ifPresent(c -> fan.withQueueCookie(eventId, c.substring(c.indexOf('=') + 1, c.indexOf(';'))));
    return r;
  }

  /** Waits (real time) until the condition holds for the admin stats: the room ticks once a second. */
  static void awaitStats(String eventId, Predicate<JsonNode> condition) {
    Eventually.reply("the stats of " + eventId + " matching", Duration.ofSeconds(15), Duration.ofMillis(100),
        () -> admin.admin("GET", "/admin/events/" + eventId + "/stats", null), r -> condition.test(r.json()));
  }

  @Test
  void lobbyFansGetLotteryPlacesAtTheStartAndShopOnceAdmitted() throws Exception {
    String e = onSale(600, false, 0);
    HttpFan early = fan();
    HttpFan.Reply joined = join(early, e, "{}");
    assertEquals(200, joined.status(), joined.body());
    assertEquals("lobby", joined.json().get("state").asText());
    String cookie = joined.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_" + e)).findFirst().orElseThrow();
    assertTrue(cookie.contains("HttpOnly") && cookie.contains("Secure") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"), cookie);
    assertEquals("lobby", status(early, e).json().get("state").asText());
    assertEquals("private, no-store", status(early, e).headers().firstValue("Cache-Control").orElseThrow());
    HttpFan.Reply page = early.send("GET", "/events/" + e, null);
    assertEquals(200, page.status());
    assertTrue(page.body().contains("Waiting room"), "a fan in the lobby sees the waiting room");
    // The page is the same bytes for everyone (the script asks where the fan stands): a CDN may keep it.
    assertTrue(page.headers().firstValue("Cache-Control").orElseThrow().startsWith("public, max-age="));
    assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
    String signedOut = new HttpFan(node.httpPort()).send("GET", "/events/" + e, null).body();
    assertEquals(signedOut, page.body(), "signed out too");
    HttpFan.Reply shut = early.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":2}}");
    assertEquals(403, shut.status());
    assertEquals("not_admitted", shut.error());
    // A second join of the same account keeps its one entry.
    assertEquals("lobby", join(early, e, "{}").json().get("state").asText());
    awaitStats(e, s -> s.get("lobby").asInt() == 1);

    clock.advance(Duration.ofMinutes(10));
    awaitStats(e, s -> s.get("state").asText().equals("waiting"));
    JsonNode st = status(early, e).json();
    assertEquals(1, st.get("position").asInt(), "a cohort of one: place 1");
    // The line moves by the (test) clock: 10 places a second at 600 a minute.
    clock.advance(Duration.ofSeconds(2));
    awaitStats(e, s -> s.get("admittedUpTo").asInt() >= 1);
    HttpFan.Reply shopPage = early.send("GET", "/events/" + e, null);
    assertEquals(200, shopPage.status());
    assertEquals(signedOut, shopPage.body(), "an admitted fan gets the same page: its script opens the shop");
    assertEquals("admitted", status(early, e).json().get("state").asText());
    HttpFan.Reply hold = early.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":2}}");
    assertEquals(200, hold.status(), hold.body());

    HttpFan late = fan();
    HttpFan.Reply lateJoin = join(late, e, "{}");
    assertEquals(200, lateJoin.status(), lateJoin.body());
    assertTrue(lateJoin.json().get("position").asInt() > 1, "later arrivals queue behind the cohort");
    assertEquals(lateJoin.json().get("position").asInt(), join(late, e, "{}").json().get("position").asInt(), "one place per account");
    HttpFan otherBrowser = new HttpFan(node.httpPort()).withCookie(late.cookie());
    assertEquals(lateJoin.json().get("position").asInt(), join(otherBrowser, e, "{}").json().get("position").asInt(),
        "a second session of the account keeps the place");
  }

  @Test
  void forgedForeignAndMissingTokensAreTurnedAway() throws Exception {
    String e = onSale(60_000, false, 0);
    HttpFan fan = fan();
    join(fan, e, "{}");
    clock.advance(Duration.ofMinutes(10));
    awaitStats(e, s -> s.get("state").asText().equals("waiting"));
    clock.advance(Duration.ofSeconds(1));
    awaitStats(e, s -> s.get("admittedUpTo").asInt() >= 1);
    assertEquals("admitted", status(fan, e).json().get("state").asText());
    String token = fan.queueCookie(e);
    String body = "{\"best\":{\"quantity\":1}}";

    HttpFan forged = new HttpFan(node.httpPort()).withCookie(fan.cookie()).withQueueCookie(e, flip(token));
    assertEquals("bad_token", forged.send("POST", "/api/events/" + e + "/cart/holds", body).error());
    HttpFan elsewhere = new HttpFan(node.httpPort()).withCookie(fan.cookie()).withQueueCookie(e, token);
    HttpFan.Reply foreign = elsewhere.send("POST", "/api/events/" + e + "/cart/holds", body, "X-Forwarded-For", "198.51.100.7");
    assertEquals(403, foreign.status());
    assertEquals("bad_token", foreign.error(), "a token taken to another network");
    HttpFan thief = fan().withQueueCookie(e, token);
    assertEquals("bad_token", thief.send("POST", "/api/events/" + e + "/cart/holds", body).error(), "another account's token");
    assertEquals("not_admitted", fan().send("POST", "/api/events/" + e + "/cart/holds", body).error());
    assertEquals(200, fan.send("POST", "/api/events/" + e + "/cart/holds", body).status());
  }

  @Test
  void presaleCodesDecideWhoJoins() {
    String e = onSale(600, true, 0);
    HttpFan invited = fan();
    HttpFan uninvited = fan();
    assertEquals(201, invited.send("POST", "/api/events/" + e + "/presale/registrations", null).status());
    HttpFan.Reply inv = admin.admin("POST", "/admin/events/" + e + "/presale/invitations", "{\"count\":10}");
    assertEquals(200, inv.status(), inv.body());
    JsonNode invitation = inv.json().get("invitations").get(0);
    String code = invitation.get("code").asText();
    assertEquals(1, inv.json().get("invitations").size());
    assertEquals("bad_code", join(uninvited, e, "{}").error());
    assertEquals("bad_code", join(uninvited, e, "{\"code\":\"" + code + "\"}").error(), "a code is bound to its account");
    assertEquals("lobby", join(invited, e, "{\"code\":\"" + code + "\"}").json().get("state").asText());
  }

  @Test
  void proofOfWorkIsAskedForAndChecked() {
    String e = onSale(600, false, 8);
    HttpFan fan = fan();
    assertEquals("bad_pow", join(fan, e, "{}").error());
    JsonNode challenge = fan.send("GET", "/api/events/" + e + "/queue/challenge", null).json();
    assertEquals(8, challenge.get("bits").asInt());
    String c = challenge.get("challenge").asText();
    String nonce = ProofOfWork.solve(c, 8);
    assertEquals("bad_pow", join(fan, e, "{\"pow\":{\"challenge\":\"" + c + "\",\"nonce\":\"x" + nonce + "\"}}").error());
    HttpFan.Reply ok = join(fan, e, "{\"pow\":{\"challenge\":\"" + c + "\",\"nonce\":\"" + nonce + "\"}}");
    assertEquals(200, ok.status(), ok.body());
    HttpFan other = fan();
    assertEquals("bad_pow", join(other, e, "{\"pow\":{\"challenge\":\"" + c + "\",\"nonce\":\"" + nonce + "\"}}").error(),
        "a challenge belongs to one account");
  }

  @Test
  void theManifestIsCacheableAndTheLobbyIsClosedBeforeItOpens() {
    String id = UUID.randomUUID().toString().substring(0, 8);
    admin.admin("POST", "/admin/venues", "{\"venueId\":\"v-" + id + "\",\"name\":\"H\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}}");
    admin.admin("POST", "/admin/events", "{\"eventId\":\"e-" + id + "\",\"venueId\":\"v-" + id + "\",\"name\":\"S\","
        + "\"prices\":{\"floor\":1,\"lower\":1,\"upper\":1}}");
    admin.admin("PUT", "/admin/events/e-" + id + "/onsale", "{\"lobbyOpensAt\":\"" + clock.instant().plusSeconds(3600)
        + "\",\"startsAt\":\"" + clock.instant().plusSeconds(7200) + "\",\"admissionPerMinute\":100,\"maxActiveShoppers\":100}");
    HttpFan fan = fan();
    HttpFan.Reply early = join(fan, "e-" + id, "{}");
    assertEquals(409, early.status());
    assertEquals("not_open", early.error());
    HttpFan.Reply manifest = fan.send("GET", "/api/events/e-" + id + "/queue/manifest", null);
    assertEquals(200, manifest.status());
    assertEquals("public, max-age=5", manifest.headers().firstValue("Cache-Control").orElseThrow());
    assertEquals("scheduled", manifest.json().get("state").asText());
    assertEquals(401, new HttpFan(node.httpPort()).send("GET", "/api/events/e-" + id + "/queue/manifest", null).status());
  }

  /**
   * An open sale has no line, but its shop is rate limited per account as an on-sale's is: the
   * 31st read in a row (burst 30 here, the clock stands still) is 429 + Retry-After, and another
   * fan still reads. From a network of this test's own, so no other test's budget is spent.
   */
  @Test
  void anOpenSalesShopIsRateLimitedPerAccountToo() {
    String event = admin.newEvent(100);
    assertEquals(200, admin.admin("POST", "/admin/events/" + event + "/open", null).status());
    String path = "/api/events/" + event + "/availability";
    HttpFan bot = fan();
    List<Integer> statuses = new java.util.ArrayList<>();
    for (int i = 0; i < 30; i++) statuses.add(bot.send("GET", path, null, "X-Forwarded-For", "192.0.2.10").status());
    assertEquals(List.of(200), statuses.stream().distinct().toList(), "the burst is answered");
    HttpFan.Reply limited = bot.send("GET", path, null, "X-Forwarded-For", "192.0.2.10");
    assertEquals(429, limited.status(), limited.body());
    assertEquals("rate_limited", limited.error());
    assertTrue(limited.headers().firstValue("Retry-After").isPresent());
    assertEquals(200, fan().send("GET", path, null, "X-Forwarded-For", "192.0.2.11").status());
  }

  @Test
  void tooManyRequestsFromOneAccountAreAnswered429WithRetryAfter() {
    String e = onSale(600, false, 0);
    HttpFan fan = fan();
    List<Integer> statuses = new java.util.ArrayList<>();
    HttpFan.Reply last = null;
    for (int i = 0; i < 40; i++) {
      last = fan.send("GET", "/api/events/" + e + "/queue/manifest", null);
      statuses.add(last.status());
    }
    assertTrue(statuses.contains(429), "no request was limited: " + statuses);
    HttpFan.Reply limited = fan.send("GET", "/api/events/" + e + "/queue/manifest", null);
    assertEquals(429, limited.status());
    assertEquals("rate_limited", limited.error());
    assertFalse(limited.headers().firstValue("Retry-After").orElse("").isEmpty());
  }

  static String flip(String token) {
    char[] c = token.toCharArray();
    int i = c.length / 2;
    c[i] = c[i] == 'A' ? 'B' : 'A';
    return new String(c);
  }
}
