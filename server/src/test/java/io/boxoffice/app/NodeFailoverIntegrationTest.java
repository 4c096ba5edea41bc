package io.boxoffice.app;

import static io.boxoffice.support.TestCluster.hosts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three nodes; the one hosting a busy event is stopped hard (no leaving, no hand-over). The
 * split-brain resolver downs it, the event's inventory starts again on a survivor from the
 * journal, and it goes on selling with every earlier sale intact. Meanwhile a fan of another
 * event, whose hold would have ended during the failover, keeps it and buys afterwards.
 */
class NodeFailoverIntegrationTest {
  /** Shared by the nodes; moved forward to bring a hold's deadline near. */
  final MutableClock clock = MutableClock.running();
  final TestCluster cluster = new TestCluster(clock);

  @AfterEach
  void stopAll() {
    cluster.close();
  }

  /** Creates an event of 30 s holds that lives on one of the survivors (not on the node to be killed). */
  static String eventOnASurvivor(HttpFan admin, String id, Node host, List<Node> survivors) {
    for (int i = 0; i < 20; i++) {
      String eventId = "fw-" + i + "-" + id;
      TestCluster.createEvent(admin, "w-" + id, 500, eventId, "\"holdSeconds\":30,\"holdJitterSeconds\":0,");
      if (!hosts(host, eventId) && survivors.stream().anyMatch(n -> hosts(n, eventId))) return eventId;
    }
    throw new AssertionError("no event landed on a survivor");
  }

  @Test
  void theEventGoesOnOnAnotherNodeWithEverySaleIntact() throws Exception {
    // A crash: the node goes without leaving the cluster or handing its shards over.
    String crash = "pekko.coordinated-shutdown.run-by-actor-system-terminate = off\n";
    Node first = cluster.startFirst(crash);
    String id = UUID.randomUUID().toString().substring(0, 8);
    String eventId = "fo-" + id;
    HttpFan admin = new HttpFan(first.httpPort());
    TestCluster.createEvent(admin, "v-" + id, 1000, eventId, "");
    List<String[]> sold = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      HttpFan fan = new HttpFan(first.httpPort());
      fan.signUp("fo-" + i + "-" + id + "@example.com");
      assertEquals(200, fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}").status());
      HttpFan.Reply order = fan.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
          "Idempotency-Key", "k");
      assertEquals(200, order.status(), order.body());
      sold.add(new String[] {fan.cookie(), order.json().get("orderId").asText(), order.json().get("tickets").toString()});
    }

    Node second = cluster.startNext(crash);
    Node third = cluster.startNext(crash);
    for (Node n : List.of(first, second, third)) TestCluster.awaitUp(n, 3);
    Node host = List.of(first, second, third).stream().filter(n -> hosts(n, eventId)).findFirst().orElseThrow();
    List<Node> survivors = new ArrayList<>(List.of(first, second, third));
    survivors.remove(host);

    HttpFan late = new HttpFan(survivors.get(0).httpPort());
    late.signUp("fo-late-" + id + "@example.com");

    // A fan of an event on a survivor holds seats whose deadline falls inside the failover.
    String quiet = eventOnASurvivor(admin, id, host, survivors);
    HttpFan holder = new HttpFan(survivors.get(1).httpPort());
    holder.signUp("fo-holder-" + id + "@example.com");
    HttpFan.Reply held = holder.send("POST", "/api/events/" + quiet + "/cart/holds", "{\"best\":{\"quantity\":2}}");
    assertEquals(200, held.status(), held.body());
    Instant firstDeadline = Instant.parse(held.json().get("holdExpiresAt").asText());

    long killedAt = System.nanoTime();
    host.system().terminate();
    host.system().getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    // The hold's deadline comes 3.5 s after the host went: after hold clocks stop (from the
    // detector's pause and a heartbeat before the host is marked unreachable, 4-6.5 s after it
    // went) and a second or more before the failover ends (7 s or more).
    clock.advance(Duration.ofMillis(firstDeadline.toEpochMilli() - clock.millis() - 3_500));

    // Its first deadline passes while the cluster is in trouble, and the hold's clock stops: the
    // fan still has the seats past that deadline (reads count the fault time not yet written).
    // The hold gets back the fault time only (unreachable to removed, ~5-7 s), not the time the
    // other event takes to come back, so it is checked while the trouble lasts.
    HttpFan.Reply survived = Eventually.reply("the hold kept past its first deadline", Duration.ofSeconds(30),
        Duration.ofMillis(100), () -> holder.send("GET", "/api/events/" + quiet + "/cart", null),
        r -> r.status() == 200 && clock.instant().isAfter(firstDeadline.plusMillis(500)) && r.json().get("seats").size() == 2
            && Instant.parse(r.json().get("holdExpiresAt").asText()).isAfter(clock.instant()));
    assertTrue(Instant.parse(survived.json().get("holdExpiresAt").asText()).isAfter(firstDeadline.plusSeconds(1)),
        "the hold's deadline moved by the fault time: " + survived.body());

    Eventually.reply("the event selling again on a survivor", Duration.ofSeconds(60), Duration.ofMillis(250), () -> {
      HttpFan.Reply hold = late.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}");
      if (hold.status() != 200) {
        assertTrue(hold.status() == 503, "while the event moves, fans are told 503, not " + hold.status() + ": " + hold.body());
        assertTrue(hold.headers().firstValue("Retry-After").isPresent());
      }
      return hold;
    }, hold -> hold.status() == 200);
    System.out.printf("event back after %d ms%n", (System.nanoTime() - killedAt) / 1_000_000);

    assertTrue(survivors.stream().anyMatch(n -> hosts(n, eventId)));
    for (Node n : survivors) {
      for (String[] s : sold) {
        HttpFan owner = new HttpFan(n.httpPort()).withCookie(s[0]);
        HttpFan.Reply order = owner.send("GET", "/api/orders/" + s[1], null);
        assertEquals(200, order.status(), order.body());
        assertEquals(s[2], order.json().get("tickets").toString(), "the sale is intact");
      }
    }
    HttpFan.Reply stats = new HttpFan(survivors.get(1).httpPort()).admin("GET", "/admin/events/" + eventId + "/stats", null);
    assertEquals(10, stats.json().get("seats").get("sold").asInt());
    assertEquals(2, stats.json().get("seats").get("held").asInt(), "the late fan's hold");
  }
}
