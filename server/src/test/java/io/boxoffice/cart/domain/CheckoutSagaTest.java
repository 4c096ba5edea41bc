package io.boxoffice.cart.domain;

import io.boxoffice.common.Refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.boxoffice.cart.domain.Answer.Placed;
import io.boxoffice.cart.domain.Answer.Refused;
import io.boxoffice.cart.domain.Answer.Status;
import io.boxoffice.cart.domain.CheckoutEvent.Authorized;
import io.boxoffice.cart.domain.CheckoutEvent.Captured;
import io.boxoffice.cart.domain.CheckoutEvent.Declined;
import io.boxoffice.cart.domain.CheckoutEvent.Failed;
import io.boxoffice.cart.domain.CheckoutEvent.Filed;
import io.boxoffice.cart.domain.CheckoutEvent.Sold;
import io.boxoffice.cart.domain.CheckoutEvent.Started;
import io.boxoffice.cart.domain.CheckoutEvent.Voided;
import io.boxoffice.tickets.domain.Ticket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The checkout saga's rules, input by input: given stored events, when an input arrives, then these events and actions. */
class CheckoutSagaTest {
  static final String EVENT = "ev-1";
  static final long NOW = 1_796_119_200_000L;
  static final String ID = "ev-1.fan.1";
  static final List<PricedSeat> SEATS = List.of(new PricedSeat("F1-A-1", 10_000), new PricedSeat("F1-A-2", 5_000));
  static final List<Ticket> TICKETS = List.of(
      new Ticket(ID + ".F1-A-1", EVENT, "F1-A-1", ID, "signed|ev-1|F1-A-1|" + ID),
      new Ticket(ID + ".F1-A-2", EVENT, "F1-A-2", ID, "signed|ev-1|F1-A-2|" + ID));

  final CheckoutSaga saga = new CheckoutSaga(EVENT, "fan", (eventId, seatId, orderId) ->
      "signed|" + eventId + "|" + seatId + "|" + orderId);

  // ---- given -------------------------------------------------------------------------------

  static Checkouts given(CheckoutEvent... events) {
    Checkouts checkouts = Checkouts.NONE;
    for (CheckoutEvent e : events) checkouts = checkouts.apply(e);
    return checkouts;
  }

  static Checkouts after(Checkouts checkouts, Decision decision) {
    for (CheckoutEvent e : decision.events()) checkouts = checkouts.apply(e);
    return checkouts;
  }

  static Started started(String key, String orderId) {
    return new Started(key, orderId, SEATS, 15_000, "tok_visa", NOW);
  }

  static final Checkouts STARTED = given(started("k", ID));
  static final Checkouts AUTHORIZED = given(started("k", ID), new Authorized(ID, "auth-1"));
  static final Checkouts SOLD = given(started("k", ID), new Authorized(ID, "auth-1"), new Sold(ID, TICKETS));
  static final Checkouts CAPTURED = given(started("k", ID), new Authorized(ID, "auth-1"), new Sold(ID, TICKETS),
      new Captured(ID));
  static final Checkouts DECLINED = given(started("k", ID), new Declined(ID, "card declined"));
  static final Checkouts EXPIRED = given(started("k", ID), new Authorized(ID, "auth-1"), new Failed(ID, Failure.HOLD_EXPIRED));
  static final Checkouts PROCESSOR_DOWN = given(started("k", ID), new Failed(ID, Failure.PAYMENT_UNAVAILABLE));

  static Decision act(Action... actions) {
    return new Decision(List.of(), List.of(actions), Optional.empty());
  }

  static Decision store(CheckoutEvent event, Action... then) {
    return new Decision(List.of(event), List.of(then), Optional.empty());
  }

  static Decision reply(Answer answer) {
    return new Decision(List.of(), List.of(), Optional.of(answer));
  }

  static Refused refused(Refusal refusal, String message) {
    return new Refused(refusal, message, List.of());
  }

