package io.boxoffice.app;

import com.typesafe.config.Config;
import java.time.Clock;
import java.time.Duration;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Feeds this node's {@link FaultLedger} from cluster events: a member that becomes unreachable
 * is trouble from when it probably failed (the failure detector's pause and one heartbeat
 * earlier) until it is reachable again or removed; a member that leaves is trouble until it is
 * removed (its entities are handed over meanwhile).
 */
public final class ClusterFaults {
  private ClusterFaults() {}

  /** Starts the watcher on this node and returns its ledger. */
  public static FaultLedger start(ActorSystem<?> system, Clock clock, Duration settle, Metrics metrics) {
    Config detector = system.settings().config().getConfig("pekko.cluster.failure-detector");
    long lookBack = detector.getDuration("acceptable-heartbeat-pause").toMillis()
        + detector.getDuration("heartbeat-interval").toMillis();
    FaultLedger ledger = new FaultLedger(settle.toMillis());
    system.systemActorOf(watcher(ledger, clock, lookBack), "platform-faults", Props.empty());
    metrics.gauge("boxoffice_platform_fault_seconds", "Seconds this node has counted the cluster in trouble "
        + "(hold clocks stop meanwhile)", io.micrometer.core.instrument.Tags.empty(),
        () -> ledger.faultMillisUpTo(clock.millis()) / 1000.0);
    return ledger;
  }

  static Behavior<ClusterEvent.ClusterDomainEvent> watcher(FaultLedger ledger, Clock clock, long lookBackMillis) {
    return Behaviors.setup(ctx -> {
      Cluster cluster = Cluster.get(ctx.getSystem());
      cluster.subscriptions().tell(Subscribe.create(ctx.getSelf().narrow(), ClusterEvent.ReachabilityEvent.class));
      cluster.subscriptions().tell(Subscribe.create(ctx.getSelf().narrow(), ClusterEvent.MemberEvent.class));
      return Behaviors.receiveMessage(event -> {
        long now = clock.millis();
        if (event instanceof ClusterEvent.UnreachableMember u) {
          ctx.getLog().warn("{} is unreachable: hold clocks stop until it is back or removed", u.member().address());
          ledger.started(unreachable(u.member().address()), now, lookBackMillis);
        } else if (event instanceof ClusterEvent.MemberDowned d) {
          // Downed while still reachable (DeadMemberProbe: its process is gone): trouble as for an unreachable one.
          ledger.started(unreachable(d.member().address()), now, lookBackMillis);
        } else if (event instanceof ClusterEvent.ReachableMember r) {
          ledger.ended(unreachable(r.member().address()), now);
        } else if (event instanceof ClusterEvent.MemberLeft || event instanceof ClusterEvent.MemberExited) {
          ledger.started(leaving(((ClusterEvent.MemberEvent) event).member().address()), now, 0);
        } else if (event instanceof ClusterEvent.MemberRemoved r) {
          ledger.ended(unreachable(r.member().address()), now);
          ledger.ended(leaving(r.member().address()), now);
        }
        return Behaviors.same();
      });
    });
  }

  private static String unreachable(Address address) {
    return "unreachable " + address;
  }

  private static String leaving(Address address) {
    return "leaving " + address;
  }
}
