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
 * Shard placement that spares a node which has just started (cold JIT, slow to recover an
 * entity). A new or moved shard goes to the region with the fewest shards among the nodes up for
 * {@code warmUp} (given {@link MemberAges}) when there is one. Two kinds:
 * <ul>
 *   <li>{@link #fixed}: for the few, hot entities (events, waiting rooms) a shard never moves to
 *   balance the cluster, and goes to the coordinator's own node (the oldest) only when no other
 *   node is a candidate: a kill of that node would stop the coordinator and the entity at once.
 *   A move stops the event for its hand-over and recovery: after every restart, a rebalance
 *   could stall the hottest sale twice. In a chaos drill an event moved to a
 *   node up for 23 s recovered 3.6 s after its coordinator had placed it.</li>
 *   <li>{@link #balanced}: for the many small entities (carts, accounts, places, wallets) shards
 *   are balanced as Pekko's least-shard strategy does (3 per round at most), but only while
 *   every region's node is warm: Pekko's default would start moving carts and accounts to a
 *   node seconds after it joined, each move a hand-over and each fan's next request a recovery
 *   on cold code, while a node started again under an on-sale is at its slowest (chaos drills:
 *   such a node stopped answering heartbeats within seconds of joining and was downed).</li>
 * </ul>
 * Shards still move when their node leaves or is downed.
 */
public final class WarmPlacement implements ShardCoordinator.ActorSystemDependentAllocationStrategy {
  private static final Set<String> NOTHING = scala.collection.immutable.Set$.MODULE$.empty();

  // At most 3 shards a round (every rebalance-interval, 10 s) and a tenth of them: as gentle as
  // Pekko's default for a type without a strategy of its own (threshold 1, 3 at a time).
  private final ShardCoordinator.ShardAllocationStrategy leastShards =
      ShardCoordinator.ShardAllocationStrategy$.MODULE$.leastShardAllocationStrategy(3, 0.1);
  private final MemberAges ages;
  private final Duration warmUp;
  private final boolean rebalance;
  private volatile Address self;

  private WarmPlacement(MemberAges ages, Duration warmUp, boolean rebalance) {
    this.ages = ages;
    this.warmUp = warmUp;
    this.rebalance = rebalance;
  }

  /** Placement by shard counts alone, never rebalanced. */
  public static WarmPlacement fixed() {
    return new WarmPlacement(null, Duration.ZERO, false);
  }

  /** Placement on nodes up for {@code warmUp} (by {@code ages}) when there are any, never rebalanced. */
  public static WarmPlacement fixed(MemberAges ages, Duration warmUp) {
    return new WarmPlacement(ages, warmUp, false);
  }

  /** Placement on nodes up for {@code warmUp} first; rebalanced by shard counts while every node is up that long. */
  public static WarmPlacement balanced(MemberAges ages, Duration warmUp) {
    return new WarmPlacement(ages, warmUp, true);
  }

  /** {@link #balanced} with this node's member ages and {@code boxoffice.inventory.warm-up} (none when unset). */
  public static WarmPlacement balanced(org.apache.pekko.actor.typed.ActorSystem<?> system) {
    com.typesafe.config.Config config = system.settings().config();
    String warmUp = "boxoffice.inventory.warm-up";
    return balanced(MemberAges.get(system), config.hasPath(warmUp) ? config.getDuration(warmUp) : Duration.ZERO);
  }

  @Override
  public void start(ActorSystem system) {
    self = ((org.apache.pekko.actor.ExtendedActorSystem) system).provider().getDefaultAddress();
    if (leastShards instanceof ShardCoordinator.ActorSystemDependentAllocationStrategy s) s.start(system);
    else if (leastShards instanceof ShardCoordinator.StartableAllocationStrategy s) s.start();
  }

  @Override
  public Future<ActorRef> allocateShard(ActorRef requester, String shardId, Map<ActorRef, IndexedSeq<String>> current) {
    Map<ActorRef, IndexedSeq<String>> warm = current;
    scala.collection.Iterator<ActorRef> regions = current.keysIterator();
    while (regions.hasNext()) {
      ActorRef region = regions.next();
      if (!isWarm(region)) warm = warm.removed(region);
    }
    Map<ActorRef, IndexedSeq<String>> candidates = warm.isEmpty() ? current : warm;
    return leastShards.allocateShard(requester, shardId, rebalance ? candidates : awayFromHere(candidates));
  }

  /**
   * The candidates but this coordinator's own node, when there is another. The coordinator runs
   * on the oldest node: a hot entity placed there dies with it, and its failover then waits for
   * a new coordinator as well (chaos drill, kills of the event's host: next sale 8.2 and 8.7 s
   * when the host was another node, 11.5, 13.4 and 13.7 s when it was the oldest).
   */
  private Map<ActorRef, IndexedSeq<String>> awayFromHere(Map<ActorRef, IndexedSeq<String>> candidates) {
    if (self == null || candidates.size() < 2) return candidates;
    Map<ActorRef, IndexedSeq<String>> away = candidates;
    scala.collection.Iterator<ActorRef> regions = candidates.keysIterator();
    while (regions.hasNext()) {
      ActorRef region = regions.next();
      if (addressOf(region).equals(self)) away = away.removed(region);
    }
    return away.isEmpty() ? candidates : away;
  }

  @Override
  public Future<Set<String>> rebalance(Map<ActorRef, IndexedSeq<String>> current, Set<String> inProgress) {
    if (!rebalance) return Future.successful(NOTHING);
    scala.collection.Iterator<ActorRef> regions = current.keysIterator();
    while (regions.hasNext()) {
      if (!isWarm(regions.next())) return Future.successful(NOTHING);
    }
    return leastShards.rebalance(current, inProgress);
  }

  private boolean isWarm(ActorRef region) {
    return ages == null || isWarm(ages.upFor(addressOf(region)), warmUp);
  }

  static boolean isWarm(Duration upFor, Duration warmUp) {
    return upFor.compareTo(warmUp) >= 0;
  }

  private Address addressOf(ActorRef region) {
    Address address = region.path().address();
    return address.hasLocalScope() && self != null ? self : address;
  }
}