  static final Refused DECLINED_ANSWER =
      refused(Refusal.PAYMENT_DECLINED, "the card was declined; the seats stay held until their deadline");
  static final Refused EXPIRED_ANSWER = refused(Refusal.HOLD_EXPIRED, "the hold expired before the sale; nothing was charged");
  static final Refused PROCESSOR_DOWN_ANSWER =
      refused(Refusal.UNAVAILABLE, "the payment processor did not answer; nothing was charged, try again");
  static final Refused IN_PROGRESS = refused(Refusal.CHECKOUT_IN_PROGRESS, "another checkout of this cart is under way");
  static final Placed PAID = new Placed(ID, EVENT, Status.PAID, 15_000, TICKETS);

  static Authorize authorizeFirst() {
    return new Authorize(ID, ID + ":authorize", "tok_visa", 15_000);
  }

  // ---- a checkout is asked for -------------------------------------------------------------

  @Test
  void aNewKeyLooksUpTheHoldsAndStoresNothing() {
    assertEquals(act(new LookUpHolds("k", "tok_visa")), saga.checkout(Checkouts.NONE, "k", "tok_visa"));
  }

  @Test
  void heldSeatsStartTheCheckoutAtTheGivenTimeAndAskForTheAuthorization() {
    Decision d = saga.holdsFound(Checkouts.NONE, "k", "tok_visa", new InventoryAnswer.Holds(SEATS), NOW);
    assertEquals(store(started("k", ID), new WaitForAnswer(ID), authorizeFirst()), d);
    assertEquals(Step.STARTED, after(Checkouts.NONE, d).byId(ID).step());
  }

  @Test
  void orderIdsCountTheCartsCheckouts() {
    Decision d = saga.holdsFound(DECLINED, "k2", "tok_visa", new InventoryAnswer.Holds(SEATS), NOW);
    assertEquals("ev-1.fan.2", d.events().get(0).orderId());
  }

  @Test
  void nothingHeldIsRefusedAsAnExpiredHold() {
    assertEquals(reply(refused(Refusal.HOLD_EXPIRED, "nothing is held in this cart; holds end at their deadline")),
        saga.holdsFound(Checkouts.NONE, "k", "tok_visa", new InventoryAnswer.Holds(List.of()), NOW));
  }

  @Test
  void expectedSeatsTravelWithTheLookUpOfHolds() {
    assertEquals(act(new LookUpHolds("k", "tok_visa", List.of("F1-A-1"))),
        saga.checkout(Checkouts.NONE, "k", "tok_visa", List.of("F1-A-1")));
  }

  @Test
  void heldSeatsThatAreNotTheExpectedOnesStartNothingAndNameTheSeatsHeld() {
    InventoryAnswer holds = new InventoryAnswer.Holds(SEATS);
    Refused changed = new Refused(Refusal.CART_CHANGED,
        "the seats held are not the seats expected (the cart changed elsewhere); nothing was charged", List.of("F1-A-1", "F1-A-2"));
    // A stale page shows one seat where two are held, or another seat, or one more than is held.
    for (List<String> shown : List.of(List.of("F1-A-1"), List.of("F1-A-1", "F1-A-9"), List.of("F1-A-1", "F1-A-2", "F1-A-3"))) {
      assertEquals(reply(changed), saga.holdsFound(Checkouts.NONE, "k", "tok_visa", shown, holds, NOW), shown.toString());
    }
  }

  @Test
  void heldSeatsThatAreTheExpectedOnesInAnyOrderStartTheCheckout() {
    Decision d = saga.holdsFound(Checkouts.NONE, "k", "tok_visa", List.of("F1-A-2", "F1-A-1"), new InventoryAnswer.Holds(SEATS), NOW);
    assertEquals(store(started("k", ID), new WaitForAnswer(ID), authorizeFirst()), d);
  }

