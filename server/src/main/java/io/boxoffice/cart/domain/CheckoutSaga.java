package io.boxoffice.cart.domain;

import io.boxoffice.cart.domain.Action.AnswerWaiting;
import io.boxoffice.cart.domain.Action.Authorize;
import io.boxoffice.cart.domain.Action.Capture;
import io.boxoffice.cart.domain.Action.CheckedOut;
import io.boxoffice.cart.domain.Action.Confirm;
import io.boxoffice.cart.domain.Action.FileTickets;
import io.boxoffice.cart.domain.Action.LookUpHolds;
import io.boxoffice.cart.domain.Action.ResetBackoff;
import io.boxoffice.cart.domain.Action.RetryLater;
import io.boxoffice.cart.domain.Action.VoidAuthorization;
import io.boxoffice.cart.domain.Action.WaitForAnswer;
import io.boxoffice.cart.domain.Answer.Refused;
import io.boxoffice.common.Refusal;
import io.boxoffice.tickets.domain.Ticket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The rules of one fan's checkouts at one event: authorize the payment, confirm the sale at the
 * inventory, then capture and file the tickets; a refused sale, or a processor that did not
 * answer, voids the authorization. Each input (a checkout, an answer from the inventory, the
 * processor or the wallet, a resume) is decided against the {@link Checkouts} into a
 * {@link Decision}: events for the cart to store, then {@link Action}s for it to carry out. It
 * knows nothing of actors, clocks or I/O: time comes in as an argument.
 *
 * <p>Every payment call carries an idempotency key derived from the order id, and the inventory
 * confirms idempotently by order id, so {@link #resume} may repeat any step that has no answer
 * stored yet: after a crash the cart finishes or voids what it started.
 */
public final class CheckoutSaga {

  /** Signs a ticket's barcode ({@code tickets.Barcode#issue}). */
  @FunctionalInterface
  public interface BarcodeSigner {
    String issue(String eventId, String seatId, String orderId);
  }

  /** Inventory refusals that mean "not now" rather than "no": the confirm is tried again. */
  static final Set<Refusal> INVENTORY_TRY_AGAIN = Set.of(Refusal.UNAVAILABLE, Refusal.BUSY);

  private final String eventId;
  private final String accountId;
  private final BarcodeSigner barcodes;

  public CheckoutSaga(String eventId, String accountId, BarcodeSigner barcodes) {
    this.eventId = eventId;
    this.accountId = accountId;
    this.barcodes = barcodes;
  }

  /** The answer for a look-up of an order by id. */
  public Answer order(Checkouts checkouts, String orderId) {
    Order o = checkouts.byId(orderId);
    return o == null ? Refused.of(Refusal.NOT_FOUND, "no such order") : answer(o);
  }

  /**
   * A fan asks to buy everything held, under an Idempotency-Key. A key seen before gets its
   * order's answer (at once, or when the running checkout ends); a new key while another
   * checkout runs is refused; otherwise the holds are looked up.
   */
  public Decision checkout(Checkouts checkouts, String key, String paymentToken) {
    return checkout(checkouts, key, paymentToken, null);
  }

  /**
   * As {@link #checkout(Checkouts, String, String)}, for a fan who pays only for {@code expectedSeats}
   * (the seats the page shows; null: whatever is held). A key seen before still gets its order's
   * answer whatever seats it names: the key, not the seats, says which attempt this is.
   */
  public Decision checkout(Checkouts checkouts, String key, String paymentToken, List<String> expectedSeats) {
    Order existing = checkouts.byKey(key);
    if (existing != null) {
      if (!existing.running()) return Decision.reply(answer(existing));
      // The fan asks again: carry the checkout on now rather than at the next backed-off retry.
      List<Action> actions = new ArrayList<>();
      actions.add(new WaitForAnswer(existing.orderId()));
      actions.addAll(resumeActions(checkouts));
      return Decision.act(actions);
    }
    if (checkouts.running() != null) {
      return Decision.reply(Refused.of(Refusal.CHECKOUT_IN_PROGRESS, "another checkout of this cart is under way"));
    }
    return Decision.act(List.of(new LookUpHolds(key, paymentToken, expectedSeats)));
  }

  /** The inventory answered the look-up of holds for a checkout asked for at {@code now} (epoch ms). */
  public Decision holdsFound(Checkouts checkouts, String key, String paymentToken, InventoryAnswer holds, long now) {
    return holdsFound(checkouts, key, paymentToken, null, holds, now);
  }

  /**
   * As {@link #holdsFound(Checkouts, String, String, InventoryAnswer, long)}; when the seats held
   * are not exactly {@code expectedSeats} (not null) nothing starts and the fan is told
   * {@code cart_changed} with the seats that are held, so that a stale page never pays for
   * seats it does not show.
   */
  public Decision holdsFound(Checkouts checkouts, String key, String paymentToken, List<String> expectedSeats,
                             InventoryAnswer holds, long now) {
    if (checkouts.byKey(key) != null || checkouts.running() != null) {
      // Two checkouts raced through the look-up of holds: the first one won.
      return checkout(checkouts, key, paymentToken, expectedSeats);
    }
    if (holds instanceof InventoryAnswer.Holds h) {
      if (h.seats().isEmpty()) {
        return Decision.reply(Refused.of(Refusal.HOLD_EXPIRED, "nothing is held in this cart; holds end at their deadline"));
      }
      List<String> held = h.seats().stream().map(PricedSeat::seatId).toList();
      if (expectedSeats != null && !Set.copyOf(expectedSeats).equals(Set.copyOf(held))) {
        return Decision.reply(new Refused(Refusal.CART_CHANGED,
            "the seats held are not the seats expected (the cart changed elsewhere); nothing was charged", held));
      }
      String orderId = eventId + "." + accountId + "." + (checkouts.orders().size() + 1);
      long amount = h.seats().stream().mapToLong(PricedSeat::priceCents).sum();
      CheckoutEvent started = new CheckoutEvent.Started(key, orderId, h.seats(), amount, paymentToken, now);
      Order order = checkouts.apply(started).byId(orderId);
      return Decision.store(started, List.of(new WaitForAnswer(orderId), authorize(order)));
    }
    if (holds instanceof InventoryAnswer.Refused r) return Decision.reply(new Refused(r.code(), r.message(), r.seatIds()));
    if (holds instanceof InventoryAnswer.NoAnswer) {
      return Decision.reply(Refused.of(Refusal.UNAVAILABLE, "the event did not answer in time"));
    }
    return Decision.reply(Refused.of(Refusal.UNAVAILABLE, "unexpected answer from the event"));
  }

  /** The processor answered the order's authorization; only a checkout still waiting for it changes. */
  public Decision authorizeAnswered(Checkouts checkouts, String orderId, PaymentAnswer answer) {
    Order o = checkouts.byId(orderId);
    if (o == null || o.step() != Step.STARTED) return Decision.NOTHING;
    if (answer instanceof PaymentAnswer.Authorized a) {
      CheckoutEvent authorized = new CheckoutEvent.Authorized(orderId, a.authorizationId());
      return Decision.store(authorized, List.of(confirm(checkouts.apply(authorized).byId(orderId))));
    }
    if (answer instanceof PaymentAnswer.Declined d && d.reason() != null) {
      CheckoutEvent declined = new CheckoutEvent.Declined(orderId, d.reason());
      return Decision.store(declined, List.of(new AnswerWaiting(orderId, answer(checkouts.apply(declined).byId(orderId)))));
    }
    // The processor did not answer: the authorization may or may not exist. Void it by its key
    // and tell the fan to try again; the checkout path never retries on its own.
    return fail(checkouts, orderId, Failure.PAYMENT_UNAVAILABLE);
  }

  /**
   * The processor reports, on its own (a webhook), that the order's authorization is set aside.
   * A checkout still waiting for its authorize call takes it as the answer; one that ended
   * without it (declined, or voided by key while the authorization was not yet visible) voids
   * it by its id, so no money stays set aside for an order that will never be captured. Any
   * other order already knows it: nothing changes.
   */
  public Decision lateAuthorization(Checkouts checkouts, String orderId, String authorizationId) {
    Order o = checkouts.byId(orderId);
    if (o == null || authorizationId == null) return Decision.NOTHING;
    return switch (o.step()) {
      case STARTED -> authorizeAnswered(checkouts, orderId, new PaymentAnswer.Authorized(authorizationId));
      case DECLINED, VOIDING, VOIDED -> authorizationId.equals(o.authorizationId()) && o.step() != Step.DECLINED
          ? Decision.NOTHING
          : Decision.act(List.of(new VoidAuthorization(orderId, orderId + ":void:" + authorizationId, authorizationId,
              authorizeKey(orderId))));
      default -> Decision.NOTHING;
    };
  }

  /** The order id whose authorization key this is ({@link #authorizeKey}), or null for a key of no order. */
  public static String orderOfAuthorizeKey(String key) {
    String suffix = ":authorize";
    return key != null && key.endsWith(suffix) ? key.substring(0, key.length() - suffix.length()) : null;
  }

  /** The inventory answered the confirm of an authorized order. */
  public Decision confirmAnswered(Checkouts checkouts, String orderId, InventoryAnswer answer) {
    Order o = checkouts.byId(orderId);
    if (o == null || o.step() != Step.AUTHORIZED) return Decision.NOTHING;
    if (answer instanceof InventoryAnswer.Confirmed confirmed) {
      List<Ticket> tickets = confirmed.seats().stream()
          .map(seat -> new Ticket(orderId + "." + seat.seatId(), eventId, seat.seatId(), orderId,
              barcodes.issue(eventId, seat.seatId(), orderId)))
          .toList();
      CheckoutEvent sold = new CheckoutEvent.Sold(orderId, tickets);
      Order after = checkouts.apply(sold).byId(orderId);
      // Bought: the fan's place frees its active-shopper slot for the next fan in line.
      return Decision.store(sold, List.of(new AnswerWaiting(orderId, answer(after)), capture(after), fileTickets(after),
          new CheckedOut()));
    }
    if (answer instanceof InventoryAnswer.Refused r && !INVENTORY_TRY_AGAIN.contains(r.code())) {
      return fail(checkouts, orderId, Failure.HOLD_EXPIRED);
    }
    // No answer: the sale may have been recorded. Confirming again is idempotent by order id.
    return Decision.act(List.of(new RetryLater()));
  }

  /** The capture of the order went through ({@code ok}) or has no answer. */
  public Decision captureDone(Checkouts checkouts, String orderId, boolean ok) {
    return paymentStepDone(checkouts, orderId, ok, Step.SOLD, new CheckoutEvent.Captured(orderId));
  }

  /** The void of the order's authorization went through ({@code ok}) or has no answer. */
  public Decision voidDone(Checkouts checkouts, String orderId, boolean ok) {
    return paymentStepDone(checkouts, orderId, ok, Step.VOIDING, new CheckoutEvent.Voided(orderId));
  }

  private Decision paymentStepDone(Checkouts checkouts, String orderId, boolean ok, Step awaiting, CheckoutEvent done) {
    Order o = checkouts.byId(orderId);
    if (o == null) return Decision.NOTHING;
    if (!ok) return Decision.act(List.of(new RetryLater()));
    if (o.step() != awaiting) return Decision.act(List.of(new ResetBackoff()));
    return Decision.store(done, List.of(new ResetBackoff()));
  }

  /** The wallet filed the order's tickets ({@code ok}), or did not answer. */
  public Decision walletFiled(Checkouts checkouts, String orderId, boolean ok) {
    if (!ok) return Decision.act(List.of(new RetryLater()));
    Order o = checkouts.byId(orderId);
    if (o == null || o.filed()) return Decision.NOTHING;
    return Decision.store(new CheckoutEvent.Filed(orderId), List.of());
  }

  /** Carry every unfinished checkout one step on: after recovery, or when a retry is due. */
  public Decision resume(Checkouts checkouts) {
    return Decision.act(resumeActions(checkouts));
  }

  private List<Action> resumeActions(Checkouts checkouts) {
    List<Action> actions = new ArrayList<>();
    for (Order o : checkouts.orders()) {
      switch (o.step()) {
        case STARTED -> actions.add(authorize(o));
        case AUTHORIZED -> actions.add(confirm(o));
        case SOLD -> {
          actions.add(capture(o));
          if (!o.filed()) actions.add(fileTickets(o));
        }
        case CAPTURED -> {
          if (!o.filed()) actions.add(fileTickets(o));
        }
        case VOIDING -> actions.add(voidAuthorization(o));
        default -> { }
      }
    }
    return actions;
  }

  private Decision fail(Checkouts checkouts, String orderId, Failure failure) {
    CheckoutEvent failed = new CheckoutEvent.Failed(orderId, failure);
    Order after = checkouts.apply(failed).byId(orderId);
    return Decision.store(failed, List.of(new AnswerWaiting(orderId, answer(after)), voidAuthorization(after)));
  }

  /** What the fan is told about the order as it stands. */
  public Answer answer(Order o) {
    return switch (o.step()) {
      case SOLD, CAPTURED -> new Answer.Placed(o.orderId(), eventId, Answer.Status.PAID, o.amountCents(), o.tickets());
      case DECLINED -> Refused.of(Refusal.PAYMENT_DECLINED, "the card was declined; the seats stay held until their deadline");
      case VOIDING, VOIDED -> o.failedWith(Failure.PAYMENT_UNAVAILABLE)
          ? Refused.of(Refusal.UNAVAILABLE, "the payment processor did not answer; nothing was charged, try again")
          : Refused.of(Refusal.HOLD_EXPIRED, "the hold expired before the sale; nothing was charged");
      case STARTED, AUTHORIZED -> new Answer.Placed(o.orderId(), eventId, Answer.Status.PENDING, o.amountCents(), List.of());
    };
  }

  // ---- the calls each step makes, with keys derived from the order id ----------------------

  static String authorizeKey(String orderId) {
    return orderId + ":authorize";
  }

  private static Authorize authorize(Order o) {
    return new Authorize(o.orderId(), authorizeKey(o.orderId()), o.paymentToken(), o.amountCents());
  }

  private static Confirm confirm(Order o) {
    return new Confirm(o.orderId(), o.seatIds());
  }

  private static Capture capture(Order o) {
    return new Capture(o.orderId(), o.orderId() + ":capture", o.authorizationId(), o.amountCents());
  }

  private static VoidAuthorization voidAuthorization(Order o) {
    return new VoidAuthorization(o.orderId(), o.orderId() + ":void", o.authorizationId(), authorizeKey(o.orderId()));
  }

  private static FileTickets fileTickets(Order o) {
    return new FileTickets(o.orderId(), o.tickets());
  }
}
