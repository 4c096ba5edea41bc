package io.boxoffice.queue;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.ReadSide;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
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
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.projection.ProjectionBehavior;
import org.apache.pekko.projection.ProjectionId;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.eventsourced.javadsl.EventSourcedProvider;
import org.apache.pekko.projection.javadsl.GroupedProjection;
import org.apache.pekko.projection.jdbc.javadsl.JdbcProjection;
import org.apache.pekko.stream.Materializer;

/**
 * Keeps every scheduled waiting room running, so its timers open the lobby and start the sale
 * on time after a restart or a node loss: one per cluster, it knows which events have an
 * on-sale schedule (journal events tagged {@link #TAG}) and pokes each of their waiting rooms
 * periodically; sharding starts any that are not running. Rooms without a schedule (closed or
 * open sales) need no timer and are not kept running: an edge node wakes one when a fan asks
 * for its event. The keeper also knows which events exist at all ({@link #EVENT_TAG}) and tells
 * a starting edge node ({@link ListEvents}), so that the node can answer 404 for an id nobody
 * created without asking any room.
 *
 * <p>What it knows is kept in a table ({@link OnSaleCatalogue}) by a projection per tag, spread
 * over the inventory nodes, that stores its offset with the rows. Its first pass reads the table
 * and the events tagged since those offsets (after a node loss the projections may be down
 * too), later passes the table alone, so neither its start nor a pass reads the journal from
 * its beginning.
 */
public final class OnSaleKeeper {
  public static final String TAG = "onsale";
  /** Tag of the events that define an event (its existence), read for the catalogue only. */
  public static final String EVENT_TAG = "event";
  /** Its own read journal (conf/persistence.conf): short waits at gaps in the journal's ordering. */
  static final String READ_JOURNAL = "keeper-read-journal";
  /** Frozen: the projections' offsets are stored under this name, one key per tag. */
  static final String PROJECTION = "onsale-catalogue";
  static final List<String> TAGS = List.of(EVENT_TAG, TAG);

  private OnSaleKeeper() {}

  public sealed interface Command extends CborSerializable {}

  /** Replies {@link Events}: every event the keeper has read of so far. */
  public record ListEvents(ActorRef<Events> replyTo) implements Command {}

  /** {@code complete} once the keeper has read the catalogue whole at least once; until then the list may lack events. */
  public record Events(boolean complete, Set<String> eventIds) implements CborSerializable {}

  /**
   * Told by the node that created the event, before it answers the manager: the keeper's list
   * holds the event at once, not only once its projection has read the journal, so that any edge
   * node that has not heard of it yet finds it when it asks again ({@link ListEvents}).
   */
  public record Announce(String eventId, ActorRef<Events> replyTo) implements Command {}

  /** Replies {@link Events} holding those of {@code eventIds} that exist (all the keeper knows of them). */
  public record LookUp(Set<String> eventIds, ActorRef<Events> replyTo) implements Command {}

  private record Poke() implements Command {}

  /** What one pass read: the defined events and the scheduled ones, or {@code failure}. */
  private record Found(Set<String> defined, Set<String> scheduled, String failure) implements Command {}

  /**
   * Starts the projections and the keeper (on inventory nodes) or a proxy to it, and returns the
   * proxy; {@code rooms} finds a waiting room by event id.
   */
  public static ActorRef<Command> init(ActorSystem<?> system, ReadSide readSide, Duration interval,
                                       Function<String, RecipientRef<WaitingRoom.Command>> rooms) {
    ShardedDaemonProcess.get(system).init(ProjectionBehavior.Command.class, PROJECTION, TAGS.size(),
        i -> ProjectionBehavior.create(projection(system, readSide, TAGS.get(i))),
        ShardedDaemonProcessSettings.create(system)
            .withShardingSettings(ClusterShardingSettings.create(system).withRole("inventory")),
        Optional.of(ProjectionBehavior.stopMessage()));
    return ClusterSingleton.get(system).init(SingletonActor.of(
            Behaviors.supervise(create(readSide, interval, rooms)).onFailure(SupervisorStrategy.restart()), "onsale-keeper")
        .withSettings(ClusterSingletonSettings.create(system).withRole("inventory")));
  }

