package io.boxoffice.queue;

import io.boxoffice.CborSerializable;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.ClusterSingletonSettings;
import org.apache.pekko.cluster.typed.SingletonActor;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.persistence.query.Sequence;
import org.apache.pekko.stream.Materializer;

/**
 * Keeps every event's waiting room running, so its timers open the lobby and start the sale
 * on time after a restart or a node loss, and every edge hears its manifest: one per cluster,
 * it reads which events exist (tagged journal events) and pokes each of their waiting rooms
 * periodically; sharding starts any that are not running. It also tells a starting edge node
 * which events exist ({@link ListEvents}), so that the node can answer 404 for an id nobody
 * created without waiting to hear every room.
 */
public final class OnSaleKeeper {
  public static final String TAG = "onsale";

  private OnSaleKeeper() {}

  public sealed interface Command extends CborSerializable {}

  /** Replies {@link Events}: every event the keeper has read of so far. */
  public record ListEvents(ActorRef<Events> replyTo) implements Command {}

  /** {@code complete} once the keeper has read the whole journal at least once; until then the list may lack events. */
  public record Events(boolean complete, Set<String> eventIds) implements CborSerializable {}

  private record Poke() implements Command {}

  /** What one read of the journal found; {@code read} is false when the read failed. */
  private record Found(long offset, Set<String> eventIds, boolean read) implements Command {}

  /** Starts the keeper (on an inventory node) or a proxy to it, and returns the proxy. */
  public static ActorRef<Command> init(ActorSystem<?> system, Duration interval) {
    return ClusterSingleton.get(system).init(SingletonActor.of(
            Behaviors.supervise(create(interval)).onFailure(SupervisorStrategy.restart()), "onsale-keeper")
        .withSettings(ClusterSingletonSettings.create(system).withRole("inventory")));
  }

  static Behavior<Command> create(Duration interval) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      JdbcReadJournal journal = PersistenceQuery.get(ctx.getSystem())
          .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
      Materializer materializer = Materializer.matFromSystem(ctx.getSystem());
      ClusterSharding sharding = ClusterSharding.get(ctx.getSystem());
      Set<String> known = new HashSet<>();
      long[] offset = {0};
      boolean[] readOnce = {false};
      ctx.getSelf().tell(new Poke());
      return Behaviors.<Command>receive(Command.class)
          .onMessage(Poke.class, p -> {
            ctx.pipeToSelf(journal.currentEventsByTag(TAG, Offset.sequence(offset[0]))
                    .runFold(new Found(offset[0], new HashSet<>(), true), (acc, env) -> {
                      acc.eventIds().add(env.persistenceId().substring(env.persistenceId().indexOf('|') + 1));
                      long o = env.offset() instanceof Sequence seq ? Math.max(acc.offset(), seq.value()) : acc.offset();
                      return new Found(o, acc.eventIds(), true);
                    }, materializer),
                (found, error) -> found != null ? found : new Found(offset[0], Set.of(), false));
            return Behaviors.same();
          })
          .onMessage(ListEvents.class, l -> {
            l.replyTo().tell(new Events(readOnce[0], Set.copyOf(known)));
            return Behaviors.same();
          })
          .onMessage(Found.class, f -> {
            offset[0] = f.offset();
            if (f.read()) readOnce[0] = true;
            known.addAll(f.eventIds());
            for (String eventId : known) {
              sharding.entityRefFor(WaitingRoom.ENTITY_TYPE_KEY, eventId).tell(new WaitingRoom.Tick());
            }
            timers.startSingleTimer(new Poke(), interval);
            return Behaviors.same();
          })
          .build();
    }));
  }
}
