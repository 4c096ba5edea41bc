package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-event sales are for SREs: {@code /metrics} is on the management port, not the fans' port,
 * and the management server listens on the cluster host only, not on every interface (finding 14).
 */
class MetricsAndManagementTest {
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  @Test
  void metricsAreNotServedOnTheFanPort() {
    for (String method : new String[] {"GET", "HEAD"}) {
      HttpFan.Reply r = new HttpFan(node.httpPort()).send(method, "/metrics", null);
      assertEquals(404, r.status(), method + " /metrics on the fan port: " + r.body());
    }
    HttpFan.Reply r = new HttpFan(node.httpPort()).send("GET", "/metrics", null);
    assertEquals("not_found", r.error());
    assertTrue(!r.body().contains("jvm_memory"), "no metric leaks in the body");
  }

  @Test
  void metricsAreServedOnTheManagementPort() {
    HttpFan.Reply r = new HttpFan(node.managementPort()).send("GET", "/metrics", null);
    assertEquals(200, r.status(), r.body());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), r.headers().toString());
    assertTrue(r.body().contains("jvm_memory_used_bytes"), "Prometheus text");
    assertTrue(r.body().contains("boxoffice_cluster_members_up"), "the node's own series");
  }

  @Test
  void managementListensOnTheClusterHostOnly() throws Exception {
    int port = node.managementPort();
    try (Socket ok = new Socket()) {
      ok.connect(new InetSocketAddress("127.0.0.1", port), 2000);
    }
    // Linux routes all of 127.0.0.0/8 to loopback: a server bound to 0.0.0.0 accepts on
    // 127.0.0.2 too, one bound to the cluster host (127.0.0.1 here) does not.
    assertThrows(IOException.class, () -> {
      try (Socket other = new Socket()) {
        other.connect(new InetSocketAddress("127.0.0.2", port), 2000);
      }
    }, "management must not listen on every interface");
  }
}
