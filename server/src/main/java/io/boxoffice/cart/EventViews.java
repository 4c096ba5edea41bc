package io.boxoffice.cart;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.boxoffice.edge.ApiError;
import io.boxoffice.inventory.EventDefinition;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.venue.SeatMap;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
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
  /** The seat map as served: JSON bytes and their version (also the ETag). */
  public record SeatMapView(String version, byte[] json) {}

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
    List<Map<String, Object>> seats = new ArrayList<>(map.seatCount());
    for (int s = 0; s < map.seatCount(); s++) {
      int row = map.rowOf(s);
      Map<String, Object> seat = new LinkedHashMap<>();
      seat.put("seatId", map.seatId(s));
      seat.put("section", map.sectionId(map.rowSection(row)));
      seat.put("row", map.rowId(row));
      seat.put("number", map.seatNumber(s));
      String zone = map.zones().get(map.rowZone(row));
      seat.put("zone", zone);
      seat.put("priceCents", d.prices().get(zone));
      seat.put("x", map.x(s));
      seat.put("y", map.y(s));
      seats.add(seat);
    }
    try {
      byte[] seatsJson = json.writeValueAsBytes(seats);
      String version = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(seatsJson), 0, 8);
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("version", version);
      body.put("eventId", d.eventId());
      body.put("seats", seats);
      return new SeatMapView(version, json.writeValueAsBytes(body));
    } catch (JsonProcessingException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot render the seat map", e);
    }
  }
}
