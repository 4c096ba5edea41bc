package io.boxoffice.queue;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.Supervision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * The one place in line of one account for one event, wherever and however often it joins.
 * Before the start it holds the account's lobby join index (asked of the {@link WaitingRoom}
 * once: concurrent joins of the account wait here for that one answer, so the lobby counts
 * accounts, not requests); the lottery maps the index to a place at the start. After the start
 * the edge offers the next place of its leased block and the first offer is kept. Every later
 * join, from any device, network prefix or node, gets the kept place back. A fan who leaves
 * gives the place up for good: rejoining after the start queues at the back; rejoining the
 * lobby before the start takes the same index again (no place exists yet, so nothing is gained).
 * One small entity per account spreads these writes over the cluster. Replies {@link Place}.
 */
public final class QueuePlace extends EventSourcedBehaviorWithEnforcedReplies<QueuePlace.Command, QueuePlace.Event, QueuePlace.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "QueuePlace");

  public static String entityId(String eventId, String accountId) {
    return eventId + ":" + accountId;
  }

  public sealed interface Command extends CborSerializable {}

  /** After the start: keeps {@code offered} as the account's place unless it holds one; replies {@link Place}. */
  public record Claim(long offered, ActorRef<Place> replyTo) implements Command {}

  /** Before the start: takes a lobby join index unless the account holds a place; replies {@link Place}. */
  public record JoinLobby(ActorRef<Place> replyTo) implements Command {}

  /** Replies the account's {@link Place} as it stands. */
  public record Lookup(ActorRef<Place> replyTo) implements Command {}

  /** Gives the place up; replies the {@link Place} as it was before. */
  public record Leave(ActorRef<Place> replyTo) implements Command {}

  /**
   * The account bought at the event: its place stops counting as an active shopper (its slot
   * goes to the next fan) but still admits until its window ends, within the per-account cap.
   * No reply.
   */
  public record Bought() implements Command {}

  /** The account's fan came to shop (its cart saw the first hold): the place counts as a shopper for its whole window. */
  public record Shopping() implements Command {}

  /** Internal: the waiting room's answer to this entity's {@link WaitingRoom.TakeLobbyIndex}. */
  public record RoomAnswered(long lobbyIndex, String refusal) implements Command {}

  /**
   * Where the account stands: a later place (after the start) or a lobby join index (0 for
   * none); {@code left} when it gave them up; {@code refusal} why the room gave no lobby index.
   */
  public record Place(long place, long lobbyIndex, boolean left, String refusal) implements CborSerializable {
    public boolean holds() {
      return !left && (place > 0 || lobbyIndex > 0);
    }
  }

  public sealed interface Event extends CborSerializable {}

  /** A later place was kept (it replaces anything held before). */
  public record PlaceTaken(long place) implements Event {}

  public record LobbyIndexTaken(long index) implements Event {}

  public record PlaceLeft() implements Event {}

  public record LobbyReturned() implements Event {}

  /** 0 for none; the fields after {@code place} are null in older journals. */
  public record State(long place, Long lobbyIndex, Boolean left) implements CborSerializable {
    Place view(String refusal) {
      return new Place(place, lobbyIndex == null ? 0 : lobbyIndex, Boolean.TRUE.equals(left), refusal);
    }

    Place view() {
      return view(null);
    }
  }

  public static void init(ActorSystem<?> system, Function<String, RecipientRef<WaitingRoom.Command>> rooms, Duration askTimeout) {
    ClusterSharding.get(system).init(Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), rooms, askTimeout)).withRole("inventory")
        .withAllocationStrategy(io.boxoffice.common.WarmPlacement.balanced(system)));
  }

  public static Behavior<Command> create(String entityId, Function<String, RecipientRef<WaitingRoom.Command>> rooms, Duration askTimeout) {
    return Supervision.restarting(s -> Behaviors.setup(ctx -> new QueuePlace(ctx, entityId, rooms, askTimeout, s)));
  }

  private final ActorContext<Command> context;
  private final String eventId;
  private final Function<String, RecipientRef<WaitingRoom.Command>> rooms;
  private final Duration askTimeout;
  /** Joins waiting for the room's one answer. */
  private final List<ActorRef<Place>> waiting = new ArrayList<>();

  private QueuePlace(ActorContext<Command> context, String entityId, Function<String, RecipientRef<WaitingRoom.Command>> rooms,
                     Duration askTimeout, Supervision supervision) {
    super(PersistenceId.of(ENTITY_TYPE_KEY.name(), entityId), supervision.backoff());
    this.context = context;
    int colon = entityId.indexOf(':');
    this.eventId = colon < 0 ? entityId : entityId.substring(0, colon);
    this.rooms = rooms;
    this.askTimeout = askTimeout;
  }

  @Override
  public State emptyState() {
    return new State(0, 0L, false);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return (state, command) -> {
      Place now = state.view();
      if (command instanceof Lookup l) return Effect().reply(l.replyTo(), now);
      if (command instanceof Bought) {
        if (now.holds()) rooms.apply(eventId).tell(new WaitingRoom.Bought(now.place() > 0 ? 0 : now.lobbyIndex(), now.place()));
        return Effect().noReply();
      }
      if (command instanceof Shopping) {
        if (now.holds()) rooms.apply(eventId).tell(new WaitingRoom.Arrived(now.place() > 0 ? 0 : now.lobbyIndex(), now.place()));
        return Effect().noReply();
      }
      if (command instanceof Claim c) {
        if (now.holds()) return Effect().reply(c.replyTo(), now);
        return Effect().persist(new PlaceTaken(c.offered())).thenReply(c.replyTo(), State::view);
      }
      if (command instanceof JoinLobby j) {
        if (now.holds() || now.place() > 0) return Effect().reply(j.replyTo(), now);
        if (now.lobbyIndex() > 0) {
          rooms.apply(eventId).tell(new WaitingRoom.LobbyReturned(now.lobbyIndex()));
          return Effect().persist(new LobbyReturned()).thenReply(j.replyTo(), State::view);
        }
        waiting.add(j.replyTo());
        if (waiting.size() == 1) askRoom();
        return Effect().noReply();
      }
      if (command instanceof RoomAnswered a) {
        List<ActorRef<Place>> answered = List.copyOf(waiting);
        waiting.clear();
        if (a.lobbyIndex() > 0 && !now.holds()) {
          return Effect().persist(new LobbyIndexTaken(a.lobbyIndex()))
              .thenRun(st -> answered.forEach(r -> r.tell(st.view())))
              .thenNoReply();
        }
        answered.forEach(r -> r.tell(state.view(a.refusal())));
        return Effect().noReply();
      }
      Leave l = (Leave) command;
      if (!now.holds()) return Effect().reply(l.replyTo(), now);
      rooms.apply(eventId).tell(new WaitingRoom.Left(now.place() > 0 ? 0 : now.lobbyIndex(), now.place()));
      return Effect().persist(new PlaceLeft()).thenReply(l.replyTo(), st -> now);
    };
  }

  private void askRoom() {
    context.ask(WaitingRoom.Reply.class, rooms.apply(eventId), askTimeout, WaitingRoom.TakeLobbyIndex::new,
        (reply, error) -> {
          if (reply instanceof WaitingRoom.LobbyIndex i) return new RoomAnswered(i.index(), null);
          if (reply instanceof WaitingRoom.Rejected r) return new RoomAnswered(0, r.code().code());
          return new RoomAnswered(0, "unavailable");
        });
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return (state, event) -> {
      if (event instanceof PlaceTaken e) return new State(e.place(), 0L, false);
      if (event instanceof LobbyIndexTaken e) return new State(0, e.index(), false);
      if (event instanceof LobbyReturned) return new State(state.place(), state.lobbyIndex(), false);
      return new State(state.place(), state.lobbyIndex(), true);
    };
  }
}
