package io.boxoffice.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.load.Storefront;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One fan of an on-sale under fire: signs up, joins the waiting room, waits to be admitted, then
 * holds the best 1-2 seats and checks out, again and again, until its account's seat limit is
 * near, its time is up, or it walks away leaving a hold behind (abandons). Sometimes it releases
 * what it holds instead of buying. Its cookies work on every node, so when its node does not
 * answer it simply goes on with the next.
 */
final class Fan {

  /** How fans behave. */
  record Behaviour(int maxSeatsPerAccount, double abandonShare, double releaseShare, double slowShare, long thinkMillis) {}

  static final Duration CALL_TIMEOUT = Duration.ofSeconds(6);
  static final Duration CHECKOUT_TIMEOUT = Duration.ofSeconds(15);
  /** How long a fan keeps trying one step before it gives up on it. */
  static final long STEP_MILLIS = 45_000;

  final int id;
  private final String eventId;
  private final Storefront store;
  private final SaleLog log;
  private final Behaviour behaviour;
  private final int[] home;
  private final String forwardedFor;
  private String accountId;
  private String identity;
  private String queueToken;
  private int seatsBought;

  Fan(int id, String eventId, Storefront store, SaleLog log, Behaviour behaviour) {
    this.id = id;
    this.eventId = eventId;
    this.store = store;
    this.log = log;
    this.behaviour = behaviour;
    this.home = new int[] {id % store.nodes()};
    // Each fan its own client network (198.18.0.0/15 is for benchmarks): queue tokens are bound
    // to it, and the per-network rate limit is not what this run measures.
    this.forwardedFor = "198." + (18 + (id / 256) % 2) + "." + (id % 256) + "." + (1 + id % 200);
  }

  String accountId() {
    return accountId;
  }

  /** The headers of this fan's calls: its cookies (Secure, so set by hand) and its network. */
  Map<String, String> headers() {
    return Storefront.fanHeaders(eventId, identity, queueToken, forwardedFor);
  }

  private Storefront.Reply call(String name, String method, String path, String body, Duration timeout, long deadline,
                                String... extra) {
    Map<String, String> h = headers();
    for (int i = 0; i + 1 < extra.length; i += 2) h.put(extra[i], extra[i + 1]);
    Storefront.Reply r = store.call(name, home, method, path, body, timeout, deadline, h);
    r.setCookie("bo_q_" + eventId).ifPresent(t -> queueToken = t);
    return r;
  }

  /** The whole journey; returns when the fan is done or {@code endMillis} has passed. */
  void shop(long endMillis) {
    log.fansStarted.increment();
    if (!signUp(endMillis) || !join(endMillis) || !admitted(endMillis)) return;
    log.admitted(System.currentTimeMillis());
    while (System.currentTimeMillis() < endMillis && seatsBought + 2 <= behaviour.maxSeatsPerAccount()) {
      think();
      if (System.currentTimeMillis() >= endMillis) return;
      Round next = round(endMillis);
      if (next == Round.LEAVE) return;
      if (next == Round.WAIT_AGAIN && !admitted(endMillis)) return;
    }
  }

  private boolean signUp(long endMillis) {
    String email = "fan-" + id + "-" + UUID.randomUUID().toString().substring(0, 8) + "@chaos.example.com";
    String credentials = "{\"email\":\"" + email + "\",\"password\":\"correct horse battery\"}";
    long deadline = Math.min(endMillis, System.currentTimeMillis() + STEP_MILLIS);
    Storefront.Reply created = call("sign-up", "POST", "/api/accounts", credentials, CALL_TIMEOUT, deadline);
    // 409: an earlier try that timed out did register the account.
    if (created.status() != 201 && created.status() != 409) return false;
    Storefront.Reply session = call("sign-in", "POST", "/api/session", credentials, CALL_TIMEOUT, deadline);
    if (session.status() != 200) return false;
    identity = session.setCookie("bo_id").orElse(null);
    accountId = session.json().path("accountId").asText(null);
    return identity != null && accountId != null;
  }

  private boolean join(long endMillis) {
    long deadline = Math.min(endMillis, System.currentTimeMillis() + STEP_MILLIS);
    while (System.currentTimeMillis() < deadline) {
      Storefront.Reply r = call("join", "POST", "/api/events/" + eventId + "/queue", "{}", CALL_TIMEOUT, deadline);
      if (r.status() == 200 && queueToken != null) return true;
      if (r.status() != 409) return false;
      Storefront.sleep(1000);
    }
    return false;
  }

  /** Polls the status about once a second until admitted. */
  private boolean admitted(long endMillis) {
    while (System.currentTimeMillis() < endMillis) {
      Storefront.Reply r = call("status", "GET", "/api/events/" + eventId + "/queue/status", null, CALL_TIMEOUT, endMillis);
      if (r.status() == 200) {
        String state = r.json().path("state").asText();
        if (state.equals("admitted")) return true;
        if (state.equals("sold_out") || state.equals("closed")) return false;
      }
      Storefront.sleep(800 + ThreadLocalRandom.current().nextLong(400));
    }
    return false;
  }

