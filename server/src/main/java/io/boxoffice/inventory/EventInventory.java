package io.boxoffice.inventory;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.MemberAges;
import io.boxoffice.common.Refusal;
import io.boxoffice.common.Supervision;
import io.boxoffice.common.Tracing;
import io.boxoffice.common.WarmPlacement;
import io.boxoffice.inventory.domain.Decision;
import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.inventory.domain.RecentHolds;
import io.boxoffice.inventory.domain.SeatBook;
import io.boxoffice.venue.domain.SeatMap;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.SnapshotAdapter;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * The single writer of one event's seats. Seat-changing commands are not persisted one by one:
 * they wait in a buffer, and a {@link Flush} decides the whole buffer in memory against the
 * {@link SeatBook} and persists every decision of it as one {@link BatchDecided} event (group
 * commit). Each command is answered only after that write succeeded, so nobody is told
 * "held" or "sold" before it is durable.
 *
 * <p>While the batch is written, Pekko stashes new commands; they form the next batch. As in
 * Pekko itself (which applies an event to the state before writing it), the decisions are
 * applied to the in-memory book before the write; if the write fails the entity stops, nobody
 * has been answered, and a restart recovers the book from the journal.
 *
 * <p>Why one file of this size: about half of it is the protocol (commands, replies, events,
 * state and snapshot), nested here because their names {@code EventInventory$...} are the
 * manifests in every stored journal row and snapshot and in replies between nodes; moving them
 * out would need a Jackson migration for each. The rules are in {@link SeatBook}, each seat change
 * decides itself against the book ({@link SeatChange#decide}), and the replies are built in
 * {@link InventoryReplies}: what is left is batching, persistence and the admission check.
 */
public final class EventInventory
    extends EventSourcedBehaviorWithEnforcedReplies<EventInventory.Command, EventInventory.Event, EventInventory.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "EventInventory");

  // ---- protocol --------------------------------------------------------------------------

  /** Commands to the inventory of one event. */
  public sealed interface Command extends CborSerializable {}

  /** A command that someone waits on: it is always answered, {@code not_found} before the event exists. */
  public sealed interface Asks extends Command {
    ActorRef<Reply> replyTo();
  }

  /**
   * A command that may change seats: it waits in the buffer and is decided with the next batch,
   * answered once that batch is written.
   */
  public sealed interface SeatChange extends Asks {
    /** What the book decides for this command at {@code now}; a new hold ends at {@code deadline}'s time. */
    SeatBook.Outcome decide(SeatBook book, long now, LongSupplier deadline);
  }

  /** Sets the event up once; replies {@link Created} or {@link Rejected} {@code event_exists}. */
  public record Create(EventDefinition definition, ActorRef<Reply> replyTo) implements Asks {}

  /**
   * The fan's queue token and client network prefix, carried with a hold so the inventory checks
   * the admission again itself (once the event requires admission) before any seat changes.
   */
  public record QueuePass(String token, String prefix) implements CborSerializable {}

  /**
   * A command that may carry the W3C {@code traceparent} of the request it serves (null: not
   * traced): the inventory's span for it and the journal write's are that request's children.
   */
  public interface Traced {
    String traceparent();
  }

  /** A hold: asked again with the same {@code requestId}, it answers the first ask's hold instead of holding more. */
  public sealed interface Hold extends SeatChange, Traced {
    String account();
    QueuePass pass();
    String requestId();
  }

  /** Holds exactly these seats for the account, all or nothing; replies {@link Held} or {@link Rejected}. */
  public record HoldSeats(String account, List<String> seatIds, QueuePass pass, String requestId, String traceparent,
                          ActorRef<Reply> replyTo) implements Hold {
    public HoldSeats(String account, List<String> seatIds, QueuePass pass, String requestId, ActorRef<Reply> replyTo) {
      this(account, seatIds, pass, requestId, null, replyTo);
    }

    public HoldSeats(String account, List<String> seatIds, QueuePass pass, ActorRef<Reply> replyTo) {
      this(account, seatIds, pass, null, replyTo);
    }

    public HoldSeats(String account, List<String> seatIds, ActorRef<Reply> replyTo) {
      this(account, seatIds, null, null, replyTo);
    }

    @Override
    public SeatBook.Outcome decide(SeatBook book, long now, LongSupplier deadline) {
      return book.hold(account, seatIds, now, deadline.getAsLong());
    }
  }

  /** Holds the best adjacent seats in one row; replies {@link Held} or {@link Rejected}. */
  public record HoldBest(String account, int quantity, Integer maxPriceCents, String zone, QueuePass pass, String requestId,
                         String traceparent, ActorRef<Reply> replyTo) implements Hold {
    public HoldBest(String account, int quantity, Integer maxPriceCents, String zone, QueuePass pass, String requestId,
                    ActorRef<Reply> replyTo) {
      this(account, quantity, maxPriceCents, zone, pass, requestId, null, replyTo);
    }

    public HoldBest(String account, int quantity, Integer maxPriceCents, String zone, QueuePass pass, ActorRef<Reply> replyTo) {
      this(account, quantity, maxPriceCents, zone, pass, null, replyTo);
    }

    public HoldBest(String account, int quantity, Integer maxPriceCents, String zone, ActorRef<Reply> replyTo) {
      this(account, quantity, maxPriceCents, zone, null, null, replyTo);
    }

    @Override
    public SeatBook.Outcome decide(SeatBook book, long now, LongSupplier deadline) {
      return book.holdBest(account, quantity, maxPriceCents, zone, now, deadline.getAsLong());
    }
  }

  /** From now on every hold needs a queue pass of an admitted fan (the event has an on-sale); replies {@link Created}. */
  public record RequireAdmission(ActorRef<Reply> replyTo) implements Asks {}

  /** An explicit open sale: holds need no queue pass from now on (until admission is required again); replies {@link Created}. */
  public record WaiveAdmission(ActorRef<Reply> replyTo) implements Asks {}

  /** Gives back the account's holds on these seats (all of them when null); replies {@link Released}. */
  public record Release(String account, List<String> seatIds, String traceparent, ActorRef<Reply> replyTo)
      implements SeatChange, Traced {
    public Release(String account, List<String> seatIds, ActorRef<Reply> replyTo) {
      this(account, seatIds, null, replyTo);
    }

    @Override
    public SeatBook.Outcome decide(SeatBook book, long now, LongSupplier deadline) {
      return book.release(account, seatIds);
    }
  }

  /**
   * The cart's timer: gives back the account's holds on these seats whose deadline is at or
   * before {@code deadline} and has passed by the event's clock (never a hold extended or made
   * again since, never a sold seat), decided ahead of the batch's lazy expiry and written with
   * it; replies {@link ExpiryChecked}.
   */
  public record ReleaseExpired(String account, List<String> seatIds, long deadline, ActorRef<Reply> replyTo)
      implements SeatChange {
    @Override
    public SeatBook.Outcome decide(SeatBook book, long now, LongSupplier newHoldDeadline) {
      return book.releaseExpired(account, seatIds, deadline, now);
    }
  }

  /** Turns the account's live holds on these seats into a sale; replies {@link Confirmed} or {@link Rejected} {@code hold_expired}. */
  public record Confirm(String account, String orderId, List<String> seatIds, String traceparent, ActorRef<Reply> replyTo)
      implements SeatChange, Traced {
    public Confirm(String account, String orderId, List<String> seatIds, ActorRef<Reply> replyTo) {
      this(account, orderId, seatIds, null, replyTo);
    }

    @Override
    public SeatBook.Outcome decide(SeatBook book, long now, LongSupplier deadline) {
      return book.confirm(account, orderId, seatIds, now);
    }
  }

  /** Admits the ticket of a seat sold under the order once; replies {@link Admitted}, {@link AlreadyScanned} or {@link Rejected} {@code invalid}. */
  public record Scan(String seatId, String orderId, ActorRef<Reply> replyTo) implements SeatChange {
    @Override
    public SeatBook.Outcome decide(SeatBook book, long now, LongSupplier deadline) {
      return book.scan(seatId, orderId, now);
    }
  }

  /** Replies {@link Holds}: the account's live holds. */
  public record GetHolds(String account, ActorRef<Reply> replyTo) implements Asks {}

  /** Replies {@link Availability}: the 2-bit snapshot, produced at most once per interval. */
  public record GetAvailability(ActorRef<Reply> replyTo) implements Asks {}

  /** Replies {@link Definition} or {@link Rejected} {@code not_found}. */
  public record GetDefinition(ActorRef<Reply> replyTo) implements Asks {}

  /** Replies {@link Stats}. */
  public record GetStats(ActorRef<Reply> replyTo) implements Asks {}

  /** Internal: decide and persist the buffered commands. */
  public record Flush() implements Command {}

  /** Internal: note that the inventory is alive while holds run (see {@link Alive}). */
  public record Heartbeat() implements Command {}

  /** Internal: give the holds live at {@code downSince} the time the event was unavailable. */
  public record CompensateOutage(long downSince, long forMillis) implements Command {}

  /** Replies of the inventory. */
  public sealed interface Reply extends CborSerializable {}

  public record Created(String eventId) implements Reply {}

  /** A seat and its price, as holds and carts show them. */
  public record SeatPrice(String seatId, int priceCents) implements CborSerializable {}

  public record Held(List<SeatPrice> seats, long holdExpiresAt) implements Reply {}

  public record Released(List<String> seatIds) implements Reply {}

  public record Confirmed(String orderId, List<SeatPrice> seats) implements Reply {}
  /**
   * The answer to {@link ReleaseExpired}: {@code released} now by it, {@code gone} the named seats
   * the account no longer held nor bought (lapsed in an earlier batch, released, or taken since),
   * and {@code holds} the account's live holds after it.
   */
  public record ExpiryChecked(List<String> released, List<String> gone, Holds holds) implements Reply {}


  public record Admitted(String seatId) implements Reply {}

  public record AlreadyScanned(long scannedAt) implements Reply {}

  /** The account's live holds; {@code holdExpiresAt} is the earliest deadline, 0 when none. */
  public record Holds(List<SeatPrice> seats, long holdExpiresAt) implements Reply {}

  /** 2 bits a seat in seat-map order (see {@link SeatBook#availabilityBits}); version is the production time in ms. */
  public record Availability(long version, byte[] bits) implements Reply {}

  public record Definition(EventDefinition definition) implements Reply {}

  public record Stats(int available, int held, int sold, int orders) implements Reply {}

  /**
   * A refusal: {@code code} is the contract's error code ({@code seats_taken}, {@code no_seats},
   * {@code limit_exceeded}, {@code unknown_seats}, {@code hold_expired}, {@code invalid},
   * {@code not_found}, {@code event_exists}, {@code busy}); {@code seatIds} names seats where it helps.
   */
  public record Rejected(Refusal code, String message, List<String> seatIds) implements Reply {}

  /** Journal events. */
  public sealed interface Event extends CborSerializable {}

  public record EventCreated(EventDefinition definition) implements Event {}

  /** Holds need an admitted queue pass from now on. */
  public record AdmissionRequired() implements Event {}

  public record AdmissionWaived() implements Event {}

  /** The inventory was alive at {@code at} (epoch ms); written now and then while holds run. */
  public record Alive(long at) implements Event {}

  /**
   * The platform was down from {@code downSince} for {@code forMillis}: every hold live at
   * {@code downSince} gets that time back, so no fan loses a cart to our fault.
   */
  public record HoldsExtended(long downSince, long forMillis) implements Event {}

  /**
   * All decisions of one group commit, decided at {@code at} (epoch ms, the event's own clock).
   * Before them, every hold live at {@code at - faultMillis} got {@code faultMillis} more: the
   * time the platform around the event was failing since the last batch (see {@link PlatformFaults}).
   */
  public record BatchDecided(long batch, long at, List<Decision> decisions, long faultMillis) implements Event {
    public BatchDecided(long batch, long at, List<Decision> decisions) {
      this(batch, at, decisions, 0);
    }
  }

  /** State: nothing yet, or the event with its seat book. */
  public sealed interface State {}

  public record Empty() implements State {}

  /** The live event. Mutable: the seat book changes in place under the single writer. */
  public static final class Active implements State {
    final EventDefinition definition;
    final SeatBook book;
    long batch;
    boolean admissionRequired;
    /** When the inventory last wrote anything: a batch or a heartbeat (epoch ms). */
    long aliveAt;
    final RecentHolds recentHolds;

    Active(EventDefinition definition, SeatBook book, long batch, boolean admissionRequired, long aliveAt,
           RecentHolds recentHolds) {
      this.definition = definition;
      this.book = book;
      this.batch = batch;
      this.admissionRequired = admissionRequired;
      this.aliveAt = aliveAt;
      this.recentHolds = recentHolds;
    }

    void apply(Decision decision) {
      book.apply(decision);
      recentHolds.remember(decision);
    }
  }

  /**
   * The journal form of {@link Active}: immutable copies, taken on the entity's thread.
   * {@code recentHolds} is null in snapshots written before holds carried request ids.
   */
  public record Snapshot(EventDefinition definition, long batch, SeatBook.Snapshot book, boolean admissionRequired,
                         long aliveAt, List<Decision.Held> recentHolds) implements CborSerializable {}

  // ---- wiring ----------------------------------------------------------------------------

  public static void init(ActorSystem<?> system, InventorySettings settings) {
    ClusterSharding.get(system).init(
        Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), settings)).withRole("inventory")
            .withAllocationStrategy(WarmPlacement.fixed(MemberAges.get(system), settings.warmUp()))
            // Threads of their own: a quiet event's batch never waits behind a flood's HTTP work.
            .withEntityProps(org.apache.pekko.actor.typed.DispatcherSelector.fromConfig(DISPATCHER)));
  }

  /** The inventories' dispatcher (and their journal's), configured in boxoffice.conf. */
  public static final String DISPATCHER = "boxoffice.inventory-dispatcher";

  public static Behavior<Command> create(String eventId, InventorySettings settings) {
    // A traced command's log lines carry its request's trace id as well.
    return Behaviors.withMdc(Command.class, java.util.Map.of("eventId", eventId), EventInventory::traceMdc, Supervision.restarting(s ->
            Behaviors.setup(ctx -> Behaviors.<Command>withTimers(timers -> {
              timers.startTimerWithFixedDelay("heartbeat", new Heartbeat(), settings.heartbeat());
              WriteSpans writing = new WriteSpans();
              return Behaviors.intercept(() -> journalFailures(settings, writing),
                  new EventInventory(ctx, PersistenceId.of(ENTITY_TYPE_KEY.name(), eventId), settings, s, writing));
            }))));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static org.apache.pekko.actor.typed.BehaviorInterceptor<Command, Command> journalFailures(InventorySettings settings,
                                                                                                  WriteSpans writing) {
    // Every message, the journal's replies among them: the interceptor's type is Object.
    return (org.apache.pekko.actor.typed.BehaviorInterceptor) new JournalFailures(settings.metrics(), writing);
  }

  private static java.util.Map<String, String> traceMdc(Command command) {
    String traceId = command instanceof Traced t ? Tracing.traceIdOf(t.traceparent()) : null;
    return traceId == null ? java.util.Map.of() : java.util.Map.of(Tracing.MDC_KEY, traceId);
  }

  // ---- behaviour -------------------------------------------------------------------------

  private final ActorContext<Command> context;
  private final InventorySettings settings;
  private final RandomGenerator random;
  private final List<SeatChange> pending = new ArrayList<>();
  /** The spans of traced commands waiting in {@link #pending} (none while tracing is off). */
  private final java.util.Map<SeatChange, Span> spans = new java.util.IdentityHashMap<>();
  private boolean flushScheduled;
  /** The spans of the batch being written, ended with its outcome (also when the journal fails it). */
  private final WriteSpans writing;
  private Availability availability;
  /**
   * Platform fault time (this node's {@link PlatformFaults} total) already given to the holds.
   * Not persisted: the gifts are; after a move the event's own downtime is made good on recovery.
   */
  private long faultCredited;
  /**
   * When this incarnation started reading the event back (epoch ms): at its start, and again when
   * its supervisor restarts it after a failed write. Its recovery's time is reported with
   * {@link InventoryMetrics#recovered}.
   */
  private long recoveringSince;

  private EventInventory(ActorContext<Command> context, PersistenceId persistenceId, InventorySettings settings,
                         Supervision supervision, WriteSpans writing) {
    super(persistenceId, supervision.backoff());
    this.context = context;
    this.settings = settings;
    this.writing = writing;
    this.random = settings.random().get();
    this.faultCredited = settings.faults().faultMillisUpTo(settings.clock().millis());
    this.recoveringSince = settings.clock().millis();
  }

  /** While the platform fails, holds are given time a step ahead, so that no write is needed for every batch. */
  private static final long FAULT_STEP_MILLIS = 1000;

  /**
   * Fault time not yet given to the holds, plus a step ahead when there is any; 0 when none.
   * The caller gives it to every hold live at {@code now} minus it, in a persisted event.
   */
  private long takeFaultCredit(long now) {
    long total = settings.faults().faultMillisUpTo(now);
    if (total <= faultCredited) return 0;
    long credit = total - faultCredited + FAULT_STEP_MILLIS;
    faultCredited += credit;
    return credit;
  }

  /** Fault time not yet given to the holds: reads count it as given, as the next write will. */
  private long pendingFaultCredit(long now) {
    return Math.max(0, settings.faults().faultMillisUpTo(now) - faultCredited);
  }

  @Override
  public State emptyState() {
    return new Empty();
  }

  @Override
  public String journalPluginId() {
    return settings.journalPluginId();
  }

  @Override
  public String snapshotPluginId() {
    return settings.snapshotPluginId();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(settings.snapshotEveryEvents(), settings.snapshotKeep());
  }

  @Override
  public SnapshotAdapter<State> snapshotAdapter() {
    return new SnapshotAdapter<>() {
      @Override
      public Object toJournal(State state) {
        if (state instanceof Active a) {
          return new Snapshot(a.definition, a.batch, a.book.toSnapshot(), a.admissionRequired, a.aliveAt,
              a.recentHolds.toList());
        }
        return new Snapshot(null, 0, null, false, 0, null);
      }

      @Override
      public State fromJournal(Object from) {
        Snapshot s = (Snapshot) from;
        if (s.definition() == null) return new Empty();
        EventDefinition d = s.definition();
        SeatBook book = SeatBook.fromSnapshot(SeatMap.compile(d.venue()), d.prices(), d.maxSeatsPerAccount(), s.book());
        return new Active(d, book, s.batch(), s.admissionRequired(), s.aliveAt(),
            RecentHolds.of(settings.recentHolds(), s.recentHolds()));
      }
    };
  }

  @Override
  public org.apache.pekko.persistence.typed.javadsl.SignalHandler<State> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(org.apache.pekko.persistence.typed.RecoveryCompleted.instance(), this::onRecovered)
        .onSignal(org.apache.pekko.actor.typed.PostStop.instance(), state -> endUnanswered())
        // A failed write restarts the entity (with backoff) in this same object: its read-back starts again.
        .onSignal(org.apache.pekko.actor.typed.PreRestart.instance(), state -> recoveringSince = settings.clock().millis())
        .build();
  }

  /** Stopped (passivated, moved, or given up on by its supervisor): the spans of commands it never answered end with an error. */
  private void endUnanswered() {
    writing.failed("the inventory stopped before answering", null);
    spans.values().forEach(span -> WriteSpans.fail(span, "the inventory stopped before answering", null));
    spans.clear();
  }

  /**
   * Back after a crash, a move or a database outage: if holds were live when the inventory last
   * wrote and the gap is longer than a heartbeat allows, those holds get the gap back.
   */
  private void onRecovered(State state) {
    // Only a created event reports: an unknown id (a probe, a typo) must not add a metric or a log line.
    if (!(state instanceof Active a)) return;
    long now = settings.clock().millis();
    long took = now - recoveringSince;
    settings.metrics().recovered(a.definition.eventId(), took);
    // The MDC (eventId) is set for commands only: the line names the event itself.
    context.getLog().info("event {} recovered at batch {} in {} ms", a.definition.eventId(), a.batch, took);
    if (a.aliveAt == 0) return;
    long gap = now - a.aliveAt;
    if (gap > 2 * settings.heartbeat().toMillis() && a.book.hasLiveHolds(a.aliveAt)) {
      context.getSelf().tell(new CompensateOutage(a.aliveAt, gap));
    }
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    var builder = newCommandHandlerWithReplyBuilder();
    builder.forStateType(Empty.class)
        .onCommand(Create.class, (state, c) -> Effect().persist(new EventCreated(c.definition()))
            .thenReply(c.replyTo(), s -> new Created(c.definition().eventId())))
        .onCommand(Asks.class, (state, c) -> Effect().reply(c.replyTo(), new Rejected(Refusal.NOT_FOUND, "no such event", List.of())))
        .onAnyCommand((state, c) -> Effect().noReply());
    builder.forStateType(Active.class)
        .onCommand(Flush.class, (state, c) -> onFlush(state))
        .onCommand(SeatChange.class, this::onSeatChange)
        .onCommand(GetHolds.class, (state, g) -> {
          long now = settings.clock().millis();
          // Holds whose fault time is not given yet are read as if it were (the next write gives it).
          return Effect().reply(g.replyTo(), InventoryReplies.holdsOf(state.book, g.account(), now, pendingFaultCredit(now)));
        })
        .onCommand(GetAvailability.class, this::onGetAvailability)
        .onCommand(GetStats.class, (state, g) -> {
          long now = settings.clock().millis();
          int[] c = state.book.counts(now - pendingFaultCredit(now));
          return Effect().reply(g.replyTo(), new Stats(c[0], c[1], c[2], state.book.orderCount()));
        })
        .onCommand(GetDefinition.class, (state, g) -> Effect().reply(g.replyTo(), new Definition(state.definition)))
        .onCommand(Heartbeat.class, (state, c) -> onHeartbeat(state))
        .onCommand(CompensateOutage.class, this::onCompensateOutage)
        .onCommand(Create.class, (state, c) ->
            Effect().reply(c.replyTo(), new Rejected(Refusal.EVENT_EXISTS, "the event exists already", List.of())))
        .onCommand(RequireAdmission.class, (state, r) -> {
          Created created = new Created(state.definition.eventId());
          if (state.admissionRequired) return Effect().reply(r.replyTo(), created);
          return Effect().persist(new AdmissionRequired()).thenReply(r.replyTo(), s -> created);
        })
        .onCommand(WaiveAdmission.class, (state, w) -> {
          Created created = new Created(state.definition.eventId());
          if (!state.admissionRequired) return Effect().reply(w.replyTo(), created);
          return Effect().persist(new AdmissionWaived()).thenReply(w.replyTo(), s -> created);
        });
    return builder.build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    var builder = newEventHandlerBuilder();
    builder.forStateType(Empty.class).onEvent(EventCreated.class, (state, c) -> {
      EventDefinition d = c.definition();
      return new Active(d, new SeatBook(SeatMap.compile(d.venue()), d.prices(), d.maxSeatsPerAccount()), 0, false, 0,
          new RecentHolds(settings.recentHolds()));
    });
    builder.forStateType(Active.class)
        .onEvent(BatchDecided.class, (a, b) -> {
          // A live batch was applied when it was decided; only recovery applies it here.
          a.aliveAt = Math.max(a.aliveAt, b.at());
          if (b.batch() <= a.batch) return a;
          if (b.faultMillis() > 0) a.book.extendHolds(b.at() - b.faultMillis(), b.faultMillis());
          a.book.expireUpTo(b.at());
          for (Decision d : b.decisions()) a.apply(d);
          a.batch = b.batch();
          return a;
        })
        .onEvent(Alive.class, (a, alive) -> {
          a.aliveAt = Math.max(a.aliveAt, alive.at());
          return a;
        })
        .onEvent(HoldsExtended.class, (a, x) -> {
          a.book.extendHolds(x.downSince(), x.forMillis());
          a.aliveAt = Math.max(a.aliveAt, x.downSince() + x.forMillis());
          return a;
        })
        .onEvent(AdmissionRequired.class, (a, r) -> {
          a.admissionRequired = true;
          return a;
        })
        .onEvent(AdmissionWaived.class, (a, w) -> {
          a.admissionRequired = false;
          return a;
        });
    return builder.build();
  }

  /** A seat change waits for the next batch; a hold first shows its admission (once the event requires it). */
  private ReplyEffect<Event, State> onSeatChange(Active state, SeatChange command) {
    Span span = startSpan(command);
    if (state.admissionRequired && command instanceof Hold hold && !admitted(state, hold)) {
      return refuse(command, span, new Rejected(Refusal.NOT_ADMITTED, "this fan has not been admitted from the queue", List.of()));
    }
    if (pending.size() >= settings.maxPending()) {
      return refuse(command, span, new Rejected(Refusal.BUSY, "the event is busy, try again", List.of()));
    }
    if (span != null) spans.put(command, span);
    pending.add(command);
    if (!flushScheduled) {
      flushScheduled = true;
      context.getSelf().tell(new Flush());
    }
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> refuse(SeatChange command, Span span, Rejected rejected) {
    if (span != null) {
      span.setAttribute("boxoffice.reply", rejected.code().code());
      span.end();
    }
    return Effect().reply(command.replyTo(), rejected);
  }

  /** The inventory's span for a command that carries its request's traceparent; null when it carries none. */
  private Span startSpan(SeatChange command) {
    if (!(command instanceof Traced t) || t.traceparent() == null || !settings.tracing().on()) return null;
    Span span = settings.tracing().start("inventory " + command.getClass().getSimpleName(), SpanKind.CONSUMER, t.traceparent());
    span.setAttribute("boxoffice.event", context.getSelf().path().name());
    return span;
  }

  private static void noteReply(Span span, Reply reply) {
    if (span != null) span.setAttribute("boxoffice.reply", reply instanceof Rejected r ? r.code().code() : reply.getClass().getSimpleName());
  }

  private ReplyEffect<Event, State> onGetAvailability(Active state, GetAvailability g) {
    long now = settings.clock().millis();
    if (availability == null || now - availability.version() >= settings.availabilityInterval().toMillis()) {
      availability = new Availability(now, state.book.availabilityBits(now - pendingFaultCredit(now)));
    }
    return Effect().reply(g.replyTo(), availability);
  }

  private ReplyEffect<Event, State> onHeartbeat(Active state) {
    long now = settings.clock().millis();
    long credit = takeFaultCredit(now);
    if (credit > 0 && state.book.hasLiveHolds(now - credit)) {
      return Effect().persist(new HoldsExtended(now - credit, credit)).thenNoReply();
    }
    if (!state.book.hasLiveHolds(now) || now - state.aliveAt < settings.heartbeat().toMillis()) return Effect().noReply();
    return Effect().persist(new Alive(now)).thenNoReply();
  }

  private ReplyEffect<Event, State> onCompensateOutage(Active state, CompensateOutage c) {
    if (state.aliveAt > c.downSince()) return Effect().noReply();
    // Logged here, not on recovery: the entity's MDC (eventId) is set for commands only.
    context.getLog().info("holds live at {} get {} ms back after the event was unavailable", c.downSince(), c.forMillis());
    return Effect().persist(new HoldsExtended(c.downSince(), c.forMillis())).thenNoReply();
  }

  /**
   * The origin's own check of a hold's admission, as the edge made it: a queue token of this
   * event, account and network prefix, signed by a live key, admitted and inside its window.
   */
  private boolean admitted(Active state, Hold hold) {
    QueuePass pass = hold.pass();
    String account = hold.account();
    if (pass == null || settings.queueTokens() == null) return false;
    return settings.queueTokens().admits(pass.token(), state.definition.eventId(), account, pass.prefix(),
        settings.clock().millis() / 1000);
  }

  private ReplyEffect<Event, State> onFlush(Active state) {
    flushScheduled = false;
    if (pending.isEmpty()) return Effect().noReply();
    int n = Math.min(pending.size(), settings.maxBatch());
    List<SeatChange> batch = new ArrayList<>(pending.subList(0, n));
    pending.subList(0, n).clear();
    if (!pending.isEmpty()) {
      flushScheduled = true;
      context.getSelf().tell(new Flush());
    }

    long now = settings.clock().millis();
    SeatBook book = state.book;
    long credit = takeFaultCredit(now);
    long faultMillis = credit > 0 && book.hasLiveHolds(now - credit) ? credit : 0;
    if (faultMillis > 0) book.extendHolds(now - faultMillis, faultMillis);
    List<Decision> decisions = new ArrayList<>();
    List<Runnable> replies = new ArrayList<>(batch.size());
    List<Span> traced = spans.isEmpty() ? List.of() : new ArrayList<>();
    // The carts' timers first: lazy expiry below would free the same seats without saying whose
    // they were. Replay frees them by expiry and finds these releases already done: same book.
    for (SeatChange command : batch) {
      if (!(command instanceof ReleaseExpired r)) continue;
      SeatBook.Outcome outcome = r.decide(book, now, () -> deadline(state, now));
      List<String> released = List.of();
      if (outcome instanceof SeatBook.Accepted accepted) {
        state.apply(accepted.decision());
        decisions.add(accepted.decision());
        released = InventoryReplies.seatIds(book, ((Decision.Released) accepted.decision()).seats());
      }
      List<String> gone = new ArrayList<>(book.notHeldBy(r.account(), r.seatIds()));
      gone.removeAll(released);
      Reply reply = new ExpiryChecked(released, List.copyOf(gone), InventoryReplies.holdsOf(book, r.account(), now, 0));
      replies.add(() -> r.replyTo().tell(reply));
      traced(r, reply, traced);
    }
    book.expireUpTo(now);
    for (SeatChange command : batch) {
      if (command instanceof ReleaseExpired) continue;
      Decision.Held earlier = command instanceof Hold h ? state.recentHolds.find(h.account(), h.requestId()) : null;
      if (earlier != null) {
        Reply again = InventoryReplies.heldAgain(book, earlier, now);
        replies.add(() -> command.replyTo().tell(again));
        traced(command, again, traced);
        continue;
      }
      SeatBook.Outcome outcome = command.decide(book, now, () -> deadline(state, now));
      if (outcome instanceof SeatBook.Accepted accepted) {
        Decision decision = accepted.decision();
        if (decision instanceof Decision.Held held && command instanceof Hold h && h.requestId() != null) {
          decision = held.withRequestId(h.requestId());
        }
        state.apply(decision);
        decisions.add(decision);
      }
      Reply reply = InventoryReplies.replyFor(book, command, outcome);
      replies.add(() -> command.replyTo().tell(reply));
      traced(command, reply, traced);
    }
    if (decisions.isEmpty() && faultMillis == 0) {
      return Effect().none().thenRun(s -> {
        replies.forEach(Runnable::run);
        traced.forEach(Span::end);
      }).thenNoReply();
    }
    state.batch = state.batch + 1;
    long writeStarted = System.nanoTime();
    int commands = batch.size();
    // The group commit works for every traced command of the batch: the first one's child, linked to the others.
    Span write = traced.isEmpty() ? null : settings.tracing().startChild("journal write", traced.get(0), traced);
    if (write != null) {
      write.setAttribute("boxoffice.batch.commands", commands);
      write.setAttribute("boxoffice.batch.decisions", decisions.size());
    }
    writing.writing(write, traced);
    return Effect().persist(new BatchDecided(state.batch, now, List.copyOf(decisions), faultMillis))
        .thenRun(s -> {
          writing.written();
          settings.metrics().batchWritten(state.definition.eventId(), commands, decisions.size(), System.nanoTime() - writeStarted);
          reportSales(state.definition.eventId(), decisions);
          replies.forEach(Runnable::run);
          writing.answered();
        })
        .thenNoReply();
  }

  /** Notes the reply on the command's span, if it has one, and adds that span to {@code traced} to end once answered. */
  private void traced(SeatChange command, Reply reply, List<Span> traced) {
    Span span = spans.isEmpty() ? null : spans.remove(command);
    if (span == null) return;
    noteReply(span, reply);
    traced.add(span);
  }

  /** Seats held and orders sold in a written batch, counted once here (never again on a replay or a retried ask). */
  private void reportSales(String eventId, List<Decision> decisions) {
    int held = 0;
    int orders = 0;
    int sold = 0;
    for (Decision d : decisions) {
      if (d instanceof Decision.Held h) held += h.seats().length;
      if (d instanceof Decision.Sold s) {
        orders++;
        sold += s.seats().length;
      }
    }
    if (held > 0 || orders > 0) settings.metrics().holdsAndSalesWritten(eventId, held, orders, sold);
  }

  /** Deadline of a new hold: holdSeconds plus uniform jitter in [0, holdJitterSeconds]. */
  private long deadline(Active state, long now) {
    long jitterMs = state.definition.holdJitterSeconds() * 1000L;
    return now + state.definition.holdSeconds() * 1000L + (jitterMs == 0 ? 0 : random.nextLong(jitterMs + 1));
  }
}