  @Test
  void aKeyAlreadyAnsweredGetsItsAnswerWhateverSeatsItExpects() {
    assertEquals(reply(PAID), saga.checkout(SOLD, "k", "tok_visa", List.of("F1-A-9")));
    assertEquals(reply(PAID), saga.holdsFound(SOLD, "k", "tok_visa", List.of("F1-A-9"), new InventoryAnswer.Holds(List.of()), NOW));
  }

  @Test
  void anInventoryRefusalOfTheLookUpIsPassedOnWithItsOwnCode() {
    InventoryAnswer busy = new InventoryAnswer.Refused(Refusal.BUSY, "the event is busy, try again", List.of("F1-A-1"));
    assertEquals(reply(new Refused(Refusal.BUSY, "the event is busy, try again", List.of("F1-A-1"))),
        saga.holdsFound(Checkouts.NONE, "k", "tok_visa", busy, NOW));
  }

  @Test
  void anInventoryThatDoesNotAnswerTheLookUpIsUnavailable() {
    assertEquals(reply(refused(Refusal.UNAVAILABLE, "the event did not answer in time")),
        saga.holdsFound(Checkouts.NONE, "k", "tok_visa", new InventoryAnswer.NoAnswer(), NOW));
    assertEquals(reply(refused(Refusal.UNAVAILABLE, "unexpected answer from the event")),
        saga.holdsFound(Checkouts.NONE, "k", "tok_visa", new InventoryAnswer.Unexpected(), NOW));
  }

  @Test
  void theSameKeyWhileItsCheckoutRunsWaitsForTheAnswerAndCarriesTheCheckoutOnNow() {
    assertEquals(act(new WaitForAnswer(ID), authorizeFirst()), saga.checkout(STARTED, "k", "tok_visa"));
    assertEquals(act(new WaitForAnswer(ID), new Confirm(ID, List.of("F1-A-1", "F1-A-2"))),
        saga.checkout(AUTHORIZED, "k", "tok_visa"));
  }

  @Test
  void theSameKeyAfterItsCheckoutEndedGetsTheSameAnswerAndNothingElse() {
    assertEquals(reply(PAID), saga.checkout(SOLD, "k", "tok_visa"));
    assertEquals(reply(PAID), saga.checkout(CAPTURED, "k", "tok_visa"));
    assertEquals(reply(DECLINED_ANSWER), saga.checkout(DECLINED, "k", "tok_visa"));
    assertEquals(reply(EXPIRED_ANSWER), saga.checkout(EXPIRED, "k", "tok_visa"));
  }

  @Test
  void anotherKeyWhileACheckoutRunsIsRefusedAndAsksForNoMoney() {
    assertEquals(reply(IN_PROGRESS), saga.checkout(STARTED, "other", "tok_visa"));
    assertEquals(reply(IN_PROGRESS), saga.checkout(AUTHORIZED, "other", "tok_visa"));
  }

  @Test
  void anotherKeyAfterACheckoutEndedStartsAfresh() {
    for (Checkouts ended : List.of(SOLD, CAPTURED, DECLINED, EXPIRED, PROCESSOR_DOWN)) {
      assertEquals(act(new LookUpHolds("k2", "tok_visa")), saga.checkout(ended, "k2", "tok_visa"));
    }
  }

  @Test
  void holdsThatRacedWithAnotherCheckoutStartNoSecondOne() {
    InventoryAnswer holds = new InventoryAnswer.Holds(SEATS);
    assertEquals(reply(IN_PROGRESS), saga.holdsFound(STARTED, "other", "tok_visa", holds, NOW));
    assertEquals(act(new WaitForAnswer(ID), authorizeFirst()), saga.holdsFound(STARTED, "k", "tok_visa", holds, NOW));
    assertEquals(reply(PAID), saga.holdsFound(SOLD, "k", "tok_visa", holds, NOW));
  }

  // ---- the processor answers the authorization ---------------------------------------------

