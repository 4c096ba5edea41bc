package io.boxoffice.queue;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.Supervision;
import java.time.Duration;
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
 * The one place in line of one account for one event, wherever and however often it joins:
 * one account has one place in a sale, ever (invariant 8). On its first join it asks the
 * event's {@link WaitingRoom} once for a place: a lobby join index before the start (the
 * lottery maps it to a place at the start), the next place behind everyone after it; the room
 * writes what it gives before it answers, and this entity keeps the answer. Every later join,
 * from any device, network prefix or node, gets the kept place back. A fan who leaves gives the
 * place up (the room records it, so the line skips it and its tokens stop admitting, across
 * restarts); a fan who comes back gets the same place again while the line has not passed it,
 * and after that {@code place_given_up}: never a new place. One conversation with the room at a
 * time: the account's other commands wait (stashed) until it is answered, so concurrent joins
 * of one account get one place. One small entity per account spreads these writes over the
 * cluster. Replies {@link Place}.
 */
public final class QueuePlace extends EventSourcedBehaviorWithEnforcedReplies<QueuePlace.Command, QueuePlace.Event, QueuePlace.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "QueuePlace");

  public static String entityId(String eventId, String accountId) {
    return eventId + ":" + accountId;
  }

  public sealed interface Command extends CborSerializable {}

  /**
   * The account's place: the one it holds, the one it gave up if the line has not passed it (or
   * {@code place_given_up}), else a new one from the room (a lobby index before the start);
   * replies {@link Place}.
   */
  public record Join(ActorRef<Place> replyTo) implements Command {}

  /** From edge nodes of an older build, which leased places: keeps {@code offered} only if the account never had a place; replies {@link Place}. */
  public record Claim(long offered, ActorRef<Place> replyTo) implements Command {}

  /** From edge nodes of an older build: as {@link Join}. */
  public record JoinLobby(ActorRef<Place> replyTo) implements Command {}

  /** Replies the account's {@link Place} as it stands. */
  public record Lookup(ActorRef<Place> replyTo) implements Command {}

  /** Gives the place up (once the room has recorded it); replies the {@link Place} as it was before, or with refusal {@code unavailable}. */
  public record Leave(ActorRef<Place> replyTo) implements Command {}

  /**
   * The account bought at the event: its place stops counting as an active shopper (its slot
   * goes to the next fan) but still admits until its window ends, within the per-account cap.
   * No reply.
   */
  public record Bought() implements Command {}

  /** The account's fan came to shop (its cart saw the first hold): the place counts as a shopper for its whole window. */
  public record Shopping() implements Command {}

  /** Internal: the waiting room's answer to this entity's {@link WaitingRoom.TakeLobbyIndex} (older builds). */
  public record RoomAnswered(long lobbyIndex, String refusal) implements Command {}

  /** Internal: the waiting room's answer to this entity's question ({@code reply} null: no answer in time). */
  public record RoomReplied(WaitingRoom.Reply reply) implements Command {}

  /**
   * Where the account stands: a later place (after the start) or a lobby join index (0 for
   * none); {@code left} when it gave them up; {@code refusal} why the room gave no place.
   */
  public record Place(long place, long lobbyIndex, boolean left, String refusal) implements CborSerializable {
    public boolean holds() {
      return !left && (place > 0 || lobbyIndex > 0);
    }
  }

  public sealed interface Event extends CborSerializable {}

  /** A later place was kept. */
  public record PlaceTaken(long place) implements Event {}

  public record LobbyIndexTaken(long index) implements Event {}

  public record PlaceLeft() implements Event {}

  public record LobbyReturned() implements Event {}

  /** The account took back the place it gave up, after the start. */
  public record PlaceReturned() implements Event {}

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
  /** The command whose question the room has not answered yet (null: none); the others wait in the stash. */
  private Command asking;

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
      if (command instanceof RoomReplied r) return onRoomReplied(state, r.reply());
      if (command instanceof RoomAnswered) return Effect().noReply();
      if (asking != null) return Effect().stash();
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
        // A place once given is the account's for good: an offer never replaces it, nor one given up.
        if (now.place() > 0 || now.lobbyIndex() > 0) return Effect().reply(c.replyTo(), now);
        return Effect().persist(new PlaceTaken(c.offered())).thenReply(c.replyTo(), State::view);
      }
      if (command instanceof Join || command instanceof JoinLobby) {
        if (now.holds()) return Effect().reply(replyTo(command), now);
        long lobbyIndex = now.place() > 0 ? 0 : now.lobbyIndex();
        if (now.left()) ask(command, r -> new WaitingRoom.TakeBack(lobbyIndex, now.place(), r));
        else ask(command, WaitingRoom.TakePlace::new);
        return Effect().noReply();
      }
      Leave l = (Leave) command;
      if (!now.holds()) return Effect().reply(l.replyTo(), now);
      ask(command, r -> new WaitingRoom.GiveUp(now.place() > 0 ? 0 : now.lobbyIndex(), now.place(), r));
      return Effect().noReply();
    };
  }

  private static ActorRef<Place> replyTo(Command command) {
    if (command instanceof Join j) return j.replyTo();
    if (command instanceof JoinLobby j) return j.replyTo();
    return ((Leave) command).replyTo();
  }

  /** Asks the room on behalf of {@code command}; the account's next commands wait for the answer. */
  private void ask(Command command, Function<ActorRef<WaitingRoom.Reply>, WaitingRoom.Command> question) {
    asking = command;
    context.ask(WaitingRoom.Reply.class, rooms.apply(eventId), askTimeout, question::apply,
        (reply, error) -> new RoomReplied(reply));
  }

  /** The room answered (or did not, in time): record what it gave or recorded, answer the fan, let the next command in. */
  private ReplyEffect<Event, State> onRoomReplied(State state, WaitingRoom.Reply reply) {
    Command asked = asking;
    asking = null;
    if (asked == null) return Effect().noReply().thenUnstashAll();
    ActorRef<Place> replyTo = replyTo(asked);
    Place before = state.view();
    if (reply instanceof WaitingRoom.Rejected r) {
      return Effect().none().thenReply(replyTo, st -> st.view(r.code().code())).thenUnstashAll();
    }
    if (asked instanceof Leave) {
      if (!(reply instanceof WaitingRoom.Recorded)) {
        return Effect().none().thenReply(replyTo, st -> st.view("unavailable")).thenUnstashAll();
      }
      return Effect().persist(new PlaceLeft()).thenReply(replyTo, st -> before).thenUnstashAll();
    }
    Event event;
    if (reply instanceof WaitingRoom.Recorded) event = before.place() > 0 ? new PlaceReturned() : new LobbyReturned();
    else if (reply instanceof WaitingRoom.LobbyIndex i) event = new LobbyIndexTaken(i.index());
    else if (reply instanceof WaitingRoom.LaterPlace p) event = new PlaceTaken(p.place());
    else return Effect().none().thenReply(replyTo, st -> st.view("unavailable")).thenUnstashAll();
    return Effect().persist(event).thenReply(replyTo, State::view).thenUnstashAll();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return (state, event) -> {
      if (event instanceof PlaceTaken e) return new State(e.place(), 0L, false);
      if (event instanceof LobbyIndexTaken e) return new State(0, e.index(), false);
      if (event instanceof LobbyReturned || event instanceof PlaceReturned) return new State(state.place(), state.lobbyIndex(), false);
      return new State(state.place(), state.lobbyIndex(), true);
    };
  }
}
