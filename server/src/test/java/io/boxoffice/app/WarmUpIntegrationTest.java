package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.time.Duration;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.Test;

/**
 * A node warms its edge up before it joins the cluster: with its seed nowhere to be found it
 * still answers every warm-up request (none of them needs a member: no entity, no other node),
 * starts, and is not a member; the actor system was not given the seeds to join on its own.
 */
class WarmUpIntegrationTest {

  @Test
  void aNodeAnswersItsWarmUpBeforeItIsAMemberAndWithoutTheCluster() throws Exception {
    int nobody = TestCluster.freePort();
    Node node = TestNode.postgres(Clock.systemUTC(), TestNode.payments(), ConfigFactory.parseString(
        "pekko.remote.artery.canonical.port = " + TestCluster.freePort() + "\n"
            + "boxoffice.seed-nodes = \"127.0.0.1:" + nobody + "\"\n"
            + "boxoffice.warm-up.requests = 300\n"
            + "boxoffice.warm-up.max-duration = 60s\n"
            + "boxoffice.listen-after-up-wait = 1s\n"));
    try {
      assertEquals(300, node.warmUp().requests(), "every warm-up request was answered without a cluster");
      assertTrue(node.warmUp().took().compareTo(Duration.ofSeconds(60)) < 0);
      MemberStatus self = Cluster.get(node.system()).selfMember().status();
      assertNotEquals(MemberStatus.up(), self, "no seed answers: the node cannot be a member");
    } finally {
      node.stop();
    }
  }
}
