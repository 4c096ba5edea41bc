package io.boxoffice.app;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestCluster;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node never goes on as a minority of the inventory nodes it knew: left alone after downing
 * its peers itself (what a resolver deciding on half the picture of a partition does), it downs
 * itself too; a crashed peer, or peers that left gracefully, are no reason.
 */
class QuorumGuardTest {
  final TestCluster cluster = new TestCluster(MutableClock.running());

  @AfterEach
  void stopAll() {
    cluster.close();
  }

  @Test
  void theRulesCountMembersKnownAtOnceLessThoseThatLeftGracefully() {
    QuorumGuard.Quorum q = new QuorumGuard.Quorum();
    assertFalse(q.minority(1), "the first node, alone");
    assertFalse(q.minority(2));
    assertFalse(q.minority(3));
    assertFalse(q.minority(2), "one of three crashed: the others are a majority");
    assertTrue(q.minority(1), "two of three gone");

    QuorumGuard.Quorum rolling = new QuorumGuard.Quorum();
    rolling.minority(3);
    rolling.leftGracefully();
    assertFalse(rolling.minority(2), "a node left for a restart");
    assertFalse(rolling.minority(3), "and came back");
    rolling.leftGracefully();
    rolling.leftGracefully();
    assertFalse(rolling.minority(1), "scaled down to one on purpose");

    QuorumGuard.Quorum two = new QuorumGuard.Quorum();
    two.minority(2);
    assertFalse(two.minority(1), "half of two is a tie, the resolver's to break");
  }

  @Test
  void aNodeThatDownedItsPeersItselfDownsItselfToo() throws Exception {
    List<Node> three = cluster.startThree("");
    Node alone = three.get(0);
    Cluster view = Cluster.get(alone.system());
    // What a resolver deciding on part of a partition's picture does: it downs the others.
    view.manager().tell(new Down(Cluster.get(three.get(1).system()).selfMember().address()));
    view.manager().tell(new Down(Cluster.get(three.get(2).system()).selfMember().address()));
    await("the node left with no majority leaving").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> alone.system().whenTerminated().isCompleted());
  }

  @Test
  void aCrashedPeerOrPeersLeavingGracefullyLeaveTheNodeServing() throws Exception {
    List<Node> three = cluster.startThree("");
    Node survivor = three.get(0);
    Cluster view = Cluster.get(survivor.system());
    // A crash: downed, removed; the two others are still a majority of three.
    view.manager().tell(new Down(Cluster.get(three.get(1).system()).selfMember().address()));
    await().atMost(Duration.ofSeconds(30)).until(() -> countMembers(view) == 2);
    // The third leaves gracefully (a rolling restart, a scale-down): one of one known.
    three.get(2).stop();
    await().atMost(Duration.ofSeconds(30)).until(() -> countMembers(view) == 1);
    await("the survivor serving on").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
        .until(() -> !survivor.system().whenTerminated().isCompleted());
  }

  static int countMembers(Cluster view) {
    int n = 0;
    for (var m : view.state().getMembers()) n++;
    return n;
  }
}
