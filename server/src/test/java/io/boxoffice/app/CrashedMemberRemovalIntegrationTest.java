package io.boxoffice.app;

import static org.awaitility.Awaitility.await;

import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A crashed member leaves the cluster as soon as the dead-member probe finds its port refusing
 * connections, not once the failure detector has waited out its pause: the probe downs it and
 * quarantines the dead incarnation, which the cluster counts as terminated, so the leader may
 * remove it. Until it is removed, its shards do not move.
 */
class CrashedMemberRemovalIntegrationTest {
  final TestCluster cluster = new TestCluster(MutableClock.running());

  @AfterEach
  void stopAll() {
    cluster.close();
  }

  @Test
  void aCrashedMemberIsRemovedWithoutWaitingForTheFailureDetectorsPause() throws Exception {
    // A crash (no leaving), and a failure detector that would wait a minute before it marks the
    // member unreachable: only the probe can have the member removed within the test's bound.
    String settings = "pekko.coordinated-shutdown.run-by-actor-system-terminate = off\n"
        + "pekko.cluster.failure-detector.acceptable-heartbeat-pause = 60s\n";
    List<Node> nodes = cluster.startThree(settings); // returns with all three up on every node
    Node crashed = nodes.get(2);
    crashed.system().terminate();
    crashed.system().getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);

    for (Node survivor : nodes.subList(0, 2)) {
      await("the crashed member removed").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
          .until(() -> members(survivor) == 2);
    }
  }

  private static long members(Node node) {
    long n = 0;
    for (Member m : Cluster.get(node.system()).state().getMembers()) {
      if (m.status() != MemberStatus.removed()) n++;
    }
    return n;
  }
}