  @Test
  void anAuthorizationMovesOnToConfirmTheHeldSeats() {
    Decision d = saga.authorizeAnswered(STARTED, ID, new PaymentAnswer.Authorized("auth-1"));
    assertEquals(store(new Authorized(ID, "auth-1"), new Confirm(ID, List.of("F1-A-1", "F1-A-2"))), d);
    assertEquals("auth-1", after(STARTED, d).byId(ID).authorizationId());
  }

  @Test
  void aDeclineAnswersTheFanAndLeavesNothingToVoid() {
    Decision d = saga.authorizeAnswered(STARTED, ID, new PaymentAnswer.Declined("card declined"));
    assertEquals(store(new Declined(ID, "card declined"), new AnswerWaiting(ID, DECLINED_ANSWER)), d);
    Order declined = after(STARTED, d).byId(ID);
    assertEquals(Step.DECLINED, declined.step());
    assertEquals("payment_declined", declined.failure());
  }

  @Test
  void aProcessorThatDoesNotAnswerFailsTheCheckoutAndVoidsByTheAuthorizeKey() {
    Decision d = saga.authorizeAnswered(STARTED, ID, new PaymentAnswer.NoAnswer());
    assertEquals(store(new Failed(ID, Failure.PAYMENT_UNAVAILABLE), new AnswerWaiting(ID, PROCESSOR_DOWN_ANSWER),
        new VoidAuthorization(ID, ID + ":void", null, ID + ":authorize")), d);
    assertEquals(d, saga.authorizeAnswered(STARTED, ID, new PaymentAnswer.Declined(null)), "a decline without a reason is no answer");
  }

  @Test
  void theKeyOfACheckoutTheProcessorFailedMayBeUsedAgain() {
    Checkouts voided = PROCESSOR_DOWN.apply(new Voided(ID));
    for (Checkouts failed : List.of(PROCESSOR_DOWN, voided)) {
      assertNull(failed.byKey("k"));
      assertEquals(act(new LookUpHolds("k", "tok_visa")), saga.checkout(failed, "k", "tok_visa"));
    }
    Decision again = saga.holdsFound(voided, "k", "tok_visa", new InventoryAnswer.Holds(SEATS), NOW);
    assertEquals("ev-1.fan.2", again.events().get(0).orderId(), "the retry is a new order under the same key");
  }

  @Test
  void anAuthorizationAnswerForACheckoutNotWaitingForOneChangesNothing() {
    for (Checkouts state : List.of(AUTHORIZED, SOLD, DECLINED, PROCESSOR_DOWN)) {
      assertEquals(Decision.NOTHING, saga.authorizeAnswered(state, ID, new PaymentAnswer.Authorized("auth-2")));
      assertEquals(Decision.NOTHING, saga.authorizeAnswered(state, ID, new PaymentAnswer.NoAnswer()));
    }
    assertEquals(Decision.NOTHING, saga.authorizeAnswered(Checkouts.NONE, ID, new PaymentAnswer.Authorized("auth-1")));
  }

  // ---- the inventory answers the confirm ---------------------------------------------------

  @Test
  void aConfirmedSaleIssuesSignedTicketsAnswersPaidThenCapturesFilesAndFreesTheShopperSlot() {
    Decision d = saga.confirmAnswered(AUTHORIZED, ID, new InventoryAnswer.Confirmed(SEATS));
    assertEquals(store(new Sold(ID, TICKETS), new AnswerWaiting(ID, PAID),
        new Capture(ID, ID + ":capture", "auth-1", 15_000), new FileTickets(ID, TICKETS), new CheckedOut()), d);
  }

  @Test
  void aRefusedSaleFailsAsAnExpiredHoldAndVoidsTheAuthorization() {
    for (Refusal code : List.of(Refusal.HOLD_EXPIRED, Refusal.NOT_FOUND)) {
      Decision d = saga.confirmAnswered(AUTHORIZED, ID, new InventoryAnswer.Refused(code, "no", List.of("F1-A-1")));
      assertEquals(store(new Failed(ID, Failure.HOLD_EXPIRED), new AnswerWaiting(ID, EXPIRED_ANSWER),
          new VoidAuthorization(ID, ID + ":void", "auth-1", ID + ":authorize")), d, code.code());
    }
  }

