package io.boxoffice.sim;

import io.boxoffice.load.Storefront;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The shop's steps for an admitted tab, as the shop page makes them
 * (server/src/main/resources/web/shop.html): the seat map and availability, a best-available
 * hold, a checkout with an idempotency key. Outcomes are recorded as they happen.
 */
final class Shop {
  private Shop() {}

  /**
   * Reads the seat map and the availability snapshot, as the page does when it opens: the map in
   * its compact form, gzipped (what fan.js asks for and a browser accepts), its body dropped
   * unread. Only while the hot rows are still to be learnt is the map read whole, in its contract
   * JSON form (gzipped too: a large map is sent only gzipped, and Storefront unzips it): a
   * 70,000-seat map is 8 MB so, and the 512 reads a stadium's first shoppers have in
   * flight at once held gigabytes in the simulator (it died of OutOfMemoryError in a 1 GB heap).
   */
  static CompletableFuture<Void> look(Sale sale, Tab tab) {
    boolean learn = sale.needsHotRows();
    CompletableFuture<Storefront.Reply> map = learn
        ? sale.traffic.retrying("seatmap", tab, "GET", sale.path("/seatmap"), null, Map.of("Accept-Encoding", "gzip"), 3)
        : sale.traffic.retrying("seatmap", tab, "GET", sale.path("/seatmap?format=compact"), null, Map.of("Accept-Encoding", "gzip"), 3,
            false);
    return map
        .thenCompose(r -> {
          if (r.status() == 200 && learn) sale.learnHotRows(r);
          return sale.traffic.retrying("availability", tab, "GET", sale.path("/availability"), null, Map.of(), 3);
        })
        .thenApply(r -> null);
  }

  /**
   * Looks at the availability (the page refreshes it about every second), then names the first
   * run of {@code quantity} adjacent hot seats not known to be taken; a {@code seats_taken} adds
   * the seats it names to what is known and tries again while attempts are left, then the best
   * available anywhere. A 200 must hold exactly the seats named.
   */
  static CompletableFuture<List<String>> holdHot(Sale sale, Tab tab, int quantity, java.util.Set<String> taken, int attempts) {
    if (attempts <= 0 || sale.over()) return hold(sale, tab, quantity);
    return sale.traffic.retrying("availability", tab, "GET", sale.path("/availability"), null, Map.of(), 3).thenCompose(a -> {
      if (a.status() == 200) taken.addAll(sale.hotTakenIn(a.bytes()));
      return holdNamed(sale, tab, quantity, taken, attempts);
    });
  }

  private static CompletableFuture<List<String>> holdNamed(Sale sale, Tab tab, int quantity, java.util.Set<String> taken, int attempts) {
    List<String> wanted = sale.hotRun(quantity, taken);
    if (wanted.isEmpty()) return hold(sale, tab, quantity);
    sale.observed.hotTried.increment();
    String body = "{\"seats\":[" + String.join(",", wanted.stream().map(s -> "\"" + s + "\"").toList()) + "]}";
    return sale.traffic.retrying("hold-hot", tab, "POST", sale.path("/cart/holds"), body, Map.of(), 5).thenCompose(r -> {
      if (r.status() == 200) {
        List<String> seats = new ArrayList<>();
        r.json().path("seats").forEach(s -> seats.add(s.path("seatId").asText()));
        if (!new java.util.HashSet<>(seats).equals(new java.util.HashSet<>(wanted))) sale.observed.partialHolds.increment();
        sale.observed.hotHeld.increment();
        sale.observed.held(seats.size());
        return CompletableFuture.completedFuture(seats);
      }
      if (r.status() == 409 && r.error().equals("seats_taken")) {
        sale.observed.hotTaken.increment();
        int before = taken.size();
        r.json().path("seats").forEach(s -> taken.add(s.asText()));
        if (taken.size() == before) taken.addAll(wanted);
        return sale.traffic.after(HOT_RETRY_MILLIS).thenCompose(v -> holdHot(sale, tab, quantity, taken, attempts - 1));
      }
      sale.observed.outcome(tab.account, "hot-seat hold refused (" + describe(r) + ")");
      return CompletableFuture.completedFuture(List.of());
    });
  }

  /** A person who sees "taken" picks again after a moment. */
  private static final long HOT_RETRY_MILLIS = 500;

  /**
   * Holds the best {@code quantity} seats (fewer when none fit); the seats held, empty when
   * nothing was (the outcome is recorded then).
   */
  static CompletableFuture<List<String>> hold(Sale sale, Tab tab, int quantity) {
    return sale.traffic.retrying("hold", tab, "POST", sale.path("/cart/holds"), "{\"best\":{\"quantity\":" + quantity + "}}",
        Map.of(), 5).thenCompose(r -> {
          if (r.status() == 200) {
            List<String> seats = new ArrayList<>();
            r.json().path("seats").forEach(s -> seats.add(s.path("seatId").asText()));
            sale.observed.held(seats.size());
            return CompletableFuture.completedFuture(seats);
          }
          if (r.status() == 409 && r.error().equals("no_seats") && quantity > 1 && !sale.over()) return hold(sale, tab, quantity / 2);
          sale.observed.outcome(tab.account, r.status() == 409 ? "no seats" : "hold refused (" + describe(r) + ")");
          return CompletableFuture.completedFuture(List.of());
        });
  }

  /**
   * Checks out what the tab holds with {@code paymentToken}, asking again with the same key
   * while the answer is 503/429 or missing; the answer's status (200 is recorded as a sale).
   */
  static CompletableFuture<Integer> checkout(Sale sale, Tab tab, String paymentToken) {
    String key = UUID.randomUUID().toString();
    // A fan who chose the slow card waits for it by choice: apart, so that "checkout" is what the platform makes fans wait.
    String phase = paymentToken.equals("tok_slow") ? "checkout-slow-card" : "checkout";
    return sale.traffic.retrying(phase, tab, "POST", sale.path("/cart/checkout"),
        "{\"paymentToken\":\"" + sale.paymentToken(paymentToken) + "\"}",
        Map.of("Idempotency-Key", key), 8).thenApply(r -> {
          if (r.status() == 200) {
            List<String> seats = new ArrayList<>();
            r.json().path("tickets").forEach(t -> seats.add(t.path("seatId").asText()));
            sale.observed.sold(tab.account, r.json().path("orderId").asText(), seats);
            sale.observed.outcome(tab.account, "bought");
          } else if (r.status() == 410) {
            sale.observed.outcome(tab.account, "hold expired at checkout");
          } else if (r.status() != 402) {
            sale.observed.outcome(tab.account, "checkout failed (" + describe(r) + ")");
          }
          return r.status();
        });
  }

  static String describe(Storefront.Reply r) {
    if (r.answered()) return r.status() + " " + r.error();
    if (r.status() == Traffic.NOT_SENT) return "not sent: the run had ended";
    return r.status() == Storefront.TIMED_OUT ? "timed out" : "no answer";
  }
}
