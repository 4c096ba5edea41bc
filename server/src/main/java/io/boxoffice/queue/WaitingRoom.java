package io.boxoffice.queue;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.Supervision;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.queue.domain.AdmissionLog;
import io.boxoffice.queue.domain.Lottery;
import io.boxoffice.queue.domain.OnSaleSchedule;
import io.boxoffice.queue.domain.Refusal;
import io.boxoffice.queue.domain.Room;
import io.boxoffice.queue.domain.RoomState;
import io.boxoffice.queue.domain.Seats;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
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
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * The waiting room of one event: its on-sale schedule, the lobby count, the lottery salt drawn
 * at the start, how far it gave lobby indices and later places (each account's {@link QueuePlace}
 * asks once; what is given is written before anyone is told, in one write for a mailbox's
 * worth), the places given up, and the line's position ({@code admittedUpTo}), which a tick
 * moves by {@link AdmissionControl}. A fan's place lives in the fan's signed queue token and
 * follows from the lottery; the room is asked once per account, never per request. Every tick it publishes a small {@link Manifest} that
 * each edge node keeps in memory. The rules are a {@link Room}'s; this actor persists what it
 * decides, replies and publishes.
 *
 * <p>Why one file of this size: its protocol (commands, replies, events, state, the manifest)
 * is nested here because the names {@code WaitingRoom$...} are the manifests of every stored
 * room event and snapshot and of the manifests published between nodes.
 */
