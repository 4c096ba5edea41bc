package io.boxoffice.queue;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.Supervision;
import io.boxoffice.inventory.EventInventory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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
 * at the start, the blocks of later places leased to edge nodes, and the line's position
 * ({@code admittedUpTo}), which a tick moves by {@link AdmissionControl}. It keeps no per-fan
 * state: a fan's place lives in the fan's signed queue token and follows from the lottery, so
 * the crowd never queues at this actor. Every tick it publishes a small {@link Manifest} that
 * each edge node keeps in memory.
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

  /** An account that left the lobby came back before the start, with its old index. */
  public record LobbyReturned(long lobbyIndex) implements Command {}

  /** An account left the line: its lobby index (0 for none) or its later place. */
  public record Left(long lobbyIndex, long place) implements Command {}

  /** An account bought: its place (lobby index, or later place) stops counting as an active shopper. */
  public record Bought(long lobbyIndex, long place) implements Command {}

  /** Leases {@code count} places behind the lottery cohort to an edge node; replies {@link Leased} or {@link Rejected}. */
  public record LeasePlaces(int count, ActorRef<Reply> replyTo) implements Command {}

  /** An edge node has handed out later places up to {@code highest}. */
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

  public record Rejected(String code, String message) implements Reply {}

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

  /**
   * Everything that must survive a restart. The fields after {@code advancedAt} came later and
   * are null in older journals and snapshots.
   */
  public record State(OnSaleSchedule schedule, boolean paused, long lobby, String salt, long cohortSize, long startedAt,
                      long leasedUpTo, long admittedUpTo, long advancedAt, Long lobbyReservedUpTo, String name, String venueId,
                      Boolean defined, Boolean open, List<AdmissionLog.Step> admissions) implements CborSerializable {
    static State empty() {
      return new State(null, false, 0, null, 0, 0, 0, 0, 0, 0L, null, null, false, false, List.of());
    }

    boolean started() {
      return salt != null;
    }

    /** Events from before explicit creation were defined by their schedule. */
    boolean isDefined() {
      return Boolean.TRUE.equals(defined) || schedule != null || isOpen();
    }

    boolean isOpen() {
      return Boolean.TRUE.equals(open);
    }

    long reserved() {
      return lobbyReservedUpTo == null ? 0 : lobbyReservedUpTo;
    }

    State withSchedule(OnSaleSchedule s) {
      return new State(s, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt, lobbyReservedUpTo,
          name, venueId, defined, s == null && isOpen(), admissions);
    }

    State withPaused(boolean p) {
      return new State(schedule, p, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt, lobbyReservedUpTo,
          name, venueId, defined, open, admissions);
    }

    State withLobby(long total) {
      return new State(schedule, paused, total, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt,
          lobbyReservedUpTo, name, venueId, defined, open, admissions);
    }

    State withReserved(long upTo) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt, upTo,
          name, venueId, defined, open, admissions);
    }

    State started(String newSalt, long cohort, long at) {
      return new State(schedule, paused, lobby, newSalt, cohort, at, cohort, 0, at, lobbyReservedUpTo, name, venueId,
          defined, open, List.of());
    }

    State withLeased(long upTo) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, upTo, admittedUpTo, advancedAt, lobbyReservedUpTo,
          name, venueId, defined, open, admissions);
    }

    State advanced(long upTo, long at, List<AdmissionLog.Step> log) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, upTo, at, lobbyReservedUpTo,
          name, venueId, defined, open, log);
    }

    State defined(String eventName, String venue) {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt,
          lobbyReservedUpTo, eventName, venue, true, open, admissions);
    }

    State opened() {
      return new State(schedule, paused, lobby, salt, cohortSize, startedAt, leasedUpTo, admittedUpTo, advancedAt,
          lobbyReservedUpTo, name, venueId, true, true, admissions);
    }
  }

  // ---- wiring ----------------------------------------------------------------------------

  public static void init(ActorSystem<?> system, WaitingRoomSettings settings) {
    ClusterSharding.get(system).init(
        Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), settings)).withRole("inventory")
            .withAllocationStrategy(new io.boxoffice.common.NoRebalancing()));
  }

  public static Behavior<Command> create(String eventId, WaitingRoomSettings settings) {
    return Behaviors.withMdc(Command.class, java.util.Map.of("eventId", eventId), Supervision.restarting(Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
          timers.startTimerWithFixedDelay("tick", new Tick(), settings.tick());
          return new WaitingRoom(ctx, eventId, settings);
        }))));
  }

  private static final long MAX_STEP_MS = 5_000;
  /** Lobby join indices reserved per write. */
  private static final long LOBBY_BLOCK = 1_000;
  /** Steps of the admission log a manifest carries. */
  private static final int MANIFEST_STEPS = 64;

  private final ActorContext<Command> context;
  private final String eventId;
  private final WaitingRoomSettings settings;
  /** Lobby entries (joins minus leaves) counted since the last write. */
  private long lobbyDelta;
  /** The next lobby join index to give; 0 until this incarnation gives its first (then it starts after the reservation). */
  private long nextLobbyIndex;
  private long highestAssigned;
  /** Lobby indices whose accounts left before the start: their places are released at the start. */
  private final Set<Long> leftLobbyIndexes = new HashSet<>();
  /** Places released by fans who left: never admitted to shop, not counted as active shoppers. */
  private final TreeSet<Long> leftPlaces = new TreeSet<>();
  /** Places whose fans bought: still admitted in their window, no longer counted as active shoppers. */
  private final TreeSet<Long> boughtPlaces = new TreeSet<>();
  /** Where the line stands between writes (the fraction earned and when it was last moved). */
  private AdmissionControl.Line line;
  private int seatsAvailable = -1;
  private int seatsHeld = -1;
  private int seatsSold;
  /**
   * Places admitted and shoppers who left, per second of admission, over the shopping window:
   * {second, in, out}. Every admitted place counts as shopping until its window ends or it
   * leaves, so the cap holds even for fans who have not arrived yet (a place nobody uses costs
   * its window).
   */
  private final Deque<long[]> shoppers = new ArrayDeque<>();

  private WaitingRoom(ActorContext<Command> context, String eventId, WaitingRoomSettings settings) {
    super(PersistenceId.of(ENTITY_TYPE_KEY.name(), eventId), Supervision.backoff());
    this.context = context;
    this.eventId = eventId;
    this.settings = settings;
  }

  @Override
  public State emptyState() {
    return State.empty();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(500, 2);
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
    return this::onCommand;
  }

  private ReplyEffect<Event, State> onCommand(State state, Command command) {
    long now = settings.clock().millis();
    if (command instanceof Tick) return onTick(state, now);
    if (command instanceof GetManifest g) return Effect().reply(g.replyTo(), manifest(state, now));
    if (command instanceof Define d) {
      if (state.isDefined()) return Effect().reply(d.replyTo(), new Rejected("event_exists", "an event with this id exists"));
      List<Event> events = new ArrayList<>();
      events.add(new EventDefined(d.name(), d.venueId()));
      if (d.schedule() != null) events.add(new ScheduleSet(d.schedule().notBefore(now)));
      return Effect().persist(events).thenRun(st -> publish(st, now)).thenReply(d.replyTo(), st -> manifest(st, now));
    }
    if (command instanceof OpenSale o) {
      if (state.schedule() != null) {
        return Effect().reply(o.replyTo(), new Rejected("already_scheduled", "the event has an on-sale schedule"));
      }
      if (state.isOpen()) return Effect().reply(o.replyTo(), manifest(state, now));
      return Effect().persist(new SaleOpened()).thenRun(st -> publish(st, now)).thenReply(o.replyTo(), st -> manifest(st, now));
    }
    if (command instanceof SetSchedule s) {
      if (state.started()) return Effect().reply(s.replyTo(), new Rejected("already_started", "the sale has started"));
      OnSaleSchedule schedule = s.schedule().notBefore(now);
      return Effect().persist(new ScheduleSet(schedule)).thenRun(st -> publish(st, now)).thenReply(s.replyTo(), st -> manifest(st, now));
    }
    if (command instanceof ChangeRates c) {
      if (state.schedule() == null) return Effect().reply(c.replyTo(), new Rejected("not_found", "no on-sale is scheduled"));
      OnSaleSchedule next = state.schedule().withRates(c.admissionPerMinute(), c.maxActiveShoppers());
      return Effect().persist(new RatesChanged(next.admissionPerMinute(), next.maxActiveShoppers()))
          .thenRun(st -> publish(st, now))
          .thenReply(c.replyTo(), st -> manifest(st, now));
    }
    if (command instanceof SetPaused p) {
      if (state.schedule() == null) return Effect().reply(p.replyTo(), new Rejected("not_found", "no on-sale is scheduled"));
      if (state.paused() == p.paused()) return Effect().reply(p.replyTo(), manifest(state, now));
      // Every edge node hears a change of schedule, rate or pause at once, not at the next tick.
      return Effect().persist(new PausedChanged(p.paused())).thenRun(st -> publish(st, now)).thenReply(p.replyTo(), st -> manifest(st, now));
    }
    if (command instanceof TakeLobbyIndex t) return onTakeLobbyIndex(state, t, now);
    if (command instanceof LobbyReturned r) {
      if (!state.started() && leftLobbyIndexes.remove(r.lobbyIndex())) lobbyDelta++;
      return Effect().noReply();
    }
    if (command instanceof Left l) {
      onLeft(state, l);
      return Effect().noReply();
    }
    if (command instanceof Bought b) {
      long place = placeOf(state, b.lobbyIndex(), b.place());
      if (state.started() && place > 0 && !leftPlaces.contains(place) && boughtPlaces.add(place)) stopCounting(state, place);
      return Effect().noReply();
    }
    if (command instanceof LeasePlaces l) {
      if (!state.started()) return Effect().reply(l.replyTo(), new Rejected("not_started", "the sale has not started"));
      long from = state.leasedUpTo() + 1;
      long to = state.leasedUpTo() + Math.max(1, Math.min(l.count(), 100_000));
      return Effect().persist(new PlacesLeased(to)).thenReply(l.replyTo(), st -> new Leased(from, to));
    }
    if (command instanceof PlacesAssigned a) {
      highestAssigned = Math.max(highestAssigned, Math.min(a.highest(), state.leasedUpTo()));
      return Effect().noReply();
    }
    if (command instanceof ShoppersLeft l) {
      bucket(now)[2] += Math.max(0, l.count());
      return Effect().noReply();
    }
    if (command instanceof SeatsCounted s) {
      seatsAvailable = s.available();
      seatsHeld = s.held();
      seatsSold = s.sold();
      return Effect().noReply();
    }
    return Effect().unhandled().thenNoReply();
  }

  /**
   * Gives the next lobby join index: one per account (its {@link QueuePlace} asks once), in
   * arrival order; the lottery makes arrival order irrelevant. Indices are reserved in blocks,
   * so a write is needed once per {@link #LOBBY_BLOCK} accounts; after a restart the rest of
   * the block is skipped (those indices become places nobody holds).
   */
  private ReplyEffect<Event, State> onTakeLobbyIndex(State state, TakeLobbyIndex t, long now) {
    OnSaleSchedule s = state.schedule();
    if (s == null) return Effect().reply(t.replyTo(), new Rejected("not_on_sale", "the event has no on-sale"));
    if (state.started()) return Effect().reply(t.replyTo(), new Rejected("started", "the sale has started"));
    if (now < s.lobbyOpensAt()) return Effect().reply(t.replyTo(), new Rejected("not_open", "the lobby is not open yet"));
    if (nextLobbyIndex == 0) nextLobbyIndex = state.reserved() + 1;
    long index = nextLobbyIndex++;
    lobbyDelta++;
    if (index <= state.reserved()) return Effect().reply(t.replyTo(), new LobbyIndex(index));
    return Effect().persist(new LobbyReserved(state.reserved() + LOBBY_BLOCK)).thenReply(t.replyTo(), st -> new LobbyIndex(index));
  }

  /** The highest lobby index that may have been given. */
  private long highestLobbyIndex(State state) {
    return nextLobbyIndex > 0 ? nextLobbyIndex - 1 : state.reserved();
  }

  /**
   * A fan left: before the start the lobby shrinks (and the index's place is released at the
   * start); after it, the place is released: never admitted to shop, and no longer counted as
   * an active shopper if the line had reached it.
   */
  private void onLeft(State state, Left l) {
    if (!state.started()) {
      if (l.lobbyIndex() > 0 && leftLobbyIndexes.add(l.lobbyIndex())) lobbyDelta--;
      return;
    }
    long place = placeOf(state, l.lobbyIndex(), l.place());
    if (place <= 0 || !leftPlaces.add(place)) return;
    // A fan who bought and then leaves stopped counting already.
    if (!boughtPlaces.contains(place)) stopCounting(state, place);
  }

  /** The place of a lobby index (drawn at the start) or a later place as it is. */
  private static long placeOf(State state, long lobbyIndex, long place) {
    return lobbyIndex > 0 && lobbyIndex <= state.cohortSize() ? Lottery.place(lobbyIndex, state.salt(), state.cohortSize()) : place;
  }

  /** The place no longer counts as an active shopper (it counted from its admission, if the line reached it). */
  private void stopCounting(State state, long place) {
    if (place <= state.admittedUpTo()) {
      long at = AdmissionLog.admittedAt(state.admissions(), place);
      if (at != AdmissionLog.LONG_AGO && at != AdmissionLog.NOT_YET) {
        long second = at / 1000;
        for (long[] b : shoppers) {
          if (b[0] == second) {
            b[2]++;
            break;
          }
        }
      }
    }
  }

  private ReplyEffect<Event, State> onTick(State state, long now) {
    if (!state.isDefined()) return Effect().noReply();
    OnSaleSchedule schedule = state.schedule();
    // Fans in the lobby are told how many seats there are too; the answer arrives by the next tick.
    askSeats();
    if (schedule == null) {
      publish(state, now);
      return Effect().noReply();
    }
    List<Event> events = new ArrayList<>();
    if (!state.started()) {
      long lobby = Math.max(0, state.lobby() + lobbyDelta);
      if (lobbyDelta != 0) events.add(new LobbyCounted(lobby));
      lobbyDelta = 0;
      if (now >= schedule.startsAt()) {
        long cohort = Math.max(1, highestLobbyIndex(state));
        String salt = Lottery.drawSalt();
        events.add(new SaleStarted(salt, cohort, now));
        for (long index : leftLobbyIndexes) {
          if (index <= cohort) leftPlaces.add(Lottery.place(index, salt, cohort));
        }
        leftLobbyIndexes.clear();
        line = new AdmissionControl.Line(0, 0, now);
      }
    } else {
      if (line == null) {
        // Back from a restart: the window's history is gone, so count the places admitted in
        // the last window as still shopping (as many as the rate can have let in, at most).
        line = new AdmissionControl.Line(state.admittedUpTo(), 0, state.advancedAt());
        long windowMinutes = Math.max(1, settings.shoppingWindow().toMinutes());
        bucket(now)[1] += Math.min(state.admittedUpTo(), schedule.admissionPerMinute() * windowMinutes);
      }
      // After an outage the line resumes at its rate; it does not pour out the time it was down.
      AdmissionControl.Line from = new AdmissionControl.Line(line.admittedUpTo(), line.carry(),
          Math.max(line.at(), now - MAX_STEP_MS));
      line = AdmissionControl.advance(from,
          new AdmissionControl.Limits(schedule.admissionPerMinute(), schedule.maxActiveShoppers(), activeShoppers(now),
              Math.max(state.cohortSize(), highestAssigned), state.paused(), seatsAvailable == 0),
          now);
      // Places released by fans who left are passed without counting as shoppers.
      long released = leftPlaces.subSet(from.admittedUpTo(), false, line.admittedUpTo(), true).size();
      bucket(now)[1] += line.admittedUpTo() - from.admittedUpTo() - released;
      if (line.admittedUpTo() != state.admittedUpTo()) events.add(new LineAdvanced(line.admittedUpTo(), now));
      forgetEndedLeavers(state, now);
    }
    if (events.isEmpty()) {
      publish(state, now);
      return Effect().noReply();
    }
    return Effect().persist(events).thenRun(st -> publish(st, now)).thenNoReply();
  }

  /** A released place whose window would have ended needs no remembering: its token no longer admits anyway. */
  private void forgetEndedLeavers(State state, long now) {
    long horizon = now - settings.shoppingWindow().toMillis() - 60_000;
    long over = 0;
    for (AdmissionLog.Step step : state.admissions() == null ? List.<AdmissionLog.Step>of() : state.admissions()) {
      if (step.at() < horizon) over = step.upTo();
    }
    if (over > 0) {
      leftPlaces.headSet(over, true).clear();
      boughtPlaces.headSet(over, true).clear();
    }
  }

  private void askSeats() {
    context.ask(EventInventory.Reply.class, settings.inventories().apply(eventId), settings.askTimeout(),
        EventInventory.GetStats::new,
        (reply, error) -> reply instanceof EventInventory.Stats s
            ? new SeatsCounted(s.available(), s.held(), s.sold())
            : new SeatsCounted(seatsAvailable, seatsHeld, seatsSold));
  }

  private void publish(State state, long now) {
    if (state.isDefined()) settings.publish().accept(manifest(state, now));
  }

  private long[] bucket(long now) {
    long second = now / 1000;
    long[] last = shoppers.peekLast();
    if (last == null || last[0] != second) {
      last = new long[] {second, 0, 0};
      shoppers.addLast(last);
    }
    long oldest = second - settings.shoppingWindow().toSeconds();
    while (!shoppers.isEmpty() && shoppers.peekFirst()[0] <= oldest) shoppers.pollFirst();
    return last;
  }

  /** Places admitted within the shopping window that have not left: the active shoppers. */
  long activeShoppers(long now) {
    bucket(now);
    long in = 0;
    long out = 0;
    for (long[] b : shoppers) {
      in += b[1];
      out += b[2];
    }
    return Math.max(0, in - out);
  }

  private Manifest manifest(State state, long now) {
    OnSaleSchedule s = state.schedule();
    boolean soldOut = seatsAvailable == 0 && seatsHeld == 0;
    String phase;
    if (!state.isDefined()) phase = "unknown";
    else if (state.isOpen()) phase = soldOut ? "sold_out" : "open";
    else if (s == null) phase = "closed";
    else if (now < s.lobbyOpensAt()) phase = "scheduled";
    else if (!state.started()) phase = "lobby";
    else if (soldOut) phase = "sold_out";
    else if (state.paused()) phase = "paused";
    else phase = "waiting";
    long[] left = leftPlaces.stream().mapToLong(Long::longValue).toArray();
    return new Manifest(eventId, phase, state.admittedUpTo(), s == null ? 0 : s.admissionPerMinute(),
        s == null ? 0 : s.maxActiveShoppers(), activeShoppers(now), Math.max(0, state.lobby() + lobbyDelta),
        Math.max(seatsAvailable, 0), Math.max(seatsHeld, 0), seatsSold, now,
        s == null ? 0 : s.lobbyOpensAt(), s == null ? 0 : s.startsAt(), state.salt(), state.cohortSize(),
        s != null && s.presale(), s == null ? 0 : s.powBits(), state.paused(), state.name(), state.venueId(), state.isOpen(),
        AdmissionLog.compact(state.admissions(), MANIFEST_STEPS), left);
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    long keep = settings.shoppingWindow().toMillis() + 60_000;
    return (s, event) -> {
      if (event instanceof EventDefined e) return s.defined(e.name(), e.venueId());
      if (event instanceof SaleOpened) return s.opened();
      if (event instanceof ScheduleSet e) return s.withSchedule(e.schedule());
      if (event instanceof RatesChanged e) return s.withSchedule(s.schedule().withRates(e.admissionPerMinute(), e.maxActiveShoppers()));
      if (event instanceof PausedChanged e) return s.withPaused(e.paused());
      if (event instanceof LobbyCounted e) return s.withLobby(e.total());
      if (event instanceof LobbyReserved e) return s.withReserved(e.upTo());
      if (event instanceof SaleStarted e) return s.started(e.salt(), e.cohortSize(), e.at());
      if (event instanceof PlacesLeased e) return s.withLeased(e.upTo());
      LineAdvanced e = (LineAdvanced) event;
      return s.advanced(e.admittedUpTo(), e.at(),
          AdmissionLog.append(s.admissions(), new AdmissionLog.Step(e.at(), e.admittedUpTo()), e.at() - keep));
    };
  }
}
