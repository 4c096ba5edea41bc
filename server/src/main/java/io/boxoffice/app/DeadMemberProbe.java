package io.boxoffice.app;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.remote.RemoteActorRefProvider;

/**
 * Downs a member at once when its remoting port refuses connections several times in a row: its
 * process is gone (a crash, kill -9, an exit on OutOfMemoryError). Heartbeats alone tell that only
 * after the failure detector's pause and the resolver's stable-after (~7 s here), and the pause
 * cannot be shortened without downing live nodes that merely stall (a cold JIT on shared cores, a
 * GC). A stalled or paused JVM keeps its port open and the kernel accepts connections for it, so
 * it is never judged here: heartbeats and the split-brain resolver decide about it as before. A
 * partition drops or times connections out, which is no refusal. And only a node that sees a
 * majority of the {@code role} members (itself counted; unreachable or refusing ones not) downs:
 * a node cut off behind rules that reject its connections downs nobody.
 */
final class DeadMemberProbe {
  private DeadMemberProbe() {}

  sealed interface Command {}

  private record Tick() implements Command {}

  private record Probed(UniqueAddress member, boolean refused) implements Command {}

  /** Probes every {@code interval}; downs after {@code refusals} refusals in a row. */
  static void start(ActorSystem<?> system, Duration interval, Duration connectTimeout, int refusals, String role) {
    Executor blocking = system.dispatchers().lookup(DispatcherSelector.fromConfig("boxoffice.blocking-dispatcher"));
    system.systemActorOf(create(interval, connectTimeout, refusals, role, blocking), "dead-member-probe", Props.empty());
  }

  static Behavior<Command> create(Duration interval, Duration connectTimeout, int refusals, String role, Executor blocking) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      Cluster cluster = Cluster.get(ctx.getSystem());
      Map<UniqueAddress, Integer> refusedInARow = new HashMap<>();
      timers.startTimerWithFixedDelay(new Tick(), interval);
      return Behaviors.receive(Command.class)
          .onMessage(Tick.class, t -> {
            Set<UniqueAddress> current = new HashSet<>();
            for (Member m : cluster.state().getMembers()) {
              if (m.uniqueAddress().equals(cluster.selfMember().uniqueAddress()) || !isServing(m.status())) continue;
              current.add(m.uniqueAddress());
              UniqueAddress target = m.uniqueAddress();
              ctx.pipeToSelf(CompletableFuture.supplyAsync(() -> refuses(target.address(), connectTimeout), blocking),
                  (refused, error) -> new Probed(target, error == null && refused));
            }
            refusedInARow.keySet().retainAll(current);
            return Behaviors.same();
          })
          .onMessage(Probed.class, p -> {
            if (!p.refused()) {
              refusedInARow.remove(p.member());
              return Behaviors.same();
            }
            int inARow = refusedInARow.merge(p.member(), 1, Integer::sum);
            if (inARow < refusals) return Behaviors.same();
            Set<UniqueAddress> refusing = new HashSet<>();
            refusedInARow.forEach((member, n) -> { if (n >= refusals) refusing.add(member); });
            Set<UniqueAddress> unreachable = new HashSet<>();
            for (Member m : cluster.state().getUnreachable()) unreachable.add(m.uniqueAddress());
            List<Seen<UniqueAddress>> seen = new ArrayList<>();
            for (Member m : cluster.state().getMembers()) {
              seen.add(new Seen<>(m.uniqueAddress(), isServing(m.status()), role.isEmpty() || m.hasRole(role)));
            }
            if (mayDown(p.member(), seen, unreachable, refusing)) {
              ctx.getLog().warn("{} refuses connections on its remoting port {} times in a row: its process is gone; downing it",
                  p.member().address(), inARow);
              cluster.manager().tell(new Down(p.member().address()));
              quarantine(ctx.getSystem(), p.member());
              refusedInARow.remove(p.member());
            }
            return Behaviors.same();
          })
          .build();
    }));
  }

  /**
   * Quarantines the dead incarnation (its address and uid; a process started again on the port
   * has another uid). The leader removes a Down member only once it is unreachable or
   * terminated, and a quarantine marks it terminated at once, where the failure detector would
   * take its acceptable pause (3.5 s) and more: the event's shard moves that much sooner (10-minute
   * drill before this: downed 0.3 s after the kill, removed 5.5 s after it). Pekko offers no public
   * call for it; the remote provider's quarantine is the one its own transport uses, and the
   * cluster turns the event it publishes into "terminated" for this member.
   */
  private static void quarantine(ActorSystem<?> system, UniqueAddress member) {
    if (Adapter.toClassic(system) instanceof ExtendedActorSystem extended
        && extended.provider() instanceof RemoteActorRefProvider remote) {
      remote.quarantine(member.address(), scala.Option.apply((Object) member.longUid()),
          "its remoting port refuses connections: the process is gone");
    }
  }

  private static boolean isServing(MemberStatus status) {
    return status == MemberStatus.up() || status == MemberStatus.weaklyUp();
  }

  /** A member as this node sees it: serving (Up or WeaklyUp), and whether it has the majority's role. */
  record Seen<A>(A address, boolean serving, boolean counts) {}

  /**
   * Whether {@code target} may be downed from here: it is a serving member, and the counted
   * members (those with the majority's role) that are serving, reachable from here and not
   * refusing connections (this node among them) are a strict majority of all counted serving ones.
   */
  static <A> boolean mayDown(A target, Iterable<Seen<A>> members, Set<A> unreachable, Set<A> refusing) {
    int all = 0;
    int alive = 0;
    boolean targetServing = false;
    for (Seen<A> m : members) {
      if (!m.serving()) continue;
      if (m.address().equals(target)) targetServing = true;
      if (!m.counts()) continue;
      all++;
      if (!m.address().equals(target) && !unreachable.contains(m.address()) && !refusing.contains(m.address())) alive++;
    }
    return targetServing && 2 * alive > all;
  }

  /** Whether a TCP connection to the address's host and port is refused (not: accepted, timed out, unroutable). */
  static boolean refuses(Address address, Duration connectTimeout) {
    if (address.getHost().isEmpty() || address.getPort().isEmpty()) return false;
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address.getHost().get(), (Integer) address.getPort().get()),
          (int) connectTimeout.toMillis());
      return false;
    } catch (ConnectException e) {
      return e.getMessage() != null && e.getMessage().contains("refused");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
