package io.boxoffice.app;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
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
 * <p>This guard counts the members of {@code role} this node has known at once and those it
 * counts now (every status but Joining, Down and removed), from the cluster's membership events.
 * When the ones now are fewer than half the ones known, it downs itself: it leaves, its process
 * exits, and its platform (or chaos/restart-node) starts it again to join the real cluster. The
 * cluster may shrink on purpose: a member that left gracefully (a rolling restart, a
 * scale-down) is known no more, and once the membership has stayed the same with every member
 * reachable for {@code settle}, the members then are what it knows (a crashed peer removed and
 * the survivors agreed), so a second failure later leaves the survivor to the resolver's
 * tie-break as before. A cut-off node that downs its peers one after the other never settles in
 * between: a peer it has not downed yet is unreachable.
 */
final class QuorumGuard {
  private QuorumGuard() {}

  /** Pekko-free: the members known, and whether a count now is a minority of them. */
  static final class Quorum {
    private int known;

    /** A member left gracefully: the cluster is smaller on purpose. */
    void leftGracefully() {
      if (known > 0) known--;
    }

    /** The membership has settled with {@code now} members, every one reachable: those are the cluster now, unless a minority. */
    void settled(int now) {
      if (2 * now >= known) known = now;
    }

    /** Whether {@code now} members are fewer than half the ones known (counting {@code now} as known). */
    boolean minority(int now) {
      known = Math.max(known, now);
      return 2 * now < known;
    }

    int known() {
      return known;
    }
  }

  private record Tick() {}

  static void start(ActorSystem<?> system, String role, Duration settle) {
    system.systemActorOf(create(role, settle), "quorum-guard", Props.empty());
  }

  static Behavior<Object> create(String role, Duration settle) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      Cluster cluster = Cluster.get(ctx.getSystem());
      // Typed subscriptions replay the current membership as events first.
      cluster.subscriptions().tell(Subscribe.create(ctx.getSelf().narrow(), ClusterEvent.MemberEvent.class));
      cluster.subscriptions().tell(Subscribe.create(ctx.getSelf().narrow(), ClusterEvent.ReachabilityEvent.class));
      timers.startTimerWithFixedDelay(new Tick(), Duration.ofSeconds(1));
      Quorum quorum = new Quorum();
      Map<UniqueAddress, Member> members = new HashMap<>();
      Set<UniqueAddress> unreachable = new HashSet<>();
      long[] changedAt = {System.nanoTime()};
      return Behaviors.receive(Object.class)
          .onMessage(ClusterEvent.MemberEvent.class, event -> {
            changedAt[0] = System.nanoTime();
            Member member = event.member();
            if (event instanceof ClusterEvent.MemberRemoved removed) {
              members.remove(member.uniqueAddress());
              unreachable.remove(member.uniqueAddress());
              if (removed.previousStatus() == MemberStatus.exiting() && counts(member, role)) quorum.leftGracefully();
            } else {
              members.put(member.uniqueAddress(), member);
            }
            check(ctx.getLog(), cluster, quorum, counted(members, role), role);
            return Behaviors.same();
          })
          .onMessage(ClusterEvent.UnreachableMember.class, event -> {
            changedAt[0] = System.nanoTime();
            unreachable.add(event.member().uniqueAddress());
            return Behaviors.same();
          })
          .onMessage(ClusterEvent.ReachableMember.class, event -> {
            changedAt[0] = System.nanoTime();
            unreachable.remove(event.member().uniqueAddress());
            return Behaviors.same();
          })
          .onMessage(Tick.class, t -> {
            if (unreachable.isEmpty() && System.nanoTime() - changedAt[0] >= settle.toNanos()) {
              quorum.settled(counted(members, role));
            }
            return Behaviors.same();
          })
          .onAnyMessage(other -> Behaviors.same())
          .build();
    }));
  }

  private static void check(org.slf4j.Logger log, Cluster cluster, Quorum quorum, int now, String role) {
    if (!quorum.minority(now)) return;
    MemberStatus self = cluster.selfMember().status();
    if (self == MemberStatus.down() || self == MemberStatus.leaving() || self == MemberStatus.exiting()
        || self == MemberStatus.removed()) {
      return;
    }
    log.error("this node sees {} of the {} {} members it knew: it is cut off from the cluster's majority"
        + " (the split-brain resolver decided on part of the picture); downing itself", now, quorum.known(),
        role.isEmpty() ? "cluster" : role);
    cluster.manager().tell(new Down(cluster.selfMember().address()));
  }

  private static int counted(Map<UniqueAddress, Member> members, String role) {
    int now = 0;
    for (Member m : members.values()) {
      if (counts(m, role) && isCounted(m.status())) now++;
    }
    return now;
  }

  private static boolean counts(Member member, String role) {
    return role.isEmpty() || member.hasRole(role);
  }

  private static boolean isCounted(MemberStatus status) {
    return status == MemberStatus.up() || status == MemberStatus.weaklyUp() || status == MemberStatus.leaving()
        || status == MemberStatus.exiting();
  }
}
