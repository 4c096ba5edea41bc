package io.boxoffice.support;

import static org.awaitility.Awaitility.await;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.payment.PaymentSimulator;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.cluster.sharding.typed.GetShardRegionState;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.typed.Cluster;

/** Several nodes over the test PostgreSQL in this JVM, sharing a clock and a payment simulator. */
public final class TestCluster implements AutoCloseable {
  private final Clock clock;
  private final PaymentSimulator payments = TestNode.payments();
  private final List<Node> nodes = new ArrayList<>();

  public TestCluster(Clock clock) {
    this.clock = clock;
  }

  /** Remoting port of the first node, the seed of the others. */
  private int seedPort;

  /** The first node, alone and up; it is the seed node of those started after it. */
  public Node startFirst(String settings) throws Exception {
    seedPort = freePort();
    Node first = start(seedPort, seedPort, settings);
    awaitUp(first, 1);
    return first;
  }

  /** One more node, joining through the first. */
  public Node startNext(String settings) throws Exception {
    return start(freePort(), seedPort, settings);
  }

  /** A node on remoting port {@code port} that joins through the seed node on {@code seedPort}. */
  private Node start(int port, int seedPort, String settings) throws Exception {
    Node node = TestNode.postgres(clock, payments, ConfigFactory.parseString(
        "pekko.remote.artery.canonical.port = " + port + "\n"
            + "boxoffice.seed-nodes = \"127.0.0.1:" + seedPort + "\"\n"
            + settings));
    nodes.add(node);
    return node;
  }

  /** Three nodes, all up; the first is the seed. */
  public List<Node> startThree(String settings) throws Exception {
    List<Node> three = List.of(startFirst(settings), startNext(settings), startNext(settings));
    for (Node n : three) awaitUp(n, 3);
    return three;
  }

  public static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Waits until {@code node} sees exactly {@code members} members up. */
  public static void awaitUp(Node node, int members) {
    await("the cluster having " + members + " members up").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> StreamSupport.stream(Cluster.get(node.system()).state().getMembers().spliterator(), false)
            .filter(m -> m.status() == MemberStatus.up()).count(), up -> up == members);
  }

  /** Whether the event's inventory runs on this node. */
  public static boolean hosts(Node node, String eventId) {
    return inventoryShards(node).stream().anyMatch(s -> s.getEntityIds().contains(eventId));
  }

  /** The shards of event inventories that run on this node. */
  public static Set<ShardRegion.ShardState> inventoryShards(Node node) {
    return AskPattern.<Object, ShardRegion.CurrentShardRegionState>ask(
            ClusterSharding.get(node.system()).shardState().unsafeUpcast(),
            r -> new GetShardRegionState(EventInventory.ENTITY_TYPE_KEY, r), Duration.ofSeconds(5), node.system().scheduler())
        .toCompletableFuture().join().getShards();
  }

  /**
   * Creates a generated venue and an event on it through the admin API; {@code extra} adds JSON
   * fields. Events are created closed: unless {@code extra} schedules an {@code onsale}, the
   * event is then opened as an open sale (no waiting room), which is what these tests shop.
   */
  public static void createEvent(HttpFan admin, String venueId, int seats, String eventId, String extra) {
    HttpFan.Reply venue = admin.admin("POST", "/admin/venues", "{\"venueId\":\"" + venueId + "\",\"name\":\"V\",\"generate\":"
        + "{\"layout\":\"stadium\",\"seats\":" + seats + "}}");
    if (venue.status() != 201 && venue.status() != 409) throw new AssertionError("venue: " + venue);
    HttpFan.Reply event = admin.admin("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venueId
        + "\",\"name\":\"S\"," + extra + "\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}");
    if (event.status() != 201) throw new AssertionError("event: " + event);
    if (!extra.contains("\"onsale\"")) open(admin, eventId);
  }

  /** Opens the event as an open sale (no waiting room). */
  public static void open(HttpFan admin, String eventId) {
    HttpFan.Reply opened = admin.admin("POST", "/admin/events/" + eventId + "/open", null);
    if (opened.status() != 200) throw new AssertionError("open: " + opened);
  }

  @Override
  public void close() {
    for (Node n : nodes) {
      if (!n.system().whenTerminated().isCompleted()) n.stop();
    }
  }
}
