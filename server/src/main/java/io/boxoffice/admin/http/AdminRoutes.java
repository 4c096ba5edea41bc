package io.boxoffice.admin.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import io.boxoffice.admin.Directory;
import io.boxoffice.admin.LiveCounters;
import io.boxoffice.admin.http.AdminJson.EventList;
import io.boxoffice.admin.http.AdminJson.EventRequest;
import io.boxoffice.admin.http.AdminJson.EventState;
import io.boxoffice.admin.http.AdminJson.EventSummary;
import io.boxoffice.admin.http.AdminJson.OnSaleRequest;
import io.boxoffice.admin.http.AdminJson.RatesRequest;
import io.boxoffice.admin.http.AdminJson.VenueCreated;
import io.boxoffice.admin.http.AdminJson.VenueList;
import io.boxoffice.admin.http.AdminJson.VenueRequest;
import io.boxoffice.admin.http.AdminJson.VenueSummary;
import io.boxoffice.common.ReadSide;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ApiError;
import io.boxoffice.edge.Refusals;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.PresaleRegistry;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.queue.domain.OnSaleSchedule;
import io.boxoffice.queue.domain.Phase;
import io.boxoffice.queue.domain.PresaleCodes;
import io.boxoffice.venue.Venue;
import io.boxoffice.venue.domain.VenueLayout;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.http.javadsl.marshalling.sse.EventStreamMarshalling;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Event managers' calls under {@code /admin}, behind the admin bearer token. */
public final class AdminRoutes extends AllDirectives {

  private final ActorSystem<?> system;
  private final Api api;
  private final byte[] adminToken;
  private final long maxVenueBytes;
  private final PresaleCodes presale;
  private final Function<String, RecipientRef<PresaleRegistry.Command>> registries;
  private final PaymentSimulator simulator;
  private static final Logger log = LoggerFactory.getLogger(AdminRoutes.class);
  private final Manifests manifests;
  private final ReadSide readSide;
  private final EventStatsReader stats;
  private final LiveStream liveStream;
  private final OnSaleRoutes onSale;

  public AdminRoutes(ActorSystem<?> system, Api api, String adminToken, long maxVenueBytes, PresaleCodes presale,
                     Function<String, RecipientRef<PresaleRegistry.Command>> registries, PaymentSimulator simulator,
                     Manifests manifests, ReadSide readSide, LiveCounters counters, Duration liveInterval,
                     Duration liveHeartbeat) {
    this.readSide = readSide;
    this.stats = new EventStatsReader(api, this::room, this::inventory);
    this.liveStream = new LiveStream(api, stats::of, counters, liveInterval, liveHeartbeat);
    this.simulator = simulator;
    this.manifests = manifests;
    this.presale = presale;
    this.registries = registries;
    this.system = system;
    this.api = api;
    this.adminToken = adminToken.getBytes(StandardCharsets.UTF_8);
    this.maxVenueBytes = maxVenueBytes;
    this.onSale = new OnSaleRoutes(system, api, presale, registries, simulator);
  }

  /** Live streams open now: each ends when its client goes. */
  public int liveStreams() {
    return liveStream.open();
  }


  public Route routes() {
    // The console's page and assets need no token: the page asks for it and sends it on every call.
    return pathPrefix("admin", () -> concat(
        ConsolePage.routes(),
        authorized(() -> concat(
        path("venues", () -> concat(
            post(() -> api.body(VenueRequest.class, maxVenueBytes, this::createVenue)),
            get(this::listVenues))),
        path("events", () -> concat(
            post(() -> api.body(EventRequest.class, this::createEvent)),
            get(this::listEvents))),
        path(segment("events").slash(segment()).slash("open"), eventId -> post(() -> open(eventId))),
        path(segment("events").slash(segment()).slash("stats"), eventId -> get(() -> stats(eventId))),
        path(segment("events").slash(segment()).slash("live"), eventId -> get(() -> live(eventId))),
        path(segment("events").slash(segment()).slash("onsale"), eventId -> concat(
            put(() -> api.body(OnSaleRequest.class, r -> schedule(eventId, r))),
            patch(() -> api.body(RatesRequest.class, r -> onSale.rates(eventId, r))))),
        onSale.routes()))));
  }

  /** 401 without a bearer token, 403 with a wrong one; compared in constant time. */
  private Route authorized(Supplier<Route> inner) {
    return optionalHeaderValueByName("Authorization", header -> {
      String value = header.orElse("");
      if (!value.startsWith("Bearer ")) return complete(api.error(401, "unauthenticated", "an admin bearer token is required"));
      byte[] given = value.substring(7).trim().getBytes(StandardCharsets.UTF_8);
      if (!MessageDigest.isEqual(given, adminToken)) return complete(api.error(403, "forbidden", "wrong admin token"));
      return inner.get();
    });
  }

