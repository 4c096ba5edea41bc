package io.boxoffice.common;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Map;
import scala.concurrent.Await;

/**
 * Where a moved or new shard goes (the region with the fewest shards, among nodes up long enough
 * when there are any), and when shards are moved to balance the cluster: never for events, only
 * while every node is up long enough for the small entities.
 */
class WarmPlacementTest {
  static ActorTestKit older;
  static ActorTestKit younger;
  static MemberAges ages;
  static ActorRef here;
  static ActorRef elsewhere;

  static ActorTestKit node(String name) {
    return ActorTestKit.create(name, ConfigFactory.parseString("""
        pekko.actor.provider = cluster
        pekko.remote.artery.canonical.hostname = 127.0.0.1
        pekko.remote.artery.canonical.port = 0
        pekko.loglevel = WARNING
        pekko.coordinated-shutdown.exit-jvm = off
        """));
  }

  /** Two nodes: the older one watches ages and sees the younger come up a second or more after itself. */
  @BeforeAll
  static void twoNodes() {
    older = node("ages");
    ages = MemberAges.watch(older.system(), "ages");
    Cluster first = Cluster.get(older.system());
    first.manager().tell(Join.create(first.selfMember().address()));
    await().atMost(Duration.ofSeconds(20)).until(() -> ages.upFor(first.selfMember().address()).toMillis() > 1000);
    younger = node("ages");
    Cluster second = Cluster.get(younger.system());
    second.manager().tell(Join.create(first.selfMember().address()));
    await().atMost(Duration.ofSeconds(20)).until(() -> ages.upFor(second.selfMember().address()).compareTo(Duration.ZERO) > 0);
    here = Adapter.toClassic(older.createTestProbe().ref());
    elsewhere = ((ExtendedActorSystem) Adapter.toClassic(older.system())).provider()
        .resolveActorRef(second.selfMember().address() + "/system/sharding/EventInventory");
  }

  @AfterAll
  static void stop() {
    younger.shutdownTestKit();
    older.shutdownTestKit();
  }

  ActorRef allocate(WarmPlacement strategy, Map<ActorRef, IndexedSeq<String>> current) throws Exception {
    strategy.start(Adapter.toClassic(older.system()));
    return Await.result(strategy.allocateShard(here, "9", current), scala.concurrent.duration.Duration.create(3, "s"));
  }

  @Test
  void byShardCountsWithoutAges() throws Exception {
    assertEquals(elsewhere, allocate(WarmPlacement.fixed(), regions(List.of("1", "2"), List.of())));
  }

  @Test
  void aNodeUpLongEnoughComesFirstThoughItHasMoreShards() throws Exception {
    Duration olderUp = ages.upFor(Cluster.get(older.system()).selfMember().address());
    Duration youngerUp = ages.upFor(Cluster.get(younger.system()).selfMember().address());
    Duration between = youngerUp.plus(olderUp.minus(youngerUp).dividedBy(2));
    assertEquals(here, allocate(WarmPlacement.fixed(ages, between), regions(List.of("1", "2"), List.of())));
  }

  @Test
  void byShardCountsWhenNoNodeIsUpLongEnough() throws Exception {
    assertEquals(elsewhere, allocate(WarmPlacement.fixed(ages, Duration.ofHours(1)), regions(List.of("1", "2"), List.of())));
  }

  @Test
  void aHotEntitySparesTheCoordinatorsOwnNodeThoughItHasFewerShards() throws Exception {
    // The strategy runs in the coordinator, on the older node: "here".
    assertEquals(elsewhere, allocate(WarmPlacement.fixed(), regions(List.of(), List.of("1", "2"))));
    assertEquals(elsewhere, allocate(WarmPlacement.fixed(ages, Duration.ZERO), regions(List.of(), List.of("1", "2"))));
    assertEquals(here, allocate(WarmPlacement.balanced(ages, Duration.ZERO), regions(List.of(), List.of("1", "2"))),
        "small entities go by shard counts alone");
  }

  @Test
  void theCoordinatorsNodeStillTakesAHotEntityWhenItIsTheOnlyCandidate() throws Exception {
    Map<ActorRef, IndexedSeq<String>> onlyHere = scala.collection.immutable.Map$.MODULE$.<ActorRef, IndexedSeq<String>>empty()
        .updated(here, scala.jdk.javaapi.CollectionConverters.asScala(List.of("1")).toIndexedSeq());
    assertEquals(here, allocate(WarmPlacement.fixed(), onlyHere));
  }

  scala.collection.immutable.Set<String> rebalance(WarmPlacement strategy, Map<ActorRef, IndexedSeq<String>> current)
      throws Exception {
    strategy.start(Adapter.toClassic(older.system()));
    return Await.result(strategy.rebalance(current, scala.collection.immutable.Set$.MODULE$.empty()),
        scala.concurrent.duration.Duration.create(3, "s"));
  }

  static final List<String> FORTY = java.util.stream.IntStream.rangeClosed(1, 40).mapToObj(Integer::toString).toList();

  @Test
  void smallEntitiesMoveToANodeOnceEveryNodeIsUpLongEnough() throws Exception {
    Duration youngerUp = ages.upFor(Cluster.get(younger.system()).selfMember().address());
    scala.collection.immutable.Set<String> moved = rebalance(WarmPlacement.balanced(ages, youngerUp.dividedBy(2)),
        regions(FORTY, List.of()));
    assertEquals(3, moved.size(), "three of the older node's forty shards (a tenth, at most three a round) move to the empty one: " + moved);
  }

  @Test
  void nothingMovesWhileANodeHasJustStarted() throws Exception {
    Duration olderUp = ages.upFor(Cluster.get(older.system()).selfMember().address());
    Duration youngerUp = ages.upFor(Cluster.get(younger.system()).selfMember().address());
    Duration between = youngerUp.plus(olderUp.minus(youngerUp).dividedBy(2));
    assertEquals(0, rebalance(WarmPlacement.balanced(ages, between), regions(FORTY, List.of())).size());
  }

  @Test
  void eventsNeverMoveToBalance() throws Exception {
    assertEquals(0, rebalance(WarmPlacement.fixed(ages, Duration.ZERO), regions(FORTY, List.of())).size());
  }

  private static Map<ActorRef, IndexedSeq<String>> regions(List<String> hereShards, List<String> elsewhereShards) {
    Map<ActorRef, IndexedSeq<String>> m = scala.collection.immutable.Map$.MODULE$.empty();
    m = m.updated(here, scala.jdk.javaapi.CollectionConverters.asScala(hereShards).toIndexedSeq());
    return m.updated(elsewhere, scala.jdk.javaapi.CollectionConverters.asScala(elsewhereShards).toIndexedSeq());
  }
}
