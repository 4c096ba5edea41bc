package io.boxoffice.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue's door comes before the event's compartment: a join without a valid sign-in is 401
 * even while the event's compartment is full, and takes no place in it. Here each event has 2
 * places (joins are reads: 1), and a signed-in fan's join whose body never finishes keeps the
 * one place for the 5 s the body is waited for.
 */
class QueueDoorIntegrationTest {
  static Node node;
  static HttpFan admin;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments(),
        // Per network: the shipped burst, and a refill too slow to matter within a test.
        ConfigFactory.parseString("boxoffice.edge.per-event-in-flight = 2\n"
            + "boxoffice.bots.rate-limits.per-prefix { burst = 200, per-second = 0.01 }"));
    admin = new HttpFan(node.httpPort());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  @Test
  void aJoinWithoutSignInIsRefusedAtTheDoorWhileTheEventsCompartmentIsFull() throws Exception {
    String event = admin.newEventWithOpenLobby(100);
    String slowCookie = TestNode.identityOf("slow-" + event, Clock.systemUTC());
    try (Socket slow = new Socket("127.0.0.1", node.httpPort())) {
      // Past the door, into the compartment, then waiting for a body that never comes.
      OutputStream out = slow.getOutputStream();
      out.write(("POST /api/events/" + event + "/queue HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: bo_id=" + slowCookie
          + "\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      HttpFan other = new HttpFan(node.httpPort()).withCookie(TestNode.identityOf("other-" + event, Clock.systemUTC()));
      // The compartment is full: a signed-in fan's join is shed.
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(3))
          .until(() -> other.send("POST", "/api/events/" + event + "/queue", "{}").status() == 503);
      // Junk is answered at the door, not shed and not let in.
      assertEquals(401, new HttpFan(node.httpPort()).send("POST", "/api/events/" + event + "/queue", "{}").status());
      assertEquals(401, new HttpFan(node.httpPort()).withCookie("forged").send("DELETE", "/api/events/" + event + "/queue", null)
          .status());
    }
    // The slow join gone, the compartment has its place back.
    HttpFan later = new HttpFan(node.httpPort()).withCookie(TestNode.identityOf("later-" + event, Clock.systemUTC()));
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
        .until(() -> later.send("POST", "/api/events/" + event + "/queue", "{}").status() == 200);
  }

  /**
   * A flood of forged sign-ins from one network (a /24 behind the trusted loopback proxy) spends
   * that network's budget of refusals (the size of its fans' budget: a burst of 200, here with
   * almost no refill): it meets 429 + Retry-After, while the same junk from another network is
   * still answered 401. A signed-in fan joins from either network: the junk did not spend the
   * budget of the flooded network's fans.
   */
  @Test
  void aFloodOfForgedSignInsFromOneNetworkMeets429() {
    String event = admin.newEventWithOpenLobby(100);
    HttpFan junk = new HttpFan(node.httpPort()).withCookie("forged");
    String path = "/api/events/" + event + "/queue";
    // In batches of 50 at once, so that the flood outruns the refill however slow this machine is.
    int unauthenticated = 0;
    HttpFan.Reply reply = null;
    for (int batch = 0; batch < 20 && reply == null; batch++) {
      List<CompletableFuture<HttpFan.Reply>> sent = new ArrayList<>();
      for (int i = 0; i < 50; i++) sent.add(junk.sendAsync("POST", path, "{}", "X-Forwarded-For", "198.51.100.7"));
      for (CompletableFuture<HttpFan.Reply> f : sent) {
        HttpFan.Reply r = f.join();
        if (r.status() == 401) {
          unauthenticated++;
        } else if (reply == null) {
          reply = r;
        }
      }
    }
    assertNotNull(reply, "1,000 forged sign-ins from one network were all answered 401");
    assertEquals(429, reply.status(), reply.body());
    assertEquals("rate_limited", reply.error());
    assertTrue(reply.headers().firstValue("Retry-After").isPresent());
    assertTrue(unauthenticated >= 200, "the network's burst was answered 401 first: " + unauthenticated);
    assertEquals(401, junk.send("POST", path, "{}", "X-Forwarded-For", "203.0.113.9").status());
    HttpFan honest = new HttpFan(node.httpPort()).withCookie(TestNode.identityOf("honest-" + event, Clock.systemUTC()));
    HttpFan.Reply joined = honest.send("POST", path, "{}", "X-Forwarded-For", "203.0.113.9");
    assertEquals(200, joined.status(), joined.body());
    HttpFan neighbour = new HttpFan(node.httpPort()).withCookie(TestNode.identityOf("neighbour-" + event, Clock.systemUTC()));
    HttpFan.Reply besideTheFlood = neighbour.send("POST", path, "{}", "X-Forwarded-For", "198.51.100.8");
    assertEquals(200, besideTheFlood.status(), besideTheFlood.body());
  }
}
