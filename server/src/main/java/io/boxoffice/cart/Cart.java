package io.boxoffice.cart;

import io.boxoffice.cart.domain.Action;
import io.boxoffice.cart.domain.Answer;
import io.boxoffice.cart.domain.Backoff;
import io.boxoffice.cart.domain.CheckoutEvent;
import io.boxoffice.cart.domain.CheckoutSaga;
import io.boxoffice.cart.domain.Checkouts;
import io.boxoffice.cart.domain.Decision;
import io.boxoffice.cart.domain.Failure;
import io.boxoffice.cart.domain.HoldTimer;
import io.boxoffice.cart.domain.InventoryAnswer;
import io.boxoffice.cart.domain.Order;
import io.boxoffice.cart.domain.PaymentAnswer;
import io.boxoffice.cart.domain.PricedSeat;
import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.Refusal;
import io.boxoffice.common.Supervision;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import io.boxoffice.payment.PaymentGateway;
import io.boxoffice.tickets.TicketWallet;
import io.boxoffice.tickets.domain.Ticket;
import io.opentelemetry.api.trace.Span;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EffectBuilder;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * One fan's checkouts at one event. Holds do not pass through here: the edge sends them
 * straight to the event's inventory, which alone decides them and knows each account's holds,
 * so a fan's first hold costs no cart start-up. Checkout is a persisted saga whose rules are
 * {@link CheckoutSaga}'s: the cart hands it each command and answer, stores the events it
 * decides, carries out its actions (payment calls, inventory and wallet asks, retries) and
 * replies. A retried checkout with the same Idempotency-Key returns the same order; after a
 * crash the cart resumes the step it had reached and finishes or voids what it started.
 *
 * <p>The cart also keeps the fan's hold timer ({@link HoldTimer}): the edge tells it of each hold
 * after answering the fan, and when a deadline passes the cart asks the inventory to release
 * exactly those seats if they are still this fan's and expired. Nothing of it is persisted: on
 * start the cart asks the inventory for the fan's holds. Lazy expiry at the inventory stays the
 * guarantee; the timer makes expiry prompt and lets the cart say when the fan's hold ran out.
 *
 * <p>Why one file of this size: its protocol (commands, replies, events, state) is nested here
 * because the names {@code Cart$...} are the manifests of every stored cart event and snapshot
 * ({@code CartJournalFormatTest}); the checkout's rules are already out, in {@link CheckoutSaga}.
 */
