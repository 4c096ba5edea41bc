package io.boxoffice.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.app.Node;
import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestNode;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Event managers steer an on-sale over HTTP: schedule, rates, pause and resume, stats. */
class OnSaleAdminIntegrationTest {
  static final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T09:00:00Z"));
  static Node node;
  static HttpFan admin;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(clock, TestNode.payments());
    admin = new HttpFan(node.httpPort());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  String newEvent() {
    return admin.newEvent(1000);
  }

  static String schedule(String lobby, String start) {
    return "{\"lobbyOpensAt\":\"" + lobby + "\",\"startsAt\":\"" + start + "\",\"admissionPerMinute\":600,"
        + "\"maxActiveShoppers\":2000,\"presale\":false,\"powBits\":0}";
  }

  @Test
  void anOnSaleIsScheduledSteeredAndReported() {
    String e = newEvent();
    JsonNode open = admin.admin("GET", "/admin/events/" + e + "/stats", null).json();
    assertEquals("closed", open.get("state").asText(), "no schedule: closed");

    HttpFan.Reply put = admin.admin("PUT", "/admin/events/" + e + "/onsale", schedule("2026-12-01T09:45:00Z", "2026-12-01T10:00:00Z"));
    assertEquals(200, put.status(), put.body());
    assertEquals("2026-12-01T10:00:00Z", put.json().get("startsAt").asText());
    assertEquals("scheduled", put.json().get("state").asText());
    assertEquals(600, put.json().get("admissionPerMinute").asInt());

    HttpFan.Reply patch = admin.admin("PATCH", "/admin/events/" + e + "/onsale", "{\"admissionPerMinute\":1200}");
    assertEquals(200, patch.status(), patch.body());
    assertEquals(1200, patch.json().get("admissionPerMinute").asInt());
    assertEquals(2000, patch.json().get("maxActiveShoppers").asInt());

    assertEquals(true, admin.admin("POST", "/admin/events/" + e + "/onsale/pause", null).json().get("paused").asBoolean());
    assertEquals(false, admin.admin("POST", "/admin/events/" + e + "/onsale/resume", null).json().get("paused").asBoolean());

    JsonNode stats = admin.admin("GET", "/admin/events/" + e + "/stats", null).json();
    assertEquals("scheduled", stats.get("state").asText());
    assertEquals(0, stats.get("admittedUpTo").asInt());
    assertEquals(1000, stats.get("seats").get("available").asInt());
  }

  @Test
  void timesInThePastMeanNowAndAStartedSaleCannotBeRescheduled() throws Exception {
    String e = newEvent();
    HttpFan.Reply put = admin.admin("PUT", "/admin/events/" + e + "/onsale", schedule("2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z"));
    assertEquals(200, put.status(), put.body());
    assertEquals(clock.instant().toString(), put.json().get("startsAt").asText());
    // The room's next tick starts the sale.
    Eventually.reply("the sale started (state waiting)", Duration.ofSeconds(10), Duration.ofMillis(200),
        () -> admin.admin("GET", "/admin/events/" + e + "/stats", null), r -> r.json().get("state").asText().equals("waiting"));
    assertEquals(409, admin.admin("PUT", "/admin/events/" + e + "/onsale", schedule("2026-12-01T09:45:00Z", "2026-12-01T10:00:00Z")).status());
  }

  @Test
  void badSchedulesAreRefusedAndChangeNothing() {
    String e = newEvent();
    String base = "/admin/events/" + e + "/onsale";
    assertEquals(400, admin.admin("PUT", base, "{\"lobbyOpensAt\":\"tomorrow\",\"startsAt\":\"2026-12-01T10:00:00Z\","
        + "\"admissionPerMinute\":1,\"maxActiveShoppers\":1}").status());
    assertEquals(400, admin.admin("PUT", base, schedule("2026-12-01T11:00:00Z", "2026-12-01T10:00:00Z")).status(), "start before lobby");
    assertEquals(400, admin.admin("PUT", base, "{\"lobbyOpensAt\":\"2026-12-01T09:45:00Z\",\"startsAt\":\"2026-12-01T10:00:00Z\","
        + "\"admissionPerMinute\":0,\"maxActiveShoppers\":1}").status());
    assertEquals(400, admin.admin("PUT", base, "{\"lobbyOpensAt\":\"2026-12-01T09:45:00Z\",\"startsAt\":\"2026-12-01T10:00:00Z\","
        + "\"admissionPerMinute\":10,\"maxActiveShoppers\":1,\"powBits\":99}").status());
    assertEquals(400, admin.admin("PATCH", base, "{}").status());
    assertEquals(404, admin.admin("PATCH", base, "{\"admissionPerMinute\":5}").status(), "nothing scheduled yet");
    assertEquals(404, admin.admin("PUT", "/admin/events/no-such-event/onsale", schedule("2026-12-01T09:45:00Z", "2026-12-01T10:00:00Z")).status());
    assertEquals(401, new HttpFan(node.httpPort()).send("POST", base + "/pause", null).status());
    assertEquals("closed", admin.admin("GET", "/admin/events/" + e + "/stats", null).json().get("state").asText());
  }
}
