package io.boxoffice.hostile;

import static io.boxoffice.hostile.Hostile.keepingCookie;
import static io.boxoffice.hostile.Hostile.refused;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The waiting room against fans who game it: joining over and over without a cookie, coming
 * back from another device or network, replaying a token from before admission, leaving and
 * rejoining. The lobby counts accounts, places are distinct and kept, a window starts once.
 */
class WaitingRoomAttacksIntegrationTest {
  static final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T09:00:00Z"));
  static Node node;
  static HttpFan admin;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(clock, TestNode.payments(), ConfigFactory.parseString(
        "boxoffice.bots.rate-limits.per-account { burst = 1000, per-second = 1000 }\n"
            + "boxoffice.bots.rate-limits.per-prefix { burst = 100000, per-second = 100000 }"));
    admin = new HttpFan(node.httpPort());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  /** An event whose lobby is open now and whose sale starts in ten minutes. */
  static String onSale(int perMinute, int maxActive) {
    String id = "wa-" + UUID.randomUUID().toString().substring(0, 8);
    assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"v-" + id + "\",\"name\":\"Hall\",\"generate\":"
        + "{\"layout\":\"stadium\",\"seats\":1000}}").status());
    HttpFan.Reply created = admin.admin("POST", "/admin/events", "{\"eventId\":\"" + id + "\",\"venueId\":\"v-" + id
        + "\",\"name\":\"Show\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20},\"onsale\":{\"lobbyOpensAt\":\""
        + clock.instant() + "\",\"startsAt\":\"" + clock.instant().plusSeconds(600) + "\",\"admissionPerMinute\":" + perMinute
        + ",\"maxActiveShoppers\":" + maxActive + "}}");
    assertEquals(201, created.status(), created.body());
    return id;
  }

  static HttpFan fan() {
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("wa-" + UUID.randomUUID() + "@example.com");
    return fan;
  }

  /** The same account on a new device (no queue cookie) from another network. */
  static HttpFan newDevice(HttpFan fan) {
    return new HttpFan(node.httpPort()).withCookie(fan.cookie());
  }

  static HttpFan.Reply join(HttpFan fan, String e, String... headers) {
    return keepingCookie(fan, e, fan.send("POST", "/api/events/" + e + "/queue", "{}", headers));
  }

  static JsonNode status(HttpFan fan, String e, String... headers) {
    HttpFan.Reply r = keepingCookie(fan, e, fan.send("GET", "/api/events/" + e + "/queue/status", null, headers));
    assertEquals(200, r.status(), r.body());
    return r.json();
  }

  static JsonNode stats(String e) {
    return admin.admin("GET", "/admin/events/" + e + "/stats", null).json();
  }

  static void awaitStats(String e, Predicate<JsonNode> condition) {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> condition.test(stats(e)));
  }

  /** Waits until this node's edge (its copy of the manifest, a tick behind the room) says the fan is admitted. */
  static void awaitAdmitted(HttpFan fan, String e) {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
        .until(() -> status(fan, e).get("state").asText().equals("admitted"));
  }

  /** Starts the sale: the clock passes the start and the room's next tick draws the lottery. */
  static void startSale(String e) {
    clock.advance(Duration.ofMinutes(10));
    awaitStats(e, s -> s.get("state").asText().equals("waiting"));
  }

  @Test
  void oneAccountJoiningFortyTimesWithoutACookieCountsOnce() {
    String e = onSale(600, 1000);
    HttpFan bot = fan();
    List<CompletableFuture<HttpFan.Reply>> joins = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      // A fresh client each time: no queue cookie, and a different network for every other one.
      joins.add(newDevice(bot).sendAsync("POST", "/api/events/" + e + "/queue", "{}", "X-Forwarded-For", "198.51." + i + ".7"));
    }
    for (CompletableFuture<HttpFan.Reply> j : joins) {
      HttpFan.Reply r = j.join();
      assertEquals(200, r.status(), r.body());
      assertEquals("lobby", r.json().get("state").asText());
    }
    for (int i = 0; i < 40; i++) assertEquals(200, join(newDevice(bot), e).status());
    HttpFan honest = fan();
    assertEquals(200, join(honest, e).status());
    awaitStats(e, s -> s.get("lobby").asInt() == 2);
    // Still 2 a few ticks later: nothing was counted twice on the way.
    clock.advance(Duration.ofSeconds(2));
    awaitStats(e, s -> s.get("lobby").asInt() == 2);

    startSale(e);
    Map<String, Integer> positions = new HashMap<>();
    positions.put("bot", join(newDevice(bot), e).json().get("position").asInt());
    positions.put("honest", status(honest, e).get("position").asInt());
    assertNotEquals(positions.get("bot"), positions.get("honest"), "distinct places");
    assertTrue(positions.values().stream().allMatch(p -> p >= 1 && p <= 2), "a cohort of two accounts has places 1 and 2: " + positions);
  }

  @Test
  void lobbyPlacesAreDistinctAndKeptFromAnyDeviceOrNetwork() {
    String e = onSale(1, 100_000);
    List<HttpFan> fans = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      HttpFan f = fan();
      assertEquals("lobby", join(f, e).json().get("state").asText());
      fans.add(f);
    }
    HttpFan lostBeforeStart = fans.get(0);
    // Before the start, a new device joins the same lobby entry.
    assertEquals(200, join(newDevice(lostBeforeStart), e, "X-Forwarded-For", "203.0.113.9").status());
    awaitStats(e, s -> s.get("lobby").asInt() == 30);
    startSale(e);
    List<Integer> places = new ArrayList<>();
    for (HttpFan f : fans) places.add(status(f, e).get("position").asInt());
    assertEquals(30, new HashSet<>(places).size(), "30 accounts, 30 distinct places: " + places);
    assertTrue(places.stream().allMatch(p -> p >= 1 && p <= 30), "the cohort's places are 1..30: " + places);
    for (int i = 0; i < 5; i++) {
      // Cookies gone, another network (mobile, CGNAT): the same place, not a new one at the back.
      HttpFan device = newDevice(fans.get(i));
      HttpFan.Reply again = join(device, e, "X-Forwarded-For", "192.0.2." + (10 + i));
      assertEquals(200, again.status(), again.body());
      assertEquals(places.get(i).intValue(), again.json().get("position").asInt(), "account " + i + " kept its place");
      assertEquals(places.get(i).intValue(), status(device, e, "X-Forwarded-For", "192.0.2." + (10 + i)).get("position").asInt());
    }
    HttpFan late = fan();
    int latePlace = join(late, e).json().get("position").asInt();
    assertTrue(latePlace > 30, "a later arrival queues behind the lobby: " + latePlace);
    assertEquals(latePlace, join(newDevice(late), e, "X-Forwarded-For", "192.0.2.99").json().get("position").asInt(),
        "one account, one place, for later arrivals too");
  }

  @Test
  void aTokenFromBeforeAdmissionNeverRestartsTheWindow() {
    String e = onSale(60_000, 100_000);
    HttpFan fan = fan();
    join(fan, e);
    startSale(e);
    // The token as it was before admission: the place, not yet admitted.
    assertEquals("waiting", status(fan, e).get("state").asText());
    String beforeAdmission = fan.queueCookie(e);
    clock.advance(Duration.ofSeconds(2));
    awaitStats(e, s -> s.get("admittedUpTo").asInt() >= 1);
    awaitAdmitted(fan, e);
    HttpFan.Reply hold = fan.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":1}}");
    assertEquals(200, hold.status(), hold.body());

    // 20 minutes on, the old token still shops, but inside the window that began at admission.
    clock.advance(Duration.ofMinutes(20));
    HttpFan replay = newDevice(fan).withQueueCookie(e, beforeAdmission);
    assertEquals("admitted", status(replay, e).get("state").asText());
    // 11 minutes later the window (30 minutes from admission) is over, however fresh the last replay.
    clock.advance(Duration.ofMinutes(11));
    HttpFan again = newDevice(fan).withQueueCookie(e, beforeAdmission);
    refused(again.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":1}}"), 403, "not_admitted");
    assertEquals("closed", status(again, e).get("state").asText());
    refused(fan.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":1}}"), 403, "not_admitted");
    // Joining again gives the same place, whose window is over.
    HttpFan rejoin = newDevice(fan);
    join(rejoin, e);
    refused(rejoin.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":1}}"), 403, "not_admitted");
  }

  @Test
  void leavingReleasesThePlaceForGood() {
    String e = onSale(60_000, 100_000);
    HttpFan leaver = fan();
    HttpFan stayer = fan();
    join(leaver, e);
    join(stayer, e);
    startSale(e);
    clock.advance(Duration.ofSeconds(2));
    awaitStats(e, s -> s.get("admittedUpTo").asInt() >= 2);
    awaitAdmitted(leaver, e);
    awaitAdmitted(stayer, e);
    int place = status(leaver, e).get("position").asInt();
    String token = leaver.queueCookie(e);
    awaitStats(e, s -> s.get("activeShoppers").asInt() == 2);

    HttpFan.Reply left = keepingCookie(leaver, e, leaver.send("DELETE", "/api/events/" + e + "/queue", null));
    assertEquals(204, left.status(), left.body());
    assertTrue(left.headers().allValues("Set-Cookie").stream().anyMatch(c -> c.startsWith("bo_q_" + e + "=;")), "the cookie is cleared");
    awaitStats(e, s -> s.get("activeShoppers").asInt() == 1);
    // A copy of the token kept from before does not shop any more.
    HttpFan copy = newDevice(leaver).withQueueCookie(e, token);
    await().atMost(Duration.ofSeconds(10)).until(() -> copy.send("POST", "/api/events/" + e + "/cart/holds",
        "{\"best\":{\"quantity\":1}}").status() == 403);
    refused(copy.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":1}}"), 403, "not_admitted");
    assertEquals(204, leaver.send("DELETE", "/api/events/" + e + "/queue", null).status(), "leaving twice is harmless");
    awaitStats(e, s -> s.get("activeShoppers").asInt() == 1);
    // The line passed the place it gave up: one account, one place, so rejoining gets no other (issue 31, finding 2).
    refused(join(newDevice(leaver), e), 409, "place_given_up");
    HttpFan late = fan();
    assertEquals(3, join(late, e).json().get("position").asInt(), "nothing was made for the leaver (was " + place + ")");
    assertEquals("admitted", status(stayer, e).get("state").asText(), "the other fan is untouched");
  }

  @Test
  void buyingFreesTheShopperSlotForTheNextFan() {
    // One shopper at a time: the second fan is admitted only once the first has bought.
    String e = onSale(60_000, 1);
    HttpFan[] fans = oneSlotTwoFans(e);
    HttpFan first = fans[0];
    HttpFan second = fans[1];

    assertEquals(200, first.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":2}}").status());
    HttpFan.Reply order = first.send("POST", "/api/events/" + e + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", "buy-once");
    assertEquals(200, order.status(), order.body());
    // The line moves on the room's clock: let it run a second per poll until the freed slot is taken.
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
      clock.advance(Duration.ofSeconds(1));
      return stats(e).get("admittedUpTo").asInt() == 2;
    });
    await().atMost(Duration.ofSeconds(20)).until(() -> status(second, e).get("state").asText().equals("admitted"));
    // The buyer's pass still shops in its window (the per-account cap bounds it); it just no longer takes a slot.
    assertEquals(200, first.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":1}}").status());
    awaitStats(e, s -> s.get("activeShoppers").asInt() == 1);
  }

  /** Moves the room's clock on by {@code step} and waits until the room has ticked at that time (its manifest says so). */
  static void roomTimePasses(HttpFan fan, String e, Duration step) {
    clock.advance(step);
    Instant due = clock.instant();
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
      JsonNode manifest = fan.send("GET", "/api/events/" + e + "/queue/manifest", null).json();
      return !Instant.parse(manifest.get("updatedAt").asText()).isBefore(due);
    });
  }

  /**
   * A sale with one shopper slot and two fans in its lobby, started: the fan the line reached
   * first (admitted) and the other (waiting), in that order.
   */
  static HttpFan[] oneSlotTwoFans(String e) {
    HttpFan one = fan();
    HttpFan two = fan();
    join(one, e);
    join(two, e);
    startSale(e);
    clock.advance(Duration.ofSeconds(2));
    awaitStats(e, s -> s.get("admittedUpTo").asInt() == 1 && s.get("activeShoppers").asInt() == 1);
    await().atMost(Duration.ofSeconds(20)).until(() -> status(one, e).get("state").asText().equals("admitted")
        || status(two, e).get("state").asText().equals("admitted"));
    HttpFan first = status(one, e).get("state").asText().equals("admitted") ? one : two;
    HttpFan second = first == one ? two : one;
    assertEquals("waiting", status(second, e).get("state").asText());
    return new HttpFan[] {first, second};
  }

  @Test
  void anAdmittedFanWhoNeverComesGivesTheSlotBackAfterTheArrivalWindow() {
    // One shopper at a time; the first fan admitted never holds anything (closed the tab).
    String e = onSale(60_000, 1);
    HttpFan[] order = oneSlotTwoFans(e);
    roomTimePasses(order[0], e, Duration.ofMinutes(2));
    assertEquals(1, stats(e).get("admittedUpTo").asInt(), "inside the arrival window the slot waits for its fan");
    // Past the arrival window (3 minutes), long before the 30-minute admission window ends.
    roomTimePasses(order[0], e, Duration.ofSeconds(70));
    awaitStats(e, s -> s.get("admittedUpTo").asInt() == 2);
    awaitAdmitted(order[1], e);
    // The fan who did not come is still admitted (its token admits for its window) and may still shop.
    assertEquals("admitted", status(order[0], e).get("state").asText());
  }

  @Test
  void anAdmittedFanWhoHoldsSeatsKeepsTheSlotPastTheArrivalWindow() {
    String e = onSale(60_000, 1);
    HttpFan[] order = oneSlotTwoFans(e);
    HttpFan.Reply hold = order[0].send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":2}}");
    assertEquals(200, hold.status(), hold.body());
    for (int minute = 0; minute < 4; minute++) roomTimePasses(order[0], e, Duration.ofMinutes(1));
    roomTimePasses(order[0], e, Duration.ofSeconds(1));
    assertEquals(1, stats(e).get("admittedUpTo").asInt(), "a fan who came to shop keeps the slot");
    assertEquals("waiting", status(order[1], e).get("state").asText());
  }
}
