package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 10: a queue-key rotation rolls without costing a fan its place. In the middle of the
 * second rollout, node A still runs phase 1 (signs with the old key K1, accepts the new K2) and
 * node B runs phase 2 (signs with K2, accepts K1): a place signed by either node shops on the
 * other, at the edge and at the inventory (which checks every hold's pass again), and keeps its
 * position. With the one-rollout rotation this replaces, A would refuse B's tokens as forged.
 */
class QueueKeyRotationIntegrationTest {
  static final String K1 = key(1);
  static final String K2 = key(2);

  static String key(int seed) {
    byte[] k = new byte[32];
    Arrays.fill(k, (byte) seed);
    k[0] = (byte) (seed * 37);
    return Base64.getEncoder().encodeToString(k);
  }

  @Test
  void aMixedPhaseClusterAcceptsEachNodesTokensAndTheFanKeepsItsPlace() throws Exception {
    try (TestCluster cluster = new TestCluster(Clock.systemUTC())) {
      Node a = cluster.startFirst("boxoffice.queue.keys { active = \"" + K1 + "\", accepted = \"" + K2 + "\" }");
      Node b = cluster.startNext("boxoffice.queue.keys { active = \"" + K2 + "\", accepted = [\"" + K1 + "\"] }");
      TestCluster.awaitUp(b, 2);
      String id = UUID.randomUUID().toString().substring(0, 8);
      String eventId = "rot-" + id;
      Instant now = Instant.now();
      TestCluster.createEvent(new HttpFan(a.httpPort()), "rotv-" + id, 400, eventId, "\"onsale\":{\"lobbyOpensAt\":\"" + now
          + "\",\"startsAt\":\"" + now + "\",\"admissionPerMinute\":60000,\"maxActiveShoppers\":100000},");

      HttpFan onA = new HttpFan(a.httpPort());
      onA.signUp("rot-a-" + id + "@example.com");
      HttpFan onB = new HttpFan(b.httpPort());
      onB.signUp("rot-b-" + id + "@example.com");
      int placeA = join(onA, eventId);
      int placeB = join(onB, eventId);
      String signedByA = onA.queueCookie(eventId);
      String signedByB = onB.queueCookie(eventId);
      assertFalse(Arrays.equals(keyId(signedByA), keyId(signedByB)), "each node signs with its own active key");

      // Each fan takes its token to the other node: its place is known there, and it shops there.
      HttpFan aOnB = new HttpFan(b.httpPort()).withCookie(onA.cookie()).withQueueCookie(eventId, signedByA);
      HttpFan bOnA = new HttpFan(a.httpPort()).withCookie(onB.cookie()).withQueueCookie(eventId, signedByB);
      assertEquals(placeA, position(aOnB, eventId), "A's place on B");
      assertEquals(placeB, position(bOnA, eventId), "B's place on A");
      hold(aOnB, eventId);
      hold(bOnA, eventId);
      // And back: the renewed (admitted) tokens each node issued verify on the other one too.
      hold(new HttpFan(a.httpPort()).withCookie(onA.cookie()).withQueueCookie(eventId, aOnB.queueCookie(eventId)), eventId);
      hold(new HttpFan(b.httpPort()).withCookie(onB.cookie()).withQueueCookie(eventId, bOnA.queueCookie(eventId)), eventId);
    }
  }

  /** Joins the line; returns the place (once the room has started and drawn it). The token is kept by the fan. */
  static int join(HttpFan fan, String eventId) {
    HttpFan.Reply r = fan.send("POST", "/api/events/" + eventId + "/queue", "{}");
    assertEquals(200, r.status(), r.body());
    keepToken(fan, eventId, r);
    return position(fan, eventId);
  }

  /** The place the node reads from the fan's token; refused (not 200) if the node cannot verify it. */
  static int position(HttpFan fan, String eventId) {
    HttpFan.Reply r = Eventually.reply("a place in " + eventId, Duration.ofSeconds(20), Duration.ofMillis(200),
        () -> fan.send("GET", "/api/events/" + eventId + "/queue/status", null),
        reply -> reply.status() != 200 || reply.json().path("position").asInt() > 0);
    assertEquals(200, r.status(), r.body());
    keepToken(fan, eventId, r);
    return r.json().get("position").asInt();
  }

  /** A best-available hold of one seat, once the fan's place is admitted; refused as bad_token if the node cannot verify it. */
  static void hold(HttpFan fan, String eventId) {
    HttpFan.Reply held = Eventually.reply("a hold on port of " + eventId, Duration.ofSeconds(20), Duration.ofMillis(200),
        () -> fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":1}}"),
        r -> r.status() == 200 || r.status() == 403 && r.error().equals("bad_token"));
    assertEquals(200, held.status(), held.body());
    keepToken(fan, eventId, held);
  }

  static void keepToken(HttpFan fan, String eventId, HttpFan.Reply r) {
    r.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_" + eventId + "=")).findFirst()
        .ifPresent(c -> fan.withQueueCookie(eventId, c.substring(c.indexOf('=') + 1, c.indexOf(';'))));
  }

  /** Bytes 1-4 of a token: the id of the key that signed it. */
  static byte[] keyId(String token) {
    return Arrays.copyOfRange(Base64.getUrlDecoder().decode(token), 1, 5);
  }
}
