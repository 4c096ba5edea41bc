package io.boxoffice.app;

import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.StreamSupport;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.cluster.sharding.typed.GetShardRegionState;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;

/** Gauges of the cluster as this node sees it: members up and unreachable, and the shards and entities each region hosts here. */
public final class ClusterGauges {
  private ClusterGauges() {}

  /** The shard gauges are asked for {@code delay} after the start, then every {@code interval}. */
  public static void register(ActorSystem<?> system, Metrics metrics, Duration delay, Duration interval) {
    Cluster cluster = Cluster.get(system);
    metrics.gauge("boxoffice_cluster_members_up", "Cluster members up", Tags.empty(), () ->
        StreamSupport.stream(cluster.state().getMembers().spliterator(), false).filter(m -> m.status() == MemberStatus.up()).count());
    metrics.gauge("boxoffice_cluster_unreachable", "Cluster members unreachable from here", Tags.empty(), () ->
        cluster.state().getUnreachable().size());

    Map<String, int[]> counts = new ConcurrentHashMap<>();
    List<EntityTypeKey<?>> types = List.of(io.boxoffice.inventory.EventInventory.ENTITY_TYPE_KEY,
        io.boxoffice.cart.Cart.ENTITY_TYPE_KEY, io.boxoffice.queue.WaitingRoom.ENTITY_TYPE_KEY);
    for (EntityTypeKey<?> type : types) {
      int[] c = counts.computeIfAbsent(type.name(), t -> new int[2]);
      metrics.gauge("boxoffice_shards", "Shards hosted on this node", Tags.of("type", type.name()), () -> c[0]);
      metrics.gauge("boxoffice_entities", "Entities running on this node", Tags.of("type", type.name()), () -> c[1]);
    }
    // One request per type every interval; each answer lands in that type's counters.
    for (EntityTypeKey<?> type : types) {
      ActorRef<ShardRegion.CurrentShardRegionState> sink = system.systemActorOf(
          Behaviors.receiveMessage(state -> {
            int shards = state.getShards().size();
            int entities = state.getShards().stream().mapToInt(s -> s.getEntityIds().size()).sum();
            int[] c = counts.get(type.name());
            c[0] = shards;
            c[1] = entities;
            return Behaviors.same();
          }), "shard-gauges-" + type.name(), Props.empty());
      system.scheduler().scheduleWithFixedDelay(delay, interval,
          () -> ClusterSharding.get(system).shardState().tell(new GetShardRegionState(type, sink)), system.executionContext());
    }
  }
}