  /** The projection of one tag into the catalogue; groups and backoff from {@code pekko.projection}. */
  static GroupedProjection<Offset, EventEnvelope<Object>> projection(ActorSystem<?> system, ReadSide readSide, String tag) {
    return JdbcProjection.groupedWithin(ProjectionId.of(PROJECTION, tag),
        EventSourcedProvider.<Object>eventsByTag(system, JdbcReadJournal.Identifier(), tag),
        readSide::session, () -> new OnSaleCatalogue(tag), system);
  }

  static Behavior<Command> create(ReadSide readSide, Duration interval, Function<String, RecipientRef<WaitingRoom.Command>> rooms) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      JdbcReadJournal journal = PersistenceQuery.get(ctx.getSystem())
          .getReadJournalFor(JdbcReadJournal.class, READ_JOURNAL);
      Materializer materializer = Materializer.matFromSystem(ctx.getSystem());
      Set<String> scheduled = new HashSet<>();
      Set<String> defined = new HashSet<>();
      boolean[] readOnce = {false};
      ctx.getSelf().tell(new Poke());
      return Behaviors.<Command>receive(Command.class)
          .onMessage(Poke.class, p -> {
            boolean tail = !readOnce[0];
            ctx.pipeToSelf(readSide.transact(c -> OnSaleCatalogue.read(c, PROJECTION))
                    .thenCompose(read -> since(journal, materializer, read, EVENT_TAG, tail)
                        .thenCombine(since(journal, materializer, read, TAG, tail), (d, s) -> new Found(d, s, null))),
                (found, error) -> found != null ? found : new Found(Set.of(), Set.of(), String.valueOf(error)));
            return Behaviors.same();
          })
          .onMessage(Announce.class, a -> {
            defined.add(a.eventId());
            a.replyTo().tell(new Events(readOnce[0], Set.of(a.eventId())));
            return Behaviors.same();
          })
          .onMessage(LookUp.class, l -> {
            Set<String> found = new HashSet<>();
            for (String id : l.eventIds()) if (defined.contains(id) || scheduled.contains(id)) found.add(id);
            l.replyTo().tell(new Events(readOnce[0], found));
            return Behaviors.same();
          })
          .onMessage(ListEvents.class, l -> {
            Set<String> all = new HashSet<>(defined);
            all.addAll(scheduled);
            l.replyTo().tell(new Events(readOnce[0], all));
            return Behaviors.same();
          })
          .onMessage(Found.class, f -> {
            if (f.failure() != null) {
              ctx.getLog().warn("reading the on-sale catalogue failed, trying again: {}", f.failure());
            } else {
              readOnce[0] = true;
              defined.addAll(f.defined());
              scheduled.addAll(f.scheduled());
              for (String eventId : scheduled) rooms.apply(eventId).tell(new WaitingRoom.Tick());
            }
            timers.startSingleTimer(new Poke(), interval);
            return Behaviors.same();
          })
          .build();
    }));
  }

  /**
   * The catalogue's rows of {@code tag}, and with {@code tail} the events tagged after its
   * projection's offset, which the projection may not have read yet (it lags by a group, or is
   * starting on another node). Only the first pass reads them: that read goes from the offset to
   * the journal's end, and a tag's offset stays at its last event, however old.
   */
  private static CompletionStage<Set<String>> since(JdbcReadJournal journal, Materializer materializer,
                                                    OnSaleCatalogue.Read read, String tag, boolean tail) {
    if (!tail) return CompletableFuture.completedFuture(read.eventIds(tag));
    long offset = read.offset(tag);
    return journal.currentEventsByTag(tag, offset == 0 ? Offset.noOffset() : Offset.sequence(offset))
        .runFold(new HashSet<>(read.eventIds(tag)), (ids, envelope) -> {
          ids.add(OnSaleCatalogue.eventId(envelope.persistenceId()));
          return ids;
        }, materializer);
  }
}
