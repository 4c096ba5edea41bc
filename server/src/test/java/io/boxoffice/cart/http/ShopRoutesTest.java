package io.boxoffice.cart.http;

import io.boxoffice.common.Refusal;
import io.boxoffice.cart.Cart;
import io.boxoffice.cart.ShopAdmission;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.common.Hmac;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.Bulkhead;
import io.boxoffice.edge.BulkheadDirectives;
import io.boxoffice.edge.ClientPrefix;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.IdentityToken;
import io.boxoffice.edge.TokenBuckets;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestConfigs;
import io.boxoffice.tickets.domain.Ticket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The shop's HTTP translation with probes standing in for the inventory and the cart: messages out, contract statuses back. */
class ShopRoutesTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());
  static final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  static final IdentityToken tokens = new IdentityToken(Hmac.fromBase64OrRandom(""), clock, Duration.ofHours(1));
  static final TestProbe<Cart.Command> carts = testKit.createTestProbe();
  static final TestProbe<EventInventory.Command> inventory = testKit.createTestProbe();
  static ServerBinding binding;
  static Api api;
  static EventViews views;

  @BeforeAll
  static void bind() throws Exception {
    api = new Api(testKit.system(), Duration.ofMillis(500), 65536);
    views = new EventViews(id -> inventory.getRef(), testKit.system().scheduler(), api.mapper(), clock,
        Duration.ofMillis(500), Duration.ofSeconds(1));
    io.boxoffice.app.Metrics metrics = new io.boxoffice.app.Metrics();
    ShopRoutes routes = new ShopRoutes(api, new BulkheadDirectives(new Bulkhead(1000), api, metrics), identity(api),
        ShopAdmission.everyone(), views, id -> inventory.getRef(), id -> carts.getRef(), testKit.system().scheduler(),
        settings(Duration.ofSeconds(3)), metrics);
    binding = Http.get(testKit.system()).newServerAt("127.0.0.1", 0).bind(api.seal(routes.routes()))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** The sign-in door, with per-network limits no test here reaches. */
  static Identity identity(Api api) {
    return new Identity(tokens, api, new FanContext(new ClientPrefix(List.of()), new TokenBuckets(1_000_000, 1_000_000, 1000, clock),
        new TokenBuckets(1_000_000, 1_000_000, 1000, clock), api), new TokenBuckets(1_000_000, 1_000_000, 1000, clock));
  }

  /** The shipped shop settings, with {@code retryDeadline}. */
  static ShopSettings settings(Duration retryDeadline) {
    return ShopSettings.fromConfig(testKit.system().settings().config()).withRetryDeadline(retryDeadline);
  }

  HttpFan fan(String account) {
    return new HttpFan(binding.localAddress().getPort()).withCookie(tokens.issue(account));
  }

  @Test
  void aHoldGoesToTheEventsInventoryAndTakenSeatsComeBackAs409() {
    CompletableFuture<HttpFan.Reply> reply = fan("acct1").sendAsync("POST", "/api/events/ev1/cart/holds",
        "{\"seats\":[\"A-1-1\",\"A-1-2\"]}");
    EventInventory.HoldSeats hold = inventory.expectMessageClass(EventInventory.HoldSeats.class);
    assertEquals(List.of("A-1-1", "A-1-2"), hold.seatIds());
    assertEquals("acct1", hold.account());
    hold.replyTo().tell(new EventInventory.Rejected(Refusal.SEATS_TAKEN, "some seats are taken", List.of("A-1-2")));
    HttpFan.Reply r = reply.join();
    assertEquals(409, r.status());
    assertEquals("seats_taken", r.error());
    assertEquals("A-1-2", r.json().get("seats").get(0).asText());
  }

  @Test
  void refusalsMapToTheContractsStatuses() {
    String[][] cases = {
        {"limit_exceeded", "422", "limit_exceeded"}, {"no_seats", "409", "no_seats"}, {"not_found", "404", "not_found"},
        {"busy", "503", "overloaded"}, {"unknown_seats", "400", "bad_request"}, {"checkout_in_progress", "409", "checkout_in_progress"}};
    for (String[] c : cases) {
      CompletableFuture<HttpFan.Reply> reply = fan("acct2").sendAsync("POST", "/api/events/ev1/cart/holds", "{\"best\":{\"quantity\":2}}");
      EventInventory.HoldBest hold = inventory.expectMessageClass(EventInventory.HoldBest.class);
      assertEquals(2, hold.quantity());
      hold.replyTo().tell(new EventInventory.Rejected(Refusal.fromCode(c[0]), "because", List.of()));
      HttpFan.Reply r = reply.join();
      assertEquals(Integer.parseInt(c[1]), r.status(), c[0]);
      assertEquals(c[2], r.error());
      if (r.status() == 503) assertTrue(r.headers().firstValue("Retry-After").isPresent());
    }
  }

  @Test
  void aHeldCartAnswersWithPricesAndAnIsoDeadline() {
    CompletableFuture<HttpFan.Reply> reply = fan("acct3").sendAsync("GET", "/api/events/ev1/cart", null);
    EventInventory.GetHolds get = inventory.expectMessageClass(EventInventory.GetHolds.class);
    long until = Instant.parse("2026-12-01T10:08:00Z").toEpochMilli();
    get.replyTo().tell(new EventInventory.Holds(List.of(new EventInventory.SeatPrice("A-1-1", 5000)), until));
    HttpFan.Reply r = reply.join();
    assertEquals(200, r.status());
    assertEquals("2026-12-01T10:08:00Z", r.json().get("holdExpiresAt").asText());
    assertEquals(5000, r.json().get("seats").get(0).get("priceCents").asInt());
  }

  @Test
  void aHoldIsAnsweredWithoutWaitingForTheCartWhichIsToldAfterwards() {
    CompletableFuture<HttpFan.Reply> reply = fan("acct-timer").sendAsync("POST", "/api/events/ev1/cart/holds",
        "{\"seats\":[\"A-9-1\"]}");
    EventInventory.HoldSeats hold = inventory.expectMessageClass(EventInventory.HoldSeats.class);
    long until = Instant.parse("2026-12-01T10:08:00Z").toEpochMilli();
    hold.replyTo().tell(new EventInventory.Held(List.of(new EventInventory.SeatPrice("A-9-1", 5000)), until));
    // The cart (a probe that never answers) is not asked: the fan has the hold at once.
    assertEquals(200, reply.join().status());
    // Admitted by ShopAdmission.everyone(), as in an open sale: no queue pass.
    assertEquals(new Cart.HoldPlaced(List.of("A-9-1"), until, true), carts.expectMessageClass(Cart.HoldPlaced.class));

    CompletableFuture<HttpFan.Reply> release = fan("acct-timer").sendAsync("DELETE", "/api/events/ev1/cart/holds/A-9-1", null);
    inventory.expectMessageClass(EventInventory.Release.class).replyTo().tell(new EventInventory.Released(List.of("A-9-1")));
    assertEquals(204, release.join().status());
    assertEquals(new Cart.HoldGivenUp(List.of("A-9-1")), carts.expectMessageClass(Cart.HoldGivenUp.class));
  }

  @Test
  void anEmptyCartSaysWhenTheLastHoldRanOutAsTheCartTells() {
    CompletableFuture<HttpFan.Reply> reply = fan("acct-expired").sendAsync("GET", "/api/events/ev1/cart", null);
    inventory.expectMessageClass(EventInventory.GetHolds.class).replyTo().tell(new EventInventory.Holds(List.of(), 0));
    long at = Instant.parse("2026-12-01T10:08:00Z").toEpochMilli();
    carts.expectMessageClass(Cart.GetExpiry.class).replyTo().tell(new Cart.Expiry(at));
    HttpFan.Reply r = reply.join();
    assertEquals(200, r.status());
    assertEquals(0, r.json().get("seats").size());
    assertTrue(r.json().get("holdExpiresAt").isNull());
    assertEquals("2026-12-01T10:08:00Z", r.json().get("expired").get("at").asText());

    // Nothing ran out (or the cart is slow): the view is the old one, without "expired".
    CompletableFuture<HttpFan.Reply> fresh = fan("acct-expired").sendAsync("GET", "/api/events/ev1/cart", null);
    inventory.expectMessageClass(EventInventory.GetHolds.class).replyTo().tell(new EventInventory.Holds(List.of(), 0));
    carts.expectMessageClass(Cart.GetExpiry.class).replyTo().tell(new Cart.Expiry(0));
    assertTrue(!fresh.join().json().has("expired"));
  }

  /**
   * The shop's bodies, byte for byte as the contract has them (docs/API.md): a new hold, the
   * cart with and without holds, with and without the word on when the last hold ran out, and
   * an order.
   */
  @Test
  void theShopsBodiesAreTheContractsToTheByte() {
    long until = Instant.parse("2026-12-01T10:08:00Z").toEpochMilli();
    CompletableFuture<HttpFan.Reply> held = fan("acct-wire").sendAsync("POST", "/api/events/ev1/cart/holds", "{\"best\":{\"quantity\":2}}");
    inventory.expectMessageClass(EventInventory.HoldBest.class).replyTo().tell(new EventInventory.Held(
        List.of(new EventInventory.SeatPrice("A-1-1", 5000), new EventInventory.SeatPrice("A-1-2", 4500)), until));
    assertBody("{\"seats\":[{\"seatId\":\"A-1-1\",\"priceCents\":5000},{\"seatId\":\"A-1-2\",\"priceCents\":4500}],"
        + "\"holdExpiresAt\":\"2026-12-01T10:08:00Z\"}", held.join());
    carts.expectMessageClass(Cart.HoldPlaced.class);

    CompletableFuture<HttpFan.Reply> cart = fan("acct-wire").sendAsync("GET", "/api/events/ev1/cart", null);
    inventory.expectMessageClass(EventInventory.GetHolds.class).replyTo().tell(new EventInventory.Holds(
        List.of(new EventInventory.SeatPrice("A-1-1", 5000)), until));
    assertBody("{\"seats\":[{\"seatId\":\"A-1-1\",\"priceCents\":5000}],\"holdExpiresAt\":\"2026-12-01T10:08:00Z\"}", cart.join());

    CompletableFuture<HttpFan.Reply> ranOut = fan("acct-wire").sendAsync("GET", "/api/events/ev1/cart", null);
    inventory.expectMessageClass(EventInventory.GetHolds.class).replyTo().tell(new EventInventory.Holds(List.of(), 0));
    carts.expectMessageClass(Cart.GetExpiry.class).replyTo().tell(new Cart.Expiry(until));
    assertBody("{\"seats\":[],\"holdExpiresAt\":null,\"expired\":{\"at\":\"2026-12-01T10:08:00Z\"}}", ranOut.join());

    CompletableFuture<HttpFan.Reply> empty = fan("acct-wire").sendAsync("GET", "/api/events/ev1/cart", null);
    inventory.expectMessageClass(EventInventory.GetHolds.class).replyTo().tell(new EventInventory.Holds(List.of(), 0));
    carts.expectMessageClass(Cart.GetExpiry.class).replyTo().tell(new Cart.Expiry(0));
    assertBody("{\"seats\":[],\"holdExpiresAt\":null}", empty.join());

    CompletableFuture<HttpFan.Reply> order = fan("acct-wire").sendAsync("POST", "/api/events/ev1/cart/checkout",
        "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "wire");
    carts.expectMessageClass(Cart.Checkout.class).replyTo().tell(new Cart.OrderView("ev1.acct-wire.1", "ev1", "paid", 9500,
        List.of(new Ticket("t1", "ev1", "A-1-1", "ev1.acct-wire.1", "code1"), new Ticket("t2", "ev1", "A-1-2", "ev1.acct-wire.1", "code2"))));
    assertBody("{\"orderId\":\"ev1.acct-wire.1\",\"eventId\":\"ev1\",\"status\":\"paid\",\"amountCents\":9500,\"tickets\":["
        + "{\"ticketId\":\"t1\",\"seatId\":\"A-1-1\",\"barcode\":\"code1\"},{\"ticketId\":\"t2\",\"seatId\":\"A-1-2\",\"barcode\":\"code2\"}]}",
        order.join());
  }

  /** The body exactly: names, order, values, null or absent. */
  static void assertBody(String expected, HttpFan.Reply r) {
    assertEquals(200, r.status(), r.body());
    assertEquals(expected, r.body());
  }

  @Test
  void anEntityThatDoesNotAnswerIsA503WithRetryAfterNotAHang() {
    CompletableFuture<HttpFan.Reply> reply = fan("acct4").sendAsync("GET", "/api/events/ev1/cart", null);
    inventory.expectMessageClass(EventInventory.GetHolds.class);
    HttpFan.Reply r = reply.join();
    assertEquals(503, r.status());
    assertEquals("unavailable", r.error());
    assertEquals("1", r.headers().firstValue("Retry-After").orElseThrow());
  }

  @Test
  void checkoutCarriesTheIdempotencyKeyAndAnswersTheOrder() {
    CompletableFuture<HttpFan.Reply> reply = fan("acct5").sendAsync("POST", "/api/events/ev1/cart/checkout",
        "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "abc");
    Cart.Checkout c = carts.expectMessageClass(Cart.Checkout.class);
    assertEquals("abc", c.idempotencyKey());
    assertEquals("tok_visa", c.paymentToken());
    c.replyTo().tell(new Cart.OrderView("ev1.acct5.1", "ev1", "paid", 5000,
        List.of(new Ticket("t1", "ev1", "A-1-1", "ev1.acct5.1", "code"))));
    HttpFan.Reply r = reply.join();
    assertEquals(200, r.status());
    assertEquals("ev1.acct5.1", r.json().get("orderId").asText());
    assertEquals("code", r.json().get("tickets").get(0).get("barcode").asText());
    assertEquals("t1", r.json().get("tickets").get(0).get("ticketId").asText());
  }

  @Test
  void aCheckoutWhoseCartDoesNotAnswerIsAskedAgainWithTheSameKeyWithinTheDeadline() {
    CompletableFuture<HttpFan.Reply> reply = fan("acct7").sendAsync("POST", "/api/events/ev1/cart/checkout",
        "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "again");
    // The first ask goes unanswered (the cart was handed over), the second is told "unavailable".
    assertEquals("again", carts.expectMessageClass(Cart.Checkout.class).idempotencyKey());
    Cart.Checkout second = carts.expectMessageClass(Cart.Checkout.class, Duration.ofSeconds(2));
    assertEquals("again", second.idempotencyKey());
    second.replyTo().tell(new Cart.Rejected(Refusal.UNAVAILABLE, "the event did not answer in time", List.of()));
    Cart.Checkout third = carts.expectMessageClass(Cart.Checkout.class, Duration.ofSeconds(2));
    assertEquals("again", third.idempotencyKey());
    third.replyTo().tell(new Cart.OrderView("ev1.acct7.1", "ev1", "paid", 5000, List.of()));
    HttpFan.Reply r = reply.join();
    assertEquals(200, r.status());
    assertEquals("ev1.acct7.1", r.json().get("orderId").asText());
  }

  @Test
  void aHoldThatGoesUnansweredIsAskedAgainWithTheSameRequestId() {
    CompletableFuture<HttpFan.Reply> reply = fan("acct9").sendAsync("POST", "/api/events/ev1/cart/holds", "{\"best\":{\"quantity\":2}}");
    EventInventory.HoldBest first = inventory.expectMessageClass(EventInventory.HoldBest.class);
    assertNotNull(first.requestId());
    EventInventory.HoldBest second = inventory.expectMessageClass(EventInventory.HoldBest.class, Duration.ofSeconds(2));
    assertEquals(first.requestId(), second.requestId());
    second.replyTo().tell(new EventInventory.Held(List.of(new EventInventory.SeatPrice("A-1-1", 5000)), 1));
    assertEquals(200, reply.join().status());
    carts.expectMessageClass(Cart.HoldPlaced.class);
    // Each new hold has its own request id.
    CompletableFuture<HttpFan.Reply> next = fan("acct9").sendAsync("POST", "/api/events/ev1/cart/holds", "{\"seats\":[\"A-1-2\"]}");
    EventInventory.HoldSeats other = inventory.expectMessageClass(EventInventory.HoldSeats.class);
    assertNotEquals(first.requestId(), other.requestId());
    other.replyTo().tell(new EventInventory.Rejected(Refusal.SEATS_TAKEN, "taken", List.of("A-1-2")));
    assertEquals(409, next.join().status());
  }

  @Test
  void aCheckoutGivesUpWithA503AtItsDeadline() {
    CompletableFuture<HttpFan.Reply> reply = fan("acct8").sendAsync("POST", "/api/events/ev1/cart/checkout",
        "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "never");
    HttpFan.Reply r = reply.join();
    assertEquals(503, r.status());
    assertEquals("unavailable", r.error());
    // 3 s of deadline in asks of 500 ms: asked about six times, never once more after the answer.
    List<Cart.Command> asked = carts.receiveSeveralMessages(5, Duration.ofSeconds(1));
    assertTrue(asked.stream().allMatch(c -> c instanceof Cart.Checkout k && k.idempotencyKey().equals("never")));
    carts.expectNoMessage(Duration.ofMillis(600));
  }

  @Test
  void aFloodShedsReadsFirstThenHoldsAndLetsCheckoutsThroughWhileOtherEventsAreServed() throws Exception {
    TestProbe<EventInventory.Command> inv = testKit.createTestProbe();
    TestProbe<Cart.Command> cartProbe = testKit.createTestProbe();
    Api patient = new Api(testKit.system(), Duration.ofSeconds(20), 65536);
    Bulkhead bulkhead = new Bulkhead(10);
    ShopRoutes small = new ShopRoutes(patient, new BulkheadDirectives(bulkhead, patient, new io.boxoffice.app.Metrics()), identity(patient),
        ShopAdmission.everyone(), views, id -> inv.getRef(), id -> cartProbe.getRef(), testKit.system().scheduler(),
        settings(Duration.ofSeconds(30)), new io.boxoffice.app.Metrics());
    ServerBinding flooded = Http.get(testKit.system()).newServerAt("127.0.0.1", 0).bind(patient.seal(small.routes()))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    try {
      HttpFan fan = new HttpFan(flooded.localAddress().getPort()).withCookie(tokens.issue("flood"));
      List<CompletableFuture<HttpFan.Reply>> hanging = new java.util.ArrayList<>();
      List<org.apache.pekko.actor.typed.ActorRef<EventInventory.Reply>> waiting = new java.util.ArrayList<>();
      // Five reads fill the reads' half; the entity does not answer yet, so they stay in flight.
      for (int i = 0; i < 5; i++) {
        hanging.add(fan.sendAsync("GET", "/api/events/hot/cart", null));
        waiting.add(inv.expectMessageClass(EventInventory.GetHolds.class).replyTo());
      }
      HttpFan.Reply shedRead = fan.send("GET", "/api/events/hot/cart", null);
      assertEquals(503, shedRead.status());
      assertEquals("overloaded", shedRead.error());
      assertTrue(shedRead.headers().firstValue("Retry-After").isPresent());
      for (int i = 0; i < 3; i++) {
        hanging.add(fan.sendAsync("POST", "/api/events/hot/cart/holds", "{\"best\":{\"quantity\":1}}"));
        waiting.add(inv.expectMessageClass(EventInventory.HoldBest.class).replyTo());
      }
      assertEquals(503, fan.send("POST", "/api/events/hot/cart/holds", "{\"best\":{\"quantity\":1}}").status());
      CompletableFuture<HttpFan.Reply> checkout =
          fan.sendAsync("POST", "/api/events/hot/cart/checkout", "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "k");
      Cart.Checkout c = cartProbe.expectMessageClass(Cart.Checkout.class);
      // Another event is not touched by the flood.
      CompletableFuture<HttpFan.Reply> quiet = fan.sendAsync("GET", "/api/events/quiet/cart", null);
      inv.expectMessageClass(EventInventory.GetHolds.class).replyTo().tell(new EventInventory.Holds(List.of(), 0));
      assertEquals(200, quiet.join().status());

      waiting.forEach(ref -> ref.tell(new EventInventory.Holds(List.of(), 0)));
      c.replyTo().tell(new Cart.Rejected(Refusal.PAYMENT_DECLINED, "declined", List.of()));
      assertEquals(402, checkout.join().status());
      for (CompletableFuture<HttpFan.Reply> h : hanging) h.join();
      // Their places were given back: the event serves reads again.
      CompletableFuture<HttpFan.Reply> again = fan.sendAsync("GET", "/api/events/hot/cart", null);
      inv.expectMessageClass(EventInventory.GetHolds.class).replyTo().tell(new EventInventory.Holds(List.of(), 0));
      assertEquals(200, again.join().status());
    } finally {
      flooded.unbind();
    }
  }

  @Test
  void aPacedEventsReadsAndHoldsAreRefusedUnaskedWhileItsCheckoutsAndAnotherEventAreServed() throws Exception {
    TestProbe<EventInventory.Command> inv = testKit.createTestProbe();
    // Paced at one request in 100 s, its next turn taken: the node was saturated while "hotter" asked 1,000/s beside "calm".
    io.boxoffice.edge.FairPace pace = pacedAt(0.01, 2_000);
    pace.delay("hotter", Bulkhead.Priority.READ, System.nanoTime());
    TestProbe<Cart.Command> cartProbe = testKit.createTestProbe();
    ServerBinding bound = bindBehind(new Bulkhead(10), pace, inv, cartProbe);
    try {
      HttpFan fan = new HttpFan(bound.localAddress().getPort()).withCookie(tokens.issue("paced-fan"));
      HttpFan.Reply read = fan.send("GET", "/api/events/hotter/cart", null);
      assertEquals(503, read.status());
      assertEquals("overloaded", read.error());
      assertTrue(read.headers().firstValue("Retry-After").isPresent());
      HttpFan.Reply hold = fan.send("POST", "/api/events/hotter/cart/holds", "{\"best\":{\"quantity\":1}}");
      assertEquals(503, hold.status());
      inv.expectNoMessage(Duration.ofMillis(200));
      // Checkouts turn held seats into tickets: never paced.
      CompletableFuture<HttpFan.Reply> checkout =
          fan.sendAsync("POST", "/api/events/hotter/cart/checkout", "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", "k");
      Cart.Checkout c = cartProbe.expectMessageClass(Cart.Checkout.class);
      c.replyTo().tell(new Cart.Rejected(Refusal.PAYMENT_DECLINED, "declined", List.of()));
      assertEquals(402, checkout.join().status());
      // The other event is served.
      CompletableFuture<HttpFan.Reply> quiet = fan.sendAsync("GET", "/api/events/calm/cart", null);
      answerAnEmptyCart(inv, cartProbe, Duration.ofSeconds(3));
      assertEquals(200, quiet.join().status());
    } finally {
      bound.unbind();
    }
  }

  @Test
  void aPacedEventsReadWaitsForItsTurnAndIsThenAnswered() throws Exception {
    TestProbe<EventInventory.Command> inv = testKit.createTestProbe();
    TestProbe<Cart.Command> cartProbe = testKit.createTestProbe();
    ServerBinding bound = bindPacedAtOneEveryTwoSeconds(inv, cartProbe);
    try {
      HttpFan fan = new HttpFan(bound.localAddress().getPort()).withCookie(tokens.issue("patient-fan"));
      CompletableFuture<HttpFan.Reply> first = fan.sendAsync("GET", "/api/events/hotter/cart", null);
      answerAnEmptyCart(inv, cartProbe, Duration.ofSeconds(3));
      assertEquals(200, first.join().status());
      // The next one's turn is 2 s after the first's: it waits, unasked, then goes on.
      CompletableFuture<HttpFan.Reply> second = fan.sendAsync("GET", "/api/events/hotter/cart", null);
      inv.expectNoMessage(Duration.ofMillis(1_000));
      assertFalse(second.isDone(), "waiting for its turn, not refused");
      answerAnEmptyCart(inv, cartProbe, Duration.ofSeconds(5));
      assertEquals(200, second.join().status());
    } finally {
      bound.unbind();
    }
  }

  @Test
  void requestsRefusedAtTheDoorTakeNoTurnOfAPacedEvent() throws Exception {
    TestProbe<EventInventory.Command> inv = testKit.createTestProbe();
    TestProbe<Cart.Command> cartProbe = testKit.createTestProbe();
    ServerBinding bound = bindPacedAtOneEveryTwoSeconds(inv, cartProbe);
    try {
      int port = bound.localAddress().getPort();
      // Junk that names the paced event: no cookie, a forged one. Each is refused at once at the
      // door; were it paced first, each would take a turn 2 s after the last and be refused later.
      List<CompletableFuture<HttpFan.Reply>> junk = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        junk.add(new HttpFan(port).sendAsync("GET", "/api/events/hotter/availability", null));
        junk.add(new HttpFan(port).withCookie("forged." + i).sendAsync("POST", "/api/events/hotter/cart/holds",
            "{\"best\":{\"quantity\":1}}"));
      }
      for (CompletableFuture<HttpFan.Reply> j : junk) assertEquals(401, j.get(1, TimeUnit.SECONDS).status());
      // The admitted fan's read takes the first turn: the inventory is asked at once.
      HttpFan fan = new HttpFan(port).withCookie(tokens.issue("honest-fan"));
      CompletableFuture<HttpFan.Reply> read = fan.sendAsync("GET", "/api/events/hotter/cart", null);
      answerAnEmptyCart(inv, cartProbe, Duration.ofMillis(1_500));
      assertEquals(200, read.join().status());
    } finally {
      bound.unbind();
    }
  }

  /** The shop's routes with "hotter" paced at one request every 2 s, a turn up to 10 s away. */
  private ServerBinding bindPacedAtOneEveryTwoSeconds(TestProbe<EventInventory.Command> inv, TestProbe<Cart.Command> cartProbe)
      throws Exception {
    return bindBehind(new Bulkhead(10), pacedAt(0.5, 10_000), inv, cartProbe);
  }

  /** Answers a {@code GET .../cart}'s two questions, the inventory's asked within {@code within}: nothing held, nothing expired. */
  private static void answerAnEmptyCart(TestProbe<EventInventory.Command> inv, TestProbe<Cart.Command> cartProbe, Duration within) {
    inv.expectMessageClass(EventInventory.GetHolds.class, within).replyTo().tell(new EventInventory.Holds(List.of(), 0));
    cartProbe.expectMessageClass(Cart.GetExpiry.class).replyTo().tell(new Cart.Expiry(0));
  }

  /**
   * A pace that saw a saturated window while "hotter" asked 1,000 reads/s beside "calm"'s 100:
   * "hotter" is paced at {@code perSecond}, "calm" is not.
   */
  private static io.boxoffice.edge.FairPace pacedAt(double perSecond, long maxWaitMillis) {
    io.boxoffice.edge.FairPace pace = new io.boxoffice.edge.FairPace(id -> true, 100, perSecond / 1_000, 1.1, perSecond, 0.05,
        maxWaitMillis);
    long now = System.nanoTime();
    for (int i = 0; i < 100; i++) pace.delay("hotter", Bulkhead.Priority.READ, now);
    for (int i = 0; i < 10; i++) pace.delay("calm", Bulkhead.Priority.READ, now);
    pace.tick(true, now);
    assertEquals(perSecond, pace.pace("hotter"), 1e-9);
    assertEquals(0, pace.pace("calm"));
    return pace;
  }

  /** The shop's routes behind {@code bulkhead}, asking {@code inv}, on a port of their own (a patient ask timeout). */
  private ServerBinding bindBehind(Bulkhead bulkhead, TestProbe<EventInventory.Command> inv) throws Exception {
    return bindBehind(bulkhead, io.boxoffice.edge.FairPace.off(), inv, carts);
  }

  /** The same, paced by {@code pace}. */
  private ServerBinding bindBehind(Bulkhead bulkhead, io.boxoffice.edge.FairPace pace, TestProbe<EventInventory.Command> inv,
                                   TestProbe<Cart.Command> cartProbe) throws Exception {
    io.boxoffice.app.Metrics metrics = new io.boxoffice.app.Metrics();
    Api patient = new Api(testKit.system(), Duration.ofSeconds(20), 65536);
    ShopRoutes small = new ShopRoutes(patient, new BulkheadDirectives(bulkhead, pace, testKit.system().executionContext(), patient, metrics), identity(patient),
        ShopAdmission.everyone(), views, id -> inv.getRef(), id -> cartProbe.getRef(), testKit.system().scheduler(),
        settings(Duration.ofSeconds(30)), metrics);
    return Http.get(testKit.system()).newServerAt("127.0.0.1", 0).bind(patient.seal(small.routes()))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void pastItsFairShareAFloodedEventsHoldWaitsForAPlaceAndIsAnsweredWhenOneFrees() throws Exception {
    TestProbe<EventInventory.Command> inv = testKit.createTestProbe();
    // Two places shared between busy events (holds: one each), a wait of a minute at most.
    Bulkhead bulkhead = new Bulkhead(10, 2, id -> true, 60_000, 60_000, testKit.system().executionContext());
    ServerBinding bound = bindBehind(bulkhead, inv);
    try {
      int port = bound.localAddress().getPort();
      HttpFan hot = new HttpFan(port).withCookie(tokens.issue("hot-fan"));
      HttpFan calm = new HttpFan(port).withCookie(tokens.issue("calm-fan"));
      String best = "{\"best\":{\"quantity\":1}}";
      CompletableFuture<HttpFan.Reply> first = hot.sendAsync("POST", "/api/events/hotter/cart/holds", best);
      EventInventory.HoldBest firstAsk = inv.expectMessageClass(EventInventory.HoldBest.class);
      CompletableFuture<HttpFan.Reply> quiet = calm.sendAsync("POST", "/api/events/calm/cart/holds", best);
      EventInventory.HoldBest quietAsk = inv.expectMessageClass(EventInventory.HoldBest.class);
      // The node is full (2) and both events are busy: the hot event's next hold lines up, unasked.
      CompletableFuture<HttpFan.Reply> second = new HttpFan(port).withCookie(tokens.issue("hot-fan-2"))
          .sendAsync("POST", "/api/events/hotter/cart/holds", best);
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> bulkhead.waiting("hotter") == 1);
      inv.expectNoMessage(Duration.ofMillis(200));
      assertFalse(second.isDone(), "waiting, not refused");
      long until = Instant.parse("2026-12-01T10:10:00Z").toEpochMilli();
      quietAsk.replyTo().tell(new EventInventory.Held(List.of(new EventInventory.SeatPrice("B-1-1", 100)), until));
      assertEquals(200, quiet.join().status());
      // The quiet event's place went to the hot event's line: its hold is asked now and answered.
      EventInventory.HoldBest secondAsk = inv.expectMessageClass(EventInventory.HoldBest.class);
      secondAsk.replyTo().tell(new EventInventory.Held(List.of(new EventInventory.SeatPrice("A-1-2", 100)), until));
      firstAsk.replyTo().tell(new EventInventory.Held(List.of(new EventInventory.SeatPrice("A-1-1", 100)), until));
      assertEquals(200, second.join().status());
      assertEquals(200, first.join().status());
      for (int i = 0; i < 3; i++) carts.expectMessageClass(Cart.HoldPlaced.class);
      assertEquals(0, bulkhead.inFlight());
      assertEquals(0, bulkhead.waiting("hotter"));
    } finally {
      bound.unbind();
    }
  }

  @Test
  void aSaturatedEventShedsBeforeAnyBodyIsReadWhileAQuietEventIsAdmittedAndAnswered() throws Exception {
    TestProbe<EventInventory.Command> inv = testKit.createTestProbe();
    Bulkhead bulkhead = new Bulkhead(10);
    ServerBinding bound = bindBehind(bulkhead, inv);
    try {
      int port = bound.localAddress().getPort();
      HttpFan flood = new HttpFan(port).withCookie(tokens.issue("flooder"));
      List<CompletableFuture<HttpFan.Reply>> hanging = new java.util.ArrayList<>();
      List<org.apache.pekko.actor.typed.ActorRef<EventInventory.Reply>> waiting = new java.util.ArrayList<>();
      // The hot event's holds fill its compartment up to the holds' share (8 of 10); none is answered yet.
      for (int i = 0; i < 8; i++) {
        hanging.add(flood.sendAsync("POST", "/api/events/hotter/cart/holds", "{\"best\":{\"quantity\":1}}"));
        waiting.add(inv.expectMessageClass(EventInventory.HoldBest.class).replyTo());
      }
      assertEquals(8, bulkhead.inFlight("hotter"));
      // Shed before the body is read: a body that is not JSON (400 otherwise) is answered 503.
      HttpFan.Reply shed = flood.send("POST", "/api/events/hotter/cart/holds", "not json");
      assertEquals(503, shed.status());
      assertEquals("overloaded", shed.error());
      assertEquals("1", shed.headers().firstValue("Retry-After").orElse(null));
      // No cookie at all: refused at the door, whatever the compartment's state, taking no place.
      assertEquals(401, new HttpFan(port).send("POST", "/api/events/hotter/cart/holds", "{\"best\":{\"quantity\":1}}").status());
      assertEquals(8, bulkhead.inFlight("hotter"));
      // Reads of the hot event get half the compartment: 2 places left of 5, and they are shed with Retry-After.
      HttpFan.Reply read = flood.send("GET", "/api/events/hotter/availability", null);
      assertEquals(503, read.status());
      assertTrue(read.headers().firstValue("Retry-After").isPresent());
      inv.expectNoMessage(Duration.ofMillis(100));

      // The quiet event beside it: admitted, asked and answered, while the hot one stays full.
      HttpFan quietFan = new HttpFan(port).withCookie(tokens.issue("quiet-fan"));
      CompletableFuture<HttpFan.Reply> quiet = quietFan.sendAsync("POST", "/api/events/calm/cart/holds", "{\"best\":{\"quantity\":2}}");
      EventInventory.HoldBest calm = inv.expectMessageClass(EventInventory.HoldBest.class);
      assertEquals(1, bulkhead.inFlight("calm"));
      long until = Instant.parse("2026-12-01T10:10:00Z").toEpochMilli();
      calm.replyTo().tell(new EventInventory.Held(List.of(new EventInventory.SeatPrice("A-1-1", 100),
          new EventInventory.SeatPrice("A-1-2", 100)), until));
      assertEquals(200, quiet.join().status());
      carts.expectMessageClass(Cart.HoldPlaced.class);
      assertEquals(0, bulkhead.inFlight("calm"));
      assertEquals(8, bulkhead.inFlight("hotter"));

      waiting.forEach(ref -> ref.tell(new EventInventory.Rejected(io.boxoffice.common.Refusal.NO_SEATS, "none left", List.of())));
      for (CompletableFuture<HttpFan.Reply> h : hanging) assertEquals(409, h.join().status());
      assertEquals(0, bulkhead.inFlight("hotter"));
      assertEquals(0, bulkhead.busyEvents(), "compartments are forgotten when their last request leaves");
    } finally {
      bound.unbind();
    }
  }

  @Test
  void anExpiredSignInIsRefusedWithoutAskingAnyone() {
    HttpFan stale = fan("acct6");
    clock.advance(Duration.ofHours(2));
    HttpFan.Reply r = stale.send("GET", "/api/events/ev1/cart", null);
    assertEquals(401, r.status());
    assertEquals("unauthenticated", r.error());
    inventory.expectNoMessage(Duration.ofMillis(100));
  }
}