  @Test
  void aBusyOrSilentInventoryIsAskedAgainLaterAndNothingIsStored() {
    for (InventoryAnswer answer : List.of(new InventoryAnswer.Refused(Refusal.BUSY, "busy", List.of()),
        new InventoryAnswer.Refused(Refusal.UNAVAILABLE, "late", List.of()), new InventoryAnswer.NoAnswer(),
        new InventoryAnswer.Unexpected())) {
      assertEquals(act(new RetryLater()), saga.confirmAnswered(AUTHORIZED, ID, answer), answer.toString());
    }
  }

  @Test
  void aConfirmAnswerForACheckoutNotWaitingForOneChangesNothing() {
    for (Checkouts state : List.of(Checkouts.NONE, STARTED, SOLD, EXPIRED)) {
      assertEquals(Decision.NOTHING, saga.confirmAnswered(state, ID, new InventoryAnswer.Confirmed(SEATS)));
      assertEquals(Decision.NOTHING, saga.confirmAnswered(state, ID, new InventoryAnswer.NoAnswer()));
    }
  }

  // ---- capture, void, wallet ---------------------------------------------------------------

  @Test
  void aCaptureCompletesTheSaleAndResetsTheBackoff() {
    assertEquals(store(new Captured(ID), new ResetBackoff()), saga.captureDone(SOLD, ID, true));
    assertEquals(act(new ResetBackoff()), saga.captureDone(CAPTURED, ID, true), "a repeated capture stores nothing");
  }

  @Test
  void aCaptureWithoutAnAnswerIsRetriedLater() {
    assertEquals(act(new RetryLater()), saga.captureDone(SOLD, ID, false));
  }

  @Test
  void aVoidEndsAFailedCheckout() {
    assertEquals(store(new Voided(ID), new ResetBackoff()), saga.voidDone(EXPIRED, ID, true));
    assertEquals(act(new RetryLater()), saga.voidDone(EXPIRED, ID, false));
    assertEquals(act(new ResetBackoff()), saga.voidDone(SOLD, ID, true), "a sold order is never voided");
  }

  @Test
  void paymentStepsOfAnUnknownOrderChangeNothing() {
    assertEquals(Decision.NOTHING, saga.captureDone(Checkouts.NONE, ID, false));
    assertEquals(Decision.NOTHING, saga.voidDone(Checkouts.NONE, ID, true));
  }

  @Test
  void filedTicketsAreRecordedOnceAndAWalletThatDoesNotAnswerIsAskedAgain() {
    Decision d = saga.walletFiled(SOLD, ID, true);
    assertEquals(store(new Filed(ID)), d);
    assertEquals(Decision.NOTHING, saga.walletFiled(after(SOLD, d), ID, true));
    assertEquals(act(new RetryLater()), saga.walletFiled(SOLD, ID, false));
  }

  // ---- resume: after a crash, or when a retry is due ---------------------------------------

  @Test
  void resumeCarriesEveryUnfinishedCheckoutOneStepOnWithTheKeysOfItsFirstTry() {
    Checkouts all = given(
        started("k1", "o1"),
        started("k2", "o2"), new Authorized("o2", "a2"),
        started("k3", "o3"), new Authorized("o3", "a3"), new Sold("o3", TICKETS),
        started("k4", "o4"), new Authorized("o4", "a4"), new Sold("o4", TICKETS), new Filed("o4"),
        started("k5", "o5"), new Authorized("o5", "a5"), new Sold("o5", TICKETS), new Captured("o5"),
        started("k6", "o6"), new Authorized("o6", "a6"), new Sold("o6", TICKETS), new Captured("o6"), new Filed("o6"),
        started("k7", "o7"), new Authorized("o7", "a7"), new Failed("o7", Failure.HOLD_EXPIRED),
        started("k8", "o8"), new Declined("o8", "card declined"),
        started("k9", "o9"), new Failed("o9", Failure.PAYMENT_UNAVAILABLE), new Voided("o9"));
    assertEquals(act(
        new Authorize("o1", "o1:authorize", "tok_visa", 15_000),
        new Confirm("o2", List.of("F1-A-1", "F1-A-2")),
        new Capture("o3", "o3:capture", "a3", 15_000), new FileTickets("o3", TICKETS),
        new Capture("o4", "o4:capture", "a4", 15_000),
        new FileTickets("o5", TICKETS),
        new VoidAuthorization("o7", "o7:void", "a7", "o7:authorize")), saga.resume(all));
  }

