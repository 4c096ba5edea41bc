package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulated page's pace against the origin, and the edge figures the report gives. */
class SimEdgeTest {
  static JsonNode manifest(String state, long admittedUpTo, int perMinute) throws Exception {
    return new ObjectMapper().readTree("{\"state\":\"" + state + "\",\"admittedUpTo\":" + admittedUpTo + ",\"admissionPerMinute\":"
        + perMinute + ",\"seatsRemaining\":100}");
  }

  @Test
  void aWaitingPageAsksForItsOwnStatusOnlyAtTheLotteryWhenItsTurnComesAndAtTheEnd() throws Exception {
    long poll = 10_000;
    // In the lobby nothing is drawn yet: the manifest is enough.
    assertEquals(-1, Page.statusDelayMillis(0, manifest("lobby", 0, 600), poll));
    assertEquals(-1, Page.statusDelayMillis(0, manifest("scheduled", 0, 600), poll));
    // The lobby was drawn: a tab without a place asks once what its place is.
    assertEquals(0, Page.statusDelayMillis(0, manifest("waiting", 0, 600), poll));
    // 600 a minute is 10 a second: the next poll, 10 s on, is 100 places on.
    assertEquals(-1, Page.statusDelayMillis(5_000, manifest("waiting", 1_000, 600), poll), "far back: the manifest tells people ahead");
    assertEquals(-1, Page.statusDelayMillis(1_100, manifest("waiting", 1_000, 600), poll), "reached at the next poll, not before");
    assertEquals(9_900, Page.statusDelayMillis(1_099, manifest("waiting", 1_000, 600), poll), "reached before it: asks then");
    assertEquals(100, Page.statusDelayMillis(1_001, manifest("waiting", 1_000, 600), poll));
    assertEquals(0, Page.statusDelayMillis(1_000, manifest("waiting", 1_000, 600), poll), "reached");
    assertEquals(0, Page.statusDelayMillis(900, manifest("waiting", 1_000, 600), poll), "passed");
    assertEquals(-1, Page.statusDelayMillis(900, manifest("paused", 1_000, 600), poll), "paused: the manifest says so");
    assertEquals(0, Page.statusDelayMillis(5_000, manifest("sold_out", 1_000, 600), poll), "the end: the page learns its own");
    assertEquals(-1, Page.statusDelayMillis(5_000, null, poll), "no manifest: the page waits for the next");
  }

  @Test
  void thePageShowsTheWaitTheManifestImplies() throws Exception {
    Tab tab = new Tab(new Account(1, -1, "a@example.com", true), 0, null);
    tab.place = 1_600;
    Page.showWait(tab, manifest("waiting", 1_000, 600));
    assertEquals(60, tab.shownWaitSeconds, "600 ahead at 10 a second");
    Page.showWait(tab, manifest("waiting", 1_500, 600));
    assertEquals(60, tab.shownWaitSeconds, "the first promise is the one measured");
  }

  @Test
  void edgeFiguresCountWhatReachedTheOriginPerWaitingFanMinute() {
    // 100 of the status calls were answered "admitted": an admitted fan's first call, not a waiting one's.
    Map<String, Object> f = EdgeFront.figures(
        Map.of("queue_manifest", 12L, "page", 3L, "queue_status", 145L, "queue_join", 100L, "hold", 90L),
        Map.of("page", 100L, "manifest", 5_000L, "status", 1_000L, "join", 100L), 100, 300.0);
    assertEquals(15L, f.get("originWaitingPublicRequests"));
    assertEquals(45L, f.get("originWaitingPrivateRequests"));
    assertEquals(0.2, (Double) f.get("originRequestsPerWaitingFanPerMinute"), 1e-9);
    assertEquals(0.15, (Double) f.get("originPrivateRequestsPerWaitingFanPerMinute"), 1e-9);
    assertEquals(6_000L, f.get("waitingPageRequestsSent"));
    assertEquals(99.0, (Double) f.get("shareServedAtEdge"), 1e-9);
    assertEquals(350L, f.get("originRequestsTotal"));
    assertEquals(100L, f.get("statusesAnsweredAdmitted"));
  }
}
