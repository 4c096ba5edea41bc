package io.boxoffice.load;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The event manager's calls that a drill or a simulation makes before and after its load: a
 * generated venue, an event, its on-sale, and the event's stats. Each call goes to a random node
 * and is retried through {@link Storefront#call} while a node does not answer or is busy.
 */
public final class Admin {

  /** The event a load creates: its seats, hold times and the per-account cap. */
  public record EventSpec(String eventId, String venueId, String name, int seats, int holdSeconds, int holdJitterSeconds,
                          int maxSeatsPerAccount) {}

  /** The on-sale of an event: lobby, start, the two dials, presale and proof of work. */
  public record OnSale(Instant lobbyOpensAt, Instant startsAt, int admissionPerMinute, int maxActiveShoppers, boolean presale,
                       int powBits) {}

  private final Storefront store;
  private final String token;

  public Admin(Storefront store, String token) {
    this.store = store;
    this.token = token;
  }

  public Storefront.Reply call(String method, String path, String body) {
    int[] node = {ThreadLocalRandom.current().nextInt(store.nodes())};
    return store.call("admin", node, method, path, body, Duration.ofSeconds(10), System.currentTimeMillis() + 60_000,
        Map.of("Authorization", "Bearer " + token));
  }

  /** A generated stadium venue and an event in it, closed until {@link #scheduleOnSale}; throws unless both are created. */
  public void createVenueAndEvent(EventSpec e) {
    expect(201, "create the venue", call("POST", "/admin/venues", "{\"venueId\":\"" + e.venueId() + "\",\"name\":\"" + e.name()
        + " venue\",\"generate\":{\"layout\":\"stadium\",\"seats\":" + e.seats() + "}}"));
    expect(201, "create the event", call("POST", "/admin/events", "{\"eventId\":\"" + e.eventId() + "\",\"venueId\":\""
        + e.venueId() + "\",\"name\":\"" + e.name() + "\",\"prices\":{\"floor\":15000,\"lower\":9000,\"upper\":4500},"
        + "\"holdSeconds\":" + e.holdSeconds() + ",\"holdJitterSeconds\":" + e.holdJitterSeconds()
        + ",\"maxSeatsPerAccount\":" + e.maxSeatsPerAccount() + "}"));
  }

  /** Schedules the event's on-sale; throws unless it is accepted. */
  public void scheduleOnSale(String eventId, OnSale o) {
    expect(200, "schedule the on-sale", call("PUT", "/admin/events/" + eventId + "/onsale", "{\"lobbyOpensAt\":\""
        + o.lobbyOpensAt() + "\",\"startsAt\":\"" + o.startsAt() + "\",\"admissionPerMinute\":" + o.admissionPerMinute()
        + ",\"maxActiveShoppers\":" + o.maxActiveShoppers() + ",\"presale\":" + o.presale() + ",\"powBits\":" + o.powBits() + "}"));
  }

  /** The event's stats, or null when they did not answer. */
  public JsonNode stats(String eventId) {
    Storefront.Reply r = call("GET", "/admin/events/" + eventId + "/stats", null);
    return r.status() == 200 ? r.json() : null;
  }

  private static Storefront.Reply expect(int status, String what, Storefront.Reply r) {
    if (r.status() != status) throw new IllegalStateException(what + ": " + r);
    return r;
  }
}
