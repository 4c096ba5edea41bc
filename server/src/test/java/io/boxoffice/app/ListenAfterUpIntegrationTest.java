package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import java.time.Clock;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.Test;

/**
 * A node opens its HTTP port only once it is an Up member (boxoffice.listen-after-up-wait): a
 * request it took before could only wait in a shard region for the cluster to let it in, and a
 * node restarted under load got them all at once the moment it joined.
 */
class ListenAfterUpIntegrationTest {

  @Test
  void aStartedNodeIsAnUpMemberBeforeItTakesRequests() throws Exception {
    try (TestCluster cluster = new TestCluster(Clock.systemUTC())) {
      Node first = cluster.startFirst("");
      Node second = cluster.startNext("");
      // Node.start has returned, so the listener is bound: the node must already be Up.
      assertEquals(MemberStatus.up(), Cluster.get(second.system()).selfMember().status(),
          "the second node listens before it is a member");
      HttpFan fan = new HttpFan(second.httpPort());
      HttpFan.Reply created = fan.send("POST", "/api/accounts",
          "{\"email\":\"listen-" + System.nanoTime() + "@example.com\",\"password\":\"correct horse battery\"}");
      assertEquals(201, created.status(), created.body());
      assertEquals(MemberStatus.up(), Cluster.get(first.system()).selfMember().status());
    }
  }
}
