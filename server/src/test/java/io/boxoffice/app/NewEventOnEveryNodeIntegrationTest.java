package io.boxoffice.app;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An event created and opened through one node, after the other nodes started, is never "no
 * such event" (404) on them: a node that has not heard of it yet says "try again" (503) and then
 * serves it. A 404 is an answer storefronts and CDNs keep; a fan sent to another node by the
 * load balancer would be told the show does not exist. Made-up ids stay 404.
 */
class NewEventOnEveryNodeIntegrationTest {
  @Test
  void anEventCreatedOnOneNodeIsServedByTheOthersAndNeverCalledUnknown() throws Exception {
    try (TestCluster cluster = new TestCluster(Clock.systemUTC())) {
      Node a = cluster.startFirst("");
      Node b = cluster.startNext("");
      TestCluster.awaitUp(b, 2);
      String id = UUID.randomUUID().toString().substring(0, 8);
      // Both nodes have read the catalogue (an unknown id is a plain 404 on B) before the event exists.
      HttpFan onB = new HttpFan(b.httpPort());
      // A cluster that has just formed may still be placing the accounts' shards: sign-up is asked again.
      int[] attempt = {0};
      await("a sign-up on B").atMost(Duration.ofSeconds(30)).ignoreExceptionsMatching(e -> e.getMessage().contains("status=503"))
          .until(() -> onB.signUp("new-" + id + "-" + attempt[0]++ + "@example.com") != null);
      Eventually.reply("B able to tell a made-up id", Duration.ofSeconds(30), Duration.ofMillis(200),
          () -> onB.send("GET", "/api/events/made-up-" + id + "/queue/manifest", null), r -> r.status() == 404);

      String eventId = "new-" + id;
      java.time.Instant soon = java.time.Instant.now().plusSeconds(60);
      TestCluster.createEvent(new HttpFan(a.httpPort()), "newv-" + id, 200, eventId, "\"onsale\":{\"lobbyOpensAt\":\"" + soon
          + "\",\"startsAt\":\"" + soon.plusSeconds(60) + "\",\"admissionPerMinute\":600,\"maxActiveShoppers\":100},");
      HttpFan.Reply served = Eventually.reply("the new event served by B", Duration.ofSeconds(30), Duration.ofMillis(100),
          () -> {
            HttpFan.Reply r = onB.send("GET", "/api/events/" + eventId + "/queue/manifest", null);
            assertNotEquals(404, r.status(), "B called the event created on A unknown: " + r.body());
            return r;
          }, r -> r.status() == 200);
      assertEquals(200, served.status());
      assertEquals(404, onB.send("GET", "/api/events/made-up-" + id + "/queue/manifest", null).status(), "made-up ids stay unknown");
    }
  }
}
