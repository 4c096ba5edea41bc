package io.boxoffice.common;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * How long each cluster member has been up, as this node saw it: when a member came up (or,
 * for members already up, when this node started watching) until it is removed. Tells shard
 * placement a node that has just started again (cold JIT, slow to recover an entity) from a
 * warm one.
 */
public final class MemberAges implements Extension {
  private static final ExtensionId<MemberAges> ID = new ExtensionId<>() {
    @Override
    public MemberAges createExtension(ActorSystem<?> system) {
      return watch(system, "member-ages");
    }
  };

  private final Map<Address, Long> upSince = new ConcurrentHashMap<>();

  private MemberAges() {}

  /** This node's member ages, watched from the first call on (one watcher per node). */
  public static MemberAges get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  /** Starts watching the members on this node under the actor name {@code name}. */
  public static MemberAges watch(ActorSystem<?> system, String name) {
    MemberAges ages = new MemberAges();
    system.systemActorOf(Behaviors.<ClusterEvent.MemberEvent>setup(ctx -> {
      Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(ctx.getSelf(), ClusterEvent.MemberEvent.class));
      return Behaviors.receiveMessage(event -> {
        if (event instanceof ClusterEvent.MemberUp up) ages.upSince.put(up.member().address(), System.nanoTime());
        else if (event instanceof ClusterEvent.MemberRemoved removed) ages.upSince.remove(removed.member().address());
        return Behaviors.same();
      });
    }), name, Props.empty());
    return ages;
  }

  /** How long the member at this address has been up as this node saw it; zero when it is not (or not yet known to be). */
  public Duration upFor(Address address) {
    Long since = upSince.get(address);
    return since == null ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - since);
  }
}
