package io.boxoffice.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.load.Storefront;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The on-sale as the crowd sees it during one run: the event, its schedule, the crowd's
 * {@link Traffic}, what was observed, and the manifest as a CDN serves it (fetched at most once
 * per its {@code max-age} of 5 s and shared by every page, as a CDN in front of the edge would;
 * through a real edge worker, {@link #throughEdge}, every page reads it there itself).
 */
final class Sale {
  static final long MANIFEST_MAX_AGE_MILLIS = 5_000;

  final Scenario scenario;
  final String eventId;
  final Traffic traffic;
  final Observations observed = new Observations();
  final long lobbyOpensAt;
  final long startsAt;
  private volatile boolean over;
  /** While a slow-payments fault lasts: the processor is slow for every fan who pays. */
  private volatile boolean slowPayments;
  private volatile CompletableFuture<JsonNode> manifest;
  /** The crowd's proof-of-work solvers, when the on-sale asks for proof of work (null otherwise). */
  volatile Puzzles puzzles;
  private volatile long manifestAt;
  /** The crowd goes through a CDN edge worker (sim/run --edge): pages read the manifest and the page there. */
  volatile boolean throughEdge;
  /** The hot rows' seat ids in seat-map order, as the first seat map read showed them (see {@link Scenario.HotSeatSpec}). */
  private volatile List<List<String>> hotRows;
  /** Each hot seat's index in seat-map order (its place in the availability bits). */
  private volatile Map<String, Integer> hotIndex = Map.of();

  /** The sale of {@code eventId} whose lobby opens at {@code lobbyOpensAt} (epoch ms) and lasts the scenario's lobby. */
  Sale(Scenario scenario, String eventId, Traffic traffic, long lobbyOpensAt) {
    this.scenario = scenario;
    this.eventId = eventId;
    this.traffic = traffic;
    this.lobbyOpensAt = lobbyOpensAt;
    this.startsAt = lobbyOpensAt + scenario.onsale().lobby().toMillis();
  }

  /** Whether the hot rows are still to be learnt from a seat map read whole (a scenario with hot seats, before the first read). */
  boolean needsHotRows() {
    return hotRows == null && scenario.hotSeats().share() > 0;
  }

  /** Keeps the hot rows from a seat map answer, the first time one is read (the map is the same for everyone). */
  void learnHotRows(Storefront.Reply seatMap) {
    if (hotRows != null || scenario.hotSeats().share() == 0) return;
    Map<String, List<String>> rows = new LinkedHashMap<>();
    Map<String, Integer> index = new java.util.HashMap<>();
    int i = -1;
    for (JsonNode seat : seatMap.json().path("seats")) {
      i++;
      if (!seat.path("zone").asText().equals(scenario.hotSeats().zone())) continue;
      String row = seat.path("section").asText() + "/" + seat.path("row").asText();
      if (!rows.containsKey(row) && rows.size() == scenario.hotSeats().rows()) break;
      rows.computeIfAbsent(row, k -> new ArrayList<>()).add(seat.path("seatId").asText());
      index.put(seat.path("seatId").asText(), i);
    }
    hotIndex = Map.copyOf(index);
    hotRows = List.copyOf(rows.values());
  }

  /** The hot seats an availability snapshot shows held or sold (2 bits a seat in seat-map order, the first in the high bits). */
  Set<String> hotTakenIn(byte[] availability) {
    Set<String> taken = new java.util.HashSet<>();
    hotIndex.forEach((seat, i) -> {
      if (i / 4 < availability.length && ((availability[i / 4] >> (6 - 2 * (i % 4))) & 3) != 0) taken.add(seat);
    });
    return taken;
  }

  /** The first {@code quantity} adjacent hot seats, none of them in {@code taken}; empty when no such run is left. */
  List<String> hotRun(int quantity, Set<String> taken) {
    List<List<String>> rows = hotRows;
    if (rows == null) return List.of();
    for (List<String> row : rows) {
      int run = 0;
      for (int i = 0; i < row.size(); i++) {
        run = taken.contains(row.get(i)) ? 0 : run + 1;
        if (run == quantity) return List.copyOf(row.subList(i - quantity + 1, i + 1));
      }
    }
    return List.of();
  }

  String path(String rest) {
    return "/api/events/" + eventId + rest;
  }

  void slowPayments(boolean slow) {
    slowPayments = slow;
  }

  /**
   * The payment token a fan's card stands for now: while payments are slowed (a fault), a good
   * card meets the slow processor (tok_slow, whose delay the fault set); otherwise the card's own.
   */
  String paymentToken(String card) {
    return slowPayments && card.equals("tok_visa") ? "tok_slow" : card;
  }

  boolean over() {
    return over;
  }

  void end() {
    over = true;
  }

  /** The manifest (null when it did not answer), fetched with {@code tab}'s session when the shared copy is stale. */
  CompletableFuture<JsonNode> manifest(Tab tab) {
    if (throughEdge) {
      return traffic.call("manifest", tab, "GET", path("/queue/manifest"), null, tab.headers(eventId))
          .thenApply(r -> r.status() == 200 ? r.json() : null);
    }
    long now = System.currentTimeMillis();
    CompletableFuture<JsonNode> m = manifest;
    if (m != null && now - manifestAt < MANIFEST_MAX_AGE_MILLIS) return m;
    synchronized (this) {
      if (manifest == null || now - manifestAt >= MANIFEST_MAX_AGE_MILLIS) {
        manifestAt = now;
        manifest = traffic.call("manifest", tab, "GET", path("/queue/manifest"), null, Map.of("Cookie", "bo_id=" + tab.identity))
            .thenApply(r -> r.status() == 200 ? r.json() : null);
      }
      return manifest;
    }
  }

  /** A reply's JSON, or null unless it is a 200. */
  static JsonNode ok(Storefront.Reply r) {
    return r.status() == 200 ? r.json() : null;
  }
}
