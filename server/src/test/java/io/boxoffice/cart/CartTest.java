package io.boxoffice.cart;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.common.Refusal;
import io.boxoffice.common.Hmac;
import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestConfigs;
import io.boxoffice.tickets.domain.Barcode;
import io.boxoffice.tickets.domain.Ticket;
import io.boxoffice.tickets.TicketWallet;
import io.boxoffice.venue.domain.StadiumGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The cart's checkout saga against a real inventory, wallet and payment simulator on the
 * persistence testkit: paid, declined, expired, processor down, retried keys, and crashes in
 * the middle that must finish or void what was started.
 */
class CartTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());
  static final Barcode barcodes = new Barcode(Hmac.fromBase64OrRandom(""));

  final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  final String eventId = "ev-" + UUID.randomUUID();
  final Map<String, ActorRef<EventInventory.Command>> inventories = new ConcurrentHashMap<>();
  final Map<String, ActorRef<TicketWallet.Command>> wallets = new ConcurrentHashMap<>();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  CartTest() {
    ActorRef<EventInventory.Command> inv = testKit.spawn(EventInventory.create(eventId, TestConfigs.inventory(clock, 100)));
    inventories.put(eventId, inv);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.Create(new EventDefinition(eventId, "Show", StadiumGenerator.generate("v", "S", 500),
        Map.of("floor", 10_000, "lower", 5_000, "upper", 2_500), 480, 0, 8), probe.getRef()));
    probe.expectMessageClass(EventInventory.Created.class);
  }

  CartSettings settings(PaymentSimulator payments) {
    return settings(payments, (event, account) -> { });
  }

  /** The same, telling {@code checkedOut} of each purchase. */
  CartSettings settings(PaymentSimulator payments, java.util.function.BiConsumer<String, String> checkedOut) {
    return new CartSettings(clock, payments, barcodes, inventories::get,
        account -> wallets.computeIfAbsent(account, a -> testKit.spawn(TicketWallet.create(a, new SnapshotPolicy(100, 2)))),
        Duration.ofSeconds(3), Duration.ofMillis(100), Duration.ofSeconds(1), new SnapshotPolicy(50, 2), checkedOut);
  }

  ActorRef<Cart.Command> cart(String account, PaymentSimulator payments) {
    return testKit.spawn(Cart.create(Cart.entityId(eventId, account), settings(payments)));
  }

  /** Holds go to the inventory directly, as the shop routes send them. */
  EventInventory.Held hold(String account, String... seats) {
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inventories.get(eventId).tell(new EventInventory.HoldSeats(account, List.of(seats), probe.getRef()));
    return probe.expectMessageClass(EventInventory.Held.class);
  }

  int heldBy(String account) {
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inventories.get(eventId).tell(new EventInventory.GetHolds(account, probe.getRef()));
    return probe.expectMessageClass(EventInventory.Holds.class).seats().size();
  }

  Cart.Reply checkout(ActorRef<Cart.Command> cart, String key, String token) {
    TestProbe<Cart.Reply> probe = testKit.createTestProbe();
    cart.tell(new Cart.Checkout(key, token, probe.getRef()));
    return probe.receiveMessage(Duration.ofSeconds(10));
  }

  static PaymentSimulator payments() {
    return new PaymentSimulator(Duration.ofMillis(600), 0.0);
  }

  @Test
  void aPaidCheckoutSellsTheHeldSeatsCapturesAndFilesTickets() {
    PaymentSimulator payments = payments();
    ActorRef<Cart.Command> cart = cart("fan", payments);
    hold("fan", "F1-A-1", "F1-A-2");
    Cart.OrderView order = assertInstanceOf(Cart.OrderView.class, checkout(cart, "k1", "tok_visa"));
    assertEquals(20_000, order.amountCents());
    assertEquals(List.of("F1-A-1", "F1-A-2"), order.tickets().stream().map(Ticket::seatId).toList());
    for (Ticket t : order.tickets()) {
      assertEquals(new Barcode.TicketRef(eventId, t.seatId(), order.orderId()), barcodes.verify(t.barcode()));
    }
    TestProbe<Object> probe = testKit.createTestProbe();
    probe.awaitAssert(() -> {
      assertEquals(List.of(PaymentSimulator.Status.CAPTURED), statuses(payments));
      return null;
    });
    TestProbe<TicketWallet.Tickets> walletProbe = testKit.createTestProbe();
    probe.awaitAssert(() -> {
      wallets.get("fan").tell(new TicketWallet.GetTickets(walletProbe.getRef()));
      assertEquals(2, walletProbe.receiveMessage().tickets().size());
      return null;
    });
    // The same key answers the same order; the seats are sold, so nothing else is held.
    assertEquals(order, checkout(cart, "k1", "tok_visa"));
    assertEquals(Refusal.HOLD_EXPIRED, ((Cart.Rejected) checkout(cart, "k2", "tok_visa")).code());
    assertEquals(1, payments.ledger().size());
  }

  @Test
  void anExpiredHoldIsNotSoldAndTheAuthorizationIsVoided() {
    PaymentSimulator payments = payments();
    ActorRef<Cart.Command> cart = cart("late", payments);
    hold("late", "F1-A-3");
    // Authorization takes 600 ms (tok_slow); the hold runs out meanwhile.
    TestProbe<Cart.Reply> probe = testKit.createTestProbe();
    cart.tell(new Cart.Checkout("k", "tok_slow", probe.getRef()));
    awaitAuthorizations(payments, 1);
    clock.advance(Duration.ofSeconds(481));
    assertEquals(Refusal.HOLD_EXPIRED, probe.expectMessageClass(Cart.Rejected.class, Duration.ofSeconds(5)).code());
    probe.awaitAssert(() -> {
      assertEquals(List.of(PaymentSimulator.Status.VOIDED), statuses(payments));
      return null;
    });
  }

  @Test
  void aDeclinedCardLeavesTheSeatsHeld() {
    PaymentSimulator payments = payments();
    ActorRef<Cart.Command> cart = cart("declined", payments);
    hold("declined", "F1-B-1");
    assertEquals(Refusal.PAYMENT_DECLINED, ((Cart.Rejected) checkout(cart, "k", "tok_declined")).code());
    assertEquals(1, heldBy("declined"));
    assertTrue(payments.ledger().isEmpty());
    // Another card, another key: the seats are still there to buy.
    assertInstanceOf(Cart.OrderView.class, checkout(cart, "k2", "tok_visa"));
  }

  @Test
  void aProcessorThatDoesNotAnswerChargesNothingAndTheKeyMayBeRetried() {
    ActorRef<Cart.Command> down = cart("unlucky", new PaymentSimulator(Duration.ZERO, 1.0));
    hold("unlucky", "F1-C-1");
    assertEquals(Refusal.UNAVAILABLE, ((Cart.Rejected) checkout(down, "k", "tok_visa")).code());
    assertEquals(1, heldBy("unlucky"));
    testKit.stop(down);
    PaymentSimulator up = payments();
    ActorRef<Cart.Command> again = cart("unlucky", up);
    assertInstanceOf(Cart.OrderView.class, checkout(again, "k", "tok_visa"));
  }

  @Test
  void aCartThatCrashesDuringAuthorizationFinishesTheSaleAfterRecovery() {
    PaymentSimulator payments = payments();
    ActorRef<Cart.Command> cart = cart("crash", payments);
    hold("crash", "F1-A-10", "F1-A-11");
    TestProbe<Cart.Reply> probe = testKit.createTestProbe();
    cart.tell(new Cart.Checkout("k", "tok_slow", probe.getRef()));
    awaitAuthorizations(payments, 1);
    testKit.stop(cart);

    ActorRef<Cart.Command> again = cart("crash", payments);
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      assertEquals(List.of(PaymentSimulator.Status.CAPTURED), statuses(payments));
      return null;
    });
    Cart.OrderView order = assertInstanceOf(Cart.OrderView.class, checkout(again, "k", "tok_slow"));
    assertEquals(2, order.tickets().size());
    TestProbe<EventInventory.Reply> inv = testKit.createTestProbe();
    inventories.get(eventId).tell(new EventInventory.GetStats(inv.getRef()));
    assertEquals(2, inv.expectMessageClass(EventInventory.Stats.class).sold());
  }

  @Test
  void aCartThatCrashesAndComesBackAfterTheDeadlineVoidsWhatItStarted() {
    PaymentSimulator payments = payments();
    ActorRef<Cart.Command> cart = cart("crash-late", payments);
    hold("crash-late", "F1-B-10");
    TestProbe<Cart.Reply> probe = testKit.createTestProbe();
    cart.tell(new Cart.Checkout("k", "tok_slow", probe.getRef()));
    awaitAuthorizations(payments, 1);
    testKit.stop(cart);
    clock.advance(Duration.ofMinutes(10));

    ActorRef<Cart.Command> again = cart("crash-late", payments);
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      assertEquals(List.of(PaymentSimulator.Status.VOIDED), statuses(payments));
      return null;
    });
    assertEquals(Refusal.HOLD_EXPIRED, ((Cart.Rejected) checkout(again, "k", "tok_slow")).code());
  }

  @Test
  void aSecondCheckoutWithAnotherKeyIsRefusedWhileOneRuns() {
    PaymentSimulator payments = payments();
    ActorRef<Cart.Command> cart = cart("busy", payments);
    hold("busy", "F1-C-10");
    TestProbe<Cart.Reply> first = testKit.createTestProbe();
    cart.tell(new Cart.Checkout("k", "tok_slow", first.getRef()));
    // The authorization is under way: the first checkout is running.
    awaitAuthorizations(payments, 1);
    TestProbe<Cart.Reply> probe = testKit.createTestProbe();
    cart.tell(new Cart.Checkout("other", "tok_visa", probe.getRef()));
    assertEquals(Refusal.CHECKOUT_IN_PROGRESS, probe.expectMessageClass(Cart.Rejected.class).code());
    assertNotNull(first.expectMessageClass(Cart.OrderView.class, Duration.ofSeconds(5)));
    assertEquals(1, payments.ledger().size(), "the refused checkout asked for no money");
  }

  /** Counts the seats the carts' hold timers release. */
  static final class TimerCounts implements ShopMetrics {
    final java.util.concurrent.atomic.AtomicInteger released = new java.util.concurrent.atomic.AtomicInteger();

    public void seatsReleasedByTimer(String eventId, int seats) {
      released.addAndGet(seats);
    }
  }

  ActorRef<Cart.Command> timedCart(String account, PaymentSimulator payments, TimerCounts counts) {
    return testKit.spawn(Cart.create(Cart.entityId(eventId, account),
        settings(payments).withHoldTimer(Duration.ofMillis(50), Duration.ZERO, counts)));
  }

  long expiry(ActorRef<Cart.Command> cart) {
    TestProbe<Cart.Reply> probe = testKit.createTestProbe();
    cart.tell(new Cart.GetExpiry(probe.getRef()));
    return probe.expectMessageClass(Cart.Expiry.class).expiredAt();
  }

  /** The releases the inventory wrote (carts' timers and fans alike), by account. */
  List<String> releasesInJournal() {
    return org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit.create(testKit.system())
        .persistedInStorage("EventInventory|" + eventId).stream()
        .filter(e -> e instanceof EventInventory.BatchDecided).flatMap(e -> ((EventInventory.BatchDecided) e).decisions().stream())
        .filter(d -> d instanceof io.boxoffice.inventory.domain.Decision.Released).map(d -> ((io.boxoffice.inventory.domain.Decision.Released) d).account())
        .toList();
  }

  @Test
  void theHoldTimerReleasesAnAbandonedHoldWithNoOtherTrafficAndTheCartSaysExpired() {
    TimerCounts counts = new TimerCounts();
    ActorRef<Cart.Command> cart = timedCart("walker", payments(), counts);
    EventInventory.Held held = hold("walker", "F1-B-1", "F1-B-2");
    cart.tell(new Cart.HoldPlaced(List.of("F1-B-1", "F1-B-2"), held.holdExpiresAt()));
    // Before the deadline the timer leaves the hold alone.
    clock.advance(Duration.ofMillis(held.holdExpiresAt() - clock.millis() - 1));
    // The timer looks at the clock every 50 ms: for 300 ms nothing may be released.
    await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).untilAsserted(() -> {
      assertEquals(0, counts.released.get());
      assertEquals(2, heldBy("walker"));
    });
    assertEquals(0, expiry(cart));

    clock.advance(Duration.ofMillis(1));
    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertEquals(2, counts.released.get()));
    assertEquals(List.of("walker"), releasesInJournal(), "the release is a decision in the inventory's journal");
    assertEquals(held.holdExpiresAt(), expiry(cart));
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inventories.get(eventId).tell(new EventInventory.GetStats(probe.getRef()));
    assertEquals(0, probe.expectMessageClass(EventInventory.Stats.class).held());
  }

  @Test
  void aHoldInAnOpenSaleTellsNoPlaceInLineAndAQueuedHoldTellsItsPlaceOnce() {
    List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
    ActorRef<Cart.Command> open = testKit.spawn(Cart.create(Cart.entityId(eventId, "walk-in"),
        settings(payments()).withShoppingStarted((event, account) -> told.add(account))));
    EventInventory.Held walkIn = hold("walk-in", "F1-A-1");
    open.tell(new Cart.HoldPlaced(List.of("F1-A-1"), walkIn.holdExpiresAt(), true));
    ActorRef<Cart.Command> queued = testKit.spawn(Cart.create(Cart.entityId(eventId, "queued"),
        settings(payments()).withShoppingStarted((event, account) -> told.add(account))));
    EventInventory.Held first = hold("queued", "F1-A-2");
    queued.tell(new Cart.HoldPlaced(List.of("F1-A-2"), first.holdExpiresAt()));
    EventInventory.Held second = hold("queued", "F1-A-3");
    queued.tell(new Cart.HoldPlaced(List.of("F1-A-3"), second.holdExpiresAt()));
    // Both carts have handled their holds once they answer: the queued fan's place was told once.
    assertEquals(0, expiry(open));
    assertEquals(0, expiry(queued));
    assertEquals(List.of("queued"), told);
    // The word crosses nodes: it survives the wire as it was sent.
    var wire = new org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit(testKit.system());
    assertEquals(new Cart.HoldPlaced(List.of("F1-A-1"), 5L, true),
        wire.verifySerialization(new Cart.HoldPlaced(List.of("F1-A-1"), 5L, true), true));
    assertEquals(new Cart.HoldPlaced(List.of("F1-A-2"), 5L, false),
        wire.verifySerialization(new Cart.HoldPlaced(List.of("F1-A-2"), 5L), true));
  }

  @Test
  void aPurchaseInAnOpenSaleTellsNoPlaceInLineAndAQueuedPurchaseTellsItsPlace() {
    List<String> bought = new java.util.concurrent.CopyOnWriteArrayList<>();
    CartSettings telling = settings(payments(), (event, account) -> bought.add(account));
    ActorRef<Cart.Command> open = testKit.spawn(Cart.create(Cart.entityId(eventId, "walk-in"), telling));
    EventInventory.Held walkIn = hold("walk-in", "F1-B-1");
    open.tell(new Cart.HoldPlaced(List.of("F1-B-1"), walkIn.holdExpiresAt(), true));
    assertInstanceOf(Cart.OrderView.class, checkout(open, "k1", "tok_visa"));
    ActorRef<Cart.Command> queued = testKit.spawn(Cart.create(Cart.entityId(eventId, "queued"), telling));
    EventInventory.Held inLine = hold("queued", "F1-B-2");
    queued.tell(new Cart.HoldPlaced(List.of("F1-B-2"), inLine.holdExpiresAt()));
    assertInstanceOf(Cart.OrderView.class, checkout(queued, "k2", "tok_visa"));
    await().atMost(Duration.ofSeconds(5)).until(() -> bought.contains("queued"));
    assertEquals(List.of("queued"), bought);
  }

  @Test
  void theHoldTimerSparesAHoldMadeAgainAndASoldSeat() {
    TimerCounts counts = new TimerCounts();
    PaymentSimulator payments = payments();
    ActorRef<Cart.Command> cart = timedCart("keeper", payments, counts);
    EventInventory.Held bought = hold("keeper", "F1-C-1");
    assertInstanceOf(Cart.OrderView.class, checkout(cart, "k", "tok_visa"));
    EventInventory.Held first = hold("keeper", "F1-C-5");

    // The hold runs out and the fan holds the seat again; the cart hears of the first holds
    // only now (a slow edge), so its timer fires at once for both first deadlines.
    clock.advance(Duration.ofMillis(Math.max(first.holdExpiresAt(), bought.holdExpiresAt()) - clock.millis()));
    EventInventory.Held again = hold("keeper", "F1-C-5");
    cart.tell(new Cart.HoldPlaced(List.of("F1-C-1"), bought.holdExpiresAt()));
    cart.tell(new Cart.HoldPlaced(List.of("F1-C-5"), first.holdExpiresAt()));
    // The sold seat and the hold made again stay as they are, however often the timer looks.
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
      assertEquals(List.of(), releasesInJournal());
      TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
      inventories.get(eventId).tell(new EventInventory.GetStats(probe.getRef()));
      EventInventory.Stats stats = probe.expectMessageClass(EventInventory.Stats.class);
      assertEquals(1, stats.sold());
      assertEquals(1, stats.held());
    });
    assertEquals(0, counts.released.get());
    assertEquals(0, expiry(cart));
    // And the hold made again is released at its own deadline, told by the inventory's answer.
    clock.advance(Duration.ofMillis(again.holdExpiresAt() - clock.millis()));
    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertEquals(1, counts.released.get()));
    assertEquals(again.holdExpiresAt(), expiry(cart));
  }

  private static void awaitAuthorizations(PaymentSimulator payments, int n) {
    await(n + " authorizations asked for").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
        .until(() -> payments.ledger().size() >= n);
  }

  private static List<PaymentSimulator.Status> statuses(PaymentSimulator payments) {
    return payments.ledger().values().stream().map(PaymentSimulator.Entry::status).toList();
  }
}
