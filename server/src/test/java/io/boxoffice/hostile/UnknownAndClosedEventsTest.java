package io.boxoffice.hostile;

import static io.boxoffice.hostile.Hostile.refused;
import static io.boxoffice.hostile.Hostile.refusedCleanly;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.queue.QueuePlace;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Made-up event ids are 404 and leave nothing behind (no entity, metric series or manifest);
 * a new event is closed (403 not_on_sale) until it is scheduled or opened, and creating it
 * with its on-sale leaves no open moment at all.
 */
class UnknownAndClosedEventsTest {
  static final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T09:00:00Z"));
  static Node node;
  static HttpFan admin;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(clock, TestNode.payments(), ConfigFactory.parseString(
        "boxoffice.bots.rate-limits.per-account { burst = 100000, per-second = 100000 }\n"
            + "boxoffice.bots.rate-limits.per-prefix { burst = 100000, per-second = 100000 }"));
    admin = new HttpFan(node.httpPort());
    // Until a starting node has the keeper's list of events it cannot tell a made-up id (404) from a
    // real one (503, try again): wait for that outcome once, so the tests below start from a known node.
    assertEquals(201, create("warm-" + id(), null).status());
    HttpFan fan = fan();
    await().atMost(Duration.ofSeconds(20)).until(() -> fan.send("GET", "/api/events/nothing/queue/status", null).status() == 404);
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  static String id() {
    return UUID.randomUUID().toString().substring(0, 8);
  }

  static HttpFan fan() {
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("uc-" + UUID.randomUUID() + "@example.com");
    return fan;
  }