  private Route createVenue(VenueRequest r) {
    VenueLayout layout = AdminRequests.layout(r);
    int seats = layout.seatCount();
    CompletionStage<HttpResponse> response = venue(layout.venueId())
        .<Venue.Reply>ask(ref -> new Venue.Define(layout, ref), api.askTimeout())
        .thenApply(reply -> reply instanceof Venue.Defined
            ? api.json(201, new VenueCreated(layout.venueId(), seats))
            : api.error(409, "venue_exists", "a venue with this id exists"));
    return api.respond(response);
  }

  /**
   * Creates the event's inventory (holds need an admitted queue pass from the first moment) and
   * then defines it in its waiting room, closed or with its on-sale in the same write, so the
   * edge never sees it open by default. 201 once this node's edge knows it.
   */
  private Route createEvent(EventRequest r) {
    if (!VenueLayout.isValidEntityId(r.venueId())) throw ApiError.badRequest("venueId must be 1-64 letters, digits, '_' or '-'");
    if (!VenueLayout.isValidEntityId(r.eventId())) throw ApiError.badRequest("eventId must be 1-64 letters, digits, '_' or '-'");
    OnSaleSchedule schedule = r.onsale() == null ? null : AdminRequests.schedule(r.onsale());
    CompletionStage<HttpResponse> response = venue(r.venueId())
        .<Venue.Reply>ask(Venue.Get::new, api.askTimeout())
        .thenCompose(reply -> {
          if (!(reply instanceof Venue.Defined d)) throw new ApiError(404, "not_found", "no such venue");
          EventDefinition definition;
          try {
            definition = new EventDefinition(r.eventId(), r.name(), d.layout(), r.prices(),
                AdminRequests.orDefault(r.holdSeconds(), 480), AdminRequests.orDefault(r.holdJitterSeconds(), 90),
                AdminRequests.orDefault(r.maxSeatsPerAccount(), 8))
                .validated();
          } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
          }
          return inventory(r.eventId()).<EventInventory.Reply>ask(ref -> new EventInventory.Create(definition, ref), api.askTimeout());
        })
        .thenCompose(reply -> {
          if (!(reply instanceof EventInventory.Created)) throw new ApiError(409, "event_exists", "an event with this id exists");
          return requireAdmission(r.eventId());
        })
        .thenCompose(ok -> room(r.eventId()).<WaitingRoom.Reply>ask(ref -> new WaitingRoom.Define(r.name(), r.venueId(), schedule, ref),
            api.askTimeout()))
        .thenCompose(reply -> {
          if (!(reply instanceof WaitingRoom.Manifest m)) throw new ApiError(409, "event_exists", "an event with this id exists");
          // Every edge node finds the event from now on, also one that misses the room's first
          // manifest. The event exists whatever the keeper answers: a keeper out of reach (its
          // node failing over) learns of it from the journal within its interval.
          return manifests.announce(r.eventId()).handle((ok, error) -> {
            if (error != null) log.warn("the on-sale keeper was not told of new event {} at once: {}", r.eventId(), error.toString());
            return m;
          }).thenCompose(this::heard);
        })
        .thenApply(m -> api.json(201, new EventState(r.eventId(), m.state())));
    return api.respond(response);
  }

  /** {@code POST /admin/events/{id}/open}: an open sale without a waiting room, chosen explicitly. */
  private Route open(String eventId) {
    if (!VenueLayout.isValidEntityId(eventId)) return complete(api.error(404, "not_found", "no such event"));
    CompletionStage<HttpResponse> response = inventory(eventId)
        .<EventInventory.Reply>ask(EventInventory.GetStats::new, api.askTimeout())
        .thenCompose(reply -> {
          if (!(reply instanceof EventInventory.Stats)) throw new ApiError(404, "not_found", "no such event");
          return room(eventId).<WaitingRoom.Reply>ask(WaitingRoom.OpenSale::new, api.askTimeout());
        })
        .thenCompose(reply -> {
          if (reply instanceof WaitingRoom.Rejected rej) throw Refusals.toApiError(rej.code(), rej.message(), List.of());
          // The edge shows it open only now; the inventory lets holds through without a pass from now on.
          return inventory(eventId).<EventInventory.Reply>ask(EventInventory.WaiveAdmission::new, api.askTimeout())
              .thenCompose(waived -> heard((WaitingRoom.Manifest) reply));
        })
        .thenApply(m -> api.json(200, new EventState(eventId, m.state())));
    return api.respond(response);
  }

  /**
   * {@code GET /admin/events}: every event in the directory (whole after a restart, without waking
   * a room) and every event this node has heard of (the directory's projection lags a moment).
   * A room this node heard gives the live state; otherwise the directory tells scheduled, open or
   * closed (scheduled rooms are kept running, so they are heard soon after a start).
   */
  private Route listEvents() {
    CompletionStage<HttpResponse> response = readSide.transact(Directory::events).thenApply(rows -> {
      Map<String, EventSummary> byId = new java.util.TreeMap<>();
      for (Directory.EventRow row : rows) {
        String state = row.scheduled() ? Phase.SCHEDULED.wire() : row.opened() ? Phase.OPEN.wire() : Phase.CLOSED.wire();
        byId.put(row.eventId(), new EventSummary(row.eventId(), row.name(), row.venueId(), state));
      }
      for (WaitingRoom.Manifest m : manifests.all()) {
        byId.put(m.eventId(), new EventSummary(m.eventId(), m.name(), m.venueId(), m.state()));
      }
      return api.json(200, new EventList(List.copyOf(byId.values())));
    });
    return api.respond(response);
  }

  /** {@code GET /admin/venues}: every venue in the directory, by id. */
  private Route listVenues() {
    return api.respond(readSide.transact(Directory::venues).thenApply(rows -> api.json(200, new VenueList(rows.stream()
        .map(r -> new VenueSummary(r.venueId(), r.name(), r.seatCount())).toList()))));
  }

  /**
   * The room's manifest, once this node's edge has heard the change (so the manager's next
   * request through this node sees it), or anyway if the topic is slow.
   */
  private CompletionStage<WaitingRoom.Manifest> heard(WaitingRoom.Manifest m) {
    return manifests.awaitHeard(m.eventId(), known -> known.state().equals(m.state()) && known.open() == m.open()
            && known.startsAt() == m.startsAt(), api.askTimeout())
        .handle((known, error) -> m);
  }

  private Route stats(String eventId) {
    if (!VenueLayout.isValidEntityId(eventId)) return complete(api.error(404, "not_found", "no such event"));
    return api.respond(stats.of(eventId).thenApply(stats -> api.json(200, stats)));
  }

  /**
   * {@code GET /admin/events/{id}/live}: Server-Sent Events, one a {@code liveInterval}, each the
   * stats with the rates since the one before. An event this node does not know is a 404 before
   * the stream starts (nobody is asked); the stream ends when the client goes (pekko-http cancels
   * the source with the connection). A tick whose stats do not come in time is skipped.
   */
  private Route live(String eventId) {
    if (!VenueLayout.isValidEntityId(eventId)) return complete(api.error(404, "not_found", "no such event"));
    CompletionStage<Route> known = manifests.current(eventId).handle((m, error) -> error != null
        ? api.fail(error)
        : completeOK(liveStream.of(eventId), EventStreamMarshalling.toEventStream()));
    return onSuccess(known, route -> route);
  }

  private Route schedule(String eventId, OnSaleRequest r) {
    OnSaleSchedule schedule = AdminRequests.schedule(r);
    // First the inventory: from now on it checks every hold's admission itself.
    CompletionStage<HttpResponse> response = requireAdmission(eventId)
        .thenCompose(ok -> room(eventId).<WaitingRoom.Reply>ask(ref -> new WaitingRoom.SetSchedule(schedule, ref), api.askTimeout()))
        .thenCompose(reply -> reply instanceof WaitingRoom.Manifest m
            ? heard(m).thenApply(heardM -> OnSaleRoutes.manifestReply(api, heardM))
            : CompletableFuture.completedFuture(OnSaleRoutes.manifestReply(api, reply)));
    return api.respond(response);
  }

  /** Makes the event's inventory require admitted queue passes; fails with a 404 for an unknown event. */
  private CompletionStage<Boolean> requireAdmission(String eventId) {
    if (!VenueLayout.isValidEntityId(eventId)) return CompletableFuture.failedFuture(new ApiError(404, "not_found", "no such event"));
    return inventory(eventId).<EventInventory.Reply>ask(EventInventory.RequireAdmission::new, api.askTimeout())
        .thenApply(reply -> {
          if (!(reply instanceof EventInventory.Created)) throw new ApiError(404, "not_found", "no such event");
          return true;
        });
  }

  private EntityRef<Venue.Command> venue(String venueId) {
    return ClusterSharding.get(system).entityRefFor(Venue.ENTITY_TYPE_KEY, venueId);
  }

  private EntityRef<WaitingRoom.Command> room(String eventId) {
    return ClusterSharding.get(system).entityRefFor(WaitingRoom.ENTITY_TYPE_KEY, eventId);
  }

  private EntityRef<EventInventory.Command> inventory(String eventId) {
    return ClusterSharding.get(system).entityRefFor(EventInventory.ENTITY_TYPE_KEY, eventId);
  }
}
