package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestNode;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Issue 8, finding 12: trailing content, strings for numbers and fractions for cents are 400 and change nothing. */
class StrictJsonTest {
  static Node node;
  static HttpFan admin;
  static String venueId;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(new MutableClock(Instant.parse("2026-12-01T10:00:00Z")), TestNode.payments());
    admin = new HttpFan(node.httpPort());
    venueId = "v-" + UUID.randomUUID().toString().substring(0, 8);
    assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"" + venueId + "\",\"name\":\"Club\",\"sections\":"
        + "[{\"sectionId\":\"F1\",\"zone\":\"floor\",\"rows\":[{\"rowId\":\"A\",\"seats\":4}]}]}").status());
  }

  @AfterAll
  static void stop() {
    if (node != null) node.stop();
  }

  static String event(String eventId, String price, String maxSeats) {
    return "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venueId + "\",\"name\":\"Show\",\"prices\":{\"floor\":" + price
        + "},\"holdSeconds\":480,\"holdJitterSeconds\":90,\"maxSeatsPerAccount\":" + maxSeats + "}";
  }

  static boolean listed(String eventId) {
    return admin.admin("GET", "/admin/events", null).body().contains("\"" + eventId + "\"");
  }

  @Test
  void aPriceWithCentsFractionsOrInQuotesIsRefusedAndNoEventIsCreated() {
    for (String[] bad : new String[][] {{"49.99", "4"}, {"\"4999\"", "4"}, {"4999", "\"4\""}, {"4999", "4.0"}, {"true", "4"}}) {
      String eventId = "ev-" + UUID.randomUUID().toString().substring(0, 8);
      Hostile.refused(admin.admin("POST", "/admin/events", event(eventId, bad[0], bad[1])), 400, "bad_request");
      assertFalse(listed(eventId), "refused " + String.join(",", bad) + " yet created");
    }
    String eventId = "ev-" + UUID.randomUUID().toString().substring(0, 8);
    Hostile.refused(admin.admin("POST", "/admin/events", event(eventId, "4999", "4") + " {\"eventId\":\"other\"}"), 400, "bad_request");
    Hostile.refused(admin.admin("POST", "/admin/events", event(eventId, "4999", "4") + "garbage"), 400, "bad_request");
    assertFalse(listed(eventId));
    assertEquals(201, admin.admin("POST", "/admin/events", event(eventId, "4999", "4")).status());
  }

  @Test
  void signInWithTrailingGarbageOrANumberForAStringIs400() {
    String email = "strict-" + UUID.randomUUID() + "@example.com";
    HttpFan fan = new HttpFan(node.httpPort());
    String body = Hostile.credentials(email, "correct horse battery");
    Hostile.refused(fan.send("POST", "/api/accounts", body + "]"), 400, "bad_request");
    Hostile.refused(fan.send("POST", "/api/session", body), 401, "unauthenticated"); // nothing registered
    Hostile.refused(fan.send("POST", "/api/accounts", "{\"email\":\"" + email + "\",\"password\":12345678901}"), 400, "bad_request");
    assertEquals(201, fan.send("POST", "/api/accounts", body).status());
  }
}
