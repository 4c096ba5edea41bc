package io.boxoffice.cart;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.ClusterSingletonSettings;
import org.apache.pekko.cluster.typed.SingletonActor;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.persistence.query.Sequence;
import org.apache.pekko.stream.Materializer;

/**
 * Finds checkouts that a crash left half done and wakes their carts, which then finish or void
 * what they started. A cart comes back by itself only when its fan calls again; a fan who
 * closed the tab would leave an authorization (or an uncaptured sale) behind. One per cluster
 * (a singleton on the inventory nodes), it reads the carts' tagged journal events, keeps the
 * checkouts that have not reached an end, and sends those open longer than the grace period a
 * {@link Cart.Resume}.
 */
public final class CheckoutRecovery {
  public static final String TAG = "checkout";

  private CheckoutRecovery() {}

  sealed interface Command {}

  private record Sweep() implements Command {}

  /** What one read of the tag found: checkouts opened (when), and end marks per checkout. */
  private record Swept(long offset, Map<String, Long> opened, Map<String, Integer> ends) implements Command {}

  private static final int CAPTURED = 1;
  private static final int FILED = 2;
  private static final int ENDED = 4;

  private record SweepFailed(String reason) implements Command {}

  public static void init(ActorSystem<?> system, Clock clock, Duration interval, Duration grace) {
    ClusterSingleton.get(system).init(SingletonActor.of(
            Behaviors.supervise(create(clock, interval, grace)).onFailure(SupervisorStrategy.restart()), "checkout-recovery")
        .withSettings(ClusterSingletonSettings.create(system).withRole("inventory")));
  }

  static Behavior<Command> create(Clock clock, Duration interval, Duration grace) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      JdbcReadJournal journal = PersistenceQuery.get(ctx.getSystem())
          .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
      Materializer materializer = Materializer.matFromSystem(ctx.getSystem());
      ClusterSharding sharding = ClusterSharding.get(ctx.getSystem());
      Map<String, Long> open = new HashMap<>();
      Map<String, Integer> ends = new HashMap<>();
      long[] offset = {0};
      ctx.getSelf().tell(new Sweep());
      return Behaviors.<Command>receive(Command.class)
          .onMessage(Sweep.class, s -> {
            ctx.pipeToSelf(
                journal.currentEventsByTag(TAG, Offset.sequence(offset[0]))
                    .runFold(new Swept(offset[0], new HashMap<>(), new HashMap<>()),
                        CheckoutRecovery::fold, materializer),
                (swept, error) -> swept != null ? swept : new SweepFailed(String.valueOf(error)));
            return Behaviors.same();
          })
          .onMessage(Swept.class, swept -> {
            offset[0] = swept.offset();
            swept.opened().forEach(open::putIfAbsent);
            swept.ends().forEach((key, bits) -> ends.merge(key, bits, (a, b) -> a | b));
            ends.entrySet().removeIf(e -> {
              boolean done = (e.getValue() & ENDED) != 0 || (e.getValue() & (CAPTURED | FILED)) == (CAPTURED | FILED);
              if (done) open.remove(e.getKey());
              return done;
            });
            long stalledBefore = clock.millis() - grace.toMillis();
            open.forEach((key, since) -> {
              if (since <= stalledBefore) {
                String entityId = key.substring(0, key.indexOf('#'));
                ctx.getLog().info("waking cart {}: a checkout has been open since {}", entityId, java.time.Instant.ofEpochMilli(since));
                sharding.entityRefFor(Cart.ENTITY_TYPE_KEY, entityId).tell(new Cart.Resume());
              }
            });
            timers.startSingleTimer(new Sweep(), interval);
            return Behaviors.same();
          })
          .onMessage(SweepFailed.class, f -> {
            ctx.getLog().warn("checkout sweep failed, trying again: {}", f.reason());
            timers.startSingleTimer(new Sweep(), interval);
            return Behaviors.same();
          })
          .build();
    }));
  }

  /** Folds one cart event into the sweep: which checkouts opened, which reached an end. */
  private static Swept fold(Swept acc, EventEnvelope envelope) {
    String entityId = envelope.persistenceId().substring(envelope.persistenceId().indexOf('|') + 1);
    long offset = envelope.offset() instanceof Sequence seq ? Math.max(acc.offset(), seq.value()) : acc.offset();
    Object event = envelope.event();
    if (event instanceof Cart.CheckoutStarted s) {
      acc.opened().put(entityId + "#" + s.orderId(), envelope.timestamp());
    } else if (event instanceof Cart.PaymentDeclined d) {
      acc.ends().merge(entityId + "#" + d.orderId(), ENDED, (a, b) -> a | b);
    } else if (event instanceof Cart.PaymentVoided v) {
      acc.ends().merge(entityId + "#" + v.orderId(), ENDED, (a, b) -> a | b);
    } else if (event instanceof Cart.PaymentCaptured c) {
      acc.ends().merge(entityId + "#" + c.orderId(), CAPTURED, (a, b) -> a | b);
    } else if (event instanceof Cart.OrderFiled f) {
      acc.ends().merge(entityId + "#" + f.orderId(), FILED, (a, b) -> a | b);
    }
    return new Swept(offset, acc.opened(), acc.ends());
  }
}
