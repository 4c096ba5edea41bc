package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 8 as a whole, on both databases a node runs on: a hostile crowd (poisoned emails, a
 * sign-in flood, made-up events, a closed event, cross-site and non-JSON bodies, lenient JSON,
 * the fan port's /metrics) from one network, while honest fans, each on a network of its own,
 * sign up, sign in, hold and buy. Every hostile request gets a 4xx with the contract's JSON
 * error, none a 5xx; the hostile ones change nothing; the honest ones all succeed. The honest
 * fans' figures are measured twice in the same run, without and with the attack, and printed.
 *
 * <p>Production limits and the production password hashing cost apply here (not the tests'
 * relaxed ones): the attack is meant to cost the node what it would cost it in production.
 */
class HostileCrowdBatteryTest {
  static final String PASSWORD = "correct horse battery";
  static final int HONEST_FANS = 24;
  final AtomicInteger networks = new AtomicInteger();

  /** Production settings over the test node's (ports, keys, database). */
  static Config production() {
    Config conf = ConfigFactory.load();
    return ConfigFactory.parseMap(Map.of(
        "boxoffice.accounts.pbkdf2-iterations", conf.getInt("boxoffice.accounts.pbkdf2-iterations"),
        "boxoffice.accounts.rate-limits.per-prefix.burst", conf.getInt("boxoffice.accounts.rate-limits.per-prefix.burst"),
        "boxoffice.accounts.rate-limits.per-email.burst", conf.getInt("boxoffice.accounts.rate-limits.per-email.burst"),
        "boxoffice.accounts.rate-limits.per-email-network.burst", conf.getInt("boxoffice.accounts.rate-limits.per-email-network.burst"),
        "boxoffice.accounts.rate-limits.known-network.burst", conf.getInt("boxoffice.accounts.rate-limits.known-network.burst"),
        "boxoffice.bots.rate-limits", conf.getConfig("boxoffice.bots.rate-limits").root().unwrapped()));
  }

  static Node start(String database) throws Exception {
    Config test = database.equals("h2")
        ? TestNode.config("", Files.createTempDirectory("boxoffice-battery").toString())
        : TestNode.config(TestNode.PG_URL, "target/unused");
    return Node.start(production().withFallback(test), new Node.Options(Clock.systemUTC(), TestNode.payments()));
  }

  /** A client network of its own: an IPv6 /48 of the documentation range, through the trusted loopback proxy. */
  String network() {
    return "2001:db8:" + Integer.toHexString(networks.incrementAndGet()) + "::7";
  }

  record Figures(int fans, int ok, long signInP99, long checkoutP99, long firstTryRefusals) {
    @Override
    public String toString() {
      return ok + "/" + fans + " fans bought, sign-in p99 " + signInP99 + " ms, checkout p99 " + checkoutP99
          + " ms, " + firstTryRefusals + " answers of 429/503 retried";
    }
  }

  /**
   * Honest fans, each on its own network: sign up, sign in, hold one seat, buy it. Like a
   * browser they follow Retry-After on 429 and 503 (counted); everything else must succeed.
   */
  Figures honestFans(int port, String eventId, int fans) {
    ConcurrentLinkedQueue<Long> signIns = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Long> checkouts = new ConcurrentLinkedQueue<>();
    LongAdder retried = new LongAdder();
    AtomicInteger ok = new AtomicInteger();
    List<CompletableFuture<Void>> running = new ArrayList<>();
    for (int i = 0; i < fans; i++) {
      running.add(CompletableFuture.runAsync(() -> {
        String net = network();
        HttpFan fan = new HttpFan(port);
        String credentials = Hostile.credentials("honest-" + UUID.randomUUID() + "@example.com", PASSWORD);
        assertEquals(201, patiently(retried, () -> fan.send("POST", "/api/accounts", credentials, "X-Forwarded-For", net)).status());
        long started = System.nanoTime();
        HttpFan.Reply in = patiently(retried, () -> fan.send("POST", "/api/session", credentials, "X-Forwarded-For", net));
        signIns.add((System.nanoTime() - started) / 1_000_000);
        assertEquals(200, in.status(), in.body());
        String cookie = in.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_id=")).findFirst().orElseThrow();
        HttpFan signedIn = fan.withCookie(cookie.substring("bo_id=".length(), cookie.indexOf(';')));
        HttpFan.Reply hold = patiently(retried, () -> signedIn.send("POST", "/api/events/" + eventId + "/cart/holds",
            "{\"best\":{\"quantity\":1}}", "X-Forwarded-For", net));
        assertEquals(200, hold.status(), hold.body());
        started = System.nanoTime();
        String key = UUID.randomUUID().toString();
        HttpFan.Reply order = patiently(retried, () -> signedIn.send("POST", "/api/events/" + eventId + "/cart/checkout",
            "{\"paymentToken\":\"tok_visa\"}", "Idempotency-Key", key, "X-Forwarded-For", net));
        checkouts.add((System.nanoTime() - started) / 1_000_000);
        assertEquals(200, order.status(), order.body());
        ok.incrementAndGet();
      }));
    }
    running.forEach(CompletableFuture::join);
    return new Figures(fans, ok.get(), Hostile.p99(new ArrayList<>(signIns)), Hostile.p99(new ArrayList<>(checkouts)),
        retried.sum());
  }

  /** Sends again after Retry-After while the answer is 429 or 503, at most 20 times. */
  static HttpFan.Reply patiently(LongAdder retried, Supplier<HttpFan.Reply> send) {
    HttpFan.Reply r = send.get();
    for (int i = 0; i < 20 && (r.status() == 429 || r.status() == 503); i++) {
      retried.increment();
      long seconds = Long.parseLong(r.headers().firstValue("Retry-After").orElse("1"));
      // The client's pacing between attempts, as a browser's; no outcome is waited for here.
      java.util.concurrent.locks.LockSupport.parkNanos(seconds * 1_000_000_000L);
      r = send.get();
    }
    return r;
  }

  /** The hostile crowd, all from one network: every answer must be a clean 4xx. */
  Map<String, HttpFan.Reply> attack(int port, String closedEventId, String openEventId) {
    String net = "198.51.100.7";
    HttpFan anon = new HttpFan(port);
    Map<String, CompletableFuture<HttpFan.Reply>> sent = new ConcurrentHashMap<>();
    for (int i = 0; i < 40; i++) {
      sent.put("NUL email sign-in " + i, anon.sendAsync("POST", "/api/session",
          Hostile.credentials("z\u0000" + i + "@x.io", "p"), "X-Forwarded-For", net));
    }
    sent.put("empty email", anon.sendAsync("POST", "/api/accounts", Hostile.credentials("", PASSWORD), "X-Forwarded-For", net));
    sent.put("control characters", anon.sendAsync("POST", "/api/accounts",
        Hostile.credentials("a\u0007b@x.io", PASSWORD), "X-Forwarded-For", net));
    for (int i = 0; i < 200; i++) {
      sent.put("bad sign-in " + i, anon.sendAsync("POST", "/api/session",
          Hostile.credentials("victim-" + (i % 7) + "@example.com", "wrong password " + i), "X-Forwarded-For", net));
    }
    HttpFan bot = new HttpFan(port);
    String botEmail = "bot-" + UUID.randomUUID() + "@example.com";
    // The bot's own account, made while the flood above fills the hashing pool: it waits its turn too.
    LongAdder ignored = new LongAdder();
    patiently(ignored, () -> bot.send("POST", "/api/accounts", Hostile.credentials(botEmail, PASSWORD), "X-Forwarded-For", "198.51.101.7"));
    HttpFan.Reply session = patiently(ignored,
        () -> bot.send("POST", "/api/session", Hostile.credentials(botEmail, PASSWORD), "X-Forwarded-For", "198.51.101.7"));
    String cookie = session.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_id=")).findFirst().orElseThrow();
    HttpFan signedBot = bot.withCookie(cookie.substring("bo_id=".length(), cookie.indexOf(';')));
    for (int i = 0; i < 150; i++) {
      String madeUp = "madeup-" + UUID.randomUUID().toString().substring(0, 8);
      sent.put("made-up event status " + i, signedBot.sendAsync("GET", "/api/events/" + madeUp + "/queue/status", null,
          "X-Forwarded-For", net));
      sent.put("made-up event hold " + i, signedBot.sendAsync("POST", "/api/events/" + madeUp + "/cart/holds",
          "{\"best\":{\"quantity\":1}}", "X-Forwarded-For", net));
    }
    sent.put("closed event hold", signedBot.sendAsync("POST", "/api/events/" + closedEventId + "/cart/holds",
        "{\"best\":{\"quantity\":1}}", "X-Forwarded-For", net));
    sent.put("closed event join", signedBot.sendAsync("POST", "/api/events/" + closedEventId + "/queue", "{}",
        "X-Forwarded-For", net));
    sent.put("cross-site hold", signedBot.sendAsync("POST", "/api/events/" + openEventId + "/cart/holds",
        "{\"best\":{\"quantity\":1}}", "X-Forwarded-For", net, "Origin", "https://evil.example"));
    sent.put("cross-site sign-in", anon.sendAsync("POST", "/api/session", Hostile.credentials(botEmail, PASSWORD),
        "X-Forwarded-For", net, "Sec-Fetch-Site", "cross-site"));
    sent.put("trailing garbage", signedBot.sendAsync("POST", "/api/events/" + openEventId + "/cart/holds",
        "{\"best\":{\"quantity\":1}} {\"best\":{\"quantity\":8}}", "X-Forwarded-For", net));
    sent.put("quantity as a string", signedBot.sendAsync("POST", "/api/events/" + openEventId + "/cart/holds",
        "{\"best\":{\"quantity\":\"2\"}}", "X-Forwarded-For", net));
    sent.put("huge quantity", signedBot.sendAsync("POST", "/api/events/" + openEventId + "/cart/holds",
        "{\"best\":{\"quantity\":99999999999}}", "X-Forwarded-For", net));
    sent.put("negative quantity", signedBot.sendAsync("POST", "/api/events/" + openEventId + "/cart/holds",
        "{\"best\":{\"quantity\":-1}}", "X-Forwarded-For", net));
    sent.put("control characters in a seat", signedBot.sendAsync("POST", "/api/events/" + openEventId + "/cart/holds",
        "{\"seats\":[\"F1\\u0000A-1\"]}", "X-Forwarded-For", net));
    sent.put("metrics on the fan port", anon.sendAsync("GET", "/metrics", null, "X-Forwarded-For", net));
    Map<String, HttpFan.Reply> answers = new TreeMap<>();
    sent.forEach((what, reply) -> answers.put(what, reply.join()));
    // A body that is not JSON, sent raw (HttpFan always says application/json).
    answers.put("text/plain sign-in", Hostile.plain(port, "/api/session", Hostile.credentials(botEmail, PASSWORD), net));
    return answers;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void aHostileCrowdGetsCleanRefusalsChangesNothingAndHonestFansBuyThroughIt(String database) throws Exception {
    Node node = start(database);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String venue = sales.venue();
      String openEvent = sales.openEvent(venue);
      String closedEvent = sales.closedEvent(venue);
      java.util.Set<String> seriesBefore = Hostile.series(Hostile.metrics(node));

      Figures quiet = honestFans(node.httpPort(), openEvent, HONEST_FANS);
      String statsBefore = sales.stats(openEvent);

      CompletableFuture<Map<String, HttpFan.Reply>> crowd =
          CompletableFuture.supplyAsync(() -> attack(node.httpPort(), closedEvent, openEvent));
      Figures underAttack = honestFans(node.httpPort(), openEvent, HONEST_FANS);
      Map<String, HttpFan.Reply> answers = crowd.join();

      Map<Integer, Integer> statuses = new TreeMap<>();
      for (Map.Entry<String, HttpFan.Reply> a : answers.entrySet()) {
        statuses.merge(a.getValue().status(), 1, Integer::sum);
        assertTrue(a.getValue().status() >= 400 && a.getValue().status() < 500, a.getKey() + ": " + a.getValue());
        Hostile.refusedCleanly(a.getValue());
      }
      assertEquals(HONEST_FANS, quiet.ok());
      assertEquals(HONEST_FANS, underAttack.ok());
      // The attack held and sold nothing: the event moved by exactly the honest fans' purchases.
      assertEquals(Sales.soldPlus(statsBefore, HONEST_FANS), sales.stats(openEvent), "only the honest fans bought");
      assertEquals("closed", sales.state(closedEvent));
      // 300 requests for made-up events left no metric series behind: every new series is about a real event or route.
      java.util.Set<String> added = new java.util.TreeSet<>(Hostile.series(Hostile.metrics(node)));
      added.removeAll(seriesBefore);
      assertTrue(added.stream().noneMatch(line -> line.contains("madeup-")), "series of made-up events: " + added);
      System.out.printf("hostile battery on %s: %d hostile requests, answers %s; honest fans alone: %s; "
              + "during the attack: %s (checkout p99 ratio %.2f)%n",
          database, answers.size(), statuses, quiet, underAttack,
          (double) underAttack.checkoutP99() / Math.max(1, quiet.checkoutP99()));
    } finally {
      node.stop();
    }
  }

  // --- round two: findings 1 and 9 (orders, tickets, QR) ---

  /** A signed-in fan's client for {@code accountId} (a session as the node issues it, no sign-up). */
  static HttpFan signedIn(Node node, String accountId) {
    return new HttpFan(node.httpPort()).withCookie(TestNode.identityOf(accountId, Clock.systemUTC()));
  }

  /** The entities of the kinds a made-up event must never start (each id begins with its event's), by kind. */
  static Map<String, java.util.Set<String>> eventEntities(Node node) {
    return Map.of("Cart", Hostile.entities(node, io.boxoffice.cart.Cart.ENTITY_TYPE_KEY),
        "EventInventory", Hostile.entities(node, io.boxoffice.inventory.EventInventory.ENTITY_TYPE_KEY),
        "WaitingRoom", Hostile.entities(node, io.boxoffice.queue.WaitingRoom.ENTITY_TYPE_KEY),
        "QueuePlace", Hostile.entities(node, io.boxoffice.queue.QueuePlace.ENTITY_TYPE_KEY),
        "PresaleRegistry", Hostile.entities(node, io.boxoffice.queue.PresaleRegistry.ENTITY_TYPE_KEY));
  }

  /**
   * Finding 1: order, ticket and QR ids that name events nobody created are 404 (or 429), never
   * a 5xx, and start no cart and no inventory: 100 accounts, each on its own network and within
   * its limits, ask for 6 made-up orders and QR codes each. A real order and its QR still answer.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void madeUpOrderTicketAndQrIdsOfMadeUpEventsAre404AndStartNoEntity(String database) throws Exception {
    Node node = start(database);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String openEvent = sales.openEvent(sales.venue());
      HttpFan buyer = sales.fan();
      String net = network();
      HttpFan.Reply hold = buyer.send("POST", "/api/events/" + openEvent + "/cart/holds", "{\"best\":{\"quantity\":1}}",
          "X-Forwarded-For", net);
      assertEquals(200, hold.status(), hold.body());
      HttpFan.Reply bought = buyer.send("POST", "/api/events/" + openEvent + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
          "Idempotency-Key", UUID.randomUUID().toString(), "X-Forwarded-For", net);
      assertEquals(200, bought.status(), bought.body());
      String orderId = bought.json().get("orderId").asText();
      String ticketId = bought.json().get("tickets").get(0).get("ticketId").asText();
      HttpFan.Reply realOrder = buyer.send("GET", "/api/orders/" + orderId, null, "X-Forwarded-For", net);
      assertEquals(200, realOrder.status(), realOrder.body());
      assertEquals(orderId, realOrder.json().get("orderId").asText());
      assertEquals(200, buyer.send("GET", "/api/me/tickets/" + ticketId + "/qr", null, "X-Forwarded-For", net).status());

      String madeUp = "nope" + UUID.randomUUID().toString().substring(0, 8);
      Map<String, java.util.Set<String>> before = eventEntities(node);
      Map<String, CompletableFuture<HttpFan.Reply>> sent = new ConcurrentHashMap<>();
      for (int a = 0; a < 100; a++) {
        String account = "acct-" + UUID.randomUUID().toString().substring(0, 12);
        HttpFan fan = signedIn(node, account);
        String own = network();
        for (int i = 0; i < 3; i++) {
          String event = madeUp + "-" + a + "-" + i;
          sent.put("order " + event, fan.sendAsync("GET", "/api/orders/" + event + "." + account + ".1", null, "X-Forwarded-For", own));
          sent.put("qr " + event, fan.sendAsync("GET", "/api/me/tickets/" + event + "." + account + ".1.A-1-1/qr", null,
              "X-Forwarded-For", own));
        }
      }
      // Every other fan route that names an event, for 20 more made-up events (one account and network each).
      for (int a = 0; a < 20; a++) {
        String account = "acct-" + UUID.randomUUID().toString().substring(0, 12);
        HttpFan fan = signedIn(node, account);
        String own = network();
        String base = "/api/events/" + madeUp + "-route-" + a;
        for (String get : List.of("/seatmap", "/availability", "/cart", "/summary", "/queue/status", "/queue/manifest",
            "/queue/challenge")) {
          sent.put("GET " + base + get, fan.sendAsync("GET", base + get, null, "X-Forwarded-For", own));
        }
        sent.put("hold " + base, fan.sendAsync("POST", base + "/cart/holds", "{\"best\":{\"quantity\":1}}", "X-Forwarded-For", own));
        sent.put("release " + base, fan.sendAsync("DELETE", base + "/cart/holds/A-1-1", null, "X-Forwarded-For", own));
        sent.put("checkout " + base, fan.sendAsync("POST", base + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
            "Idempotency-Key", UUID.randomUUID().toString(), "X-Forwarded-For", own));
        sent.put("join " + base, fan.sendAsync("POST", base + "/queue", "{}", "X-Forwarded-For", own));
        sent.put("leave " + base, fan.sendAsync("DELETE", base + "/queue", null, "X-Forwarded-For", own));
        sent.put("presale " + base, fan.sendAsync("POST", base + "/presale/registrations", "{}", "X-Forwarded-For", own));
      }
      // ... and another fan's made-up order of the real event is no order either (its cart is the real event's).
      sent.put("someone else's order", buyer.sendAsync("GET", "/api/orders/" + openEvent + ".acct-other.1", null, "X-Forwarded-For", net));
      Map<Integer, Integer> statuses = new TreeMap<>();
      for (Map.Entry<String, CompletableFuture<HttpFan.Reply>> e : sent.entrySet()) {
        HttpFan.Reply r = e.getValue().join();
        statuses.merge(r.status(), 1, Integer::sum);
        assertTrue(r.status() == 404 || r.status() == 429, e.getKey() + ": " + r.status() + " " + r.body());
        Hostile.refusedCleanly(r);
        if (r.status() == 404) assertEquals("not_found", r.json().path("error").asText(), e.getKey());
      }
      assertEquals(Map.of(404, sent.size()), statuses, "every account and network stayed within its limits");
      // Nothing was started for them: neither at once nor a moment later (a cart's recovery asks its inventory).
      org.awaitility.Awaitility.await().during(java.time.Duration.ofSeconds(1)).atMost(java.time.Duration.ofSeconds(3))
          .untilAsserted(() -> eventEntities(node).forEach((kind, ids) -> {
            java.util.Set<String> started = new java.util.TreeSet<>(ids);
            started.removeAll(before.get(kind));
            assertTrue(started.stream().noneMatch(id -> id.startsWith(madeUp)), kind + " entities of made-up events: " + started);
          }));
    } finally {
      node.stop();
    }
  }

  /** Sends {@code count} GETs of {@code path(i)} at once as {@code fan}, each on {@code network(i)}: the answers. */
  static List<HttpFan.Reply> flood(HttpFan fan, int count, java.util.function.IntFunction<String> path,
                                   java.util.function.IntFunction<String> network) {
    List<CompletableFuture<HttpFan.Reply>> sent = new ArrayList<>();
    for (int i = 0; i < count; i++) sent.add(fan.sendAsync("GET", path.apply(i), null, "X-Forwarded-For", network.apply(i)));
    return sent.stream().map(CompletableFuture::join).toList();
  }

  /** Every answer is 404 or a clean 429 with Retry-After; the number of 429s. */
  static long rateLimited(String what, List<HttpFan.Reply> answers) {
    long limited = 0;
    for (HttpFan.Reply r : answers) {
      assertTrue(r.status() == 404 || r.status() == 200 || r.status() == 429, what + ": " + r.status() + " " + r.body());
      if (r.status() == 429) {
        Hostile.refused(r, 429, "rate_limited");
        assertTrue(r.headers().firstValue("Retry-After").isPresent(), what + ": 429 without Retry-After");
        limited++;
      }
    }
    return limited;
  }

  /**
   * Finding 9: orders, the ticket list and QR codes take from the account's and the network's
   * buckets, as the shop does: a flood from one account (spread over networks) and a flood from
   * one network (spread over accounts) meet 429 + Retry-After, and a QR code, which costs the
   * node more, takes more of the account's budget than a cheap read.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void floodsOfOrderTicketAndQrReadsMeet429PerAccountAndPerNetwork(String database) throws Exception {
    Node node = start(database);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String eventId = sales.openEvent(sales.venue());
      Config limits = production().getConfig("boxoffice.bots.rate-limits");
      int burst = limits.getInt("per-account.burst");
      double perSecond = limits.getDouble("per-account.per-second");
      int qrCost = limits.getInt("qr-cost");
      assertTrue(qrCost > 1, "a QR code costs more than a read");
      // One account, each request on a network of its own: only the account's bucket can say no.
      for (String route : List.of("orders", "tickets", "qr")) {
        String account = "acct-" + UUID.randomUUID().toString().substring(0, 12);
        HttpFan fan = signedIn(node, account);
        long started = System.nanoTime();
        List<HttpFan.Reply> answers = flood(fan, 60, i -> switch (route) {
          case "orders" -> "/api/orders/" + eventId + "." + account + "." + i;
          case "tickets" -> "/api/me/tickets";
          default -> "/api/me/tickets/" + eventId + "." + account + ".1.A-1-" + i + "/qr";
        }, i -> network());
        double seconds = (System.nanoTime() - started) / 1e9;
        long limited = rateLimited(route + " from one account", answers);
        assertTrue(limited > 0, route + ": 60 at once from one account, none refused");
        long served = answers.size() - limited;
        if (route.equals("qr")) {
          // At most the burst and what came back while the flood lasted, each QR taking qrCost tokens.
          long most = (long) Math.ceil((burst + seconds * perSecond) / qrCost) + 1;
          assertTrue(served <= most, "a QR code takes " + qrCost + " tokens: " + served + " of 60 served in "
              + String.format("%.1f", seconds) + " s, at most " + most);
        } else {
          assertTrue(served >= burst, route + ": the account's burst is served: " + served + " of 60");
        }
      }
      // One network, each account well within its own budget: only the network's bucket can say no.
      String net = "198.51.100." + (10 + networks.incrementAndGet() % 200);
      List<CompletableFuture<List<HttpFan.Reply>>> accounts = new ArrayList<>();
      int perAccount = burst / qrCost - 1;
      for (int a = 0; a < 50; a++) {
        String account = "acct-" + UUID.randomUUID().toString().substring(0, 12);
        HttpFan fan = signedIn(node, account);
        accounts.add(CompletableFuture.supplyAsync(() -> flood(fan, perAccount,
            i -> "/api/me/tickets/" + eventId + "." + account + ".1.A-1-" + i + "/qr", i -> net)));
      }
      List<HttpFan.Reply> fromOneNetwork = accounts.stream().flatMap(f -> f.join().stream()).toList();
      assertTrue(rateLimited("one network", fromOneNetwork) > 0,
          fromOneNetwork.size() + " QR codes at once from one network (each account within its budget), none refused");
    } finally {
      node.stop();
    }
  }

  /**
   * Finding 1, the real events' side: a cart that no request reaches stops after
   * {@code boxoffice.cart.passivate-idle-after} (shortened here), and a later request finds it again.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void anIdleCartOfARealEventPassivatesAndComesBackOnItsNextRequest(String database) throws Exception {
    Config test = database.equals("h2")
        ? TestNode.config("", Files.createTempDirectory("boxoffice-battery").toString())
        : TestNode.config(TestNode.PG_URL, "target/unused");
    Node node = Node.start(ConfigFactory.parseMap(Map.of("boxoffice.cart.passivate-idle-after", "2s"))
        .withFallback(production()).withFallback(test), new Node.Options(Clock.systemUTC(), TestNode.payments()));
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String eventId = sales.openEvent(sales.venue());
      String account = "acct-" + UUID.randomUUID().toString().substring(0, 12);
      HttpFan fan = signedIn(node, account);
      String net = network();
      String cart = io.boxoffice.cart.Cart.entityId(eventId, account);
      Hostile.refused(fan.send("GET", "/api/orders/" + eventId + "." + account + ".1", null, "X-Forwarded-For", net), 404, "not_found");
      assertTrue(Hostile.entities(node, io.boxoffice.cart.Cart.ENTITY_TYPE_KEY).contains(cart), "the order was asked of the cart");
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
          .until(() -> !Hostile.entities(node, io.boxoffice.cart.Cart.ENTITY_TYPE_KEY).contains(cart));
      Hostile.refused(fan.send("GET", "/api/orders/" + eventId + "." + account + ".1", null, "X-Forwarded-For", net), 404, "not_found");
      assertTrue(Hostile.entities(node, io.boxoffice.cart.Cart.ENTITY_TYPE_KEY).contains(cart), "the cart came back");
    } finally {
      node.stop();
    }
  }

  // --- round two: findings 2, 3 and 8 (places) ---

  /** A node on {@code database} with the tests' own limits and {@code clock}; on H2 its data lives in {@code dir}, so a node started again there reads it back. */
  static Node placesNode(String database, java.nio.file.Path dir, io.boxoffice.support.MutableClock clock) throws Exception {
    Config test = database.equals("h2") ? TestNode.config("", dir.toString()) : TestNode.config(TestNode.PG_URL, "target/unused");
    return Node.start(test, new Node.Options(clock, TestNode.payments()));
  }

  /** An event whose lobby is open now (by the node's clock) and whose sale starts ten minutes on, 600 a minute. */
  static String placesOnSale(Sales sales, io.boxoffice.support.MutableClock clock) {
    String id = sales.closedEvent(sales.venue());
    HttpFan.Reply put = sales.admin("PUT", "/admin/events/" + id + "/onsale", "{\"lobbyOpensAt\":\"" + clock.instant()
        + "\",\"startsAt\":\"" + clock.instant().plusSeconds(600) + "\",\"admissionPerMinute\":600,\"maxActiveShoppers\":100000}");
    assertEquals(200, put.status(), put.body());
    return id;
  }

  static com.fasterxml.jackson.databind.JsonNode placesStats(Sales sales, String eventId) {
    return sales.admin("GET", "/admin/events/" + eventId + "/stats", null).json();
  }

  /** The clock passes the start; the room's next tick draws the lottery (the line stands still until the clock moves again). */
  static void placesStart(Sales sales, String eventId, io.boxoffice.support.MutableClock clock) {
    clock.advance(java.time.Duration.ofMinutes(10));
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).pollInterval(java.time.Duration.ofMillis(100))
        .until(() -> placesStats(sales, eventId).path("state").asText().equals("waiting"));
  }

  static HttpFan placesFan(Node node) {
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("places-" + UUID.randomUUID() + "@example.com");
    return fan;
  }

  /** The fan's join, keeping the queue cookie it is given. */
  static HttpFan.Reply placesJoin(HttpFan fan, String eventId) {
    return Hostile.keepingCookie(fan, eventId, fan.send("POST", "/api/events/" + eventId + "/queue", "{}"));
  }

  /** The same account and queue token on {@code node} (another device, or the same one after a restart). */
  static HttpFan placesOn(Node node, HttpFan fan, String eventId) {
    HttpFan moved = new HttpFan(node.httpPort()).withCookie(fan.cookie());
    return fan.queueCookie(eventId) == null ? moved : moved.withQueueCookie(eventId, fan.queueCookie(eventId));
  }

  /** The fan's status once the node answers it (after a restart the room is heard again within seconds). */
  static com.fasterxml.jackson.databind.JsonNode placesStatus(HttpFan fan, String eventId) {
    java.util.concurrent.atomic.AtomicReference<HttpFan.Reply> last = new java.util.concurrent.atomic.AtomicReference<>();
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).pollInterval(java.time.Duration.ofMillis(100))
        .until(() -> {
          last.set(fan.send("GET", "/api/events/" + eventId + "/queue/status", null));
          return last.get().status() == 200;
        });
    return last.get().json();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void aLeaveAndRejoinLoopKeepsOnePlaceAndTheNextFanComesRightBehindIt(String database) throws Exception {
    io.boxoffice.support.MutableClock clock = new io.boxoffice.support.MutableClock(java.time.Instant.now());
    Node node = placesNode(database, Files.createTempDirectory("boxoffice-places"), clock);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String e = placesOnSale(sales, clock);
      for (int i = 0; i < 3; i++) assertEquals("lobby", placesJoin(placesFan(node), e).json().path("state").asText());
      placesStart(sales, e, clock);
      HttpFan bot = placesFan(node);
      int place = placesJoin(bot, e).json().path("position").asInt();
      assertEquals(4, place, "three in the lobby, then the bot");
      String token = bot.queueCookie(e);
      for (int i = 0; i < 11; i++) {
        assertEquals(204, bot.send("DELETE", "/api/events/" + e + "/queue", null).status());
        // Back from a fresh client (no queue cookie), and from one that kept the old token: the same place.
        HttpFan fresh = new HttpFan(node.httpPort()).withCookie(bot.cookie());
        HttpFan.Reply back = i % 2 == 0 ? placesJoin(fresh, e) : placesJoin(fresh.withQueueCookie(e, token), e);
        assertEquals(200, back.status(), back.body());
        assertEquals("waiting", back.json().path("state").asText(), back.body());
        assertEquals(place, back.json().path("position").asInt(), "round " + i + ": the same place back, not a new one");
      }
      HttpFan next = placesFan(node);
      assertEquals(place + 1, placesJoin(next, e).json().path("position").asInt(), "the next fan is fifth, not fifteenth");

      // The line passes them; after that leaving is final: no other place, a clear refusal.
      clock.advance(java.time.Duration.ofSeconds(60));
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
          .until(() -> placesStats(sales, e).path("admittedUpTo").asInt() >= place + 1);
      assertEquals(204, bot.send("DELETE", "/api/events/" + e + "/queue", null).status());
      Hostile.refused(placesJoin(new HttpFan(node.httpPort()).withCookie(bot.cookie()), e), 409, "place_given_up");
      assertEquals(place + 2, placesJoin(placesFan(node), e).json().path("position").asInt(), "nothing was minted for the bot");
    } finally {
      node.stop();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void whoLeftStaysLeftAcrossARestartAndItsTokenCannotHold(String database) throws Exception {
    io.boxoffice.support.MutableClock clock = new io.boxoffice.support.MutableClock(java.time.Instant.now());
    java.nio.file.Path dir = Files.createTempDirectory("boxoffice-places");
    Node node = placesNode(database, dir, clock);
    String e;
    HttpFan lobbyLeaver;
    HttpFan laterLeaver;
    HttpFan stayer;
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      e = placesOnSale(sales, clock);
      lobbyLeaver = placesFan(node);
      stayer = placesFan(node);
      placesJoin(lobbyLeaver, e);
      placesJoin(stayer, e);
      String lobbyToken = lobbyLeaver.queueCookie(e);
      assertEquals(204, lobbyLeaver.send("DELETE", "/api/events/" + e + "/queue", null).status());
      lobbyLeaver.withQueueCookie(e, lobbyToken);
      placesStart(sales, e, clock);
      laterLeaver = placesFan(node);
      placesJoin(laterLeaver, e);
      String laterToken = laterLeaver.queueCookie(e);
      assertEquals(204, laterLeaver.send("DELETE", "/api/events/" + e + "/queue", null).status());
      laterLeaver.withQueueCookie(e, laterToken);
      // The edge hears of it with the room's next manifest (a tick).
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
          .until(() -> placesStatus(laterLeaver, e).path("state").asText().equals("left"));
    } finally {
      node.stop();
    }

    Node again = placesNode(database, dir, clock);
    try {
      Sales sales = new Sales(again.httpPort(), TestNode.ADMIN_TOKEN);
      HttpFan lobbyCopy = placesOn(again, lobbyLeaver, e);
      HttpFan laterCopy = placesOn(again, laterLeaver, e);
      HttpFan stayerHere = placesOn(again, stayer, e);
      assertEquals("left", placesStatus(lobbyCopy, e).path("state").asText(), "the lobby leaver's token, after the restart");
      assertEquals("left", placesStatus(laterCopy, e).path("state").asText(), "the later leaver's token, after the restart");
      // The line moves past all of them: the stayer shops, the leavers' tokens never do.
      clock.advance(java.time.Duration.ofSeconds(60));
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
          .until(() -> placesStatus(stayerHere, e).path("state").asText().equals("admitted"));
      assertEquals(1, placesStats(sales, e).path("activeShoppers").asInt(), "the leavers count as no shoppers");
      for (HttpFan leaver : List.of(lobbyCopy, laterCopy)) {
        assertEquals("left", placesStatus(leaver, e).path("state").asText());
        Hostile.refused(leaver.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":1}}"), 403, "not_admitted");
      }
      HttpFan.Reply hold = stayerHere.send("POST", "/api/events/" + e + "/cart/holds", "{\"best\":{\"quantity\":1}}");
      assertEquals(200, hold.status(), hold.body());
    } finally {
      again.stop();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void placesStayDenseAcrossRestartsInTheLobbyAndAfterTheStart(String database) throws Exception {
    io.boxoffice.support.MutableClock clock = new io.boxoffice.support.MutableClock(java.time.Instant.now());
    java.nio.file.Path dir = Files.createTempDirectory("boxoffice-places");
    List<HttpFan> lobby = new ArrayList<>();
    String e;
    Node node = placesNode(database, dir, clock);
    try {
      e = placesOnSale(new Sales(node.httpPort(), TestNode.ADMIN_TOKEN), clock);
      for (int i = 0; i < 2; i++) {
        HttpFan fan = placesFan(node);
        assertEquals("lobby", placesJoin(fan, e).json().path("state").asText());
        lobby.add(fan);
      }
    } finally {
      node.stop();
    }

    int firstLater;
    node = placesNode(database, dir, clock);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      HttpFan third = placesFan(node);
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
          .until(() -> placesJoin(third, e).status() == 200);
      lobby.add(third);
      placesStart(sales, e, clock);
      java.util.Set<Integer> places = new java.util.TreeSet<>();
      for (HttpFan fan : lobby) places.add(placesStatus(placesOn(node, fan, e), e).path("position").asInt());
      assertEquals(java.util.Set.of(1, 2, 3), places, "three lobby accounts, places 1 to 3: no phantom of the restart in the lottery");
      firstLater = placesJoin(placesFan(node), e).json().path("position").asInt();
      assertEquals(4, firstLater);
    } finally {
      node.stop();
    }

    node = placesNode(database, dir, clock);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      HttpFan next = placesFan(node);
      java.util.concurrent.atomic.AtomicReference<HttpFan.Reply> joined = new java.util.concurrent.atomic.AtomicReference<>();
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
        joined.set(placesJoin(next, e));
        return joined.get().status() == 200;
      });
      assertEquals(firstLater + 1, joined.get().json().path("position").asInt(),
          "the next fan after a restart comes right after the last one: no lost block of places");
      clock.advance(java.time.Duration.ofSeconds(60));
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
          .until(() -> placesStats(sales, e).path("admittedUpTo").asInt() == firstLater + 1);
      assertEquals(firstLater + 1, placesStats(sales, e).path("activeShoppers").asInt(), "every admitted place is a fan's: no phantom shoppers");
    } finally {
      node.stop();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void fortyJoinsAtOnceOfOneAccountAfterTheStartMakeOnePlaceAndNoGap(String database) throws Exception {
    io.boxoffice.support.MutableClock clock = new io.boxoffice.support.MutableClock(java.time.Instant.now());
    Node node = placesNode(database, Files.createTempDirectory("boxoffice-places"), clock);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String e = placesOnSale(sales, clock);
      placesJoin(placesFan(node), e);
      placesStart(sales, e, clock);
      HttpFan bot = placesFan(node);
      List<CompletableFuture<HttpFan.Reply>> joins = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        // A fresh client each time (no queue cookie), all at once.
        joins.add(new HttpFan(node.httpPort()).withCookie(bot.cookie()).sendAsync("POST", "/api/events/" + e + "/queue", "{}"));
      }
      java.util.Set<Integer> places = new java.util.TreeSet<>();
      for (CompletableFuture<HttpFan.Reply> j : joins) {
        HttpFan.Reply r = j.join();
        assertEquals(200, r.status(), r.body());
        places.add(r.json().path("position").asInt());
      }
      assertEquals(java.util.Set.of(2), places, "one account, one place, however many tabs");
      assertEquals(3, placesJoin(placesFan(node), e).json().path("position").asInt(), "and no place nobody holds before the next fan");
    } finally {
      node.stop();
    }
  }

  // --- round two: findings 6, 12, 13 and 14 ---

  /** A node on {@code database} with the production limits, its embedded data (H2) in {@code dataDir}. */
  static Node start(String database, java.nio.file.Path dataDir, Config over) throws Exception {
    Config test = database.equals("h2") ? TestNode.config("", dataDir.toString()) : TestNode.config(TestNode.PG_URL, dataDir.toString());
    return Node.start(over.withFallback(production()).withFallback(test), new Node.Options(Clock.systemUTC(), TestNode.payments()));
  }

  /** The rows of the managers' directory for ids containing {@code marker}, read from the node's own database. */
  static List<String> directoryRows(String database, java.nio.file.Path dataDir, String marker) throws Exception {
    String url = database.equals("h2") ? "jdbc:h2:file:" + dataDir.toAbsolutePath().normalize().resolve("boxoffice") : TestNode.PG_URL;
    List<String> rows = new ArrayList<>();
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, database.equals("h2") ? "" : "postgres", "")) {
      for (io.boxoffice.admin.Directory.EventRow e : io.boxoffice.admin.Directory.events(c)) {
        if (e.eventId().contains(marker)) rows.add("event " + e.eventId());
      }
      for (io.boxoffice.admin.Directory.VenueRow v : io.boxoffice.admin.Directory.venues(c)) {
        if (v.venueId().contains(marker)) rows.add("venue " + v.venueId());
      }
    }
    return rows;
  }

  static double skipped(Node node, String tag) throws Exception {
    for (String line : Hostile.metrics(node).split("\n")) {
      if (line.startsWith("boxoffice_directory_rows_skipped_total{") && line.contains("tag=\"" + tag + "\"")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new AssertionError("no boxoffice_directory_rows_skipped_total{tag=" + tag + "} exported");
  }

  /**
   * Finding 6: a name with a control character is refused at the door (400, nothing made), and
   * the directory behind the managers' lists survives rows it cannot write that reached the
   * journal anyway (an event named with NUL written as the room would have before the rule, a
   * venue whose name PostgreSQL and H2 both refuse as too long): it skips them, counts them, and
   * lists the venue and event created after them.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void roundTwoPoisonedNamesAreRefusedAndTheListsGoOnPastARowTheyCannotWrite(String database) throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory("boxoffice-r2-names").resolve("data");
    Node node = start(database, dir, ConfigFactory.empty());
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String marker = "p" + UUID.randomUUID().toString().substring(0, 8);
      String venue = sales.venue();
      for (String name : List.of("Hall\\u0000", "Hall\\u0007", "Ha\\nll", "evil\\u202etxt", "a\\u200bb")) {
        HttpFan.Reply v = sales.admin("POST", "/admin/venues", "{\"venueId\":\"v" + marker + UUID.randomUUID().toString().substring(0, 4)
            + "\",\"name\":\"" + name + "\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}}");
        Hostile.refused(v, 400, "bad_request");
        HttpFan.Reply e = sales.admin("POST", "/admin/events", "{\"eventId\":\"e" + marker + UUID.randomUUID().toString().substring(0, 4)
            + "\",\"venueId\":\"" + venue + "\",\"name\":\"" + name + "\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}");
        Hostile.refused(e, 400, "bad_request");
        assertTrue(!v.body().contains("\u0000") && !e.body().contains("io.boxoffice"), v.body() + e.body());
      }

      // What reached the journal before the rule (or past it): written as the entities write their events.
      org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit kit =
          org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit.create(node.system());
      io.boxoffice.venue.domain.VenueLayout layout = io.boxoffice.venue.domain.StadiumGenerator.generate("x", "x", 100);
      io.boxoffice.support.JournalWriter.write(kit, "WaitingRoom|e-nul-" + marker, e -> java.util.Set.of(io.boxoffice.queue.OnSaleKeeper.EVENT_TAG),
          new io.boxoffice.queue.WaitingRoom.EventDefined("Poison\u0000Show", venue));
      io.boxoffice.support.JournalWriter.write(kit, "Venue|v-nul-" + marker, e -> java.util.Set.of(io.boxoffice.venue.Venue.TAG),
          new io.boxoffice.venue.Venue.VenueDefined(new io.boxoffice.venue.domain.VenueLayout("v-nul-" + marker, "Poison\u0000Hall", layout.sections())));
      io.boxoffice.support.JournalWriter.write(kit, "Venue|v-long-" + marker, e -> java.util.Set.of(io.boxoffice.venue.Venue.TAG),
          new io.boxoffice.venue.Venue.VenueDefined(new io.boxoffice.venue.domain.VenueLayout("v-long-" + marker, "L".repeat(1500), layout.sections())));

      // Good ones after them: listed, by the directory itself (not only from this node's memory).
      HttpFan.Reply goodVenue = sales.admin("POST", "/admin/venues", "{\"venueId\":\"v-good-" + marker
          + "\",\"name\":\"Good Hall\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}}");
      assertEquals(201, goodVenue.status(), goodVenue.body());
      HttpFan.Reply goodEvent = sales.admin("POST", "/admin/events", "{\"eventId\":\"e-good-" + marker + "\",\"venueId\":\"v-good-"
          + marker + "\",\"name\":\"Good Show\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}");
      assertEquals(201, goodEvent.status(), goodEvent.body());
      org.awaitility.Awaitility.await("the good venue and event in the directory").atMost(java.time.Duration.ofSeconds(30))
          .pollInterval(java.time.Duration.ofMillis(200))
          .untilAsserted(() -> assertEquals(List.of("event e-good-" + marker, "venue v-good-" + marker), directoryRows(database, dir, marker)));
      List<String> venues = sales.admin("GET", "/admin/venues", null).json().get("venues").findValuesAsText("venueId");
      assertTrue(venues.contains("v-good-" + marker) && venues.contains(venue), "GET /admin/venues lists them: " + venues);
      assertTrue(venues.stream().noneMatch(v -> v.contains("-nul-") || v.contains("-long-")), "the unwritable rows are skipped: " + venues);
      assertTrue(skipped(node, "event") >= 1, "the skipped event is counted");
      assertTrue(skipped(node, "venue") >= 2, "the skipped venues are counted");
    } finally {
      node.stop();
    }
  }

  /** Finding 12: the embedded data directory is 0700 and every file in it (the H2 database, the keys) 0600. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void roundTwoTheEmbeddedDataIsOwnerOnly(String database) throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory("boxoffice-r2-files").resolve("data");
    Map<String, Object> noKeys = new java.util.HashMap<>();
    if (database.equals("h2")) for (io.boxoffice.app.NodeSecrets.Secret s : io.boxoffice.app.NodeSecrets.SECRETS) noKeys.put(s.path(), "");
    Node node = start(database, dir, ConfigFactory.parseMap(noKeys));
    try {
      if (database.equals("h2")) {
        // Something stored: a venue, so the database has written its pages.
        String admin = keys(dir).getProperty("BOXOFFICE_ADMIN_TOKEN");
        new Sales(node.httpPort(), admin).venue();
        assertEquals("rwx------", mode(dir), "the data directory");
        List<String> files = new ArrayList<>();
        try (var list = Files.list(dir)) {
          list.forEach(f -> files.add(f.getFileName() + " " + mode(f)));
        }
        assertTrue(files.contains("boxoffice.mv.db rw-------"), files.toString());
        assertTrue(files.contains(io.boxoffice.app.NodeSecrets.FILE + " rw-------"), files.toString());
        assertTrue(files.stream().allMatch(f -> f.endsWith(" rw-------")), files.toString());
        // A file H2 makes while the node runs (its trace file, written on an error) is owner-only once the node stops.
        java.nio.file.Path trace = Files.writeString(dir.resolve("boxoffice.trace.db"), "an error H2 wrote\n");
        Files.setPosixFilePermissions(trace, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        node.stop();
        org.awaitility.Awaitility.await("the trace file owner-only after the stop").atMost(java.time.Duration.ofSeconds(10))
            .until(() -> mode(trace).equals("rw-------"));
      } else {
        assertTrue(!Files.exists(dir), "a node on PostgreSQL keeps nothing in a data directory");
      }
    } finally {
      node.stop();
    }
  }

  static java.util.Properties keys(java.nio.file.Path dir) throws Exception {
    java.util.Properties p = new java.util.Properties();
    try (var in = Files.newBufferedReader(dir.resolve(io.boxoffice.app.NodeSecrets.FILE))) {
      p.load(in);
    }
    return p;
  }

  static String mode(java.nio.file.Path p) {
    try {
      return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Finding 14: one gate token serves every gate, so a scan must name its event; the refused scan burns nothing. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void roundTwoAGateScanWithoutItsEventIsRefusedAndBurnsNothing(String database) throws Exception {
    Node node = start(database);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String event = sales.openEvent(sales.venue());
      String barcode = Sales.buyTwo(sales.fan(), event).get(0);
      HttpFan gate = new HttpFan(node.httpPort());
      HttpFan.Reply bare = gate.send("POST", "/gate/scan", "{\"barcode\":\"" + barcode + "\"}", "Authorization", "Bearer " + TestNode.GATE_TOKEN);
      assertEquals(400, bare.status(), bare.body());
      assertEquals("invalid", bare.json().get("result").asText());
      Hostile.refusedCleanly(bare);
      HttpFan.Reply admit = gate.send("POST", "/gate/scan", "{\"barcode\":\"" + barcode + "\",\"eventId\":\"" + event + "\"}",
          "Authorization", "Bearer " + TestNode.GATE_TOKEN);
      assertEquals(200, admit.status(), "the refused scan burned nothing: " + admit.body());
    } finally {
      node.stop();
    }
  }

  /** Finding 13c: a closed event's summary and manifest are the same 404 as an unknown event's (no seatsRemaining). */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void roundTwoAClosedEventsSummaryAndManifestAre404(String database) throws Exception {
    Node node = start(database);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String closed = sales.closedEvent(sales.venue());
      HttpFan fan = sales.fan();
      HttpFan.Reply unknown = fan.send("GET", "/api/events/no-such-" + UUID.randomUUID().toString().substring(0, 8) + "/summary", null);
      for (String path : List.of("/summary", "/queue/manifest")) {
        HttpFan.Reply r = fan.send("GET", "/api/events/" + closed + path, null);
        Hostile.refused(r, 404, "not_found");
        assertTrue(!r.body().contains("seatsRemaining") && !r.body().contains("closed"), path + ": " + r.body());
      }
      assertEquals(unknown.body(), fan.send("GET", "/api/events/" + closed + "/summary", null).body(), "the same answer as an unknown event's");
    } finally {
      node.stop();
    }
  }

  /** Milliseconds {@code send} took. */
  static long timed(Supplier<HttpFan.Reply> send, int expectedStatus) {
    long started = System.nanoTime();
    HttpFan.Reply r = send.get();
    long ms = (System.nanoTime() - started) / 1_000_000;
    assertEquals(expectedStatus, r.status(), r.body());
    return ms;
  }

  static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  /**
   * Finding 13a: 409 account_exists stays in the contract, so it must tell no more than the
   * answer: it takes the same per-email and per-network tokens as a 201 and as long (the
   * password is hashed, at the production cost, also for an account kept from before accounts
   * were keyed by hash, which answered at once).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void roundTwoASignUpForAnExistingEmailTakesAsLongAndCostsAsMuchAsANewOne(String database) throws Exception {
    Node node = start(database);
    try {
      HttpFan anon = new HttpFan(node.httpPort());
      String tag = UUID.randomUUID().toString().substring(0, 8);
      String legacy = "legacy-" + tag + "@example.com";
      org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit kit =
          org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit.create(node.system());
      io.boxoffice.support.JournalWriter.write(kit, "Account|" + legacy, e -> java.util.Set.of(),
          new io.boxoffice.accounts.Account.AccountRegistered("a-legacy-" + tag,
              new io.boxoffice.accounts.domain.PasswordHasher(1000).hash("an old password")));
      String existing = "existing-" + tag + "@example.com";
      assertEquals(201, anon.send("POST", "/api/accounts", Hostile.credentials(existing, PASSWORD), "X-Forwarded-For", network()).status());

      List<Long> created = new ArrayList<>();
      List<Long> legacyExists = new ArrayList<>();
      List<Long> exists = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        String fresh = "fresh-" + i + "-" + tag + "@example.com";
        created.add(timed(() -> anon.send("POST", "/api/accounts", Hostile.credentials(fresh, PASSWORD), "X-Forwarded-For", network()), 201));
        legacyExists.add(timed(() -> anon.send("POST", "/api/accounts", Hostile.credentials(legacy, PASSWORD), "X-Forwarded-For", network()), 409));
        exists.add(timed(() -> anon.send("POST", "/api/accounts", Hostile.credentials(existing, PASSWORD), "X-Forwarded-For", network()), 409));
      }
      // A 201 is a PBKDF2 run at the production cost and a journal write; a 409 that skipped
      // either answered in a fraction of it. The margin is wide: this machine's timings are noisy.
      assertTrue(median(legacyExists) * 3 >= median(created), "a kept account's 409 takes as long: 409 " + legacyExists + " vs 201 " + created);
      assertTrue(median(exists) * 3 >= median(created), "an account's 409 takes as long: 409 " + exists + " vs 201 " + created);

      // Tokens: an email's budget is spent by 409s as by 201s.
      int burst = ConfigFactory.load().getInt("boxoffice.accounts.rate-limits.per-email.burst");
      String spent = "spent-" + tag + "@example.com";
      int answered = 0;
      HttpFan.Reply r;
      while ((r = anon.send("POST", "/api/accounts", Hostile.credentials(spent, PASSWORD), "X-Forwarded-For", network())).status() != 429) {
        assertEquals(answered == 0 ? 201 : 409, r.status(), r.body());
        answered++;
        assertTrue(answered <= burst + 1, "409s take the email's tokens: " + answered + " answered");
      }
      Hostile.refused(r, 429, "rate_limited");
    } finally {
      node.stop();
    }
  }

  /**
   * Finding 13b: local+1@domain, local+2@domain, ... are accounts of their own (tests and the
   * simulator make many) but one mailbox's budget: from as many networks as the attacker likes,
   * the seventh sign-up of one mailbox within its budget's refill is 429, and so is its owner's
   * own address meanwhile (the same mailbox).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void roundTwoPlusAddressesDrawOnTheirMailboxsBudget(String database) throws Exception {
    Node node = start(database);
    try {
      HttpFan anon = new HttpFan(node.httpPort());
      String local = "plus-" + UUID.randomUUID().toString().substring(0, 8);
      int burst = ConfigFactory.load().getInt("boxoffice.accounts.rate-limits.per-email.burst");
      Map<Integer, Integer> statuses = new TreeMap<>();
      List<String> made = new ArrayList<>();  // account ids
      for (int i = 1; i <= burst + 4; i++) {
        String email = local + "+" + i + "@example.com";
        HttpFan.Reply r = anon.send("POST", "/api/accounts", Hostile.credentials(email, PASSWORD), "X-Forwarded-For", network());
        statuses.merge(r.status(), 1, Integer::sum);
        if (r.status() == 201) made.add(r.json().get("accountId").asText());
        else Hostile.refused(r, 429, "rate_limited");
      }
      assertTrue(made.size() <= burst + 1, "at most the mailbox's burst (and a refilled token) of accounts: " + statuses);
      assertTrue(statuses.getOrDefault(429, 0) >= 3, "the rest are 429: " + statuses);
      Hostile.refused(anon.send("POST", "/api/accounts", Hostile.credentials(local + "@example.com", PASSWORD), "X-Forwarded-For", network()),
          429, "rate_limited");
      assertEquals(made.size(), new java.util.HashSet<>(made).size(), "each address made an account of its own: " + made);
    } finally {
      node.stop();
    }
  }

  /**
   * Finding 13d: a field a request does not have is 400 bad_request naming the field as the
   * client wrote it (no class names), and changes nothing, for fans and managers alike.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void roundTwoUnknownJsonFieldsAreRefusedNamingTheField(String database) throws Exception {
    Node node = start(database);
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String venue = sales.venue();
      String event = sales.openEvent(venue);
      HttpFan anon = new HttpFan(node.httpPort());
      String email = "unknown-field-" + UUID.randomUUID() + "@example.com";

      HttpFan.Reply signUp = anon.send("POST", "/api/accounts", "{\"email\":\"" + email + "\",\"password\":\"" + PASSWORD
          + "\",\"role\":\"admin\"}", "X-Forwarded-For", network());
      Hostile.refused(signUp, 400, "bad_request");
      assertEquals("unknown field \"role\"", signUp.json().get("message").asText());
      assertEquals(201, anon.send("POST", "/api/accounts", Hostile.credentials(email, PASSWORD), "X-Forwarded-For", network()).status(),
          "the refused sign-up made no account");

      HttpFan fan = sales.fan();
      String before = sales.stats(event);
      HttpFan.Reply hold = fan.send("POST", "/api/events/" + event + "/cart/holds", "{\"best\":{\"quantity\":1,\"maxPriceCent\":1}}");
      Hostile.refused(hold, 400, "bad_request");
      assertEquals("unknown field \"best.maxPriceCent\"", hold.json().get("message").asText());
      assertEquals(before, sales.stats(event), "nothing held");

      String eventId = "e-" + UUID.randomUUID().toString().substring(0, 8);
      HttpFan.Reply create = sales.admin("POST", "/admin/events", "{\"eventId\":\"" + eventId + "\",\"venueId\":\"" + venue
          + "\",\"name\":\"Show\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20},\"onSale\":{}}");
      Hostile.refused(create, 400, "bad_request");
      assertEquals("unknown field \"onSale\"", create.json().get("message").asText());
      assertTrue(sales.admin("GET", "/admin/events", null).json().get("events").findValuesAsText("eventId").stream()
          .noneMatch(eventId::equals), "no event made");
      for (HttpFan.Reply r : List.of(signUp, hold, create)) {
        assertTrue(!r.body().contains("io.boxoffice") && !r.body().contains("Credentials") && !r.body().contains("class"), r.body());
      }
    } finally {
      node.stop();
    }
  }

  // --- round two: findings 4 and 5 (sign-in, sign-out) ---

  /** The shipped sign-in limits (every bucket of {@code boxoffice.accounts.rate-limits}) over a test node's, on {@code dir} for H2. */
  static Node startWithShippedSignInLimits(String database, java.nio.file.Path dir) throws Exception {
    Config test = database.equals("h2") ? TestNode.config("", dir.toString()) : TestNode.config(TestNode.PG_URL, "target/unused");
    Config limits = ConfigFactory.load().getConfig("boxoffice.accounts.rate-limits").atPath("boxoffice.accounts.rate-limits");
    return Node.start(limits.withFallback(test), new Node.Options(Clock.systemUTC(), TestNode.payments()));
  }

  static HttpFan.Reply signIn(int port, String email, String password, String network) {
    return new HttpFan(port).send("POST", "/api/session", Hostile.credentials(email, password), "X-Forwarded-For", network);
  }

  static String cookieOf(HttpFan.Reply signedIn) {
    assertEquals(200, signedIn.status(), signedIn.body());
    String c = signedIn.headers().allValues("Set-Cookie").stream().filter(v -> v.startsWith("bo_id=")).findFirst().orElseThrow();
    return c.substring("bo_id=".length(), c.indexOf(';'));
  }

  /** Finding 4: strangers' wrong passwords, from one network or from many, never lock the owner out of their own networks. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void wrongPasswordsFromStrangersNetworksDoNotLockTheOwnerOut(String database) throws Exception {
    Node node = startWithShippedSignInLimits(database, Files.createTempDirectory("boxoffice-signin"));
    try {
      int port = node.httpPort();
      String owner = "owner-" + UUID.randomUUID() + "@example.com";
      String home = network();
      assertEquals(201, new HttpFan(port).send("POST", "/api/accounts", Hostile.credentials(owner, PASSWORD), "X-Forwarded-For", home).status());
      cookieOf(signIn(port, owner, PASSWORD, home));

      // One stranger's network: its budget for this email (6), then 429.
      String attacker = network();
      List<HttpFan.Reply> guesses = new ArrayList<>();
      for (int i = 0; i < 10; i++) guesses.add(signIn(port, owner, "wrong guess " + i, attacker));
      guesses.subList(0, 6).forEach(r -> Hostile.refused(r, 401, "unauthenticated"));
      guesses.subList(6, 10).forEach(r -> {
        Hostile.refused(r, 429, "rate_limited");
        assertTrue(Long.parseLong(r.headers().firstValue("Retry-After").orElseThrow()) >= 1);
      });
      assertEquals(429, signIn(port, owner, PASSWORD, attacker).status(), "the right password from the attacker's network waits too");

      // The owner signs in from home, and from a network of their own they never used, within its budget.
      cookieOf(signIn(port, owner, PASSWORD, home));
      String phone = network();
      cookieOf(signIn(port, owner, PASSWORD, phone));

      // A distributed attack: one wrong guess from each of 80 networks meets the email's ceiling...
      int limited = 0;
      for (int i = 0; i < 80; i++) {
        HttpFan.Reply r = signIn(port, owner, "distributed guess " + i, network());
        if (r.status() == 429) {
          Hostile.refused(r, 429, "rate_limited");
          limited++;
        } else {
          Hostile.refused(r, 401, "unauthenticated");
        }
      }
      assertTrue(limited >= 80 - 60, "the email's ceiling over strangers' networks: " + limited + " of 80 limited");
      assertEquals(429, signIn(port, owner, PASSWORD, network()).status(), "a network never seen waits for the ceiling to refill");
      // ...and still the owner signs in from both networks they signed in from before.
      cookieOf(signIn(port, owner, PASSWORD, home));
      cookieOf(signIn(port, owner, PASSWORD, phone));
    } finally {
      node.stop();
    }
  }

  /** An on-sale that starts in two seconds and admits everyone at once; its id. */
  static String startingOnSale(Sales sales) {
    String event = sales.closedEvent(sales.venue());
    java.time.Instant now = java.time.Instant.now();
    HttpFan.Reply put = sales.admin("PUT", "/admin/events/" + event + "/onsale", "{\"lobbyOpensAt\":\"" + now
        + "\",\"startsAt\":\"" + now.plusSeconds(2) + "\",\"admissionPerMinute\":6000,\"maxActiveShoppers\":1000}");
    assertEquals(200, put.status(), put.body());
    return event;
  }

  /** Signs {@code email} up and in on {@code port}, joins {@code event}, waits until admitted and holds a seat: the fan with both cookies. */
  static HttpFan admittedHolding(int port, String event, String email) {
    HttpFan fan = new HttpFan(port);
    fan.signUp(email);
    HttpFan.Reply join = Hostile.keepingCookie(fan, event, fan.send("POST", "/api/events/" + event + "/queue", "{}"));
    assertEquals(200, join.status(), join.body());
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).pollInterval(java.time.Duration.ofMillis(200))
        .until(() -> Hostile.keepingCookie(fan, event, fan.send("GET", "/api/events/" + event + "/queue/status", null))
            .body().contains("\"admitted\""));
    HttpFan.Reply hold = fan.send("POST", "/api/events/" + event + "/cart/holds", "{\"best\":{\"quantity\":1}}");
    assertEquals(200, hold.status(), hold.body());
    return fan;
  }

  /** Another device of the account signed in on its own, with the fan's queue token (same network). */
  static HttpFan secondDevice(int port, String email, HttpFan fan, String event) {
    HttpFan.Reply in = new HttpFan(port).send("POST", "/api/session", Hostile.credentials(email, PASSWORD));
    return new HttpFan(port).withCookie(cookieOf(in)).withQueueCookie(event, fan.queueCookie(event));
  }

  /** A copy of {@code fan}'s cookies (identity and the event's queue token) talking to {@code port}. */
  static HttpFan replay(HttpFan fan, int port, String event) {
    return new HttpFan(port).withCookie(fan.cookie()).withQueueCookie(event, fan.queueCookie(event));
  }

  /** Every signed-in call of the fan's is 401 with these cookies: tickets, queue status, holds, the cart. */
  static void signedOut(HttpFan replayed, String event) {
    Hostile.refused(replayed.send("GET", "/api/me/tickets", null), 401, "unauthenticated");
    Hostile.refused(replayed.send("GET", "/api/events/" + event + "/queue/status", null), 401, "unauthenticated");
    Hostile.refused(replayed.send("POST", "/api/events/" + event + "/cart/holds", "{\"best\":{\"quantity\":1}}"), 401, "unauthenticated");
    Hostile.refused(replayed.send("GET", "/api/events/" + event + "/cart", null), 401, "unauthenticated");
  }

  /** The fan's session works: tickets and queue status answer 200. */
  static void stillSignedIn(HttpFan fan, String event) {
    HttpFan.Reply tickets = fan.send("GET", "/api/me/tickets", null);
    assertEquals(200, tickets.status(), tickets.body());
    HttpFan.Reply status = fan.send("GET", "/api/events/" + event + "/queue/status", null);
    assertEquals(200, status.status(), status.body());
  }

  static void clearsTheCookie(HttpFan.Reply out) {
    assertEquals(204, out.status(), out.body());
    assertTrue(out.headers().allValues("Set-Cookie").stream().anyMatch(c -> c.startsWith("bo_id=") && c.contains("Max-Age=0")),
        "the cookie is cleared: " + out.headers().allValues("Set-Cookie"));
  }

  /** Finding 5: after DELETE /api/session the old cookie is 401 everywhere, also after a restart; the account's other sessions stay. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void signingOutRevokesThatSessionOnTheServerAlsoAfterARestart(String database) throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory("boxoffice-signout");
    Node node = startWithShippedSignInLimits(database, dir);
    String event;
    HttpFan fan;
    HttpFan other;
    try {
      int port = node.httpPort();
      event = startingOnSale(new Sales(port, TestNode.ADMIN_TOKEN));
      String email = "signout-" + UUID.randomUUID() + "@example.com";
      fan = admittedHolding(port, event, email);
      other = secondDevice(port, email, fan, event);
      stillSignedIn(replay(fan, port, event), event);
      clearsTheCookie(replay(fan, port, event).send("DELETE", "/api/session", null));
      signedOut(replay(fan, port, event), event);
      stillSignedIn(replay(other, port, event), event);
      assertEquals(204, replay(fan, port, event).send("DELETE", "/api/session", null).status(), "signing out again is harmless");
    } finally {
      node.stop();
    }
    Node again = startWithShippedSignInLimits(database, dir);
    try {
      signedOut(replay(fan, again.httpPort(), event), event);
      stillSignedIn(replay(other, again.httpPort(), event), event);
    } finally {
      again.stop();
    }
  }

  /** Finding 5: DELETE /api/sessions makes every earlier cookie of the account 401, also after a restart; a new sign-in works. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void signingOutEverywhereRevokesEverySessionBeforeAndANewSignInWorks(String database) throws Exception {
    java.nio.file.Path dir = Files.createTempDirectory("boxoffice-signout-all");
    Node node = startWithShippedSignInLimits(database, dir);
    String event;
    String email = "everywhere-" + UUID.randomUUID() + "@example.com";
    HttpFan fan;
    HttpFan other;
    HttpFan fresh;
    try {
      int port = node.httpPort();
      event = startingOnSale(new Sales(port, TestNode.ADMIN_TOKEN));
      fan = admittedHolding(port, event, email);
      other = secondDevice(port, email, fan, event);
      Hostile.refused(new HttpFan(port).send("DELETE", "/api/sessions", null), 401, "unauthenticated");
      clearsTheCookie(replay(other, port, event).send("DELETE", "/api/sessions", null));
      signedOut(replay(fan, port, event), event);
      signedOut(replay(other, port, event), event);
      fresh = secondDevice(port, email, fan, event);
      stillSignedIn(fresh, event);
    } finally {
      node.stop();
    }
    Node again = startWithShippedSignInLimits(database, dir);
    try {
      signedOut(replay(fan, again.httpPort(), event), event);
      signedOut(replay(other, again.httpPort(), event), event);
      stillSignedIn(replay(fresh, again.httpPort(), event), event);
      stillSignedIn(secondDevice(again.httpPort(), email, fan, event), event);
    } finally {
      again.stop();
    }
  }

  // --- round two: findings 7, 10 and 11 ---

  /** A node with the production limits and {@code overrides} over the test node's settings. */
  static Node start(String database, Config overrides) throws Exception {
    Config test = database.equals("h2")
        ? TestNode.config("", Files.createTempDirectory("boxoffice-battery").toString())
        : TestNode.config(TestNode.PG_URL, "target/unused");
    return Node.start(overrides.withFallback(production()).withFallback(test), new Node.Options(Clock.systemUTC(), TestNode.payments()));
  }

  /** A signed-in fan on a network of its own (its requests name that network through the trusted loopback proxy). */
  static HttpFan signedIn(int port, String net) {
    HttpFan fan = new HttpFan(port);
    String credentials = Hostile.credentials("r2-" + UUID.randomUUID() + "@example.com", PASSWORD);
    LongAdder ignored = new LongAdder();
    assertEquals(201, patiently(ignored, () -> fan.send("POST", "/api/accounts", credentials, "X-Forwarded-For", net)).status());
    HttpFan.Reply in = patiently(ignored, () -> fan.send("POST", "/api/session", credentials, "X-Forwarded-For", net));
    assertEquals(200, in.status(), in.body());
    String cookie = in.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_id=")).findFirst().orElseThrow();
    return fan.withCookie(cookie.substring("bo_id=".length(), cookie.indexOf(';')));
  }

  /**
   * Finding 7: a 70,000-seat map (7.9 MB as plain contract JSON) is refused to a client that does
   * not take gzip, with the contract's JSON error, and is served gzipped; and its reads cost the
   * account its size in tokens, so a burst of 20 tokens gives a handful of maps, not 20 (nor 25
   * in 4 s, the 560 MB of the finding).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void aBigSeatMapIsSentOnlyGzippedAndItsReadsCostTheirSizeInTheRateLimit(String database) throws Exception {
    Node node = start(database, ConfigFactory.empty());
    try {
      Sales sales = new Sales(node.httpPort(), TestNode.ADMIN_TOKEN);
      String venueId = "v-" + UUID.randomUUID().toString().substring(0, 8);
      assertEquals(201, sales.admin("POST", "/admin/venues", "{\"venueId\":\"" + venueId + "\",\"name\":\"Stadium\","
          + "\"generate\":{\"layout\":\"stadium\",\"seats\":70000}}").status());
      String eventId = sales.openEvent(venueId);
      String net = network();
      HttpFan fan = signedIn(node.httpPort(), net);
      String map = "/api/events/" + eventId + "/seatmap";

      HttpFan.Reply plain = fan.send("GET", map, null, "X-Forwarded-For", net);
      Hostile.refused(plain, 406, "gzip_required");
      assertTrue(plain.json().get("message").asText().contains("gzip"), plain.body());
      HttpFan.Reply identity = fan.send("GET", map, null, "X-Forwarded-For", net, "Accept-Encoding", "identity");
      Hostile.refused(identity, 406, "gzip_required");
      HttpFan.Reply compactPlain = fan.send("GET", map + "?format=compact", null, "X-Forwarded-For", net);
      assertEquals(200, compactPlain.status(), "the compact form (0.8 MB) is under the plain limit");

      // The contract's geometry JSON, gzipped, until the account's bucket says no.
      int served = 0;
      HttpFan.Reply last = null;
      for (int i = 0; i < 20; i++) {
        last = fan.send("GET", map, null, "X-Forwarded-For", net, "Accept-Encoding", "gzip");
        if (last.status() != 200) break;
        assertEquals("gzip", last.headers().firstValue("Content-Encoding").orElse(""));
        served++;
      }
      assertTrue(served >= 1, "a fan reads the map");
      assertEquals(429, last.status(), "20 reads of a 70,000-seat map from one account: " + served + " served");
      assertTrue(served <= 8, "each gzipped map (~700 KB) costs about 3 tokens of 20: " + served + " served");
      assertTrue(last.headers().firstValue("Retry-After").isPresent());
      Hostile.refused(last, 429, "rate_limited");
      // Another account on another network is served meanwhile.
      String other = network();
      assertEquals(200, signedIn(node.httpPort(), other).send("GET", map, null, "X-Forwarded-For", other,
          "Accept-Encoding", "gzip").status());
      System.out.printf("seat map on %s: %d gzipped reads of a 70,000-seat map before 429%n", database, served);
    } finally {
      node.stop();
    }
  }

  static final List<String> LEAKS = List.of("$", "io.boxoffice", "com.fasterxml", "Coercion", "java.", "jackson", "Jackson");

  /** Bodies no route takes: duplicate keys, wrong types, deep nesting, huge numbers, cut-short and non-JSON text. */
  static List<String> malformed() {
    return List.of(
        "{\"email\":\"a@example.com\",\"email\":\"b@example.com\",\"password\":\"correct horse battery\"}",
        "{\"email\":1,\"password\":\"correct horse battery\"}",
        "{\"email\":[\"a\"],\"password\":{}}",
        "{\"best\":{\"quantity\":\"2\"}}",
        "{\"best\":{\"quantity\":2,\"quantity\":8}}",
        "{\"best\":{\"quantity\":99999999999999999999999999}}",
        "{\"best\":{\"quantity\":" + "9".repeat(3000) + "}}",
        "{\"best\":{\"quantity\":1e999}}",
        "{\"seats\":[1,2]}",
        "{\"seats\":\"F1-A-1\"}",
        "{\"eventId\":\"e\",\"venueId\":\"v\",\"name\":\"S\",\"prices\":{\"floor\":\"x\"},\"holdSeconds\":\"480\"}",
        "{\"eventId\":\"e\",\"prices\":[],\"maxSeatsPerAccount\":4800000000}",
        "{\"venueId\":\"v\",\"sections\":[{\"rows\":[{\"seats\":\"many\"}]}]}",
        "{\"paymentToken\":7}",
        "{\"barcode\":{},\"eventId\":[]}",
        "{\"$type\":\"java.lang.Runtime\",\"$type\":1}",
        "{\"email\":\"a@example.com\"",
        "{\"em",
        "{",
        "[1,2,3]",
        "\"a string\"",
        "{\"email\":\"a\"} {\"email\":\"b\"}",
        "{'email':'a'}",
        "{\"email\":\"\\uZZZZ\"}",
        "NaN",
        "{\"seats\":" + "[".repeat(2000) + "]".repeat(2000) + "}",
        "{\"best\":" + "{\"best\":".repeat(1500) + "1" + "}".repeat(1501));
  }

  /**
   * Finding 10: whatever is wrong with a body, on every route that reads one, the 400 says so in a
   * plain sentence that names no class, package or Jackson setting (a duplicate key's named
   * {@code AccountRoutes$Credentials} and "CoercionConfig"), and nothing was created.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void noErrorMessageNamesOurClassesPackagesOrJackson(String database) throws Exception {
    // One account sends every body to the shop's and the queue's routes: its own rate limit is
    // lifted here, so that each body is answered on its own merits, not with a 429.
    Node node = start(database, ConfigFactory.parseMap(Map.of("boxoffice.bots.rate-limits.per-account.burst", 100_000)));
    try {
      int port = node.httpPort();
      Sales sales = new Sales(port, TestNode.ADMIN_TOKEN);
      String eventId = sales.openEvent(sales.venue());
      String net = network();
      HttpFan fan = signedIn(port, net);
      String before = sales.stats(eventId);
      List<String> routes = List.of("/api/accounts", "/api/session", "/api/events/" + eventId + "/cart/holds",
          "/api/events/" + eventId + "/cart/checkout", "/api/events/" + eventId + "/queue", "/admin/events", "/admin/venues",
          "/gate/scan");
      int checked = 0;
      for (String route : routes) {
        for (String body : malformed()) {
          String from = network(); // each its own network: the refusals are about the body, not a rate limit
          HttpFan.Reply r;
          if (route.startsWith("/admin")) {
            r = new HttpFan(port).send("POST", route, body, "Authorization", "Bearer " + TestNode.ADMIN_TOKEN);
          } else if (route.equals("/gate/scan")) {
            r = new HttpFan(port).send("POST", route, body, "Authorization", "Bearer " + TestNode.GATE_TOKEN);
          } else {
            r = fan.send("POST", route, body, "X-Forwarded-For", from, "Idempotency-Key", UUID.randomUUID().toString());
          }
          String what = route + " " + (body.length() > 60 ? body.substring(0, 60) + "..." : body) + " -> " + r.status() + " " + r.body();
          assertTrue(r.status() < 500, what);
          // A body that is valid JSON for a route that ignores unknown fields (a queue join) may be taken.
          if (r.status() < 400) continue;
          assertTrue(r.status() != 429, "refused for its body, not a rate limit: " + what);
          Hostile.refusedCleanly(r);
          String message = r.json().path("message").asText();
          for (String leak : LEAKS) org.junit.jupiter.api.Assertions.assertFalse(message.contains(leak), "'" + leak + "' in " + what);
          checked++;
        }
      }
      HttpFan.Reply duplicate = new HttpFan(port).send("POST", "/api/accounts", "{\"email\":\"a-" + UUID.randomUUID()
          + "@example.com\",\"email\":\"b@example.com\",\"password\":\"correct horse battery\"}", "X-Forwarded-For", network());
      Hostile.refused(duplicate, 400, "bad_request");
      assertEquals("duplicate field \"email\"", duplicate.json().get("message").asText());
      HttpFan.Reply wrongType = fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":\"2\"}}",
          "X-Forwarded-For", net);
      Hostile.refused(wrongType, 400, "bad_request");
      assertTrue(wrongType.json().get("message").asText().contains("\"best.quantity\""), wrongType.body());
      assertEquals(before, sales.stats(eventId), "nothing held or sold");
      assertTrue(checked > routes.size() * malformed().size() * 3 / 4, checked + " refused");
      System.out.printf("plain errors on %s: %d malformed bodies refused on %d routes%n", database, checked, routes.size());
    } finally {
      node.stop();
    }
  }

  /** A raw HTTP/1.1 connection to {@code port} from the local address {@code from}. */
  static java.net.Socket connect(int port, String from) throws java.io.IOException {
    java.net.Socket s = new java.net.Socket();
    s.bind(new java.net.InetSocketAddress(java.net.InetAddress.getByName(from), 0));
    s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 2000);
    s.setSoTimeout(10_000);
    return s;
  }

  /** The status of one keep-alive request on {@code s} (its whole answer read), or -1 when the server closed the connection instead. */
  static int request(java.net.Socket s, String path) {
    try {
      s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: fans\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      java.io.InputStream in = s.getInputStream();
      StringBuilder head = new StringBuilder();
      while (!head.toString().endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) return -1;
        head.append((char) b);
      }
      java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
      if (length.find()) in.readNBytes(Integer.parseInt(length.group(1)));
      return Integer.parseInt(head.substring(9, 12));
    } catch (java.io.IOException e) {
      return -1; // reset
    }
  }

  /**
   * Finding 11: one host (the TCP peer 127.0.0.1, whatever X-Forwarded-For says) holds at most its
   * cap of open connections; the next ones are closed unanswered, its own keep going, a client at
   * another address (127.0.0.2) is served, and an idle connection is closed after the idle timeout.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "postgres"})
  void aHostOverItsConnectionCapHasNewConnectionsClosedWhileAnotherAddressIsServed(String database) throws Exception {
    int cap = 4;
    Node node = start(database, ConfigFactory.parseMap(Map.of(
        "boxoffice.http.connections.per-client", cap,
        "boxoffice.http.connections.idle-timeout", "3s",
        "boxoffice.http.connections.exempt", List.of())));
    List<java.net.Socket> mine = new ArrayList<>();
    try {
      int port = node.httpPort();
      String page = "/api/openapi.json";
      for (int i = 0; i < cap; i++) {
        java.net.Socket s = connect(port, "127.0.0.1");
        mine.add(s);
        assertEquals(200, request(s, page), "connection " + (i + 1) + " of " + cap);
      }
      int closed = 0;
      for (int i = 0; i < 20; i++) {
        try (java.net.Socket over = connect(port, "127.0.0.1")) {
          if (request(over, page) == -1) closed++;
        }
      }
      assertEquals(20, closed, "every connection over the cap is closed unanswered");
      try (java.net.Socket other = connect(port, "127.0.0.2")) {
        assertEquals(200, request(other, page), "a client at another address is served");
      }
      for (java.net.Socket s : mine) assertEquals(200, request(s, page), "the host's own connections go on");
      // Idle for the idle timeout (3 s here, 20 s shipped): closed by the server, and its place freed.
      long started = System.nanoTime();
      int read;
      try {
        read = mine.get(0).getInputStream().read();
      } catch (java.net.SocketException reset) {
        read = -1;
      }
      long idleMs = (System.nanoTime() - started) / 1_000_000;
      assertEquals(-1, read, "an idle connection is closed");
      assertTrue(idleMs >= 2000 && idleMs < 9000, "closed after " + idleMs + " ms idle");
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> {
        try (java.net.Socket again = connect(port, "127.0.0.1")) {
          return request(again, page) == 200;
        }
      });
    } finally {
      for (java.net.Socket s : mine) s.close();
      node.stop();
    }
  }
}
