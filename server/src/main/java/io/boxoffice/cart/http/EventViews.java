package io.boxoffice.cart.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.boxoffice.edge.ApiError;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.venue.domain.SeatMap;
import io.boxoffice.venue.http.SeatMapWire;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * What every reader of an event shares, kept in this node's memory: the seat-map geometry,
 * rendered to JSON once per event (it never changes), and the 2-bit availability snapshot,
 * fetched from the event's inventory at most once per interval however many fans ask.
 */
public final class EventViews {
  /**
   * The seat map as served, rendered once per event: the contract's JSON and the compact form
   * ({@link SeatMapWire}), each also gzipped, their version (the ETag's root) and what a page
   * shows of the event beside it.
   */
  public record SeatMapView(String version, byte[] json, byte[] jsonGzip, byte[] compact, byte[] compactGzip, Details details) {}

  /** The event as a fan's page names it: its name, the venue's, a price per zone and the per-account limit. */
  public record Details(String name, String venueName, Map<String, Integer> prices, int maxSeatsPerAccount, int seats,
                        int holdSeconds) {}

  private final Function<String, RecipientRef<EventInventory.Command>> inventories;
  private final Scheduler scheduler;
  private final ObjectMapper json;
  private final Clock clock;
  private final Duration askTimeout;
  private final Duration availabilityInterval;
  private final Map<String, CompletableFuture<SeatMapView>> seatMaps = new ConcurrentHashMap<>();
  private final Map<String, Cached> availability = new ConcurrentHashMap<>();

  private record Cached(long fetchedAt, CompletableFuture<EventInventory.Availability> value) {}

  public EventViews(Function<String, RecipientRef<EventInventory.Command>> inventories, Scheduler scheduler,
                    ObjectMapper json, Clock clock, Duration askTimeout, Duration availabilityInterval) {
    this.inventories = inventories;
    this.scheduler = scheduler;
    this.json = json;
    this.clock = clock;
    this.askTimeout = askTimeout;
    this.availabilityInterval = availabilityInterval;
  }

  /** The event's definition-derived seat map; fails with a 404 {@link ApiError} for an unknown event. */
  public CompletionStage<SeatMapView> seatMap(String eventId) {
    CompletableFuture<SeatMapView> f = seatMaps.computeIfAbsent(eventId, id -> AskPattern
        .<EventInventory.Command, EventInventory.Reply>ask(inventories.apply(id), EventInventory.GetDefinition::new, askTimeout, scheduler)
        .thenApply(reply -> {
          if (reply instanceof EventInventory.Definition d) return render(d.definition());
          throw new ApiError(404, "not_found", "no such event");
        })
        .toCompletableFuture());
    // A failure (unknown event, timeout) is not cached: the next reader asks again.
    f.whenComplete((v, e) -> { if (e != null) seatMaps.remove(eventId, f); });
    return f;
  }

  /** The newest availability snapshot no older than the interval; one fetch in flight per event. */
  public CompletionStage<EventInventory.Availability> availability(String eventId) {
    long now = clock.millis();
    Cached c = availability.compute(eventId, (id, old) -> {
      boolean fresh = old != null && now - old.fetchedAt() < availabilityInterval.toMillis()
          && !old.value().isCompletedExceptionally();
      if (fresh) return old;
      CompletableFuture<EventInventory.Availability> f = AskPattern
          .<EventInventory.Command, EventInventory.Reply>ask(inventories.apply(id), EventInventory.GetAvailability::new, askTimeout, scheduler)
          .thenApply(reply -> {
            if (reply instanceof EventInventory.Availability a) return a;
            throw new ApiError(404, "not_found", "no such event");
          })
          .toCompletableFuture();
      return new Cached(now, f);
    });
    return c.value();
  }

  private SeatMapView render(EventDefinition d) {
    SeatMap map = SeatMap.compile(d.venue());
    try {
      SeatMapWire.Rendered r = SeatMapWire.render(json, d.eventId(), d.name(), map, d.prices(), d.maxSeatsPerAccount());
      return new SeatMapView(r.version(), r.json(), gzip(r.json()), r.compact(), gzip(r.compact()),
          new Details(d.name(), d.venue().name(), Map.copyOf(d.prices()), d.maxSeatsPerAccount(), map.seatCount(),
          d.holdSeconds()));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot render the seat map", e);
    }
  }

  private static byte[] gzip(byte[] bytes) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(bytes.length / 8 + 64);
    try (java.util.zip.GZIPOutputStream z = new java.util.zip.GZIPOutputStream(out, 1 << 16) {
      { def.setLevel(java.util.zip.Deflater.BEST_COMPRESSION); }
    }) {
      z.write(bytes);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toByteArray();
  }
}