  @Test
  void aCartThatCrashedAfterStartingAsksForTheSameAuthorizationAgain() {
    Decision first = saga.holdsFound(Checkouts.NONE, "k", "tok_visa", new InventoryAnswer.Holds(SEATS), NOW);
    Checkouts replayed = after(Checkouts.NONE, first);
    assertEquals(act(first.actions().get(1)), saga.resume(replayed));
  }

  @Test
  void nothingLeftToDoResumesNothing() {
    assertEquals(act(), saga.resume(Checkouts.NONE));
    assertEquals(act(), saga.resume(CAPTURED.apply(new Filed(ID))));
  }

  // ---- answers -----------------------------------------------------------------------------

  @Test
  void anOrderIsAnsweredByWhereItStands() {
    assertEquals(refused(Refusal.NOT_FOUND, "no such order"), saga.order(Checkouts.NONE, ID));
    Placed pending = new Placed(ID, EVENT, Status.PENDING, 15_000, List.of());
    assertEquals(pending, saga.order(STARTED, ID));
    assertEquals(pending, saga.order(AUTHORIZED, ID));
    assertEquals(PAID, saga.order(SOLD, ID));
    assertEquals(PAID, saga.order(CAPTURED, ID));
    assertEquals(DECLINED_ANSWER, saga.order(DECLINED, ID));
    assertEquals(EXPIRED_ANSWER, saga.order(EXPIRED, ID));
    assertEquals(EXPIRED_ANSWER, saga.order(EXPIRED.apply(new Voided(ID)), ID));
    assertEquals(PROCESSOR_DOWN_ANSWER, saga.order(PROCESSOR_DOWN, ID));
  }

  @Test
  void refusalsAndStatusesKeepTheContractsSpelling() {
    assertEquals(List.of("paid", "pending"), List.of(Status.values()).stream().map(Status::code).toList());
  }

  @Test
  void failuresKeepTheJournalsSpelling() {
    assertEquals(List.of("hold_expired", "payment_unavailable", "payment_declined"),
        List.of(Failure.values()).stream().map(Failure::code).toList());
    for (Failure f : Failure.values()) assertEquals(f, Failure.ofCode(f.code()));
    assertThrows(IllegalArgumentException.class, () -> Failure.ofCode("HOLD_EXPIRED"));
  }

  // ---- replay ------------------------------------------------------------------------------

  @Test
  void eachEventChangesOnlyWhatItSays() {
    assertEquals(new Order("k", ID, SEATS, 15_000, "tok_visa", Step.STARTED, null, List.of(), null, false), STARTED.byId(ID));
    assertEquals(new Order("k", ID, SEATS, 15_000, "tok_visa", Step.AUTHORIZED, "auth-1", List.of(), null, false),
        AUTHORIZED.byId(ID));
    assertEquals(new Order("k", ID, SEATS, 15_000, "tok_visa", Step.SOLD, "auth-1", TICKETS, null, false), SOLD.byId(ID));
    assertEquals(new Order("k", ID, SEATS, 15_000, "tok_visa", Step.CAPTURED, "auth-1", TICKETS, null, true),
        CAPTURED.apply(new Filed(ID)).byId(ID));
    assertEquals(new Order("k", ID, SEATS, 15_000, "tok_visa", Step.DECLINED, null, List.of(), "payment_declined", false),
        DECLINED.byId(ID));
    assertEquals(new Order("k", ID, SEATS, 15_000, "tok_visa", Step.VOIDING, "auth-1", List.of(), "hold_expired", false),
        EXPIRED.byId(ID));
    assertEquals(Step.VOIDED, EXPIRED.apply(new Voided(ID)).byId(ID).step());
    assertEquals(STARTED, STARTED.apply(new Captured("unknown")), "an event for another order changes nothing");
  }

