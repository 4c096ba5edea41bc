package io.boxoffice.queue.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ApiError;
import io.boxoffice.edge.Bulkhead;
import io.boxoffice.edge.BulkheadDirectives;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.Refusals;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.PresaleRegistry;
import io.boxoffice.queue.QueuePlace;
import io.boxoffice.queue.Standing;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.queue.domain.JoinOutcome;
import io.boxoffice.queue.domain.JoinPolicy;
import io.boxoffice.queue.domain.Phase;
import io.boxoffice.queue.domain.PresaleCodes;
import io.boxoffice.queue.domain.ProofOfWork;
import io.boxoffice.queue.domain.QueueToken;
import io.boxoffice.venue.domain.VenueLayout;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The waiting room's fan calls under {@code /api/events/{eventId}}: join the queue (with a
 * presale code and a proof of work when the on-sale asks for them), read one's standing, read
 * the manifest, get a proof-of-work challenge, register for a presale. All of it is answered
 * from this node's memory and the fan's signed token; only a later arrival's first join and a
 * presale registration reach an entity.
 */
public final class QueueRoutes extends AllDirectives {

  /** {@code POST .../queue} body. */
  public record JoinRequest(String code, Pow pow) {}

  /** A proof-of-work answer. */
  public record Pow(String challenge, String nonce) {}

  /** {@code POST .../queue} answer: the fan's state, and the place in line while there is one to tell. */
  public record Joined(String state, @JsonInclude(JsonInclude.Include.NON_NULL) Long position) {}

  /** {@code GET .../queue/status}: {@code position} is null once the fan has no place to tell (admitted, lobby). */
  public record QueueStatus(String state, Long position, long admittedUpTo, long aheadOfYou, long estimatedWaitSeconds,
                            int seatsRemaining) {}

  /**
   * {@code GET .../queue/manifest}: the public, cacheable state of the line. {@code startsAt} (the
   * sale's start, when scheduled) and {@code drawn} (the lobby's lottery has given its places) let
   * a waiting page tell by itself when to ask for its own place, and, with its place, how many
   * are ahead and when its turn comes, without asking the origin anything private. Once drawn,
   * {@code lottery} is the draw itself (the salt and the lobby's size): the place of each lobby
   * join index follows from it (queue.domain.Lottery), so the CDN edge tells a lobby fan its
   * place without asking the origin. The salt is secret only until the draw: after it, the
   * places are fixed and each fan is told its own anyway.
   */
  public record PublicManifest(String state, long admittedUpTo, int admissionPerMinute, int seatsRemaining, String updatedAt,
                               @JsonInclude(JsonInclude.Include.NON_NULL) String startsAt, boolean drawn,
                               @JsonInclude(JsonInclude.Include.NON_NULL) Draw lottery) {}

  /** The lobby's draw: the salt the room drew at the start and the number of lobby places it shuffled. */
  public record Draw(String salt, long cohort) {}

  /** {@code GET .../queue/challenge}: a proof-of-work puzzle ({@code bits} 0: none needed). */
  public record Challenge(String challenge, int bits) {}

  /** {@code POST .../presale/registrations} answer. */
  public record Registration(String eventId, boolean registered) {}

  private final Duration joinWait;
  private final Api api;
  private final BulkheadDirectives bulkheads;
  private final Identity identity;
  private final FanContext fans;
  private final Manifests manifests;
  private final QueueToken tokens;
  private final ProofOfWork pow;
  private final PresaleCodes presale;
  private final Function<String, RecipientRef<QueuePlace.Command>> places;
  private final Function<String, RecipientRef<PresaleRegistry.Command>> registries;
  private final Scheduler scheduler;
  private final Clock clock;
  private final long tokenMaxAgeSeconds;

