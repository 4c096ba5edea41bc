package io.boxoffice.common;

import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.cluster.sharding.ShardCoordinator;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Map;
import scala.collection.immutable.Set;
import scala.concurrent.Future;

/**
 * Shard allocation for the few, hot entities (events, waiting rooms): a new shard goes to the
 * region with the fewest shards, as usual, but a shard never moves to balance the cluster. A
 * move stops the event for its hand-over and recovery, and puts it on a node that has just
 * started (cold JIT): after every restart, a rebalance could stall the hottest sale twice. Shards
 * still move when their node leaves or is downed.
 */
public final class NoRebalancing implements ShardCoordinator.ActorSystemDependentAllocationStrategy {
  private final ShardCoordinator.ShardAllocationStrategy placement =
      ShardCoordinator.ShardAllocationStrategy$.MODULE$.leastShardAllocationStrategy(1, 0.1);

  @Override
  public void start(ActorSystem system) {
    if (placement instanceof ShardCoordinator.ActorSystemDependentAllocationStrategy s) s.start(system);
    else if (placement instanceof ShardCoordinator.StartableAllocationStrategy s) s.start();
  }

  @Override
  public Future<ActorRef> allocateShard(ActorRef requester, String shardId, Map<ActorRef, IndexedSeq<String>> current) {
    return placement.allocateShard(requester, shardId, current);
  }

  @Override
  public Future<Set<String>> rebalance(Map<ActorRef, IndexedSeq<String>> current, Set<String> inProgress) {
    return Future.successful(scala.collection.immutable.Set$.MODULE$.<String>empty());
  }
}
