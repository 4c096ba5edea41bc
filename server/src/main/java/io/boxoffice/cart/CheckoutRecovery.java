package io.boxoffice.cart;

import io.boxoffice.common.ReadSide;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.typed.ShardedDaemonProcessSettings;
import org.apache.pekko.cluster.sharding.typed.javadsl.ShardedDaemonProcess;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.ClusterSingletonSettings;
import org.apache.pekko.cluster.typed.SingletonActor;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.projection.ProjectionBehavior;
import org.apache.pekko.projection.ProjectionId;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.eventsourced.javadsl.EventSourcedProvider;
import org.apache.pekko.projection.javadsl.GroupedProjection;
import org.apache.pekko.projection.jdbc.javadsl.JdbcProjection;

/**
 * Finds checkouts that a crash left half done and wakes their carts, which then finish or void
 * what they started. A cart comes back by itself only when its fan calls again; a fan who
 * closed the tab would leave an authorization (or an uncaptured sale) behind.
 *
 * <p>Projections of the carts' tagged events, one per slice tag spread over the inventory nodes,
 * keep the checkouts not yet at an end in a table ({@link PendingCheckouts}), saving their offsets
 * with it: a projection that restarts, here or on another node, resumes from its offset and the
 * table still holds every unfinished checkout. One sweeper per cluster (a singleton on the
 * inventory nodes) reads that table and sends those open longer than the grace period a
 * {@link Cart.Resume}; neither its start nor a sweep reads the journal.
 */
public final class CheckoutRecovery {
  /**
   * Frozen: the number of slices is in the tag of every stored cart event. More slices would
   * need a reader for each old tag, as {@link #LEGACY_TAG} has.
   */
  public static final int SLICES = 4;
  /**
   * The one tag cart events carried before slices. Still read, from its stored offset: a stored
   * journal keeps it, and nodes of the previous version write it during a rolling upgrade. Once
   * no node writes it, its projection only costs, at each of its starts, one query spanning the
   * journal written since its last event. Drop it from {@link #TAGS} then, once its stored offset
   * has reached {@code SELECT max(event_id) FROM event_tag WHERE tag = 'checkout'}.
   */
  static final String LEGACY_TAG = "checkout";
  /** Frozen: the projections' offsets are stored under this name, one key per tag. */
  static final String PROJECTION = "checkout-recovery";

  private CheckoutRecovery() {}

  /** The tag of every event of the cart {@code cartEntityId}: its slice. */
  public static String tagFor(String cartEntityId) {
    return LEGACY_TAG + "-" + Math.floorMod(cartEntityId.hashCode(), SLICES);
  }

  /** Every tag a cart event carries or carried: one per slice, and the legacy tag. */
  static final List<String> TAGS = Stream.concat(
      IntStream.range(0, SLICES).mapToObj(slice -> LEGACY_TAG + "-" + slice), Stream.of(LEGACY_TAG)).toList();

  sealed interface Command {}

  private record Sweep() implements Command {}

  private record Swept(List<PendingCheckouts.Stalled> stalled) implements Command {}

  private record SweepFailed(String reason) implements Command {}

  /** Starts the projections and the sweeper (on inventory nodes); {@code carts} finds a cart by entity id. */
  public static void init(ActorSystem<?> system, ReadSide readSide, Clock clock, Duration interval, Duration grace,
                          Function<String, RecipientRef<Cart.Command>> carts) {
    ShardedDaemonProcess.get(system).init(ProjectionBehavior.Command.class, PROJECTION, TAGS.size(),
        i -> ProjectionBehavior.create(projection(system, readSide, TAGS.get(i))),
        ShardedDaemonProcessSettings.create(system)
            .withShardingSettings(ClusterShardingSettings.create(system).withRole("inventory")),
        Optional.of(ProjectionBehavior.stopMessage()));
    ClusterSingleton.get(system).init(SingletonActor.of(
            Behaviors.supervise(sweeper(readSide, clock, interval, grace, carts)).onFailure(SupervisorStrategy.restart()),
            "checkout-recovery")
        .withSettings(ClusterSingletonSettings.create(system).withRole("inventory")));
  }

  /** The projection of one tag into the table of pending checkouts; groups and backoff from {@code pekko.projection}. */
  static GroupedProjection<Offset, EventEnvelope<Cart.Event>> projection(ActorSystem<?> system, ReadSide readSide, String tag) {
    return JdbcProjection.groupedWithin(ProjectionId.of(PROJECTION, tag),
        EventSourcedProvider.<Cart.Event>eventsByTag(system, JdbcReadJournal.Identifier(), tag),
        readSide::session, PendingCheckouts::new, system);
  }

  /** Every {@code interval}, wakes the carts of checkouts open for longer than {@code grace}. */
  static Behavior<Command> sweeper(ReadSide readSide, Clock clock, Duration interval, Duration grace,
                                   Function<String, RecipientRef<Cart.Command>> carts) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ctx.getSelf().tell(new Sweep());
      return Behaviors.<Command>receive(Command.class)
          .onMessage(Sweep.class, s -> {
            long startedBefore = clock.millis() - grace.toMillis();
            ctx.pipeToSelf(readSide.transact(c -> PendingCheckouts.stalled(c, startedBefore)),
                (stalled, error) -> stalled != null ? new Swept(stalled) : new SweepFailed(String.valueOf(error)));
            return Behaviors.same();
          })
          .onMessage(Swept.class, swept -> {
            for (PendingCheckouts.Stalled s : swept.stalled()) {
              ctx.getLog().info("waking cart {}: checkout {} has been open since {}", s.cartId(), s.orderId(),
                  Instant.ofEpochMilli(s.startedAt()));
              carts.apply(s.cartId()).tell(new Cart.Resume());
            }
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
}