  public QueueRoutes(Api api, BulkheadDirectives bulkheads, Identity identity, FanContext fans, Manifests manifests, QueueToken tokens,
                     ProofOfWork pow, PresaleCodes presale, Function<String, RecipientRef<QueuePlace.Command>> places,
                     Function<String, RecipientRef<PresaleRegistry.Command>> registries, Scheduler scheduler, Clock clock,
                     long tokenMaxAgeSeconds, Duration joinWait) {
    this.joinWait = joinWait;
    this.api = api;
    this.bulkheads = bulkheads;
    this.identity = identity;
    this.fans = fans;
    this.manifests = manifests;
    this.tokens = tokens;
    this.pow = pow;
    this.presale = presale;
    this.places = places;
    this.registries = registries;
    this.scheduler = scheduler;
    this.clock = clock;
    this.tokenMaxAgeSeconds = tokenMaxAgeSeconds;
  }

  public Route routes() {
    return pathPrefix(segment("api").slash("events").slash(segment()), eventId -> concat(
        // Joining (and its presale-code and proof-of-work checks) runs inside the event's own
        // compartment, so a flood of joins cannot reach past it.
        // The fan's identity and rate limits are checked first (cheap: an HMAC and token buckets),
        // so junk naming the event is refused without taking a turn or a place of its compartment.
        path("queue", () -> concat(
            post(() -> fan(eventId, (account, prefix) -> guarded(eventId, () ->
                api.body(JoinRequest.class, r -> join(eventId, account, prefix, r))))),
            delete(() -> fan(eventId, (account, prefix) -> guarded(eventId, () -> leave(eventId, account)))))),
        path(segment("queue").slash("status"), () -> get(() -> fan(eventId, (account, prefix) -> status(eventId, account, prefix)))),
        path(segment("queue").slash("manifest"), () -> get(() -> fan(eventId, (account, prefix) -> manifest(eventId)))),
        path(segment("queue").slash("challenge"), () -> get(() -> fan(eventId, (account, prefix) -> challenge(eventId, account)))),
        path(segment("presale").slash("registrations"), () -> post(() -> fan(eventId, (account, prefix) -> register(eventId, account))))));
  }

  /** Inside the event's bulkhead as a read; a malformed id is 404 before it reaches the bulkhead or a metric. */
  private Route guarded(String eventId, java.util.function.Supplier<Route> inner) {
    if (!VenueLayout.isValidEntityId(eventId)) return complete(api.error(Manifests.notFound()));
    return bulkheads.guard(eventId, Bulkhead.Priority.READ, inner);
  }

  /** Signed in, within the rate limits, for an event this node knows (404 otherwise: nothing is asked or kept). */
  private Route fan(String eventId, java.util.function.BiFunction<String, String, Route> inner) {
    if (!VenueLayout.isValidEntityId(eventId)) return complete(api.error(Manifests.notFound()));
    return identity.account(account -> fans.prefix(prefix -> fans.limited(account, prefix,
        () -> onSuccess(manifests.current(eventId), known -> inner.apply(account, prefix)))));
  }

  private static ApiError notOnSale() {
    return new ApiError(403, "not_on_sale", "this event is not on sale");
  }

  // ---- join ------------------------------------------------------------------------------

