package io.boxoffice.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The waiting-room page in one tab, at its own pace (server/src/main/resources/web/waiting-room.html):
 * (through an edge worker, the page itself first), join, then every poll read the public
 * manifest only; the tab's own status is read only at the lottery (a tab in the lobby, once the
 * manifest says the line has been drawn), when the line reaches its place (at the moment the
 * admission rate says, when that comes before the next poll),
 * and when the sale ended. Every status answer is observed: the place shown, the wait promised,
 * "admitted".
 */
final class Page {
  private Page() {}

  /**
   * Joins (before the lobby opens, 409 not_open: again every 250 ms), then reads the status; true
   * when joined. When the on-sale asks for proof of work, each join first fetches a challenge and
   * solves it (a page on one core; a {@link ProofOfWorkBot} with every core).
   */
  static CompletableFuture<Boolean> join(Sale sale, Tab tab) {
    if (sale.over() || tab.done.get()) return CompletableFuture.completedFuture(false);
    if (sale.throughEdge && !tab.pageLoaded) {
      // The page's bytes, the same for every fan: the edge answers them from its cache.
      tab.pageLoaded = true;
      return sale.traffic.call("page", tab, "GET", "/events/" + sale.eventId, null, tab.headers(sale.eventId), false)
          .thenCompose(r -> join(sale, tab));
    }
    int bits = sale.scenario.onsale().powBits();
    String code = tab.account.presaleCode == null ? "" : "\"code\":\"" + tab.account.presaleCode + "\"";
    if (bits == 0 || sale.puzzles == null) return join(sale, tab, "{" + code + "}");
    return sale.traffic.retrying("challenge", tab, "GET", sale.path("/queue/challenge"), null, Map.of(), 5).thenCompose(c -> {
      if (c.status() != 200) return join(sale, tab, "{" + code + "}");
      String challenge = c.json().path("challenge").asText();
      int asked = c.json().path("bits").asInt(bits);
      CompletableFuture<String> nonce = tab.account.fullCpuPow ? sale.puzzles.fullCpu(challenge, asked)
          : sale.puzzles.page(challenge, asked, tab.account.bot);
      return nonce.thenCompose(n -> join(sale, tab, "{" + code + (code.isEmpty() ? "" : ",")
          + "\"pow\":{\"challenge\":\"" + challenge + "\",\"nonce\":\"" + n + "\"}}"));
    });
  }

  private static CompletableFuture<Boolean> join(Sale sale, Tab tab, String request) {
    long sentAt = System.currentTimeMillis();
    tab.account.tried(sentAt);
    return sale.traffic.retrying("join", tab, "POST", sale.path("/queue"), request, Map.of(), 5).thenCompose(r -> {
      if (r.status() == 409 && r.error().equals("not_open")) {
        return sale.traffic.after(250).thenCompose(v -> join(sale, tab, request));
      }
      if (r.status() != 200) {
        sale.observed.outcome(tab.account, "join refused (" + (r.answered() ? r.status() + " " + r.error() : "no answer") + ")");
        tab.done.set(true);
        return CompletableFuture.completedFuture(false);
      }
      JsonNode body = r.json();
      tab.account.joined(sentAt);
      if (body.path("state").asText().equals("lobby")) tab.account.lobby = true;
      observe(sale, tab, body);
      return CompletableFuture.completedFuture(true);
    });
  }

  /** Reads the tab's status and observes it; the state, or "" when there was none. */
  static CompletableFuture<String> status(Sale sale, Tab tab) {
    return sale.traffic.call("status", tab, "GET", sale.path("/queue/status"), null).thenCompose(r -> {
      if (r.status() == 200) {
        String state = observe(sale, tab, r.json());
        if (state.equals("admitted")) sale.observed.statusesAdmitted.increment();
        return CompletableFuture.completedFuture(state);
      }
      // The page shows its join button again (token lost, or from another network): the fan joins again.
      if (r.status() == 403 && !r.error().equals("not_on_sale") && !tab.done.get()) return join(sale, tab).thenApply(j -> "");
      return CompletableFuture.completedFuture("");
    });
  }

