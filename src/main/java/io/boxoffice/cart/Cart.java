package io.boxoffice.cart;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.Supervision;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import io.boxoffice.payment.PaymentGateway;
import io.boxoffice.tickets.Ticket;
import io.boxoffice.tickets.TicketWallet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * One fan's checkouts at one event. Holds do not pass through here: the edge sends them
 * straight to the event's inventory, which alone decides them and knows each account's holds,
 * so a fan's first hold costs no cart start-up. Checkout is a persisted saga: authorize the payment, confirm the sale at the
 * inventory, capture; a refused sale voids the authorization. Every payment call carries an
 * idempotency key derived from the order id, so after a crash the cart resumes the step it had
 * reached and finishes or voids what it started. A retried checkout with the same
 * Idempotency-Key returns the same order.
 */
public final class Cart extends EventSourcedBehaviorWithEnforcedReplies<Cart.Command, Cart.Event, Cart.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "Cart");

  public static String entityId(String eventId, String accountId) {
    return eventId + ":" + accountId;
  }

  // ---- protocol --------------------------------------------------------------------------

  public sealed interface Command extends CborSerializable {}

  /** Buys everything held; replies {@link OrderView} or {@link Rejected} ({@code hold_expired}, {@code payment_declined}, ...). */
  public record Checkout(String idempotencyKey, String paymentToken, ActorRef<Reply> replyTo) implements Command {}

  /** Replies {@link OrderView} or {@link Rejected} {@code not_found}. */
  public record GetOrder(String orderId, ActorRef<Reply> replyTo) implements Command {}

  record HoldsForCheckout(String key, String paymentToken, EventInventory.Reply holds, ActorRef<Reply> replyTo)
      implements Command {}

  record Authorized(String orderId, String authorizationId) implements Command {}

  record AuthorizeFailed(String orderId, String declinedReason) implements Command {}

  record ConfirmAnswered(String orderId, EventInventory.Reply reply) implements Command {}

  record PaymentStepDone(String orderId, Step step, boolean ok) implements Command {}

  record WalletFiled(String orderId, boolean ok) implements Command {}

  /** Carry every unfinished checkout one step on (a retry, or a wake-up by {@link CheckoutRecovery}). */
  public record Resume() implements Command {}

  public sealed interface Reply extends CborSerializable {}

  public record OrderView(String orderId, String eventId, String status, long amountCents, List<Ticket> tickets)
      implements Reply {}

  /** A refusal with the contract's error code; {@code seatIds} names seats where it helps. */
  public record Rejected(String code, String message, List<String> seatIds) implements Reply {}

  // ---- events and state ------------------------------------------------------------------

  /** Where a checkout stands. */
  public enum Step {
    /** Authorization asked for. */
    STARTED,
    /** Money set aside; the sale is being confirmed. */
    AUTHORIZED,
    /** The sale is recorded and tickets issued; capture under way. */
    SOLD,
    /** Paid: final. */
    CAPTURED,
    /** The card was declined: final, nothing set aside. */
    DECLINED,
    /** The sale was refused (hold expired) or the processor failed; the void is under way. */
    VOIDING,
    /** Nothing charged: final. */
    VOIDED
  }

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

  /** One checkout attempt. */
  public record Order(String key, String orderId, List<SeatPrice> seats, long amountCents, String paymentToken,
                      Step step, String authorizationId, List<Ticket> tickets, String failure, boolean filed)
      implements CborSerializable {

    Order with(Step s) {
      return new Order(key, orderId, seats, amountCents, paymentToken, s, authorizationId, tickets, failure, filed);
    }
  }

  /** The cart's checkouts, oldest first. */
  public record State(List<Order> orders) implements CborSerializable {
    Order byKey(String key) {
      for (Order o : orders) if (o.key().equals(key) && !retryable(o)) return o;
      return null;
    }

    Order byId(String orderId) {
      for (Order o : orders) if (o.orderId().equals(orderId)) return o;
      return null;
    }

    /** The checkout under way (at most one runs at a time), or null. */
    Order running() {
      for (Order o : orders) if (o.step() == Step.STARTED || o.step() == Step.AUTHORIZED) return o;
      return null;
    }

    State replace(Order order) {
      List<Order> next = new ArrayList<>(orders.size());
      for (Order o : orders) next.add(o.orderId().equals(order.orderId()) ? order : o);
      return new State(next);
    }

    State add(Order order) {
      List<Order> next = new ArrayList<>(orders);
      next.add(order);
      return new State(next);
    }
  }

  /** A checkout that failed for our reasons (processor unavailable) may be retried with the same key. */
  static boolean retryable(Order o) {
    return (o.step() == Step.VOIDED || o.step() == Step.VOIDING) && "payment_unavailable".equals(o.failure());
  }

  // ---- wiring ----------------------------------------------------------------------------

  public static void init(ActorSystem<?> system, CartSettings settings) {
    ClusterSharding.get(system).init(
        Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), settings)).withRole("inventory"));
  }

  public static Behavior<Command> create(String entityId, CartSettings settings) {
    int colon = entityId.indexOf(':');
    String eventId = entityId.substring(0, colon);
    String accountId = entityId.substring(colon + 1);
    return Behaviors.withMdc(Command.class, java.util.Map.of("eventId", eventId), Supervision.restarting(Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
            new Cart(ctx, timers, PersistenceId.of(ENTITY_TYPE_KEY.name(), entityId), eventId, accountId, settings)))));
  }

  private final ActorContext<Command> context;
  private final TimerScheduler<Command> timers;
  private final String eventId;
  private final String accountId;
  private final CartSettings settings;
  private final Map<String, List<ActorRef<Reply>>> waiting = new HashMap<>();
  private Duration retryDelay;

  private Cart(ActorContext<Command> context, TimerScheduler<Command> timers, PersistenceId id,
               String eventId, String accountId, CartSettings settings) {
    super(id, Supervision.backoff());
    this.context = context;
    this.timers = timers;
    this.eventId = eventId;
    this.accountId = accountId;
    this.settings = settings;
    this.retryDelay = settings.retryMin();
  }

  @Override
  public State emptyState() {
    return new State(List.of());
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(50, 2);
  }

  @Override
  public java.util.Set<String> tagsFor(Event event) {
    return java.util.Set.of(CheckoutRecovery.tagFor(entityId(eventId, accountId)));
  }

  @Override
  public SignalHandler<State> signalHandler() {
    return newSignalHandlerBuilder().onSignal(RecoveryCompleted.instance(), this::resumeAll).build();
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return this::onCommand;
  }

  private ReplyEffect<Event, State> onCommand(State state, Command command) {
    if (command instanceof GetOrder g) {
      Order o = state.byId(g.orderId());
      return Effect().reply(g.replyTo(), o == null ? new Rejected("not_found", "no such order", List.of()) : outcome(o));
    }
    if (command instanceof Checkout c) return onCheckout(state, c);
    if (command instanceof HoldsForCheckout h) return onHoldsForCheckout(state, h);
    if (command instanceof Authorized a) return onAuthorized(state, a);
    if (command instanceof AuthorizeFailed f) return onAuthorizeFailed(state, f);
    if (command instanceof ConfirmAnswered c) return onConfirmAnswered(state, c);
    if (command instanceof PaymentStepDone p) return onPaymentStepDone(state, p);
    if (command instanceof WalletFiled w) {
      Order o = state.byId(w.orderId());
      if (!w.ok() || o == null || o.filed()) return retryLater(w.ok());
      return Effect().persist(new OrderFiled(w.orderId())).thenNoReply();
    }
    if (command instanceof Resume) {
      resumeAll(state);
      return Effect().noReply();
    }
    return Effect().unhandled().thenNoReply();
  }

  private static EventInventory.Rejected unavailable() {
    return new EventInventory.Rejected("unavailable", "the event did not answer in time", List.of());
  }

  private static Reply refusal(EventInventory.Reply reply) {
    if (reply instanceof EventInventory.Rejected r) return new Rejected(r.code(), r.message(), r.seatIds());
    return new Rejected("unavailable", "unexpected answer from the event", List.of());
  }

  // ---- checkout --------------------------------------------------------------------------

  private ReplyEffect<Event, State> onCheckout(State state, Checkout c) {
    Order existing = state.byKey(c.idempotencyKey());
    if (existing != null) {
      if (isAnswered(existing)) return Effect().reply(c.replyTo(), outcome(existing));
      waiting.computeIfAbsent(existing.orderId(), k -> new ArrayList<>()).add(c.replyTo());
      // The fan asks again: carry the checkout on now rather than at the next backed-off retry.
      resumeAll(state);
      return Effect().noReply();
    }
    if (state.running() != null) {
      return Effect().reply(c.replyTo(), new Rejected("checkout_in_progress", "another checkout of this cart is under way", List.of()));
    }
    context.ask(EventInventory.Reply.class, settings.inventories().apply(eventId), settings.askTimeout(),
        ref -> new EventInventory.GetHolds(accountId, ref),
        (reply, error) -> new HoldsForCheckout(c.idempotencyKey(), c.paymentToken(), reply != null ? reply : unavailable(), c.replyTo()));
    return Effect().noReply();
  }

  private ReplyEffect<Event, State> onHoldsForCheckout(State state, HoldsForCheckout h) {
    Order existing = state.byKey(h.key());
    if (existing != null || state.running() != null) {
      // Two checkouts raced through the look-up of holds: the first one won.
      return onCheckout(state, new Checkout(h.key(), h.paymentToken(), h.replyTo()));
    }
    if (!(h.holds() instanceof EventInventory.Holds holds)) return Effect().reply(h.replyTo(), refusal(h.holds()));
    if (holds.seats().isEmpty()) {
      return Effect().reply(h.replyTo(), new Rejected("hold_expired", "nothing is held in this cart; holds end at their deadline", List.of()));
    }
    long amount = holds.seats().stream().mapToLong(SeatPrice::priceCents).sum();
    String orderId = eventId + "." + accountId + "." + (state.orders().size() + 1);
    waiting.computeIfAbsent(orderId, k -> new ArrayList<>()).add(h.replyTo());
    CheckoutStarted started = new CheckoutStarted(h.key(), orderId, holds.seats(), amount, h.paymentToken(),
        settings.clock().millis());
    return Effect().persist(started).thenRun(s -> authorize(s.byId(orderId))).thenNoReply();
  }

  private void authorize(Order o) {
    context.pipeToSelf(settings.payments().authorize(o.orderId() + ":authorize", o.paymentToken(), o.amountCents()),
        (result, error) -> {
          if (result instanceof PaymentGateway.Authorized a) return new Authorized(o.orderId(), a.authorizationId());
          if (result instanceof PaymentGateway.Declined d) return new AuthorizeFailed(o.orderId(), d.reason());
          return new AuthorizeFailed(o.orderId(), null);
        });
  }

  private ReplyEffect<Event, State> onAuthorized(State state, Authorized a) {
    Order o = state.byId(a.orderId());
    if (o == null || o.step() != Step.STARTED) return Effect().noReply();
    return Effect().persist(new PaymentAuthorized(a.orderId(), a.authorizationId()))
        .thenRun(s -> confirm(s.byId(a.orderId())))
        .thenNoReply();
  }

  private ReplyEffect<Event, State> onAuthorizeFailed(State state, AuthorizeFailed f) {
    Order o = state.byId(f.orderId());
    if (o == null || o.step() != Step.STARTED) return Effect().noReply();
    if (f.declinedReason() != null) {
      return Effect().persist(new PaymentDeclined(f.orderId(), f.declinedReason()))
          .thenRun(s -> answer(s.byId(f.orderId())))
          .thenNoReply();
    }
    // The processor did not answer: the authorization may or may not exist. Void it by its key
    // and tell the fan to try again; the checkout path never retries on its own.
    return Effect().persist(new CheckoutFailed(f.orderId(), "payment_unavailable"))
        .thenRun(s -> {
          answer(s.byId(f.orderId()));
          voidAuthorization(s.byId(f.orderId()));
        })
        .thenNoReply();
  }

  private void confirm(Order o) {
    List<String> seatIds = o.seats().stream().map(SeatPrice::seatId).toList();
    context.ask(EventInventory.Reply.class, settings.inventories().apply(eventId), settings.askTimeout(),
        ref -> new EventInventory.Confirm(accountId, o.orderId(), seatIds, ref),
        (reply, error) -> new ConfirmAnswered(o.orderId(), reply != null ? reply : unavailable()));
  }

  private ReplyEffect<Event, State> onConfirmAnswered(State state, ConfirmAnswered c) {
    Order o = state.byId(c.orderId());
    if (o == null || o.step() != Step.AUTHORIZED) return Effect().noReply();
    if (c.reply() instanceof EventInventory.Confirmed confirmed) {
      List<Ticket> tickets = new ArrayList<>();
      for (SeatPrice seat : confirmed.seats()) {
        tickets.add(new Ticket(o.orderId() + "." + seat.seatId(), eventId, seat.seatId(), o.orderId(),
            settings.barcodes().issue(eventId, seat.seatId(), o.orderId())));
      }
      return Effect().persist(new SaleRecorded(o.orderId(), tickets))
          .thenRun(s -> {
            Order sold = s.byId(o.orderId());
            answer(sold);
            capture(sold);
            file(sold);
            // Bought: the fan's place frees its active-shopper slot for the next fan in line.
            settings.checkedOut().accept(eventId, accountId);
          })
          .thenNoReply();
    }
    if (c.reply() instanceof EventInventory.Rejected r && !r.code().equals("unavailable") && !r.code().equals("busy")) {
      return Effect().persist(new CheckoutFailed(o.orderId(), "hold_expired"))
          .thenRun(s -> {
            answer(s.byId(o.orderId()));
            voidAuthorization(s.byId(o.orderId()));
          })
          .thenNoReply();
    }
    // No answer: the sale may have been recorded. Confirming again is idempotent by order id.
    return retryLater(false);
  }

  private void capture(Order o) {
    context.pipeToSelf(settings.payments().capture(o.orderId() + ":capture", o.authorizationId(), o.amountCents()),
        (ok, error) -> new PaymentStepDone(o.orderId(), Step.CAPTURED, error == null));
  }

  private void voidAuthorization(Order o) {
    context.pipeToSelf(settings.payments().voidAuthorization(o.orderId() + ":void", o.authorizationId(), o.orderId() + ":authorize"),
        (ok, error) -> new PaymentStepDone(o.orderId(), Step.VOIDED, error == null));
  }

  private void file(Order o) {
    context.ask(TicketWallet.Filed.class, settings.wallets().apply(accountId), settings.askTimeout(),
        ref -> new TicketWallet.FileOrder(o.orderId(), o.tickets(), ref),
        (filed, error) -> new WalletFiled(o.orderId(), error == null));
  }

  private ReplyEffect<Event, State> onPaymentStepDone(State state, PaymentStepDone p) {
    Order o = state.byId(p.orderId());
    if (o == null) return Effect().noReply();
    if (!p.ok()) return retryLater(false);
    retryDelay = settings.retryMin();
    if (p.step() == Step.CAPTURED && o.step() == Step.SOLD) {
      return Effect().persist(new PaymentCaptured(o.orderId())).thenNoReply();
    }
    if (p.step() == Step.VOIDED && o.step() == Step.VOIDING) {
      return Effect().persist(new PaymentVoided(o.orderId())).thenNoReply();
    }
    return Effect().noReply();
  }

  /** Schedules one more pass over unfinished work, backing off while steps keep failing. */
  private ReplyEffect<Event, State> retryLater(boolean succeeded) {
    if (!succeeded) {
      timers.startSingleTimer("resume", new Resume(), retryDelay);
      retryDelay = retryDelay.multipliedBy(2).compareTo(settings.retryMax()) > 0 ? settings.retryMax() : retryDelay.multipliedBy(2);
    }
    return Effect().noReply();
  }

  /** Carries every unfinished checkout one step on: after recovery, or when a retry is due. */
  private void resumeAll(State state) {
    for (Order o : state.orders()) {
      switch (o.step()) {
        case STARTED -> authorize(o);
        case AUTHORIZED -> confirm(o);
        case SOLD -> {
          capture(o);
          if (!o.filed()) file(o);
        }
        case CAPTURED -> {
          if (!o.filed()) file(o);
        }
        case VOIDING -> voidAuthorization(o);
        default -> { }
      }
    }
  }

  private static boolean isAnswered(Order o) {
    return o.step() != Step.STARTED && o.step() != Step.AUTHORIZED;
  }

  private void answer(Order o) {
    List<ActorRef<Reply>> refs = waiting.remove(o.orderId());
    if (refs == null) return;
    Reply reply = outcome(o);
    refs.forEach(r -> r.tell(reply));
  }

  private Reply outcome(Order o) {
    return switch (o.step()) {
      case SOLD, CAPTURED -> new OrderView(o.orderId(), eventId, "paid", o.amountCents(), o.tickets());
      case DECLINED -> new Rejected("payment_declined", "the card was declined; the seats stay held until their deadline", List.of());
      case VOIDING, VOIDED -> "payment_unavailable".equals(o.failure())
          ? new Rejected("unavailable", "the payment processor did not answer; nothing was charged, try again", List.of())
          : new Rejected("hold_expired", "the hold expired before the sale; nothing was charged", List.of());
      default -> new OrderView(o.orderId(), eventId, "pending", o.amountCents(), List.of());
    };
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return (state, event) -> {
      if (event instanceof CheckoutStarted e) {
        return state.add(new Order(e.key(), e.orderId(), e.seats(), e.amountCents(), e.paymentToken(), Step.STARTED,
            null, List.of(), null, false));
      }
      if (event instanceof PaymentAuthorized e) {
        Order o = state.byId(e.orderId());
        return state.replace(new Order(o.key(), o.orderId(), o.seats(), o.amountCents(), o.paymentToken(), Step.AUTHORIZED,
            e.authorizationId(), o.tickets(), null, false));
      }
      if (event instanceof PaymentDeclined e) {
        Order o = state.byId(e.orderId());
        return state.replace(new Order(o.key(), o.orderId(), o.seats(), o.amountCents(), o.paymentToken(), Step.DECLINED,
            null, List.of(), "payment_declined", false));
      }
      if (event instanceof SaleRecorded e) {
        Order o = state.byId(e.orderId());
        return state.replace(new Order(o.key(), o.orderId(), o.seats(), o.amountCents(), o.paymentToken(), Step.SOLD,
            o.authorizationId(), e.tickets(), null, false));
      }
      if (event instanceof PaymentCaptured e) return state.replace(state.byId(e.orderId()).with(Step.CAPTURED));
      if (event instanceof CheckoutFailed e) {
        Order o = state.byId(e.orderId());
        return state.replace(new Order(o.key(), o.orderId(), o.seats(), o.amountCents(), o.paymentToken(), Step.VOIDING,
            o.authorizationId(), List.of(), e.failure(), false));
      }
      if (event instanceof PaymentVoided e) return state.replace(state.byId(e.orderId()).with(Step.VOIDED));
      OrderFiled e = (OrderFiled) event;
      Order o = state.byId(e.orderId());
      return state.replace(new Order(o.key(), o.orderId(), o.seats(), o.amountCents(), o.paymentToken(), o.step(),
          o.authorizationId(), o.tickets(), o.failure(), true));
    };
  }
}
