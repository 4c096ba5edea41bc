package io.boxoffice.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * After a node restart on PostgreSQL the managers' lists still hold every event (closed, open
 * and scheduled, with name and venue) and every venue, although no room of a closed or open
 * sale runs again until someone asks for it (the list reads them from the directory at once).
 */
class ManagerListsRestartTest {

  @Test
  void listsAreWholeAfterARestart() throws Exception {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String venueId = "rv-" + suffix;
    String closed = "rc-" + suffix;
    String open = "ro-" + suffix;
    String scheduled = "rs-" + suffix;
    Node node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    try {
      HttpFan admin = new HttpFan(node.httpPort());
      assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"" + venueId + "\",\"name\":\"Restart Hall\","
          + "\"generate\":{\"layout\":\"stadium\",\"seats\":120}}").status());
      for (String eventId : new String[] {closed, open, scheduled}) {
        HttpFan.Reply r = admin.admin("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venueId
            + "\",\"name\":\"Show " + eventId + "\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}");
        assertEquals(201, r.status(), r.body());
      }
      assertEquals(200, admin.admin("POST", "/admin/events/" + open + "/open", null).status());
      Instant later = Instant.now().plus(Duration.ofDays(1));
      assertEquals(200, admin.admin("PUT", "/admin/events/" + scheduled + "/onsale", "{\"lobbyOpensAt\":\"" + later
          + "\",\"startsAt\":\"" + later.plusSeconds(600) + "\",\"admissionPerMinute\":60,\"maxActiveShoppers\":10}").status());
      // The directory has them (the projections commit a group within half a second) before the node goes.
      await().atMost(Duration.ofSeconds(20)).until(() -> directoryRows(suffix) == 4);
    } finally {
      node.stop();
    }

    Node again = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    try {
      HttpFan admin = new HttpFan(again.httpPort());
      JsonNode events = admin.admin("GET", "/admin/events", null).json().get("events");
      assertEvent(events, closed, "closed", venueId);
      assertEvent(events, open, "open", venueId);
      // A scheduled room is started again by the on-sale keeper; the list shows it scheduled by then at the latest.
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
          assertEvent(admin.admin("GET", "/admin/events", null).json().get("events"), scheduled, "scheduled", venueId));
      JsonNode venue = null;
      for (JsonNode v : admin.admin("GET", "/admin/venues", null).json().get("venues")) {
        if (v.get("venueId").asText().equals(venueId)) venue = v;
      }
      assertNotNull(venue, "the venue is listed after the restart");
      assertEquals("Restart Hall", venue.get("name").asText());
      assertEquals(120, venue.get("seatCount").asInt());
    } finally {
      again.stop();
    }
  }

  private static void assertEvent(JsonNode events, String eventId, String state, String venueId) {
    for (JsonNode e : events) {
      if (e.get("eventId").asText().equals(eventId)) {
        assertEquals("Show " + eventId, e.get("name").asText(), eventId);
        assertEquals(venueId, e.get("venueId").asText(), eventId);
        assertEquals(state, e.get("state").asText(), eventId);
        return;
      }
    }
    throw new AssertionError(eventId + " is not listed after the restart: " + events);
  }

  /** Rows of this test's events and venue in the directory tables. */
  private static int directoryRows(String suffix) throws Exception {
    try (Connection c = DriverManager.getConnection(TestNode.PG_URL, "postgres", "");
         PreparedStatement st = c.prepareStatement("SELECT (SELECT COUNT(*) FROM event_directory WHERE event_id LIKE ?)"
             + " + (SELECT COUNT(*) FROM venue_directory WHERE venue_id LIKE ?)")) {
      st.setString(1, "%-" + suffix);
      st.setString(2, "%-" + suffix);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
