package io.boxoffice.queue;

import io.boxoffice.CborSerializable;
import io.boxoffice.ops.Supervision;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * The place in line of one account that arrived after the start of an event's sale. The edge
 * offers the next place of its leased block; the first offer is kept and every later one (a
 * second browser, a retry on another node) gets the kept place back, so one account has one
 * place. One small entity per account spreads these writes over the cluster instead of
 * funnelling the crowd through one actor. (Lobby accounts need none: their place follows from
 * the lottery.) Replies {@link Place}.
 */
public final class QueuePlace extends EventSourcedBehaviorWithEnforcedReplies<QueuePlace.Command, QueuePlace.Event, QueuePlace.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "QueuePlace");

  public static String entityId(String eventId, String accountId) {
    return eventId + ":" + accountId;
  }

  public sealed interface Command extends CborSerializable {}

  /** Keeps {@code offered} as the account's place unless it has one; replies {@link Place}. */
  public record Claim(long offered, ActorRef<Place> replyTo) implements Command {}

  public record Place(long place) implements CborSerializable {}

  public sealed interface Event extends CborSerializable {}

  public record PlaceTaken(long place) implements Event {}

  /** 0 until a place is taken. */
  public record State(long place) implements CborSerializable {}

  public static void init(ActorSystem<?> system) {
    ClusterSharding.get(system).init(Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId())).withRole("inventory"));
  }

  public static Behavior<Command> create(String entityId) {
    return Supervision.restarting(new QueuePlace(PersistenceId.of(ENTITY_TYPE_KEY.name(), entityId)));
  }

  private QueuePlace(PersistenceId id) {
    super(id, Supervision.backoff());
  }

  @Override
  public State emptyState() {
    return new State(0);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return (state, command) -> {
      Claim c = (Claim) command;
      if (state.place() != 0) return Effect().reply(c.replyTo(), new Place(state.place()));
      return Effect().persist(new PlaceTaken(c.offered())).thenReply(c.replyTo(), s -> new Place(s.place()));
    };
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return (state, event) -> new State(((PlaceTaken) event).place());
  }
}
