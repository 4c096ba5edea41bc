package io.boxoffice.admin.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import io.boxoffice.admin.http.AdminJson.Invitation;
import io.boxoffice.admin.http.AdminJson.Invitations;
import io.boxoffice.admin.http.AdminJson.InvitationsRequest;
import io.boxoffice.admin.http.AdminJson.RatesRequest;
import io.boxoffice.admin.http.AdminJson.Schedule;
import io.boxoffice.admin.http.AdminJson.SimulatorRequest;
import io.boxoffice.admin.http.AdminJson.SimulatorSettings;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ApiError;
import io.boxoffice.edge.Refusals;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.queue.PresaleRegistry;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.queue.domain.PresaleCodes;
import io.boxoffice.venue.domain.VenueLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The managers' calls that steer a running on-sale: its rates, pause and resume, presale
 * invitations, and (chaos drills) the payment simulator's behaviour on this node. Mounted by
 * {@link AdminRoutes} behind the admin token.
 */
final class OnSaleRoutes extends AllDirectives {
  private final ActorSystem<?> system;
  private final Api api;
  private final PresaleCodes presale;
  private final Function<String, RecipientRef<PresaleRegistry.Command>> registries;
  private final PaymentSimulator simulator;

  OnSaleRoutes(ActorSystem<?> system, Api api, PresaleCodes presale,
               Function<String, RecipientRef<PresaleRegistry.Command>> registries, PaymentSimulator simulator) {
    this.system = system;
    this.api = api;
    this.presale = presale;
    this.registries = registries;
    this.simulator = simulator;
  }

  /** {@code PATCH .../onsale} is mounted by {@link AdminRoutes} beside its {@code PUT}. */
  Route routes() {
    return concat(
        path(segment("events").slash(segment()).slash("onsale").slash("pause"), eventId -> post(() -> paused(eventId, true))),
        path(segment("events").slash(segment()).slash("onsale").slash("resume"), eventId -> post(() -> paused(eventId, false))),
        path(segment("payments").slash("simulator"), () -> put(() -> api.body(SimulatorRequest.class, this::tuneSimulator))),
        path(segment("events").slash(segment()).slash("presale").slash("invitations"),
            eventId -> post(() -> api.body(InvitationsRequest.class, r -> invitations(eventId, r)))));
  }

  Route rates(String eventId, RatesRequest r) {
    if (r.admissionPerMinute() == null && r.maxActiveShoppers() == null) {
      throw ApiError.badRequest("give admissionPerMinute and/or maxActiveShoppers");
    }
    if ((r.admissionPerMinute() != null && (r.admissionPerMinute() < 1 || r.admissionPerMinute() > 10_000_000))
        || (r.maxActiveShoppers() != null && (r.maxActiveShoppers() < 1 || r.maxActiveShoppers() > 10_000_000))) {
      throw ApiError.badRequest("admissionPerMinute and maxActiveShoppers must be 1-10000000");
    }
    return api.respond(room(eventId)
        .<WaitingRoom.Reply>ask(ref -> new WaitingRoom.ChangeRates(r.admissionPerMinute(), r.maxActiveShoppers(), ref), api.askTimeout())
        .thenApply(reply -> manifestReply(api, reply)));
  }

  Route paused(String eventId, boolean paused) {
    if (!VenueLayout.isValidEntityId(eventId)) return complete(api.error(404, "not_found", "no such event"));
    return api.respond(room(eventId)
        .<WaitingRoom.Reply>ask(ref -> new WaitingRoom.SetPaused(paused, ref), api.askTimeout())
        .thenApply(reply -> manifestReply(api, reply)));
  }

  /** Chaos drills: slow payments down or make them fail, on this node's built-in simulator. */
  Route tuneSimulator(SimulatorRequest r) {
    if (simulator == null) return complete(api.error(404, "not_found", "this node uses a real payment processor"));
    long delay = r.slowDelayMs() == null ? simulator.slowDelay().toMillis() : r.slowDelayMs();
    double rate = r.failureRate() == null ? simulator.failureRate() : r.failureRate();
    if (delay < 0 || delay > 600_000 || rate < 0 || rate > 1) throw ApiError.badRequest("slowDelayMs must be 0-600000, failureRate 0-1");
    simulator.tune(java.time.Duration.ofMillis(delay), rate);
    return complete(api.json(200, new SimulatorSettings(delay, rate)));
  }

  /** A random sample of the presale's registrants, each with the code bound to account and event. */
  Route invitations(String eventId, InvitationsRequest r) {
    if (r.count() == null || r.count() < 1 || r.count() > 1_000_000) throw ApiError.badRequest("count must be 1-1000000");
    if (!VenueLayout.isValidEntityId(eventId)) return complete(api.error(404, "not_found", "no such event"));
    CompletionStage<HttpResponse> response = AskPattern
        .<PresaleRegistry.Command, PresaleRegistry.Sampled>ask(registries.apply(eventId), ref -> new PresaleRegistry.Sample(r.count(), ref),
            api.askTimeout(), system.scheduler())
        .thenApply(sampled -> api.json(200, new Invitations(sampled.accountIds().stream()
            .map(account -> new Invitation(account, presale.codeFor(eventId, account))).toList())));
    return api.respond(response);
  }

  /** A room's answer to a manager: the schedule as it stands, or the room's refusal (404 for an event without one). */
  static HttpResponse manifestReply(Api api, WaitingRoom.Reply reply) {
    if (reply instanceof WaitingRoom.Rejected r) return api.error(Refusals.toApiError(r.code(), r.message(), List.of()));
    return api.json(200, Schedule.of((WaitingRoom.Manifest) reply));
  }

  private EntityRef<WaitingRoom.Command> room(String eventId) {
    return ClusterSharding.get(system).entityRefFor(WaitingRoom.ENTITY_TYPE_KEY, eventId);
  }
}