  /** A venue and an event on it; {@code onsale} is a JSON object or null. */
  static HttpFan.Reply create(String eventId, String onsale) {
    String venue = "v-" + eventId;
    assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"" + venue + "\",\"name\":\"Hall\",\"generate\":"
        + "{\"layout\":\"stadium\",\"seats\":100}}").status());
    return admin.admin("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venue + "\",\"name\":\"Show "
        + eventId + "\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}" + (onsale == null ? "" : ",\"onsale\":" + onsale) + "}");
  }

  static String state(String eventId) {
    for (JsonNode e : admin.admin("GET", "/admin/events", null).json().get("events")) {
      if (e.get("eventId").asText().equals(eventId)) return e.get("state").asText();
    }
    return "absent";
  }

  @Test
  void sixHundredMadeUpEventsAre404AndLeaveNoTrace() throws Exception {
    // An event exists, so the node has heard the rooms and is past its start-up grace.
    String real = "real-" + id();
    assertEquals(201, create(real, null).status());
    HttpFan fan = fan();

    Set<String> seriesBefore = Hostile.series(Hostile.metrics(node));
    Set<String> roomsBefore = Hostile.entities(node, WaitingRoom.ENTITY_TYPE_KEY);
    Set<String> inventoriesBefore = Hostile.entities(node, EventInventory.ENTITY_TYPE_KEY);
    Set<String> placesBefore = Hostile.entities(node, QueuePlace.ENTITY_TYPE_KEY);
    int eventsBefore = admin.admin("GET", "/admin/events", null).json().get("events").size();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 600; i++) ids.add("x" + UUID.randomUUID().toString().replace("-", "").substring(0, 20));
    for (int i = 0; i < ids.size(); i++) {
      String e = ids.get(i);
      HttpFan.Reply r = switch (i % 8) {
        case 0 -> fan.send("GET", "/events/" + e, null);
        case 1 -> fan.send("GET", "/api/events/" + e + "/seatmap", null);
        case 2 -> fan.send("GET", "/api/events/" + e + "/availability", null);
        case 3 -> fan.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":2}}");
        case 4 -> fan.send("POST", "/api/events/" + e + "/queue", "{}");
        case 5 -> fan.send("GET", "/api/events/" + e + "/queue/manifest", null);
        case 6 -> fan.send("DELETE", "/api/events/" + e + "/queue", null);
        default -> fan.send("POST", "/api/events/" + e + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "k" + i);
      };
      refused(r, 404, "not_found");
    }
    Set<String> grown = new HashSet<>(Hostile.series(Hostile.metrics(node)));
    grown.removeAll(seriesBefore);
    for (String e : ids) {
      assertTrue(grown.stream().noneMatch(s -> s.contains(e)), "a metric series for a made-up event: " + e);
    }
    assertEquals(eventsBefore, admin.admin("GET", "/admin/events", null).json().get("events").size(), "no manifest kept");
    assertEquals(roomsBefore, Hostile.entities(node, WaitingRoom.ENTITY_TYPE_KEY), "no waiting room started");
    assertEquals(inventoriesBefore, Hostile.entities(node, EventInventory.ENTITY_TYPE_KEY), "no inventory started");
    Set<String> places = new HashSet<>(Hostile.entities(node, QueuePlace.ENTITY_TYPE_KEY));
    places.removeAll(placesBefore);
    assertTrue(places.isEmpty(), "no queue place started: " + places);
  }

  @Test
  void aNewEventIsClosedUntilItIsOpened() {
    String e = "closed-" + id();
    HttpFan.Reply created = create(e, null);
    assertEquals(201, created.status(), created.body());
    assertEquals("closed", state(e));
    assertEquals("closed", admin.admin("GET", "/admin/events/" + e + "/stats", null).json().get("state").asText());
    HttpFan fan = fan();
    refused(fan.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":2}}"), 403, "not_on_sale");
    refused(fan.send("GET", "/api/events/" + e + "/seatmap", null), 403, "not_on_sale");
    refused(fan.send("POST", "/api/events/" + e + "/queue", "{}"), 403, "not_on_sale");
    refused(fan.send("GET", "/api/events/" + e + "/queue/status", null), 403, "not_on_sale");
    refused(fan.send("GET", "/api/events/" + e + "/queue/manifest", null), 404, "not_found");
    refused(fan.send("GET", "/api/events/" + e + "/summary", null), 404, "not_found");
    assertTrue(fan.send("GET", "/events/" + e, null).body().contains("Waiting room"), "the page is the waiting room, not the shop");
    assertEquals(0, admin.admin("GET", "/admin/events/" + e + "/stats", null).json().get("seats").get("held").asInt(),
        "refusals changed nothing");

    HttpFan.Reply opened = admin.admin("POST", "/admin/events/" + e + "/open", null);
    assertEquals(200, opened.status(), opened.body());
    assertEquals("open", state(e));
    HttpFan.Reply hold = fan.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":2}}");
    assertEquals(200, hold.status(), hold.body());
    assertEquals(200, admin.admin("POST", "/admin/events/" + e + "/open", null).status(), "opening twice is harmless");
    refused(admin.admin("POST", "/admin/events/no-such-" + id() + "/open", null), 404, "not_found");
  }

  @Test
  void aScheduledEventIsNeverOpenNorCanItBeOpened() {
    String e = "sched-" + id();
    assertEquals(201, create(e, null).status());
    HttpFan.Reply put = admin.admin("PUT", "/admin/events/" + e + "/onsale", "{\"lobbyOpensAt\":\"" + clock.instant().plusSeconds(3600)
        + "\",\"startsAt\":\"" + clock.instant().plusSeconds(7200) + "\",\"admissionPerMinute\":100,\"maxActiveShoppers\":100}");
    assertEquals(200, put.status(), put.body());
    assertEquals("scheduled", state(e));
    refused(fan().send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":2}}"), 403, "not_admitted");
    refused(admin.admin("POST", "/admin/events/" + e + "/open", null), 409, "already_scheduled");
    assertEquals("scheduled", state(e), "a refused open changes nothing");
  }

  @Test
  void anEventCreatedWithItsOnSaleHasNoOpenMoment() throws Exception {
    String e = "gapless-" + id();
    HttpFan bot = fan();
    // A bot polls the guessable id before, while and after the manager creates it.
    List<HttpFan.Reply> seen = new CopyOnWriteArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    var polling = java.util.concurrent.CompletableFuture.runAsync(() -> {
      while (!stop.get()) {
        seen.add(bot.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":1}}"));
      }
    });
    try {
      await("the bot's first polls").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
          .failFast("the bot stopped", polling::isDone).until(() -> seen.size() >= 5);
      HttpFan.Reply created = create(e, "{\"lobbyOpensAt\":\"" + clock.instant().plusSeconds(600) + "\",\"startsAt\":\""
          + clock.instant().plusSeconds(1200) + "\",\"admissionPerMinute\":100,\"maxActiveShoppers\":100}");
      assertEquals(201, created.status(), created.body());
      await("ten refusals (403) of the bot by the created event").atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(10)).failFast("the bot stopped", polling::isDone)
          .until(() -> seen.stream().filter(r -> r.status() == 403).count() >= 10);
    } finally {
      stop.set(true);
    }
    polling.get();
    assertEquals("scheduled", state(e));
    for (HttpFan.Reply r : seen) {
      refusedCleanly(r);
      assertTrue(r.status() == 404 || (r.status() == 403 && r.error().equals("not_admitted")), "the bot got in: " + r.body());
    }
    assertEquals(0, admin.admin("GET", "/admin/events/" + e + "/stats", null).json().get("seats").get("held").asInt());
    String bad = "bad-" + id();
    refused(create(bad, "{\"lobbyOpensAt\":\"soon\",\"startsAt\":\"2026-12-01T10:00:00Z\",\"admissionPerMinute\":1,"
        + "\"maxActiveShoppers\":1}"), 400, "bad_request");
    assertEquals("absent", state(bad), "a refused creation creates nothing");
    refused(admin.admin("GET", "/admin/events/" + bad + "/stats", null), 404, "not_found");
  }

  @Test
  void theAdminListNamesEveryEventWithItsState() {
    String e = "listed-" + id();
    assertEquals(201, create(e, null).status());
    JsonNode row = null;
    for (JsonNode r : admin.admin("GET", "/admin/events", null).json().get("events")) if (r.get("eventId").asText().equals(e)) row = r;
    assertTrue(row != null, "listed");
    assertEquals("Show " + e, row.get("name").asText());
    assertEquals("v-" + e, row.get("venueId").asText());
    assertEquals("closed", row.get("state").asText());
    assertEquals(401, new HttpFan(node.httpPort()).send("GET", "/admin/events", null).status());
    TestCluster.open(admin, e);
    assertEquals("open", state(e));
  }
}