  private Route join(String eventId, String account, String prefix, JoinRequest r) {
    return onSuccess(manifests.current(eventId), m -> optionalCookie(QueueToken.cookieName(eventId), cookie -> {
      long now = clock.millis();
      // A valid token of this account that names a place keeps it without asking anyone; one whose
      // place was given up asks the place keeper, who takes it back if the line has not passed it.
      Optional<QueueToken.Claims> held = cookie.map(c -> tokens.verify(c.value(), eventId, account, prefix))
          .filter(v -> v instanceof QueueToken.Valid).map(v -> ((QueueToken.Valid) v).claims()).filter(c -> c.place() != 0)
          .filter(c -> !"left".equals(Standing.of(c, m, tokens, now).state()));
      JoinPolicy.Facts facts = new JoinPolicy.Facts(Phase.fromWire(m.state()), Standing.openSale(m), m.lobbyOpensAt(),
          held.isPresent(), m.presale(), r.code() != null, m.powBits(), r.pow() != null);
      JoinOutcome outcome = JoinPolicy.decide(facts, now,
          () -> presale.valid(eventId, account, r.code()),
          () -> pow.check(eventId, account, m.powBits(), r.pow().challenge(), r.pow().nonce()));
      if (outcome instanceof JoinOutcome.Refused refused) return complete(api.error(refusal(refused)));
      if (outcome instanceof JoinOutcome.OpenSale) return complete(api.json(200, new Joined("admitted", null)));
      if (outcome instanceof JoinOutcome.KeepTokenPlace) return answer(held.get(), m, now);
      // Without a token (a new device, cleared cookies, another network): the account's one place, wherever it was taken.
      long nowSec = now / 1000;
      CompletionStage<QueueToken.Claims> claims = placeOf(eventId, account)
          .thenApply(tokenPlace -> new QueueToken.Claims(eventId, account, tokenPlace, prefix, nowSec, 0));
      return onComplete(claims, result -> result.isSuccess()
          ? answer(result.get(), m, now)
          : api.fail(result.failed().get()));
    }));
  }

  /** The contract's error for a refused join: the one place where join refusals become HTTP. */
  private static ApiError refusal(JoinOutcome.Refused refused) {
    if (refused instanceof JoinOutcome.NotOnSale) return notOnSale();
    if (refused instanceof JoinOutcome.NotOpen n) {
      return new ApiError(409, "not_open", n.opensAt() == null ? "the lobby is not open yet" : "the lobby opens at " + n.opensAt());
    }
    if (refused instanceof JoinOutcome.GaveUp) {
      return Refusals.toApiError(io.boxoffice.common.Refusal.PLACE_GIVEN_UP,
          "this account gave its place up and the line has passed it: one account has one place in a sale", null);
    }
    if (refused instanceof JoinOutcome.BadCode) return new ApiError(403, "bad_code", "a valid presale code for this account is required");
    if (refused instanceof JoinOutcome.BadPow b) {
      return new ApiError(403, "bad_pow", "the proof of work was not accepted (" + b.verdict().name().toLowerCase() + ")");
    }
    return roomDidNotAnswer();
  }

  private static ApiError roomDidNotAnswer() {
    return Refusals.toApiError(io.boxoffice.common.Refusal.UNAVAILABLE, "the waiting room did not answer, try again", null);
  }

  /**
   * The token place of the account: its lobby join index (as {@link Standing#lobbyToken}) or
   * its later place, as its {@link QueuePlace} keeps it (asking the room once per account, and
   * never for a second place).
   */
  private CompletionStage<Long> placeOf(String eventId, String account) {
    RecipientRef<QueuePlace.Command> place = places.apply(QueuePlace.entityId(eventId, account));
    // A join is idempotent per account: it waits for a slow place (a lobby's first seconds) rather than answering 503.
    return AskPattern.ask(place, QueuePlace.Join::new, joinWait, scheduler).thenApply(p -> {
      JoinOutcome outcome = JoinPolicy.afterAsking(p.holds(), p.refusal());
      if (outcome instanceof JoinOutcome.Refused refused) throw refusal(refused);
      return p.place() > 0 ? p.place() : Standing.lobbyToken(p.lobbyIndex());
    });
  }

  /**
   * 204: the account gives its place up (see {@link QueuePlace}), once the room has recorded it;
   * the queue cookie is cleared. 503 when the room did not answer (nothing changed: try again).
   */
  private Route leave(String eventId, String account) {
    return onSuccess(manifests.current(eventId), m -> {
      if (Standing.closed(m)) return complete(api.error(notOnSale()));
      CompletionStage<QueuePlace.Place> left = AskPattern.ask(places.apply(QueuePlace.entityId(eventId, account)),
          QueuePlace.Leave::new, api.askTimeout(), scheduler);
      return onComplete(left, result -> result.isSuccess() && result.get().refusal() != null
          ? complete(api.error(roomDidNotAnswer()))
          : result.isSuccess()
          ? complete(HttpResponse.create().withStatus(204)
              .addHeader(QueueCookie.expired(eventId))
              .addHeader(RawHeader.create("Cache-Control", "private, no-store")))
          : api.fail(result.failed().get()));
    });
  }

