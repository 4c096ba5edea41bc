package io.boxoffice.app;

import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * A node never goes on as a minority of the inventory nodes it has known. The split-brain
 * resolver decides on what each node sees, and a node cut off from the others notices them
 * unreachable one at a time: when those moments lie further apart than {@code stable-after} (on
 * a starved machine, 2.6 s in the partition drill of 2026-12-01), it decides on half the
 * picture, downs one peer as the majority would, then breaks the tie with the other in its own
 * favour, and serves on as a cluster of one beside the real one. Its writes are fenced by the
 * journal, but its reads are stale: that drill's fans were told "no such order" for 42 paid
 * orders, read through the cut-off node after the partition healed.
 *
 * <p>This guard counts the members of {@code role} this node has known at once, less those
 * that left gracefully (a rolling restart or a scale-down shrinks the cluster on purpose), and
 * those it counts now (every status but Joining, Down and removed). When the ones now are fewer
 * than half the ones known, it downs itself: it leaves, its process exits, and its platform (or
 * chaos/restart-node) starts it again to join the real cluster. A crashed peer is no reason (the
 * others stay a majority); two of three gone is, as it is for the resolver.
 */
final class QuorumGuard {
  private QuorumGuard() {}

  /** Pekko-free: the members known at once, and whether a count now is a minority of them. */
  static final class Quorum {
    private int known;

    /** A member left gracefully: the cluster is smaller on purpose. */
    void leftGracefully() {
      if (known > 0) known--;
    }

    /** Whether {@code now} members are fewer than half the most known at once (counting {@code now} as known). */
    boolean minority(int now) {
      known = Math.max(known, now);
      return 2 * now < known;
    }

    int known() {
      return known;
    }
  }

  static void start(ActorSystem<?> system, String role) {
    system.systemActorOf(create(role), "quorum-guard", Props.empty());
  }

  static Behavior<ClusterEvent.MemberEvent> create(String role) {
    return Behaviors.setup(ctx -> {
      Cluster cluster = Cluster.get(ctx.getSystem());
      cluster.subscriptions().tell(Subscribe.create(ctx.getSelf(), ClusterEvent.MemberEvent.class));
      Quorum quorum = new Quorum();
      return Behaviors.receive(ClusterEvent.MemberEvent.class)
          .onMessage(ClusterEvent.MemberEvent.class, event -> {
            if (event instanceof ClusterEvent.MemberRemoved removed && removed.previousStatus() == MemberStatus.exiting()
                && counts(removed.member(), role)) {
              quorum.leftGracefully();
            }
            int now = 0;
            for (Member m : cluster.state().getMembers()) {
              if (counts(m, role) && isCounted(m.status())) now++;
            }
            MemberStatus self = cluster.selfMember().status();
            if (quorum.minority(now) && self != MemberStatus.down() && self != MemberStatus.leaving()
                && self != MemberStatus.exiting() && self != MemberStatus.removed()) {
              ctx.getLog().error("this node sees {} of the {} {} members it knew: it is cut off from the cluster's majority"
                  + " (the split-brain resolver decided on part of the picture); downing itself", now, quorum.known(),
                  role.isEmpty() ? "cluster" : role);
              cluster.manager().tell(new Down(cluster.selfMember().address()));
            }
            return Behaviors.same();
          })
          .build();
    });
  }

  private static boolean counts(Member member, String role) {
    return role.isEmpty() || member.hasRole(role);
  }

  private static boolean isCounted(MemberStatus status) {
    return status == MemberStatus.up() || status == MemberStatus.weaklyUp() || status == MemberStatus.leaving()
        || status == MemberStatus.exiting();
  }
}
