package io.boxoffice.common;

import java.time.Duration;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
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
 * still move when their node leaves or is downed, and then (given {@link MemberAges}) only to a
 * node that has been up for {@code warmUp}, when there is one: in a chaos drill an event moved
 * to a node up for 23 s recovered 3.6 s after its coordinator had placed it.
 */
public final class NoRebalancing implements ShardCoordinator.ActorSystemDependentAllocationStrategy {
  private final ShardCoordinator.ShardAllocationStrategy placement =
      ShardCoordinator.ShardAllocationStrategy$.MODULE$.leastShardAllocationStrategy(1, 0.1);
  private final MemberAges ages;
  private final Duration warmUp;
  private volatile Address self;

  /** Placement by shard counts alone. */
  public NoRebalancing() {
    this(null, Duration.ZERO);
  }

  /** Placement on nodes up for {@code warmUp} (by {@code ages}) when there are any, by shard counts among them. */
  public NoRebalancing(MemberAges ages, Duration warmUp) {
    this.ages = ages;
    this.warmUp = warmUp;
  }

  @Override
  public void start(ActorSystem system) {
    self = ((org.apache.pekko.actor.ExtendedActorSystem) system).provider().getDefaultAddress();
    if (placement instanceof ShardCoordinator.ActorSystemDependentAllocationStrategy s) s.start(system);
    else if (placement instanceof ShardCoordinator.StartableAllocationStrategy s) s.start();
  }

  @Override
  public Future<ActorRef> allocateShard(ActorRef requester, String shardId, Map<ActorRef, IndexedSeq<String>> current) {
    if (ages == null) return placement.allocateShard(requester, shardId, current);
    Map<ActorRef, IndexedSeq<String>> warm = current;
    scala.collection.Iterator<ActorRef> regions = current.keysIterator();
    while (regions.hasNext()) {
      ActorRef region = regions.next();
      if (!isWarm(ages.upFor(addressOf(region)), warmUp)) warm = warm.removed(region);
    }
    return placement.allocateShard(requester, shardId, warm.isEmpty() ? current : warm);
  }

  /** Whether a node up this long takes moved or new shards before the others. */
  static boolean isWarm(Duration upFor, Duration warmUp) {
    return upFor.compareTo(warmUp) >= 0;
  }

  private Address addressOf(ActorRef region) {
    Address address = region.path().address();
    return address.hasLocalScope() && self != null ? self : address;
  }

  @Override
  public Future<Set<String>> rebalance(Map<ActorRef, IndexedSeq<String>> current, Set<String> inProgress) {
    return Future.successful(scala.collection.immutable.Set$.MODULE$.<String>empty());
  }
}