  @Test
  void atMostOneCheckoutRunsAndTheRunningOneIsFound() {
    assertEquals(ID, STARTED.running().orderId());
    assertEquals(ID, AUTHORIZED.running().orderId());
    for (Checkouts ended : List.of(SOLD, CAPTURED, DECLINED, EXPIRED, PROCESSOR_DOWN)) assertNull(ended.running());
  }

  // ---- backoff -----------------------------------------------------------------------------

  @Test
  void theRetryDelayDoublesUpToItsMaximumAndStartsOverAfterASuccess() {
    Backoff b = Backoff.between(Duration.ofMillis(100), Duration.ofSeconds(1));
    StringBuilder delays = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      delays.append(b.delay().toMillis()).append(' ');
      b = b.next();
    }
    assertEquals("100 200 400 800 1000 1000 ", delays.toString());
    assertEquals(Duration.ofMillis(100), b.reset().delay());
    assertTrue(b.reset().next().delay().compareTo(b.delay()) < 0);
  }

  // ---- the processor reports an authorization on its own (a webhook) -------------------------

  @Test
  void aLateAuthorizationOfACheckoutStillWaitingIsItsAnswer() {
    assertEquals(saga.authorizeAnswered(STARTED, ID, new PaymentAnswer.Authorized("pi_late")),
        saga.lateAuthorization(STARTED, ID, "pi_late"));
    assertEquals(List.of(new Authorized(ID, "pi_late")), saga.lateAuthorization(STARTED, ID, "pi_late").events());
  }

  @Test
  void aLateAuthorizationOfACheckoutThatEndedWithoutItIsVoidedByItsId() {
    VoidAuthorization late = new VoidAuthorization(ID, ID + ":void:pi_late", "pi_late", ID + ":authorize");
    assertEquals(act(late), saga.lateAuthorization(PROCESSOR_DOWN, ID, "pi_late"), "voided by key while it was not visible");
    assertEquals(act(late), saga.lateAuthorization(after(PROCESSOR_DOWN, saga.voidDone(PROCESSOR_DOWN, ID, true)), ID, "pi_late"),
        "after the void by key went through");
    assertEquals(act(late), saga.lateAuthorization(DECLINED, ID, "pi_late"));
  }

  @Test
  void aLateAuthorizationTheOrderKnowsChangesNothing() {
    assertEquals(Decision.NOTHING, saga.lateAuthorization(AUTHORIZED, ID, "auth-1"));
    assertEquals(Decision.NOTHING, saga.lateAuthorization(SOLD, ID, "auth-1"));
    assertEquals(Decision.NOTHING, saga.lateAuthorization(CAPTURED, ID, "auth-1"));
    assertEquals(Decision.NOTHING, saga.lateAuthorization(EXPIRED, ID, "auth-1"), "its own void is under way");
    assertEquals(Decision.NOTHING, saga.lateAuthorization(STARTED, "ev-1.fan.9", "pi_other"), "no such order");
  }

  @Test
  void anAuthorizationKeyNamesItsOrder() {
    assertEquals(ID, CheckoutSaga.orderOfAuthorizeKey(CheckoutSaga.authorizeKey(ID)));
    assertNull(CheckoutSaga.orderOfAuthorizeKey(ID + ":capture"));
    assertNull(CheckoutSaga.orderOfAuthorizeKey(null));
  }
}
