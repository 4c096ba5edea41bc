package io.boxoffice.queue;

import io.boxoffice.CborSerializable;
import io.boxoffice.ops.Supervision;
import io.boxoffice.inventory.EventInventory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
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

  /** Schedules (or reschedules, before the start) the on-sale; replies the {@link Manifest} or {@link Rejected}. */
  public record SetSchedule(OnSaleSchedule schedule, ActorRef<Reply> replyTo) implements Command {}

  /** Changes the admission rate and/or the cap on active shoppers; replies the {@link Manifest}. */
  public record ChangeRates(Integer admissionPerMinute, Integer maxActiveShoppers, ActorRef<Reply> replyTo) implements Command {}

  /** Pauses (nobody new is admitted) or resumes; replies the {@link Manifest}. */
  public record SetPaused(boolean paused, ActorRef<Reply> replyTo) implements Command {}

  /** Replies the {@link Manifest}. */
  public record GetManifest(ActorRef<Reply> replyTo) implements Command {}

  /** An edge node counted {@code count} accounts joining the lobby before the start. */
  public record LobbyJoined(int count) implements Command {}

  /** Leases {@code count} places behind the lottery cohort to an edge node; replies {@link Leased} or {@link Rejected}. */
  public record LeasePlaces(int count, ActorRef<Reply> replyTo) implements Command {}

  /** An edge node has handed out later places up to {@code highest}. */
  public record PlacesAssigned(long highest) implements Command {}

  /** Fans stopped shopping before their window ended (checked out or left). */
  public record ShoppersLeft(int count) implements Command {}

  /** Internal: move the line, start the sale when due, publish the manifest. */
  public record Tick() implements Command {}

  /** Internal: what the event's inventory said about its seats. */
  public record SeatsCounted(int available, int held, int sold) implements Command {}

  public sealed interface Reply extends CborSerializable {}

  /**
   * What every edge node needs to know, and fans may see: {@code state} is scheduled, lobby,
   * waiting (the line moves), paused, sold_out; {@code salt} and {@code cohortSize} exist once
   * the sale started (a lobby account's place follows from them); times are epoch ms.
   */
  public record Manifest(String eventId, String state, long admittedUpTo, int admissionPerMinute, int maxActiveShoppers,
                         long activeShoppers, long lobby, int seatsRemaining, int seatsHeld, int seatsSold, long updatedAt,
                         long lobbyOpensAt,
                         long startsAt, String salt, long cohortSize, boolean presale, int powBits, boolean paused)
      implements Reply {}

  /** Later places [{@code from}, {@code to}] for an edge node to hand out in arrival order. */
  public record Leased(long from, long to) implements Reply {}

  public record Rejected(String code, String message) implements Reply {}

  public sealed interface Event extends CborSerializable {}

  public record ScheduleSet(OnSaleSchedule schedule) implements Event {}

  public record RatesChanged(int admissionPerMinute, int maxActiveShoppers) implements Event {}

  public record PausedChanged(boolean paused) implements Event {}

  public record LobbyCounted(long total) implements Event {}

  public record SaleStarted(String salt, long cohortSize, long at) implements Event {}

  public record PlacesLeased(long upTo) implements Event {}

  public record LineAdvanced(long admittedUpTo, long at) implements Event {}

  /** Everything that must survive a restart. */
  public record State(OnSaleSchedule schedule, boolean paused, long lobby, String salt, long cohortSize, long startedAt,
                      long leasedUpTo, long admittedUpTo, long advancedAt) implements CborSerializable {
    static State empty() {
      return new State(null, false, 0, null, 0, 0, 0, 0, 0);
    }

    boolean started() {
      return salt != null;
    }
  }

  // ---- wiring ----------------------------------------------------------------------------

  public static void init(ActorSystem<?> system, WaitingRoomSettings settings) {
    ClusterSharding.get(system).init(
        Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), settings)).withRole("inventory")
            .withAllocationStrategy(new io.boxoffice.ops.NoRebalancing()));
  }

  public static Behavior<Command> create(String eventId, WaitingRoomSettings settings) {
    return Behaviors.withMdc(Command.class, java.util.Map.of("eventId", eventId), Supervision.restarting(Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
          timers.startTimerWithFixedDelay("tick", new Tick(), settings.tick());
          return new WaitingRoom(ctx, eventId, settings);
        }))));
  }

  private static final long MAX_STEP_MS = 5_000;

  private final ActorContext<Command> context;
  private final String eventId;
  private final WaitingRoomSettings settings;
  /** Lobby joins counted since the last write. */
  private long unsavedJoins;
  private long highestAssigned;
  /** Where the line stands between writes (the fraction earned and when it was last moved). */
  private AdmissionControl.Line line;
  private int seatsAvailable = -1;
  private int seatsHeld = -1;
  private int seatsSold;
  /**
   * Places admitted and shoppers who left, per second, over the shopping window: {second, in,
   * out}. Every admitted place counts as shopping until its window ends or it leaves, so the
   * cap holds even for fans who have not arrived yet (a place nobody uses costs its window).
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
    return event instanceof ScheduleSet ? java.util.Set.of(OnSaleKeeper.TAG) : java.util.Set.of();
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return this::onCommand;
  }

  private ReplyEffect<Event, State> onCommand(State state, Command command) {
    long now = settings.clock().millis();
    if (command instanceof Tick) return onTick(state, now);
    if (command instanceof GetManifest g) return Effect().reply(g.replyTo(), manifest(state, now));
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
    if (command instanceof LobbyJoined j) {
      if (!state.started()) unsavedJoins += Math.max(0, j.count());
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

  private ReplyEffect<Event, State> onTick(State state, long now) {
    OnSaleSchedule schedule = state.schedule();
    if (schedule == null) return Effect().noReply();
    List<Event> events = new ArrayList<>();
    // Fans in the lobby are told how many seats there are too; the answer arrives by the next tick.
    askSeats();
    if (!state.started()) {
      long lobby = state.lobby() + unsavedJoins;
      if (unsavedJoins > 0) events.add(new LobbyCounted(lobby));
      unsavedJoins = 0;
      if (now >= schedule.startsAt()) {
        events.add(new SaleStarted(Lottery.drawSalt(), Math.max(1, lobby), now));
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
      bucket(now)[1] += line.admittedUpTo() - from.admittedUpTo();
      if (line.admittedUpTo() != state.admittedUpTo()) events.add(new LineAdvanced(line.admittedUpTo(), now));
    }
    if (events.isEmpty()) {
      publish(state, now);
      return Effect().noReply();
    }
    return Effect().persist(events).thenRun(st -> publish(st, now)).thenNoReply();
  }

  private void askSeats() {
    context.ask(EventInventory.Reply.class, settings.inventories().apply(eventId), settings.askTimeout(),
        EventInventory.GetStats::new,
        (reply, error) -> reply instanceof EventInventory.Stats s
            ? new SeatsCounted(s.available(), s.held(), s.sold())
            : new SeatsCounted(seatsAvailable, seatsHeld, seatsSold));
  }

  private void publish(State state, long now) {
    settings.publish().accept(manifest(state, now));
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
    String phase;
    if (s == null || now < s.lobbyOpensAt()) phase = "scheduled";
    else if (!state.started()) phase = "lobby";
    else if (seatsAvailable == 0 && seatsHeld == 0) phase = "sold_out";
    else if (state.paused()) phase = "paused";
    else phase = "waiting";
    return new Manifest(eventId, phase, state.admittedUpTo(), s == null ? 0 : s.admissionPerMinute(),
        s == null ? 0 : s.maxActiveShoppers(), activeShoppers(now), state.lobby() + unsavedJoins, Math.max(seatsAvailable, 0),
        Math.max(seatsHeld, 0), seatsSold, now,
        s == null ? 0 : s.lobbyOpensAt(), s == null ? 0 : s.startsAt(), state.salt(), state.cohortSize(),
        s != null && s.presale(), s == null ? 0 : s.powBits(), state.paused());
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return (s, event) -> {
      if (event instanceof ScheduleSet e) {
        return new State(e.schedule(), s.paused(), s.lobby(), s.salt(), s.cohortSize(), s.startedAt(), s.leasedUpTo(),
            s.admittedUpTo(), s.advancedAt());
      }
      if (event instanceof RatesChanged e) {
        return new State(s.schedule().withRates(e.admissionPerMinute(), e.maxActiveShoppers()), s.paused(), s.lobby(), s.salt(),
            s.cohortSize(), s.startedAt(), s.leasedUpTo(), s.admittedUpTo(), s.advancedAt());
      }
      if (event instanceof PausedChanged e) {
        return new State(s.schedule(), e.paused(), s.lobby(), s.salt(), s.cohortSize(), s.startedAt(), s.leasedUpTo(),
            s.admittedUpTo(), s.advancedAt());
      }
      if (event instanceof LobbyCounted e) {
        return new State(s.schedule(), s.paused(), e.total(), s.salt(), s.cohortSize(), s.startedAt(), s.leasedUpTo(),
            s.admittedUpTo(), s.advancedAt());
      }
      if (event instanceof SaleStarted e) {
        return new State(s.schedule(), s.paused(), s.lobby(), e.salt(), e.cohortSize(), e.at(), e.cohortSize(), 0, e.at());
      }
      if (event instanceof PlacesLeased e) {
        return new State(s.schedule(), s.paused(), s.lobby(), s.salt(), s.cohortSize(), s.startedAt(), e.upTo(),
            s.admittedUpTo(), s.advancedAt());
      }
      LineAdvanced e = (LineAdvanced) event;
      return new State(s.schedule(), s.paused(), s.lobby(), s.salt(), s.cohortSize(), s.startedAt(), s.leasedUpTo(),
          e.admittedUpTo(), e.at());
    };
  }
}