  /** 200 {state, position}, with the token as a cookie. */
  private Route answer(QueueToken.Claims claims, WaitingRoom.Manifest m, long now) {
    Standing s = Standing.of(claims, m, tokens, now);
    Joined body = new Joined(s.state(), s.position() > 0 ? s.position() : null);
    return complete(api.json(200, body).addHeader(cookie(s.claims())));
  }

  // ---- status, manifest, challenge, presale ----------------------------------------------

  private Route status(String eventId, String account, String prefix) {
    return onSuccess(manifests.current(eventId), m -> optionalCookie(QueueToken.cookieName(eventId), cookie -> {
      if (Standing.closed(m)) return complete(api.error(notOnSale()));
      if (cookie.isEmpty()) return complete(api.error(403, "not_admitted", "join the queue first"));
      QueueToken.Verification v = tokens.verify(cookie.get().value(), eventId, account, prefix);
      if (!(v instanceof QueueToken.Valid valid)) return complete(api.error(403, "bad_token", "the queue token is not valid here"));
      Standing s = Standing.of(valid.claims(), m, tokens, clock.millis());
      QueueStatus body = new QueueStatus(s.state(), s.position() == 0 ? null : s.position(), m.admittedUpTo(), s.aheadOf(m),
          s.estimatedWaitSeconds(m), m.seatsRemaining());
      HttpResponse response = api.json(200, body).addHeader(RawHeader.create("Cache-Control", "private, no-store"));
      if (s.reissue()) response = response.addHeader(cookie(s.claims()));
      return complete(response);
    }));
  }

  /** The public manifest; a closed event's is a 404 as an unknown event's (its seats and state are nobody's business yet). */
  private Route manifest(String eventId) {
    return onSuccess(manifests.current(eventId), m -> {
      if (Standing.closed(m)) return complete(api.error(Manifests.notFound()));
      PublicManifest body = new PublicManifest(m.state(), m.admittedUpTo(), m.admissionPerMinute(), m.seatsRemaining(),
          java.time.Instant.ofEpochMilli(m.updatedAt()).toString(),
          m.startsAt() > 0 ? java.time.Instant.ofEpochMilli(m.startsAt()).toString() : null, m.salt() != null,
          m.salt() == null ? null : new Draw(m.salt(), m.cohortSize()));
      return complete(api.json(200, body).addHeader(RawHeader.create("Cache-Control", "public, max-age=5")));
    });
  }

  private Route challenge(String eventId, String account) {
    return onSuccess(manifests.current(eventId), m -> complete(api.json(200,
        new Challenge(pow.issue(eventId, account), m.powBits()))
        .addHeader(RawHeader.create("Cache-Control", "private, no-store"))));
  }

  private Route register(String eventId, String account) {
    CompletionStage<HttpResponse> response = manifests.current(eventId).thenCompose(m -> {
      if (Standing.openSale(m) || !m.presale()) {
        return CompletableFuture.failedFuture(new ApiError(409, "no_presale", "this event has no presale"));
      }
      return AskPattern.<PresaleRegistry.Command, PresaleRegistry.Registered>ask(registries.apply(eventId),
              ref -> new PresaleRegistry.Register(account, ref), api.askTimeout(), scheduler)
          .thenApply(r -> api.json(201, new Registration(eventId, true)));
    });
    return api.respond(response);
  }

  private org.apache.pekko.http.javadsl.model.headers.SetCookie cookie(QueueToken.Claims claims) {
    return QueueCookie.of(tokens, claims, tokenMaxAgeSeconds);
  }
}
