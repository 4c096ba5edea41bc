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
 * itself too; a crashed peer, peers that left gracefully, or a second crash after the survivors
 * of the first agreed on their cluster, are no reason.
 */
class QuorumGuardTest {
  /** Short, so that a test can outwait it. */
  static final String SETTLE = "boxoffice.quorum-guard.settle = 2s\n";
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

    QuorumGuard.Quorum settling = new QuorumGuard.Quorum();
    settling.minority(3);
    assertFalse(settling.minority(2), "one crashed");
    settling.settled(2);
    assertFalse(settling.minority(1), "after the survivors settled, a second crash is the resolver's tie to break");
    QuorumGuard.Quorum cutOff = new QuorumGuard.Quorum();
    cutOff.minority(3);
    cutOff.settled(1);
    assertTrue(cutOff.minority(1), "a minority never settles into a cluster of its own");
  }

  @Test
  void aNodeThatDownedItsPeersItselfDownsItselfToo() throws Exception {
    List<Node> three = cluster.startThree(SETTLE);
    Node alone = three.get(0);
    Cluster view = Cluster.get(alone.system());
    // What a resolver deciding on part of a partition's picture does: it downs the others.
    view.manager().tell(new Down(Cluster.get(three.get(1).system()).selfMember().address()));
    view.manager().tell(new Down(Cluster.get(three.get(2).system()).selfMember().address()));
    await("the node left with no majority leaving").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> alone.system().whenTerminated().isCompleted());
  }

  @Test
  void afterTheSurvivorsOfACrashSettledASecondFailureLeavesTheLastNodeServing() throws Exception {
    List<Node> three = cluster.startThree(SETTLE);
    Node survivor = three.get(0);
    Cluster view = Cluster.get(survivor.system());
    view.manager().tell(new Down(Cluster.get(three.get(1).system()).selfMember().address()));
    await().atMost(Duration.ofSeconds(30)).until(() -> countMembers(view) == 2);
    // The two agree on their cluster for longer than settle; then the other fails too.
    await().pollDelay(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).until(() -> countMembers(view) == 2);
    view.manager().tell(new Down(Cluster.get(three.get(2).system()).selfMember().address()));
    await().atMost(Duration.ofSeconds(30)).until(() -> countMembers(view) == 1);
    await("the last node serving on").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
        .until(() -> !survivor.system().whenTerminated().isCompleted());
  }

  @Test
  void aCrashedPeerOrPeersLeavingGracefullyLeaveTheNodeServing() throws Exception {
    List<Node> three = cluster.startThree(SETTLE);
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
