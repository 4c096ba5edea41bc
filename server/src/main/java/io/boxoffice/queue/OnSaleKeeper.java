package io.boxoffice.queue;

import io.boxoffice.common.CborSerializable;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
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
import org.apache.pekko.stream.Materializer;

/**
 * Keeps every scheduled waiting room running, so its timers open the lobby and start the sale
 * on time after a restart or a node loss: one per cluster, it reads which events have an
 * on-sale schedule (journal events tagged {@link #TAG}) and pokes each of their waiting rooms
 * periodically; sharding starts any that are not running. Rooms without a schedule (closed or
 * open sales) need no timer and are not kept running: an edge node wakes one when a fan asks
 * for its event. The keeper also reads which events exist at all ({@link #EVENT_TAG}) and tells
 * a starting edge node ({@link ListEvents}), so that the node can answer 404 for an id nobody
 * created without asking any room.
 */
public final class OnSaleKeeper {
  public static final String TAG = "onsale";
  /** Tag of the events that define an event (its existence), read for the catalogue only. */
  public static final String EVENT_TAG = "event";
  /** Its own read journal (conf/persistence.conf): short waits at gaps in the journal's ordering. */
  static final String READ_JOURNAL = "keeper-read-journal";

  private OnSaleKeeper() {}

  public sealed interface Command extends CborSerializable {}

  /** Replies {@link Events}: every event the keeper has read of so far. */
  public record ListEvents(ActorRef<Events> replyTo) implements Command {}

  /** {@code complete} once the keeper has read the whole journal at least once; until then the list may lack events. */
  public record Events(boolean complete, Set<String> eventIds) implements CborSerializable {}

  private record Poke() implements Command {}

  /**
   * What one read of a tag found: scheduled rooms (tag {@link #TAG}) or defined events
   * ({@link #EVENT_TAG}); {@code read} is false when the read failed.
   */
  private record Found(String tag, Set<String> eventIds, boolean read) implements Command {}

  /** Starts the keeper (on an inventory node) or a proxy to it, and returns the proxy. */
  public static ActorRef<Command> init(ActorSystem<?> system, Duration interval) {
    return ClusterSingleton.get(system).init(SingletonActor.of(
            Behaviors.supervise(create(interval)).onFailure(SupervisorStrategy.restart()), "onsale-keeper")
        .withSettings(ClusterSingletonSettings.create(system).withRole("inventory")));
  }

  static Behavior<Command> create(Duration interval) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      JdbcReadJournal journal = PersistenceQuery.get(ctx.getSystem())
          .getReadJournalFor(JdbcReadJournal.class, READ_JOURNAL);
      Materializer materializer = Materializer.matFromSystem(ctx.getSystem());
      ClusterSharding sharding = ClusterSharding.get(ctx.getSystem());
      Set<String> scheduled = new HashSet<>();
      Set<String> defined = new HashSet<>();
      Set<String> readOnce = new HashSet<>();
      ctx.getSelf().tell(new Poke());
      return Behaviors.<Command>receive(Command.class)
          .onMessage(Poke.class, p -> {
            // Both tags whole at every pass (a few events per on-sale): an event that a short
            // wait at a gap passed over is found on the next pass.
            for (String tag : List.of(TAG, EVENT_TAG)) {
              ctx.pipeToSelf(journal.currentEventsByTag(tag, Offset.noOffset())
                      .runFold(new Found(tag, new HashSet<>(), true), (acc, env) -> {
                        acc.eventIds().add(env.persistenceId().substring(env.persistenceId().indexOf('|') + 1));
                        return acc;
                      }, materializer),
                  (found, error) -> found != null ? found : new Found(tag, Set.of(), false));
            }
            return Behaviors.same();
          })
          .onMessage(ListEvents.class, l -> {
            Set<String> all = new HashSet<>(defined);
            all.addAll(scheduled);
            l.replyTo().tell(new Events(readOnce.size() == 2, all));
            return Behaviors.same();
          })
          .onMessage(Found.class, f -> {
            if (f.read()) readOnce.add(f.tag());
            if (f.tag().equals(EVENT_TAG)) {
              defined.addAll(f.eventIds());
              return Behaviors.same();
            }
            scheduled.addAll(f.eventIds());
            for (String eventId : scheduled) {
              sharding.entityRefFor(WaitingRoom.ENTITY_TYPE_KEY, eventId).tell(new WaitingRoom.Tick());
            }
            timers.startSingleTimer(new Poke(), interval);
            return Behaviors.same();
          })
          .build();
    }));
  }
}
