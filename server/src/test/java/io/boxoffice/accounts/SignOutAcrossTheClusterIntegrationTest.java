package io.boxoffice.accounts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Signing out on one node signs the session out on every node: the others hear it (pub-sub),
 * and a node that joins later has read it from the journal before it listens.
 */
class SignOutAcrossTheClusterIntegrationTest {
  static final String PASSWORD = "correct horse battery";
  final TestCluster cluster = new TestCluster(Clock.systemUTC());

  @AfterEach
  void stopAll() {
    cluster.close();
  }

  static String signIn(int port, String email) {
    HttpFan.Reply in = new HttpFan(port).send("POST", "/api/session", "{\"email\":\"" + email + "\",\"password\":\"" + PASSWORD + "\"}");
    assertEquals(200, in.status(), in.body());
    String c = in.headers().allValues("Set-Cookie").stream().filter(v -> v.startsWith("bo_id=")).findFirst().orElseThrow();
    return c.substring("bo_id=".length(), c.indexOf(';'));
  }

  static int tickets(int port, String cookie) {
    return new HttpFan(port).withCookie(cookie).send("GET", "/api/me/tickets", null).status();
  }

  static void awaitStatus(int expected, int port, String cookie, String what) {
    Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .until(() -> tickets(port, cookie) == expected);
  }

  @Test
  void aSessionSignedOutOnOneNodeIsRefusedOnEveryNodeAndOnANodeThatJoinsLater() throws Exception {
    Node a = cluster.startFirst("");
    Node b = cluster.startNext("");
    TestCluster.awaitUp(a, 2);
    TestCluster.awaitUp(b, 2);
    String email = "cluster-" + UUID.randomUUID() + "@example.com";
    new HttpFan(a.httpPort()).signUp(email);
    String laptop = signIn(a.httpPort(), email);
    String phone = signIn(a.httpPort(), email);
    String tablet = signIn(b.httpPort(), email);
    assertEquals(200, tickets(b.httpPort(), laptop));

    assertEquals(204, new HttpFan(b.httpPort()).withCookie(laptop).send("DELETE", "/api/session", null).status());
    assertEquals(401, tickets(b.httpPort(), laptop), "at once on the node that signed it out");
    awaitStatus(401, a.httpPort(), laptop, "the other node refusing the signed-out session");
    assertEquals(200, tickets(a.httpPort(), phone), "the account's other sessions stay");

    assertEquals(204, new HttpFan(a.httpPort()).withCookie(phone).send("DELETE", "/api/sessions", null).status());
    awaitStatus(401, b.httpPort(), phone, "the other node refusing every earlier session");
    assertEquals(401, tickets(b.httpPort(), tablet));
    String fresh = signIn(b.httpPort(), email);
    assertEquals(200, tickets(a.httpPort(), fresh), "a sign-in after signing out everywhere works on every node");

    Node c = cluster.startNext("");
    for (String old : new String[] {laptop, phone, tablet}) assertEquals(401, tickets(c.httpPort(), old), "a node that joined later");
    assertEquals(200, tickets(c.httpPort(), fresh));
  }
}
