package io.boxoffice.admin.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.venue.domain.VenueLayout;
import java.util.List;
import java.util.Map;

/** The managers' API on the wire: the request and response bodies of {@link AdminRoutes} (docs/API.md, openapi.yaml). */
public final class AdminJson {
  private AdminJson() {}

  /** {@code POST /admin/venues}: explicit sections, or a generated layout. */
  public record VenueRequest(String venueId, String name, List<VenueLayout.Section> sections, Generate generate) {}

  /** A generated layout: {@code {"layout":"stadium","seats":70000}}. */
  public record Generate(String layout, Integer seats) {}

  /** {@code PUT /admin/events/{id}/onsale}: times are ISO-8601; times in the past mean now. */
  public record OnSaleRequest(String lobbyOpensAt, String startsAt, Integer admissionPerMinute, Integer maxActiveShoppers,
                              Boolean presale, Integer powBits) {}

  /** {@code POST /admin/events/{id}/presale/invitations}. */
  public record InvitationsRequest(Integer count) {}

  /** {@code PUT /admin/payments/simulator}: how slow tok_slow is and how often calls fail, on this node. */
  public record SimulatorRequest(Long slowDelayMs, Double failureRate) {}

  /** {@code PATCH /admin/events/{id}/onsale}. */
  public record RatesRequest(Integer admissionPerMinute, Integer maxActiveShoppers) {}

  /** {@code POST /admin/events}: without {@code onsale} the event is created closed. */
  public record EventRequest(String eventId, String venueId, String name, Map<String, Integer> prices,
                             Integer holdSeconds, Integer holdJitterSeconds, Integer maxSeatsPerAccount, String startsAt,
                             OnSaleRequest onsale) {}

  /** One row of {@code GET /admin/events}. */
  public record EventSummary(String eventId, String name, String venueId, String state) {}

  /** {@code GET /admin/events}. */
  public record EventList(List<EventSummary> events) {}

  /** One row of {@code GET /admin/venues}. */
  public record VenueSummary(String venueId, String name, int seatCount) {}

  /** {@code GET /admin/venues}. */
  public record VenueList(List<VenueSummary> venues) {}

  /** 201 of {@code POST /admin/venues}. */
  public record VenueCreated(String venueId, int seatCount) {}

  /** An event's id and state: 201 of {@code POST /admin/events}, 200 of {@code .../open}. */
  public record EventState(String eventId, String state) {}

  /** Seat counts of {@code GET /admin/events/{id}/stats}. */
  public record SeatCounts(int available, int held, int sold) {}

  /** {@code GET /admin/events/{id}/stats}; {@code onsale} only when the event has an on-sale schedule. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record EventStats(String state, long lobby, long admittedUpTo, long activeShoppers, SeatCounts seats, int orders,
                           Schedule onsale) {}

  /** An on-sale schedule as managers read it back: times in ISO-8601 UTC. */
  public record Schedule(String eventId, String state, String lobbyOpensAt, String startsAt, int admissionPerMinute,
                         int maxActiveShoppers, boolean presale, int powBits, boolean paused) {
    static Schedule of(WaitingRoom.Manifest m) {
      return new Schedule(m.eventId(), m.state(), java.time.Instant.ofEpochMilli(m.lobbyOpensAt()).toString(),
          java.time.Instant.ofEpochMilli(m.startsAt()).toString(), m.admissionPerMinute(), m.maxActiveShoppers(),
          m.presale(), m.powBits(), m.paused());
    }
  }

  /** 200 of {@code PUT /admin/payments/simulator}. */
  public record SimulatorSettings(long slowDelayMs, double failureRate) {}

  /** One sampled registrant and the presale code bound to account and event. */
  public record Invitation(String accountId, String code) {}

  /** 200 of {@code POST /admin/events/{id}/presale/invitations}. */
  public record Invitations(List<Invitation> invitations) {}
}