public final class Cart extends EventSourcedBehaviorWithEnforcedReplies<Cart.Command, Cart.Event, Cart.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "Cart");

  public static String entityId(String eventId, String accountId) {
    return eventId + ":" + accountId;
  }

  // ---- protocol --------------------------------------------------------------------------

  public sealed interface Command extends CborSerializable {}

  /**
   * Buys everything held, or with {@code expectedSeats} (not null) only if exactly those seats are
   * held; replies {@link OrderView} or {@link Rejected} ({@code hold_expired}, {@code payment_declined},
   * {@code cart_changed}, ...). {@code traceparent}: the request's, when it is traced (else null).
   */
  public record Checkout(String idempotencyKey, String paymentToken, List<String> expectedSeats, String traceparent,
                         ActorRef<Reply> replyTo) implements Command {
    /** Any seats held, not traced. */
    public Checkout(String idempotencyKey, String paymentToken, ActorRef<Reply> replyTo) {
      this(idempotencyKey, paymentToken, null, null, replyTo);
    }
  }

  /** Replies {@link OrderView} or {@link Rejected} {@code not_found}. */
  public record GetOrder(String orderId, ActorRef<Reply> replyTo) implements Command {}

  /** Internal: the inventory's answer to the look-up of holds for a checkout. */
  record HoldsForCheckout(String key, String paymentToken, List<String> expectedSeats, InventoryAnswer holds,
                          ActorRef<Reply> replyTo) implements Command {}

  /** Internal: the processor's answer to an order's authorization. */
  record AuthorizeAnswered(String orderId, PaymentAnswer answer) implements Command {}

  /**
   * From the processor's webhook: the order's authorization is set aside under
   * {@code authorizationId}, maybe after the checkout stopped waiting for it (an answer lost to a
   * timeout). A checkout still waiting carries on; one that ended without it voids it. No reply.
   */
  public record PaymentAuthorizedLate(String orderId, String authorizationId) implements Command {}

  /** Internal: the inventory's answer to an order's confirm. */
  record ConfirmAnswered(String orderId, InventoryAnswer answer) implements Command {}

  /** Internal: an order's capture went through, or has no answer. */
  record CaptureDone(String orderId, boolean ok) implements Command {}

  /** Internal: an order's void went through, or has no answer. */
  record VoidDone(String orderId, boolean ok) implements Command {}

  /** Internal: the wallet filed an order's tickets, or did not answer. */
  record WalletFiled(String orderId, boolean ok) implements Command {}

  /**
   * From the edge, after it answered the fan: the fan holds these seats until {@code until}
   * (epoch ms). {@code openSale}: the fan came in without a queue pass (the event's sale is
   * open to all), so no place in line is there to be told that its fan came to shop or bought,
   * and the cart starts no place keeper for nothing. No reply.
   */
  public record HoldPlaced(List<String> seatIds, long until, boolean openSale) implements Command {
    /** A hold made with a queue pass. */
    public HoldPlaced(List<String> seatIds, long until) {
      this(seatIds, until, false);
    }
  }

  /** From the edge, after a release: the fan gave these seats back itself. No reply. */
  public record HoldGivenUp(List<String> seatIds) implements Command {}

  /** Replies {@link Expiry}. */
  public record GetExpiry(ActorRef<Reply> replyTo) implements Command {}

  /** Internal: the hold timer fired. */
  record ExpiryDue() implements Command {}

  /**
   * Internal: the inventory's answer to the release of the due seats ({@code answered} false:
   * none), with the fan's live holds after it.
   */
  record ExpiryAnswered(List<String> dueSeats, long dueDeadline, boolean answered, List<String> released,
                        List<String> gone, List<String> live, long liveUntil) implements Command {}

  /** Internal: the fan's live holds as the inventory listed them when the cart started. */
  record LiveHolds(List<String> seats, long until) implements Command {}

  /** Carry every unfinished checkout one step on (a retry, or a wake-up by {@link CheckoutRecovery}). */
  public record Resume() implements Command {}

  public sealed interface Reply extends CborSerializable {}

  /** An order as the fan sees it: {@code status} paid or pending. */
  public record OrderView(String orderId, String eventId, String status, long amountCents, List<Ticket> tickets)
      implements Reply {}

  /** When the fan's last hold ran out with nothing held since (epoch ms), 0 when that is not so. */
  public record Expiry(long expiredAt) implements Reply {}

  /** A refusal with the contract's error code; {@code seatIds} names seats where it helps. */
  public record Rejected(Refusal code, String message, List<String> seatIds) implements Reply {}

  // ---- events and state: stored under these class and field names (see CartJournalFormatTest) -

  public sealed interface Event extends CborSerializable {}

  public record CheckoutStarted(String key, String orderId, List<SeatPrice> seats, long amountCents,
                                String paymentToken, long at) implements Event {}

  public record PaymentAuthorized(String orderId, String authorizationId) implements Event {}

  public record PaymentDeclined(String orderId, String reason) implements Event {}

  public record SaleRecorded(String orderId, List<Ticket> tickets) implements Event {}

  public record PaymentCaptured(String orderId) implements Event {}

  /** The sale cannot go ahead ({@code failure}: hold_expired or payment_unavailable); the authorization must be voided. */
  public record CheckoutFailed(String orderId, String failure) implements Event {}

  public record PaymentVoided(String orderId) implements Event {}

  public record OrderFiled(String orderId) implements Event {}

  /** The cart's checkouts, oldest first, as snapshots store them. */
  public record State(List<Order> orders) implements CborSerializable {
    Checkouts checkouts() {
      return new Checkouts(orders);
    }
  }

  // ---- wiring ----------------------------------------------------------------------------

  public static void init(ActorSystem<?> system, CartSettings settings) {
    init(system, settings, null);
  }

  /**
   * As {@link #init(ActorSystem, CartSettings)}, and a cart that no message has reached for
   * {@code passivateIdleAfter} stops (it reads itself back from its journal on its next message),
   * besides the least recently used beyond the configured bound; null: the bound alone. Its own
   * timers (holds, retries) do not keep it: the idle time must outlast a hold (boxoffice.conf).
   */
  public static void init(ActorSystem<?> system, CartSettings settings, Duration passivateIdleAfter) {
    Entity<Command, ShardingEnvelope<Command>> entity = Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), settings))
        .withRole("inventory")
        .withAllocationStrategy(io.boxoffice.common.WarmPlacement.balanced(system));
    if (passivateIdleAfter != null) {
      ClusterShardingSettings sharding = ClusterShardingSettings.create(system);
      entity = entity.withSettings(sharding.withPassivationStrategy(
          sharding.passivationStrategySettings().withIdleEntityPassivation(passivateIdleAfter)));
    }
    ClusterSharding.get(system).init(entity);
  }

  public static Behavior<Command> create(String entityId, CartSettings settings) {
    int colon = entityId.indexOf(':');
    String eventId = entityId.substring(0, colon);
    String accountId = entityId.substring(colon + 1);
    return Behaviors.withMdc(Command.class, java.util.Map.of("eventId", eventId), Supervision.restarting(s -> Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
            new Cart(ctx, timers, PersistenceId.of(ENTITY_TYPE_KEY.name(), entityId), eventId, accountId, settings, s)))));
  }

  private final ActorContext<Command> context;
  private final TimerScheduler<Command> timers;
  private final String eventId;
  private final String accountId;
  private final CartSettings settings;
  private final CheckoutSaga saga;
  /** The fans waiting for each order's answer; not stored: after a crash they ask again. */
  private final Map<String, List<ActorRef<Reply>>> waiting = new HashMap<>();
  private Backoff backoff;
  private final HoldTimer holdTimer;
  /** Whether this incarnation told the fan's place that its fan came to shop. */
  private boolean toldShopping;
  /** Whether the fan's last hold heard by this incarnation came without a queue pass (an open sale). */
  private boolean openSale;
  /** A release of due seats is asked and not answered yet. */
  private boolean checkingExpiry;
  private int expiryUnanswered;
  /** Spans of checkouts asked by traced requests (none while tracing is off). */
  private final CheckoutTraces traces;

  private Cart(ActorContext<Command> context, TimerScheduler<Command> timers, PersistenceId id,
               String eventId, String accountId, CartSettings settings, Supervision supervision) {
    super(id, supervision.backoff());
    this.context = context;
    this.timers = timers;
    this.eventId = eventId;
    this.accountId = accountId;
    this.settings = settings;
    this.holdTimer = new HoldTimer(settings.holdReleaseGrace().toMillis());
    this.saga = new CheckoutSaga(eventId, accountId, settings.barcodes()::issue);
    this.traces = new CheckoutTraces(settings.tracing());
    this.backoff = Backoff.between(settings.retryMin(), settings.retryMax());
  }

  @Override
  public State emptyState() {
    return new State(List.of());
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return settings.snapshots().criteria();
  }

  @Override
  public java.util.Set<String> tagsFor(Event event) {
    return java.util.Set.of(CheckoutRecovery.tagFor(entityId(eventId, accountId)));
  }

  @Override
  public SignalHandler<State> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(RecoveryCompleted.instance(), state -> {
          carryOut(saga.resume(state.checkouts()).actions(), null);
          lookUpLiveHolds();
        })
        .onSignal(org.apache.pekko.actor.typed.PostStop.instance(), state -> traces.stopped())
        .build();
  }

  // ---- commands: ask the saga, store what it decided, carry out its actions, reply ----------

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(GetOrder.class, (state, g) -> Effect().reply(g.replyTo(), reply(saga.order(state.checkouts(), g.orderId()))))
        .onCommand(Checkout.class, (state, c) -> {
          traces.asked(c.idempotencyKey(), c.traceparent());
          Decision decision = saga.checkout(state.checkouts(), c.idempotencyKey(), c.paymentToken(), c.expectedSeats());
          traces.decided(c.idempotencyKey(), decision);
          return follow(decision, c.replyTo());
        })
        .onCommand(HoldsForCheckout.class, (state, h) -> {
          Decision decision = saga.holdsFound(state.checkouts(), h.key(), h.paymentToken(), h.expectedSeats(), h.holds(),
              settings.clock().millis());
          traces.decided(h.key(), decision);
          return follow(decision, h.replyTo());
        })
        .onCommand(AuthorizeAnswered.class, (state, a) -> follow(saga.authorizeAnswered(state.checkouts(), a.orderId(), a.answer()), null))
        .onCommand(PaymentAuthorizedLate.class, (state, l) ->
            follow(saga.lateAuthorization(state.checkouts(), l.orderId(), l.authorizationId()), null))
        .onCommand(ConfirmAnswered.class, (state, c) -> follow(saga.confirmAnswered(state.checkouts(), c.orderId(), c.answer()), null))
        .onCommand(CaptureDone.class, (state, c) -> follow(saga.captureDone(state.checkouts(), c.orderId(), c.ok()), null))
        .onCommand(VoidDone.class, (state, v) -> follow(saga.voidDone(state.checkouts(), v.orderId(), v.ok()), null))
        .onCommand(WalletFiled.class, (state, w) -> follow(saga.walletFiled(state.checkouts(), w.orderId(), w.ok()), null))
        .onCommand(Resume.class, (state, r) -> follow(saga.resume(state.checkouts()), null))
        .onCommand(HoldPlaced.class, (state, h) -> {
          openSale = h.openSale();
          if (!toldShopping && !openSale) {
            // Once per incarnation: the place keeper and the room ignore a repeat.
            toldShopping = true;
            settings.startedShopping().accept(eventId, accountId);
          }
          holdTimer.held(h.seatIds(), h.until());
          armHoldTimer(Duration.ZERO);
          return Effect().noReply();
        })
        .onCommand(HoldGivenUp.class, (state, g) -> {
          holdTimer.givenUp(g.seatIds());
          armHoldTimer(Duration.ZERO);
          return Effect().noReply();
        })
        .onCommand(LiveHolds.class, (state, l) -> {
          holdTimer.live(l.seats(), l.until());
          armHoldTimer(Duration.ZERO);
          return Effect().noReply();
        })
        .onCommand(GetExpiry.class, (state, g) -> Effect().reply(g.replyTo(), new Expiry(holdTimer.expiredAt())))
        .onCommand(ExpiryDue.class, (state, d) -> {
          releaseDueHolds();
          return Effect().noReply();
        })
        .onCommand(ExpiryAnswered.class, (state, a) -> {
          onExpiryAnswered(a);
          return Effect().noReply();
        })
        .build();
  }

  // ---- the hold timer: in memory, rules in HoldTimer ---------------------------------------

  private static final String HOLD_TIMER = "hold-expiry";
  /** Unanswered releases in a row after which the cart stops watching (lazy expiry still frees the seats). */
  private static final int MAX_EXPIRY_UNANSWERED = 3;

  /** Wakes at the earliest deadline known, not before {@code floor}, and after the recheck interval at the latest. */
  private void armHoldTimer(Duration floor) {
    if (checkingExpiry) return;
    OptionalLong next = holdTimer.next();
    if (next.isEmpty()) {
      timers.cancel(HOLD_TIMER);
      return;
    }
    long wait = Math.max(floor.toMillis(), next.getAsLong() - settings.clock().millis());
    wait = Math.max(0, Math.min(wait, settings.holdRecheck().toMillis()));
    timers.startSingleTimer(HOLD_TIMER, new ExpiryDue(), Duration.ofMillis(wait));
  }

  private void releaseDueHolds() {
    if (checkingExpiry) return;
    Optional<HoldTimer.Due> due = holdTimer.due(settings.clock().millis());
    if (due.isEmpty()) {
      armHoldTimer(Duration.ZERO);
      return;
    }
    checkingExpiry = true;
    HoldTimer.Due d = due.get();
    context.ask(EventInventory.Reply.class, settings.inventories().apply(eventId), settings.askTimeout(),
        ref -> new EventInventory.ReleaseExpired(accountId, d.seats(), d.deadline(), ref),
        (reply, error) -> reply instanceof EventInventory.ExpiryChecked c
            ? new ExpiryAnswered(d.seats(), d.deadline(), true, c.released(), c.gone(), seatIdsOf(c.holds()),
                c.holds().holdExpiresAt())
            : new ExpiryAnswered(d.seats(), d.deadline(), false, List.of(), List.of(), List.of(), 0));
  }

  private void onExpiryAnswered(ExpiryAnswered a) {
    checkingExpiry = false;
    if (!a.answered()) {
      if (++expiryUnanswered >= MAX_EXPIRY_UNANSWERED) {
        holdTimer.forget();
        expiryUnanswered = 0;
      }
      armHoldTimer(settings.retryMax());
      return;
    }
    expiryUnanswered = 0;
    // Seats the timer found run out: given back by its ask, or freed by the inventory's lazy
    // expiry at their deadline before the ask arrived ("gone": no longer this fan's, not bought).
    int ranOut = a.released().size() + a.gone().size();
    if (ranOut > 0) settings.metrics().seatsReleasedByTimer(eventId, ranOut);
    holdTimer.checked(new HoldTimer.Due(a.dueSeats(), a.dueDeadline()), a.released(), a.gone(), a.live(), a.liveUntil());
    // Not at once again: seats still live past their deadline mean the event's clock is behind ours.
    armHoldTimer(settings.retryMin());
  }

  private void lookUpLiveHolds() {
    context.ask(EventInventory.Reply.class, settings.inventories().apply(eventId), settings.askTimeout(),
        ref -> new EventInventory.GetHolds(accountId, ref),
        (reply, error) -> reply instanceof EventInventory.Holds h
            ? new LiveHolds(seatIdsOf(h), h.holdExpiresAt())
            : new LiveHolds(List.of(), 0));
  }

  private static List<String> seatIdsOf(EventInventory.Holds holds) {
    return holds.seats().stream().map(SeatPrice::seatId).toList();
  }

  /** Stores the decision's events, then carries out its actions and replies to {@code asker} if an answer is due. */
  private ReplyEffect<Event, State> follow(Decision decision, ActorRef<Reply> asker) {
    EffectBuilder<Event, State> effect = decision.events().isEmpty()
        ? Effect().none()
        : Effect().persist(decision.events().stream().map(e -> e.accept(TO_JOURNAL)).toList());
    EffectBuilder<Event, State> then = effect.thenRun(state -> carryOut(decision.actions(), asker));
    return decision.reply().isPresent()
        ? then.thenReply(asker, state -> reply(decision.reply().get()))
        : then.thenNoReply();
  }

  private void carryOut(List<Action> actions, ActorRef<Reply> asker) {
    Hands hands = new Hands(asker);
    actions.forEach(a -> a.accept(hands));
  }

  /** Carries out the saga's actions; {@code asker} is the fan whose command it decided, if any. */
  private final class Hands implements Action.Visitor {
    private final ActorRef<Reply> asker;

    Hands(ActorRef<Reply> asker) {
      this.asker = asker;
    }

    @Override
    public void lookUpHolds(Action.LookUpHolds a) {
      context.ask(EventInventory.Reply.class, settings.inventories().apply(eventId), settings.askTimeout(),
          ref -> new EventInventory.GetHolds(accountId, ref),
          (reply, error) -> new HoldsForCheckout(a.key(), a.paymentToken(), a.expectedSeats(), inventoryAnswer(reply), asker));
    }

    @Override
    public void waitForAnswer(Action.WaitForAnswer a) {
      waiting.computeIfAbsent(a.orderId(), k -> new ArrayList<>()).add(asker);
    }

    @Override
    public void answerWaiting(Action.AnswerWaiting a) {
      List<ActorRef<Reply>> refs = waiting.remove(a.orderId());
      if (refs == null) return;
      traces.orderAnswered(a.orderId(), a.answer());
      Reply reply = reply(a.answer());
      refs.forEach(r -> r.tell(reply));
    }

    @Override
    public void authorize(Action.Authorize a) {
      Span call = traces.call(a.orderId(), "payment authorize");
      context.pipeToSelf(settings.payments().authorize(a.idempotencyKey(), a.paymentToken(), a.amountCents()),
          (result, error) -> {
            CheckoutTraces.callDone(call, error == null);
            return new AuthorizeAnswered(a.orderId(), paymentAnswer(result));
          });
    }

    @Override
    public void confirm(Action.Confirm a) {
      context.ask(EventInventory.Reply.class, settings.inventories().apply(eventId), settings.askTimeout(),
          ref -> new EventInventory.Confirm(accountId, a.orderId(), a.seatIds(), traces.traceparent(a.orderId()), ref),
          (reply, error) -> new ConfirmAnswered(a.orderId(), inventoryAnswer(reply)));
    }

    @Override
    public void capture(Action.Capture a) {
      Span call = traces.call(a.orderId(), "payment capture");
      context.pipeToSelf(settings.payments().capture(a.idempotencyKey(), a.authorizationId(), a.amountCents()),
          (ok, error) -> {
            CheckoutTraces.callDone(call, error == null);
            return new CaptureDone(a.orderId(), error == null);
          });
    }

    @Override
    public void voidAuthorization(Action.VoidAuthorization a) {
      Span call = traces.call(a.orderId(), "payment void");
      context.pipeToSelf(settings.payments().voidAuthorization(a.idempotencyKey(), a.authorizationId(), a.authorizeKey()),
          (ok, error) -> {
            CheckoutTraces.callDone(call, error == null);
            return new VoidDone(a.orderId(), error == null);
          });
    }

    @Override
    public void fileTickets(Action.FileTickets a) {
      context.ask(TicketWallet.Filed.class, settings.wallets().apply(accountId), settings.askTimeout(),
          ref -> new TicketWallet.FileOrder(a.orderId(), a.tickets(), ref),
          (filed, error) -> new WalletFiled(a.orderId(), error == null));
    }

    @Override
    public void checkedOut(Action.CheckedOut a) {
      // In an open sale no place in line waits for the word (and none is started for it); a
      // cart that has heard of no hold since it started tells, as the place may be there.
      if (!openSale) settings.checkedOut().accept(eventId, accountId);
    }

    @Override
    public void retryLater(Action.RetryLater a) {
      timers.startSingleTimer("resume", new Resume(), backoff.delay());
      backoff = backoff.next();
    }

    @Override
    public void resetBackoff(Action.ResetBackoff a) {
      backoff = backoff.reset();
    }
  }

  // ---- translations between the saga's terms and the cart's neighbours' -------------------

  private static InventoryAnswer inventoryAnswer(EventInventory.Reply reply) {
    if (reply == null) return new InventoryAnswer.NoAnswer();
    if (reply instanceof EventInventory.Holds h) return new InventoryAnswer.Holds(priced(h.seats()));
    if (reply instanceof EventInventory.Confirmed c) return new InventoryAnswer.Confirmed(priced(c.seats()));
    if (reply instanceof EventInventory.Rejected r) return new InventoryAnswer.Refused(r.code(), r.message(), r.seatIds());
    return new InventoryAnswer.Unexpected();
  }

  private static PaymentAnswer paymentAnswer(PaymentGateway.AuthResult result) {
    if (result instanceof PaymentGateway.Authorized a) return new PaymentAnswer.Authorized(a.authorizationId());
    if (result instanceof PaymentGateway.Declined d) return new PaymentAnswer.Declined(d.reason());
    return new PaymentAnswer.NoAnswer();
  }

  private static Reply reply(Answer answer) {
    if (answer instanceof Answer.Placed p) {
      return new OrderView(p.orderId(), p.eventId(), p.status().code(), p.amountCents(), p.tickets());
    }
    Answer.Refused r = (Answer.Refused) answer;
    return new Rejected(r.code(), r.message(), r.seatIds());
  }

  private static List<PricedSeat> priced(List<SeatPrice> seats) {
    return seats.stream().map(s -> new PricedSeat(s.seatId(), s.priceCents())).toList();
  }

  // ---- the journal: the saga's events under the cart's stored names, and back -------------

  private static final CheckoutEvent.Visitor<Event> TO_JOURNAL = new CheckoutEvent.Visitor<>() {
    public Event started(CheckoutEvent.Started e) {
      List<SeatPrice> seats = e.seats().stream().map(s -> new SeatPrice(s.seatId(), s.priceCents())).toList();
      return new CheckoutStarted(e.key(), e.orderId(), seats, e.amountCents(), e.paymentToken(), e.at());
    }

    public Event authorized(CheckoutEvent.Authorized e) {
      return new PaymentAuthorized(e.orderId(), e.authorizationId());
    }

    public Event declined(CheckoutEvent.Declined e) {
      return new PaymentDeclined(e.orderId(), e.reason());
    }

    public Event sold(CheckoutEvent.Sold e) {
      return new SaleRecorded(e.orderId(), e.tickets());
    }

    public Event captured(CheckoutEvent.Captured e) {
      return new PaymentCaptured(e.orderId());
    }

    public Event failed(CheckoutEvent.Failed e) {
      return new CheckoutFailed(e.orderId(), e.failure().code());
    }

    public Event voided(CheckoutEvent.Voided e) {
      return new PaymentVoided(e.orderId());
    }

    public Event filed(CheckoutEvent.Filed e) {
      return new OrderFiled(e.orderId());
    }
  };

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(CheckoutStarted.class, (state, e) -> evolve(state, new CheckoutEvent.Started(e.key(), e.orderId(),
            priced(e.seats()), e.amountCents(), e.paymentToken(), e.at())))
        .onEvent(PaymentAuthorized.class, (state, e) -> evolve(state, new CheckoutEvent.Authorized(e.orderId(), e.authorizationId())))
        .onEvent(PaymentDeclined.class, (state, e) -> evolve(state, new CheckoutEvent.Declined(e.orderId(), e.reason())))
        .onEvent(SaleRecorded.class, (state, e) -> evolve(state, new CheckoutEvent.Sold(e.orderId(), e.tickets())))
        .onEvent(PaymentCaptured.class, (state, e) -> evolve(state, new CheckoutEvent.Captured(e.orderId())))
        .onEvent(CheckoutFailed.class, (state, e) -> evolve(state, new CheckoutEvent.Failed(e.orderId(), Failure.ofCode(e.failure()))))
        .onEvent(PaymentVoided.class, (state, e) -> evolve(state, new CheckoutEvent.Voided(e.orderId())))
        .onEvent(OrderFiled.class, (state, e) -> evolve(state, new CheckoutEvent.Filed(e.orderId())))
        .build();
  }

  private static State evolve(State state, CheckoutEvent event) {
    return new State(state.checkouts().apply(event).orders());
  }
}