public final class WaitingRoom
    extends EventSourcedBehaviorWithEnforcedReplies<WaitingRoom.Command, WaitingRoom.Event, WaitingRoom.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "WaitingRoom");

  // ---- protocol --------------------------------------------------------------------------

  public sealed interface Command extends CborSerializable {}

  /**
   * The event exists from now on, closed unless {@code schedule} (nullable) schedules its
   * on-sale in the same write; replies the {@link Manifest} or {@link Rejected} {@code event_exists}.
   */
  public record Define(String name, String venueId, OnSaleSchedule schedule, ActorRef<Reply> replyTo) implements Command {}

  /** An explicit open sale without a waiting room; replies the {@link Manifest} or {@link Rejected}. */
  public record OpenSale(ActorRef<Reply> replyTo) implements Command {}

  /** Schedules (or reschedules, before the start) the on-sale; replies the {@link Manifest} or {@link Rejected}. */
  public record SetSchedule(OnSaleSchedule schedule, ActorRef<Reply> replyTo) implements Command {}

  /** Changes the admission rate and/or the cap on active shoppers; replies the {@link Manifest}. */
  public record ChangeRates(Integer admissionPerMinute, Integer maxActiveShoppers, ActorRef<Reply> replyTo) implements Command {}

  /** Pauses (nobody new is admitted) or resumes; replies the {@link Manifest}. */
  public record SetPaused(boolean paused, ActorRef<Reply> replyTo) implements Command {}

  /** Replies the {@link Manifest}. */
  public record GetManifest(ActorRef<Reply> replyTo) implements Command {}

  /**
   * One more account joins the lobby (its {@link QueuePlace} asks once per account); replies its
   * {@link LobbyIndex} or {@link Rejected} ({@code started} once the sale started).
   */
  public record TakeLobbyIndex(ActorRef<Reply> replyTo) implements Command {}

  /**
   * An account's one place (its {@link QueuePlace} asks once per account): replies its
   * {@link LobbyIndex} before the start, its {@link LaterPlace} after it, or {@link Rejected}.
   * Either is written before the reply, so a restart gives no place twice and none that nobody holds.
   */
  public record TakePlace(ActorRef<Reply> replyTo) implements Command {}

  /** An account gives its place up (its lobby index, 0 for none, or its later place); replies {@link Recorded} once written. */
  public record GiveUp(long lobbyIndex, long place, ActorRef<Reply> replyTo) implements Command {}

  /**
   * An account that gave its place up comes back; replies {@link Recorded} once its place is its
   * own again, or {@link Rejected} {@code place_given_up} when the line has passed it.
   */
  public record TakeBack(long lobbyIndex, long place, ActorRef<Reply> replyTo) implements Command {}

  /** Internal: write the indices and places given since the last write, then tell their accounts. */
  public record FlushGiven() implements Command {}

  /** From nodes of an older build: an account that left the lobby came back before the start, with its old index. */
  public record LobbyReturned(long lobbyIndex) implements Command {}

  /** From nodes of an older build: an account left the line: its lobby index (0 for none) or its later place. */
  public record Left(long lobbyIndex, long place) implements Command {}

  /** An account bought: its place (lobby index, or later place) stops counting as an active shopper. */
  public record Bought(long lobbyIndex, long place) implements Command {}

  /** The fan of an admitted place came to shop (its first hold): the place counts as a shopper for its whole window. */
  public record Arrived(long lobbyIndex, long place) implements Command {}

  /** From edge nodes of an older build: leases {@code count} places behind everyone's; replies {@link Leased} or {@link Rejected}. */
  public record LeasePlaces(int count, ActorRef<Reply> replyTo) implements Command {}

  /** From edge nodes of an older build: they handed out later places up to {@code highest}. */
  public record PlacesAssigned(long highest) implements Command {}

  /** Fans stopped shopping before their window ended. */
  public record ShoppersLeft(int count) implements Command {}

  /** Internal: move the line, start the sale when due, publish the manifest. */
  public record Tick() implements Command {}

  /** Internal: what the event's inventory said about its seats. */
  public record SeatsCounted(int available, int held, int sold) implements Command {}

  public sealed interface Reply extends CborSerializable {}

  /**
   * What every edge node needs to know, and fans may see: {@code state} is unknown (never
   * published), closed, open, scheduled, lobby, waiting (the line moves), paused, sold_out;
   * {@code salt} and {@code cohortSize} exist once the sale started (a lobby account's place
   * follows from them and its join index); {@code admissions} is the compacted
   * {@link AdmissionLog} ({@code [at, upTo, ...]}), {@code left} the sorted places released by
   * fans who left; times are epoch ms.
   */
  public record Manifest(String eventId, String state, long admittedUpTo, int admissionPerMinute, int maxActiveShoppers,
                         long activeShoppers, long lobby, int seatsRemaining, int seatsHeld, int seatsSold, long updatedAt,
                         long lobbyOpensAt,
                         long startsAt, String salt, long cohortSize, boolean presale, int powBits, boolean paused,
                         String name, String venueId, boolean open, long[] admissions, long[] left)
      implements Reply {}

  /** Later places [{@code from}, {@code to}] for an edge node to hand out in arrival order. */
  public record Leased(long from, long to) implements Reply {}

  /** The lobby account's join index: the lottery maps it to a place at the start. */
  public record LobbyIndex(long index) implements Reply {}

  /** The account's place behind everyone who came before it (after the start). */
  public record LaterPlace(long place) implements Reply {}

  /** What was asked is written. */
  public record Recorded() implements Reply {}

  /**
   * The room refuses: {@code code} is written as its contract string ({@code "already_scheduled"}),
   * as when this field was a String, so nodes of either build read each other's replies.
   */
  public record Rejected(io.boxoffice.common.Refusal code, String message) implements Reply {}

  public sealed interface Event extends CborSerializable {}

  public record EventDefined(String name, String venueId) implements Event {}

  public record SaleOpened() implements Event {}

  public record ScheduleSet(OnSaleSchedule schedule) implements Event {}

  public record RatesChanged(int admissionPerMinute, int maxActiveShoppers) implements Event {}

  public record PausedChanged(boolean paused) implements Event {}

  public record LobbyCounted(long total) implements Event {}

  /** Lobby join indices up to {@code upTo} may be given without another write (a restart skips the rest). */
  public record LobbyReserved(long upTo) implements Event {}

  public record SaleStarted(String salt, long cohortSize, long at) implements Event {}

  public record PlacesLeased(long upTo) implements Event {}

  public record LineAdvanced(long admittedUpTo, long at) implements Event {}

  /** Lobby join indices up to {@code upTo} were given (written before their accounts hear of them). */
  public record LobbyIndexesGiven(long upTo) implements Event {}

  /** Later places up to {@code upTo} were given (written before their accounts hear of them). */
  public record PlacesGiven(long upTo) implements Event {}

  /** An account gave its place up: its lobby index before the start (place 0), else its place (lobby index 0). */
  public record PlaceGivenUp(long lobbyIndex, long place) implements Event {}

  /** An account took back the place it gave up (as {@link PlaceGivenUp}), before the line passed it. */
  public record PlaceTakenBack(long lobbyIndex, long place) implements Event {}

  /**
   * Everything that must survive a restart. The fields after {@code advancedAt} came later and
   * are null in older journals and snapshots. {@code leftLobby} and {@code left} are sorted.
   */
  public record State(OnSaleSchedule schedule, boolean paused, long lobby, String salt, long cohortSize, long startedAt,
                      long leasedUpTo, long admittedUpTo, long advancedAt, Long lobbyReservedUpTo, String name, String venueId,
                      Boolean defined, Boolean open, List<AdmissionLog.Step> admissions, Long lobbyGivenUpTo, Long givenUpTo,
                      List<Long> leftLobby, List<Long> left) implements CborSerializable {
    static State empty() {
      return new State(null, false, 0, null, 0, 0, 0, 0, 0, 0L, null, null, false, false, List.of(), 0L, 0L, List.of(),
          List.of());
    }

    List<Long> leftLobbyOrEmpty() {
      return leftLobby == null ? List.of() : leftLobby;
    }

    List<Long> leftOrEmpty() {
      return left == null ? List.of() : left;
    }

    static long orZero(Long value) {
      return value == null ? 0 : value;
    }

    /** Events from before explicit creation were defined by their schedule. */
    boolean isDefined() {
      return Boolean.TRUE.equals(defined) || schedule != null || isOpen();
    }

    boolean isOpen() {
      return Boolean.TRUE.equals(open);
    }

    /** The record as the room's rules read it. */
    RoomState recorded() {
      return new RoomState(schedule, isDefined(), isOpen(), paused, lobby, salt, cohortSize,
          lobbyReservedUpTo == null ? 0 : lobbyReservedUpTo, leasedUpTo, admittedUpTo, advancedAt, admissions,
          orZero(lobbyGivenUpTo), orZero(givenUpTo), leftLobbyOrEmpty(), leftOrEmpty());
    }

    State withSchedule(OnSaleSchedule s) {
      return new State(s, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt, lobbyReservedUpTo,
          name, venueId, defined, s == null && isOpen(), admissions, lobbyGivenUpTo, givenUpTo, leftLobby, left);
    }

    State withPaused(boolean p) {
      return new State(schedule, p, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt, lobbyReservedUpTo,
          name, venueId, defined, open, admissions, lobbyGivenUpTo, givenUpTo, leftLobby, left);
    }

    State withLobby(long total) {
      return new State(schedule, paused, total, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt,
          lobbyReservedUpTo, name, venueId, defined, open, admissions, lobbyGivenUpTo, givenUpTo, leftLobby, left);
    }

    State withReserved(long upTo) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt, upTo,
          name, venueId, defined, open, admissions, lobbyGivenUpTo, givenUpTo, leftLobby, left);
    }

    /** The lobby indices given up become the places the line skips. */
    State started(String newSalt, long cohort, long at) {
      return new State(schedule, paused, lobby, newSalt, cohort, at, cohort, 0, at, lobbyReservedUpTo, name, venueId,
          defined, open, List.of(), lobbyGivenUpTo, givenUpTo, List.of(), Room.placesOfLeftLobby(leftLobbyOrEmpty(), newSalt, cohort));
    }

    State withLeased(long upTo) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, upTo, admittedUpTo, advancedAt, lobbyReservedUpTo,
          name, venueId, defined, open, admissions, lobbyGivenUpTo, givenUpTo, leftLobby, left);
    }

    /** Places given up that the log no longer covers are forgotten with it. */
    State advanced(long upTo, long at, List<AdmissionLog.Step> log) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, upTo, at, lobbyReservedUpTo,
          name, venueId, defined, open, log, lobbyGivenUpTo, givenUpTo, leftLobby, Room.forget(leftOrEmpty(), log));
    }

    State withLobbyGiven(long upTo) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt,
          lobbyReservedUpTo, name, venueId, defined, open, admissions, Math.max(orZero(lobbyGivenUpTo), upTo), givenUpTo,
          leftLobby, left);
    }

    State withGiven(long upTo) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt,
          lobbyReservedUpTo, name, venueId, defined, open, admissions, lobbyGivenUpTo, Math.max(orZero(givenUpTo), upTo),
          leftLobby, left);
    }

    /** {@code lobbyIndex} (before the start) or {@code place} given up ({@code gone}) or taken back. */
    State withLeft(long lobbyIndex, long place, boolean gone) {
      List<Long> lobbyLeft = leftLobbyOrEmpty();
      List<Long> placesLeft = leftOrEmpty();
      if (lobbyIndex > 0) lobbyLeft = gone ? Room.with(lobbyLeft, lobbyIndex) : Room.without(lobbyLeft, lobbyIndex);
      if (place > 0) placesLeft = gone ? Room.with(placesLeft, place) : Room.without(placesLeft, place);
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt,
          lobbyReservedUpTo, name, venueId, defined, open, admissions, lobbyGivenUpTo, givenUpTo, lobbyLeft, placesLeft);
    }

    State defined(String eventName, String venue) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt,
          lobbyReservedUpTo, eventName, venue, true, open, admissions, lobbyGivenUpTo, givenUpTo, leftLobby, left);
    }

    State opened() {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt,
          lobbyReservedUpTo, name, venueId, true, true, admissions, lobbyGivenUpTo, givenUpTo, leftLobby, left);
    }
  }

  // ---- wiring ----------------------------------------------------------------------------

  public static void init(ActorSystem<?> system, WaitingRoomSettings settings) {
    ClusterSharding.get(system).init(
        Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), settings)).withRole("inventory")
            .withAllocationStrategy(io.boxoffice.common.WarmPlacement.fixed()));
  }

  public static Behavior<Command> create(String eventId, WaitingRoomSettings settings) {
    return Behaviors.withMdc(Command.class, java.util.Map.of("eventId", eventId), Supervision.restarting(s -> Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
          timers.startTimerWithFixedDelay("tick", new Tick(), settings.tick());
          return new WaitingRoom(ctx, eventId, settings, s);
        }))));
  }

  /** Steps of the admission log a manifest carries. */
  private static final int MANIFEST_STEPS = 64;

  private final ActorContext<Command> context;
  private final String eventId;
  private final WaitingRoomSettings settings;
  /** The rules, and what the room keeps in memory between writes. */
  private final Room room;
  /** The highest lobby index and later place given since the last write (0: none), and whom to tell once it is written. */
  private long lobbyGiven;
  private long placesGiven;
  private final List<Told> told = new ArrayList<>();
  /** A {@link FlushGiven} is in the mailbox. */
  private boolean flushAsked;

  private WaitingRoom(ActorContext<Command> context, String eventId, WaitingRoomSettings settings, Supervision supervision) {
    super(PersistenceId.of(ENTITY_TYPE_KEY.name(), eventId), supervision.backoff());
    this.context = context;
    this.eventId = eventId;
    this.settings = settings;
    this.room = new Room(settings.shoppingWindow(), settings.arrivalWindow(), Lottery::drawSalt);
  }

  @Override
  public State emptyState() {
    return State.empty();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return settings.snapshots().criteria();
  }

  @Override
  public java.util.Set<String> tagsFor(Event event) {
    // Scheduled rooms are kept running by the keeper (their timers must fire after a restart);
    // every defined event is in the keeper's catalogue, which starting edge nodes read.
    if (event instanceof ScheduleSet) return java.util.Set.of(OnSaleKeeper.TAG);
    return event instanceof EventDefined || event instanceof SaleOpened
        ? java.util.Set.of(OnSaleKeeper.EVENT_TAG) : java.util.Set.of();
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Tick.class, (state, t) -> onTick(state))
        .onCommand(GetManifest.class, (state, g) -> Effect().reply(g.replyTo(), manifest(state, now())))
        .onCommand(Define.class, this::onDefine)
        .onCommand(OpenSale.class, (state, o) ->
            ruled(room.openSale(state.recorded()), state, o.replyTo(), now -> List.of(new SaleOpened())))
        .onCommand(SetSchedule.class, (state, s) -> ruled(room.schedule(state.recorded()), state, s.replyTo(),
            now -> List.of(new ScheduleSet(s.schedule().notBefore(now)))))
        .onCommand(ChangeRates.class, this::onChangeRates)
        .onCommand(SetPaused.class, (state, p) ->
            ruled(room.pause(state.recorded(), p.paused()), state, p.replyTo(), now -> List.of(new PausedChanged(p.paused()))))
        .onCommand(TakeLobbyIndex.class, (state, t) -> give(room.takeLobbyIndex(state.recorded(), now()), t.replyTo()))
        .onCommand(TakePlace.class, (state, t) -> give(room.takePlace(state.recorded(), now()), t.replyTo()))
        .onCommand(FlushGiven.class, (state, f) -> onFlushGiven())
        .onCommand(GiveUp.class, (state, g) -> recorded(room.giveUp(state.recorded(), g.lobbyIndex(), g.place()), g.replyTo()))
        .onCommand(TakeBack.class, (state, t) -> recorded(room.takeBack(state.recorded(), t.lobbyIndex(), t.place()), t.replyTo()))
        .onCommand(LeasePlaces.class, this::onLeasePlaces)
        .onCommand(LobbyReturned.class, (state, r) -> recorded(room.takeBack(state.recorded(), r.lobbyIndex(), 0), null))
        .onCommand(Left.class, (state, l) -> recorded(room.giveUp(state.recorded(), l.lobbyIndex(), l.place()), null))
        .onCommand(Bought.class, (state, b) -> inMemory(() -> room.bought(state.recorded(), b.lobbyIndex(), b.place())))
        .onCommand(Arrived.class, (state, a) -> inMemory(() -> room.arrived(state.recorded(), a.lobbyIndex(), a.place())))
        .onCommand(PlacesAssigned.class, (state, a) -> inMemory(() -> room.placesAssigned(state.recorded(), a.highest())))
        .onCommand(ShoppersLeft.class, (state, l) -> inMemory(() -> room.shoppersLeft(l.count(), now())))
        .onCommand(SeatsCounted.class, (state, s) -> inMemory(() -> room.seatsCounted(new Seats(s.available(), s.held(), s.sold()))))
        .build();
  }

  private long now() {
    return settings.clock().millis();
  }

  private ReplyEffect<Event, State> onDefine(State state, Define d) {
    return ruled(room.define(state.recorded()), state, d.replyTo(), now -> d.schedule() == null
        ? List.of(new EventDefined(d.name(), d.venueId()))
        : List.of(new EventDefined(d.name(), d.venueId()), new ScheduleSet(d.schedule().notBefore(now))));
  }

  private ReplyEffect<Event, State> onChangeRates(State state, ChangeRates c) {
    return ruled(room.changeRates(state.recorded()), state, c.replyTo(), now -> {
      OnSaleSchedule next = state.schedule().withRates(c.admissionPerMinute(), c.maxActiveShoppers());
      return List.of(new RatesChanged(next.admissionPerMinute(), next.maxActiveShoppers()));
    });
  }

  /**
   * The answer to a change of the record: the refusal, the manifest as it stands, or the
   * manifest after the change ({@code events} at the time) is written. Every edge node hears a
   * change of schedule, rate or pause at once, not at the next tick.
   */
  private ReplyEffect<Event, State> ruled(Room.Outcome outcome, State state, ActorRef<Reply> replyTo,
                                          LongFunction<List<Event>> events) {
    long now = now();
    if (outcome instanceof Room.Refused r) return Effect().reply(replyTo, rejected(r.refusal()));
    if (outcome instanceof Room.Unchanged) return Effect().reply(replyTo, manifest(state, now));
    return Effect().persist(events.apply(now)).thenRun(st -> publish(st, now)).thenReply(replyTo, st -> manifest(st, now));
  }

  /**
   * A lobby index or later place is given in memory and told once it is written: the indices
   * and places given while the room handles the commands already in its mailbox are written
   * together (one write for a crowd arriving at once, a group commit), so that a restart never
   * gives one twice nor leaves one that nobody holds.
   */
  private ReplyEffect<Event, State> give(Room.Outcome outcome, ActorRef<Reply> replyTo) {
    if (outcome instanceof Room.Refused r) return Effect().reply(replyTo, rejected(r.refusal()));
    if (outcome instanceof Room.LobbyIndexGiven g) {
      lobbyGiven = Math.max(lobbyGiven, g.index());
      told.add(new Told(replyTo, new LobbyIndex(g.index())));
    } else {
      Room.PlaceGiven g = (Room.PlaceGiven) outcome;
      placesGiven = Math.max(placesGiven, g.place());
      told.add(new Told(replyTo, new LaterPlace(g.place())));
    }
    if (!flushAsked) {
      flushAsked = true;
      context.getSelf().tell(new FlushGiven());
    }
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onFlushGiven() {
    flushAsked = false;
    List<Event> events = given();
    if (events.isEmpty()) return Effect().noReply();
    List<Told> replies = List.copyOf(told);
    told.clear();
    return Effect().persist(events).thenRun(st -> replies.forEach(Told::tell)).thenNoReply();
  }

  /** The events that record what was given since the last write (none when nothing was). */
  private List<Event> given() {
    List<Event> events = new ArrayList<>(2);
    if (lobbyGiven > 0) events.add(new LobbyIndexesGiven(lobbyGiven));
    if (placesGiven > 0) events.add(new PlacesGiven(placesGiven));
    lobbyGiven = 0;
    placesGiven = 0;
    return events;
  }

  /** A reply to send once its write is done. */
  private record Told(ActorRef<Reply> to, Reply reply) {
    void tell() {
      to.tell(reply);
    }
  }

  /** A place given up or taken back: written, then {@link Recorded} (nobody to answer for {@code replyTo} null). */
  private ReplyEffect<Event, State> recorded(Room.Outcome outcome, ActorRef<Reply> replyTo) {
    if (outcome instanceof Room.Refused r) return replyTo == null ? Effect().noReply() : Effect().reply(replyTo, rejected(r.refusal()));
    Event event = null;
    if (outcome instanceof Room.GivenUp g) event = new PlaceGivenUp(g.lobbyIndex(), g.place());
    if (outcome instanceof Room.TakenBack t) event = new PlaceTakenBack(t.lobbyIndex(), t.place());
    if (event == null) return replyTo == null ? Effect().noReply() : Effect().reply(replyTo, new Recorded());
    if (replyTo == null) return Effect().persist(event).thenNoReply();
    return Effect().persist(event).thenReply(replyTo, st -> new Recorded());
  }

  private ReplyEffect<Event, State> onLeasePlaces(State state, LeasePlaces l) {
    Room.Outcome outcome = room.lease(state.recorded(), l.count());
    if (outcome instanceof Room.Refused r) return Effect().reply(l.replyTo(), rejected(r.refusal()));
    Room.PlacesLeased lease = (Room.PlacesLeased) outcome;
    return Effect().persist(new PlacesLeased(lease.to())).thenReply(l.replyTo(), st -> new Leased(lease.from(), lease.to()));
  }

  /** A command that changes only what the room keeps in memory: nothing to write, nobody to answer. */
  private ReplyEffect<Event, State> inMemory(Runnable change) {
    change.run();
    return Effect().noReply();
  }

  private static Rejected rejected(Refusal refusal) {
    return new Rejected(refusal.refusal(), refusal.message());
  }

  private ReplyEffect<Event, State> onTick(State state) {
    if (!state.isDefined()) return Effect().noReply();
    long now = now();
    // Fans in the lobby are told how many seats there are too; the answer arrives by the next tick.
    askSeats();
    Room.Tick tick = room.tick(state.recorded(), now);
    // What was given and not yet written goes first: the start's cohort covers every lobby index given.
    List<Event> events = given();
    List<Told> replies = List.copyOf(told);
    told.clear();
    tick.lobbyCounted().ifPresent(total -> events.add(new LobbyCounted(total)));
    tick.start().ifPresent(start -> events.add(new SaleStarted(start.salt(), start.cohortSize(), now)));
    tick.admittedUpTo().ifPresent(upTo -> events.add(new LineAdvanced(upTo, now)));
    if (events.isEmpty()) {
      publish(state, now);
      return Effect().noReply();
    }
    return Effect().persist(events).thenRun(st -> {
      replies.forEach(Told::tell);
      publish(st, now);
    }).thenNoReply();
  }

  private void askSeats() {
    context.ask(EventInventory.Reply.class, settings.inventories().apply(eventId), settings.askTimeout(),
        EventInventory.GetStats::new,
        (reply, error) -> {
          if (reply instanceof EventInventory.Stats s) return new SeatsCounted(s.available(), s.held(), s.sold());
          Seats last = room.seats();
          return new SeatsCounted(last.available(), last.held(), last.sold());
        });
  }

  private void publish(State state, long now) {
    if (state.isDefined()) settings.publish().accept(manifest(state, now));
  }

  private Manifest manifest(State state, long now) {
    OnSaleSchedule s = state.schedule();
    RoomState recorded = state.recorded();
    Seats seats = room.seats();
    return new Manifest(eventId, room.phase(recorded, now).wire(), state.admittedUpTo(), s == null ? 0 : s.admissionPerMinute(),
        s == null ? 0 : s.maxActiveShoppers(), room.activeShoppers(now), room.lobby(recorded),
        Math.max(seats.available(), 0), Math.max(seats.held(), 0), seats.sold(), now,
        s == null ? 0 : s.lobbyOpensAt(), s == null ? 0 : s.startsAt(), state.salt(), state.cohortSize(),
        s != null && s.presale(), s == null ? 0 : s.powBits(), state.paused(), state.name(), state.venueId(), state.isOpen(),
        AdmissionLog.compact(state.admissions(), MANIFEST_STEPS), Room.leftPlaces(recorded));
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(EventDefined.class, (s, e) -> s.defined(e.name(), e.venueId()))
        .onEvent(SaleOpened.class, (s, e) -> s.opened())
        .onEvent(ScheduleSet.class, (s, e) -> s.withSchedule(e.schedule()))
        .onEvent(RatesChanged.class, (s, e) -> s.withSchedule(s.schedule().withRates(e.admissionPerMinute(), e.maxActiveShoppers())))
        .onEvent(PausedChanged.class, (s, e) -> s.withPaused(e.paused()))
        .onEvent(LobbyCounted.class, (s, e) -> s.withLobby(e.total()))
        .onEvent(LobbyReserved.class, (s, e) -> s.withReserved(e.upTo()))
        .onEvent(SaleStarted.class, (s, e) -> s.started(e.salt(), e.cohortSize(), e.at()))
        .onEvent(PlacesLeased.class, (s, e) -> s.withLeased(e.upTo()))
        .onEvent(LineAdvanced.class, (s, e) -> s.advanced(e.admittedUpTo(), e.at(),
            AdmissionLog.append(s.admissions(), new AdmissionLog.Step(e.at(), e.admittedUpTo()), room.admissionLogHorizon(e.at()))))
        .onEvent(LobbyIndexesGiven.class, (s, e) -> s.withLobbyGiven(e.upTo()))
        .onEvent(PlacesGiven.class, (s, e) -> s.withGiven(e.upTo()))
        .onEvent(PlaceGivenUp.class, (s, e) -> s.withLeft(e.lobbyIndex(), e.place(), true))
        .onEvent(PlaceTakenBack.class, (s, e) -> s.withLeft(e.lobbyIndex(), e.place(), false))
        .build();
  }
}
