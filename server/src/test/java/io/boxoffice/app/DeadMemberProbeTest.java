package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.app.DeadMemberProbe.Seen;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.Address;
import org.junit.jupiter.api.Test;

/** A member is downed on refused connections only when its process is gone and from a majority. */
class DeadMemberProbeTest {
  private static final List<Seen<String>> THREE =
      List.of(new Seen<>("n1", true, true), new Seen<>("n2", true, true), new Seen<>("n3", true, true));

  @Test
  void aPortNobodyListensOnRefusesAndAnOpenOneDoesNot() throws Exception {
    int port;
    try (ServerSocket open = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      port = open.getLocalPort();
      // A live JVM, even one that stalls, keeps its listening socket: the kernel accepts for it.
      assertFalse(DeadMemberProbe.refuses(address(port), Duration.ofMillis(500)));
    }
    assertTrue(DeadMemberProbe.refuses(address(port), Duration.ofMillis(500)), "nothing listens: the process is gone");
  }

  @Test
  void theMajoritySideDownsTheRefusingMember() {
    assertTrue(DeadMemberProbe.mayDown("n2", THREE, Set.of(), Set.of("n2")));
  }

  @Test
  void aNodeThatSeesEveryOtherRefusingDownsNobody() {
    // Cut off behind rules that reject its connections: n1 and n2 refuse as n3 sees them.
    assertFalse(DeadMemberProbe.mayDown("n1", THREE, Set.of(), Set.of("n1", "n2")));
    assertFalse(DeadMemberProbe.mayDown("n2", THREE, Set.of(), Set.of("n1", "n2")));
  }

  @Test
  void aNodeWithTheOtherUnreachableDownsNobody() {
    assertFalse(DeadMemberProbe.mayDown("n2", THREE, Set.of("n3"), Set.of("n2")));
  }

  @Test
  void onlyServingMembersAreDownedAndStatelessEdgeNodesDoNotCount() {
    List<Seen<String>> leaving = List.of(new Seen<>("n1", true, true), new Seen<>("n2", false, true), new Seen<>("n3", true, true));
    assertFalse(DeadMemberProbe.mayDown("n2", leaving, Set.of(), Set.of("n2")), "a leaving member hands over: not downed");
    // Two edge nodes do not make a majority without the inventory nodes.
    List<Seen<String>> edges = List.of(new Seen<>("e1", true, false), new Seen<>("e2", true, false),
        new Seen<>("i1", true, true), new Seen<>("i2", true, true), new Seen<>("i3", true, true));
    assertFalse(DeadMemberProbe.mayDown("i1", edges, Set.of("i3"), Set.of("i1")));
    assertTrue(DeadMemberProbe.mayDown("e1", edges, Set.of(), Set.of("e1")));
  }

  private static Address address(int port) {
    return new Address("pekko", "boxoffice", "127.0.0.1", port);
  }
}