  private enum Round { AGAIN, WAIT_AGAIN, LEAVE }

  private Round round(long endMillis) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int quantity = 1 + random.nextInt(2);
    long deadline = Math.min(endMillis, System.currentTimeMillis() + STEP_MILLIS);
    Storefront.Reply hold = call("hold", "POST", "/api/events/" + eventId + "/cart/holds",
        "{\"best\":{\"quantity\":" + quantity + "}}", CALL_TIMEOUT, deadline);
    if (hold.status() == 403 && hold.error().equals("not_admitted")) {
      log.notAdmittedAfterAdmission.increment();
      return Round.WAIT_AGAIN;
    }
    if (hold.status() == 409 && hold.error().equals("no_seats")) {
      log.noSeats.increment();
      return Round.AGAIN;
    }
    if (hold.status() != 200) return hold.status() == 422 || hold.status() == 403 ? Round.LEAVE : Round.AGAIN;
    JsonNode held = hold.json();
    List<String> seats = new ArrayList<>();
    held.path("seats").forEach(s -> seats.add(s.path("seatId").asText()));
    log.held(System.currentTimeMillis(), deadlineOf(held));

    double choice = random.nextDouble();
    if (choice < behaviour.abandonShare()) {
      log.abandoned.increment();
      return Round.LEAVE;
    }
    if (choice < behaviour.abandonShare() + behaviour.releaseShare()) {
      for (String seat : seats) {
        call("release", "DELETE", "/api/events/" + eventId + "/cart/holds/" + seat, null, CALL_TIMEOUT, deadline);
      }
      log.released.increment();
      return Round.AGAIN;
    }
    think();
    return checkout(random.nextDouble() < behaviour.slowShare() ? "tok_slow" : "tok_visa");
  }

  /** Checks out, retrying with the same idempotency key until it knows what happened or gives up. */
  private Round checkout(String paymentToken) {
    String key = UUID.randomUUID().toString();
    long deadline = System.currentTimeMillis() + STEP_MILLIS;
    Storefront.Reply r = call("checkout", "POST", "/api/events/" + eventId + "/cart/checkout",
        "{\"paymentToken\":\"" + paymentToken + "\"}", CHECKOUT_TIMEOUT, deadline, "Idempotency-Key", key);
    switch (r.status()) {
      case 200 -> {
        SaleLog.Sale sale = sale(r, deadline - STEP_MILLIS, key);
        seatsBought += sale.seatIds().size();
        log.sold(sale);
        return Round.AGAIN;
      }
      case 410 -> {
        log.holdExpiredAtCheckout.increment();
        return Round.AGAIN;
      }
      case 402 -> {
        log.declined.increment();
        return Round.AGAIN;
      }
      case 403 -> {
        if (r.error().equals("not_admitted")) {
          log.notAdmittedAfterAdmission.increment();
          return Round.WAIT_AGAIN;
        }
        return Round.LEAVE;
      }
      default -> {
        if (!r.answered() || r.status() >= 500) {
          log.unanswered(new SaleLog.Unanswered(this, key, paymentToken, deadline - STEP_MILLIS, r.toString()));
        }
        return Round.AGAIN;
      }
    }
  }

  /** Asks again, after the run, how a checkout whose answer never came ended: the same idempotency key. */
  Storefront.Reply askAgain(SaleLog.Unanswered checkout) {
    return call("checkout (asked again)", "POST", "/api/events/" + eventId + "/cart/checkout",
        "{\"paymentToken\":\"" + checkout.paymentToken() + "\"}", CHECKOUT_TIMEOUT, System.currentTimeMillis() + 30_000,
        "Idempotency-Key", checkout.idempotencyKey());
  }

  /** The sale a checkout's 200 answer names; the checkout was first sent at {@code startedMillis} with {@code key}. */
  SaleLog.Sale sale(Storefront.Reply r, long startedMillis, String key) {
    JsonNode order = r.json();
    List<String> seatIds = new ArrayList<>();
    List<String> ticketIds = new ArrayList<>();
    order.path("tickets").forEach(t -> {
      seatIds.add(t.path("seatId").asText());
      ticketIds.add(t.path("ticketId").asText());
    });
    return new SaleLog.Sale(startedMillis, System.currentTimeMillis(), order.path("orderId").asText(), id, accountId, seatIds,
        ticketIds, key);
  }

  private void think() {
    long t = behaviour.thinkMillis();
    Storefront.sleep(t / 2 + ThreadLocalRandom.current().nextLong(t + 1));
  }

  private static long deadlineOf(JsonNode held) {
    String at = held.path("holdExpiresAt").asText(null);
    if (at == null) return 0;
    try {
      return Instant.parse(at).toEpochMilli();
    } catch (RuntimeException e) {
      return 0;
    }
  }
}