  /** Follows the manifest every {@code pollMillis} until the tab is admitted or done, or the sale is over. */
  static void watch(Sale sale, Tab tab, long pollMillis) {
    if (sale.over() || tab.done.get() || tab.admitted.get()) return;
    sale.traffic.after(pollMillis)
        .thenCompose(v -> sale.over() || tab.done.get() || tab.admitted.get()
            ? CompletableFuture.completedFuture("") : sale.manifest(tab).thenCompose(m -> {
              showWait(tab, m);
              long delay = statusDelayMillis(tab.place, m, pollMillis);
              if (delay < 0) return CompletableFuture.completedFuture("");
              return sale.traffic.after(delay).thenCompose(w -> sale.over() || tab.done.get() || tab.admitted.get()
                  ? CompletableFuture.completedFuture("") : status(sale, tab));
            }))
        .whenComplete((state, error) -> watch(sale, tab, pollMillis));
  }

  /**
   * When a page at {@code place} (0: none yet) asks for its own status after reading manifest
   * {@code m} (null: it did not answer): -1 not before the next poll; else after that many
   * milliseconds. It asks at once once the lobby has been drawn while it has no place, once the
   * line has reached its place, and when the sale has ended; when the line will reach it before
   * the next poll, it asks at the moment the admission rate says; otherwise it works out people
   * ahead and the wait from the manifest itself.
   */
  static long statusDelayMillis(long place, JsonNode m, long pollMillis) {
    if (m == null) return -1;
    String state = m.path("state").asText();
    if (state.equals("sold_out") || state.equals("closed")) return 0;
    if (place == 0) return state.equals("lobby") || state.equals("scheduled") ? -1 : 0;
    if (!state.equals("waiting")) return -1;
    long ahead = place - m.path("admittedUpTo").asLong();
    if (ahead <= 0) return 0;
    double perSecond = m.path("admissionPerMinute").asDouble() / 60.0;
    if (perSecond <= 0) return -1;
    long millis = (long) Math.ceil(ahead / perSecond * 1000);
    return millis < pollMillis ? millis : -1;
  }

  /**
   * The wait the page shows from the manifest alone (people ahead over the admission rate), the
   * first time it can: what the fan is promised, measured against when the line reached it.
   */
  static void showWait(Tab tab, JsonNode m) {
    if (m == null || tab.place == 0 || tab.shownWaitSeconds >= 0 || !m.path("state").asText().equals("waiting")) return;
    double perSecond = m.path("admissionPerMinute").asDouble() / 60.0;
    if (perSecond <= 0) return;
    tab.shownAt = System.currentTimeMillis();
    tab.shownWaitSeconds = Math.round(Math.max(0, tab.place - m.path("admittedUpTo").asLong()) / perSecond);
  }

  /** What a status (or join) answer tells: the place, the promised wait, admission, the end. Returns the state. */
  static String observe(Sale sale, Tab tab, JsonNode body) {
    String state = body.path("state").asText("");
    long position = body.path("position").asLong(0);
    if (position > 0) {
      if (tab.place != 0 && tab.place != position) sale.observed.placesChanged.increment();
      tab.place = position;
      tab.account.places.add(position);
    }
    long now = System.currentTimeMillis();
    if (state.equals("waiting") && position > 0 && tab.shownWaitSeconds < 0 && body.has("estimatedWaitSeconds")) {
      tab.shownAt = now;
      tab.shownWaitSeconds = body.path("estimatedWaitSeconds").asLong();
    }
    switch (state) {
      case "admitted" -> {
        if (tab.admitted.compareAndSet(false, true)) {
          tab.admittedSeenAt = now;
          tab.onAdmitted.accept(tab);
        }
      }
      case "sold_out", "closed", "left" -> {
        if (!tab.admitted.get() && tab.done.compareAndSet(false, true)) {
          sale.observed.outcome(tab.account, "never admitted (" + state + ")");
        }
      }
      default -> { }
    }
    return state;
  }
}
