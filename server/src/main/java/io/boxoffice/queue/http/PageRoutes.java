package io.boxoffice.queue.http;

import io.boxoffice.edge.BrowserGuards;
import io.boxoffice.edge.ClientPrefix;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.IdentityToken;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.Standing;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.queue.domain.QueueToken;
import io.boxoffice.venue.domain.VenueLayout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.Cookie;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * The fan's pages, off the routing tree (the whole crowd repeats these requests, and nothing
 * here asks an actor):
 *
 * <p>Pages carry the edge's {@code frame-ancestors 'none'} header ({@code BrowserGuards}) and
 * their own policy in a {@code <meta>} tag: our scripts, styles and calls only, no inline code.
 *
 * <ul>
 *   <li>{@code GET /events/{eventId}}: one page (waiting-room.html) in two views, the waiting
 *       room and the shop. A plain handler reads the two cookies, checks both signatures, looks
 *       at this node's manifest and answers one of two responses built once at start (the same
 *       bytes for every event; the script reads the event from the address and moves from the
 *       room to the shop by itself when the fan is admitted). An event that does not exist is a
 *       404 page for a browser ({@code Accept: text/html}) and the contract's JSON 404 otherwise.</li>
 *   <li>{@code GET /static/...}: the page's script, style and icon, immutable under a content
 *       hash ({@code ?v=}) that the page names.</li>
 *   <li>{@code GET /api/events/{eventId}/summary}: public facts the page shows before and
 *       around the sale (name, venue, times, rates, prices, the per-account limit).</li>
 * </ul>
 */
public final class PageRoutes {
  private static final String PREFIX = "/events/";
  private static final String API_PREFIX = "/api/events/";
  private static final String SUMMARY = "/summary";
  private static final String STATIC = "/static/";

  /** What the inventory knows of an event and the page shows: the venue's name, prices, limits. */
  public record EventFacts(String venueName, Map<String, Integer> prices, int maxSeatsPerAccount, int seats, int holdSeconds) {}

  /** A static file and its answer, built once. */
  private record Asset(String path, String hash, HttpResponse response) {}

  private final IdentityToken identities;
  private final ClientPrefix prefixes;
  private final Manifests manifests;
  private final QueueToken tokens;
  private final Clock clock;
  private final long tokenMaxAgeSeconds;
  private final Function<String, CompletionStage<EventFacts>> facts;
  private final Map<String, Asset> assets = new LinkedHashMap<>();
  private final HttpResponse waitingRoom;
  private final HttpResponse shop;
  private final HttpResponse notFoundPage;
  /** How long a summary waits for the event's facts before it goes without them. */
  private final Duration factsWait;

  public PageRoutes(IdentityToken identities, ClientPrefix prefixes, Manifests manifests, QueueToken tokens, Clock clock,
                    long tokenMaxAgeSeconds, Function<String, CompletionStage<EventFacts>> facts, Duration factsWait) {
    this.factsWait = factsWait;
    this.identities = identities;
    this.prefixes = prefixes;
    this.manifests = manifests;
    this.tokens = tokens;
    this.clock = clock;
    this.tokenMaxAgeSeconds = tokenMaxAgeSeconds;
    this.facts = facts;
    asset("fan.js", ContentTypes.create(MediaTypes.APPLICATION_JAVASCRIPT, org.apache.pekko.http.javadsl.model.HttpCharsets.UTF_8));
    asset("fan.css", ContentTypes.create(MediaTypes.TEXT_CSS, org.apache.pekko.http.javadsl.model.HttpCharsets.UTF_8));
    asset("favicon.svg", ContentTypes.create(MediaTypes.IMAGE_SVG_XML));
    String room = withAssetVersions(read("web/waiting-room.html"));
    this.waitingRoom = page(200, room);
    this.shop = page(200, room.replace("data-view=\"room\"", "data-view=\"shop\"")
        .replace("<title>Waiting room</title>", "<title>Choose your seats</title>"));
    this.notFoundPage = page(404, withAssetVersions(read("web/not-found.html")));
  }

  private static String read(String resource) {
    try (InputStream in = PageRoutes.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) throw new IllegalStateException("missing " + resource);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }

  private void asset(String name, ContentType type) {
    byte[] bytes = read("web/" + name).getBytes(StandardCharsets.UTF_8);
    try {
      String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 6);
      HttpResponse response = BrowserGuards.withDefaults(HttpResponse.create().withEntity(HttpEntities.create(type, bytes))
          .addHeader(RawHeader.create("ETag", "\"" + hash + "\""))
          .addHeader(RawHeader.create("Cache-Control", "public, max-age=31536000, immutable")));
      assets.put(STATIC + name, new Asset(STATIC + name, hash, response));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The page names each asset with its content hash, so that a new release is never mixed with a cached old one. */
  private String withAssetVersions(String html) {
    for (Asset a : assets.values()) html = html.replace("\"" + a.path() + "\"", "\"" + a.path() + "?v=" + a.hash() + "\"");
    return html;
  }

  /** A page's answer with the edge's default headers already on it, so that they are not added per request. */
  private static HttpResponse page(int status, String html) {
    return BrowserGuards.withDefaults(HttpResponse.create().withStatus(status)
        .withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, html.getBytes(StandardCharsets.UTF_8)))
        .addHeader(RawHeader.create("Cache-Control", "private, no-store")));
  }

  /**
   * The answer to a page, asset or summary request; empty for any other request (the routing
   * tree's). {@code path} is the request's path, which the caller has already rendered.
   */
  public Optional<CompletionStage<HttpResponse>> handle(HttpRequest request, String path) {
    if (request.method() != HttpMethods.GET) return Optional.empty();
    if (path.startsWith(STATIC)) return Optional.of(CompletableFuture.completedFuture(asset(path)));
    if (path.equals("/favicon.ico")) return Optional.of(CompletableFuture.completedFuture(asset(STATIC + "favicon.svg")));
    if (path.startsWith(API_PREFIX) && path.endsWith(SUMMARY)) {
      String eventId = path.substring(API_PREFIX.length(), path.length() - SUMMARY.length());
      if (!VenueLayout.isValidEntityId(eventId)) return Optional.empty();
      return Optional.of(summary(eventId));
    }
    if (!path.startsWith(PREFIX)) return Optional.empty();
    String eventId = path.substring(PREFIX.length());
    if (!VenueLayout.isValidEntityId(eventId)) return Optional.of(CompletableFuture.completedFuture(unknown(request, eventId)));

    String identity = null;
    String queueToken = null;
    String queueCookie = QueueToken.cookieName(eventId);
    Optional<Cookie> cookies = request.getHeader(Cookie.class);
    if (cookies.isPresent()) {
      // The model's own list, not its Java view: a conversion per page request otherwise.
      scala.collection.Iterator<org.apache.pekko.http.scaladsl.model.headers.HttpCookiePair> pairs =
          ((org.apache.pekko.http.scaladsl.model.headers.Cookie) cookies.get()).cookies().iterator();
      while (pairs.hasNext()) {
        var pair = pairs.next();
        if (pair.name().equals(IdentityToken.COOKIE)) identity = pair.value();
        else if (pair.name().equals(queueCookie)) queueToken = pair.value();
      }
    }
    WaitingRoom.Manifest m = manifests.known(eventId);
    if (m == null) {
      // Not heard here (yet): a made-up id is a 404 page; a starting room is waited for, briefly.
      String id = identity;
      String token = queueToken;
      return Optional.of(manifests.current(eventId)
          .thenApply(heard -> answer(request, eventId, id, token, heard))
          .exceptionally(e -> notYet(e) ? tryAgain() : unknown(request, eventId)));
    }
    return Optional.of(CompletableFuture.completedFuture(answer(request, eventId, identity, queueToken, m)));
  }

  private HttpResponse answer(HttpRequest request, String eventId, String identity, String queueToken, WaitingRoom.Manifest m) {
    String account = identity == null ? null : identities.verify(identity);
    if (account == null) return waitingRoom;
    return choose(request, eventId, account, queueToken, m);
  }

  /** The 404 page for a browser; the contract's JSON error for anything else (storefronts, scripts). */
  private HttpResponse unknown(HttpRequest request, String eventId) {
    boolean browser = request.getHeader("Accept").map(h -> h.value().contains("text/html")).orElse(false);
    if (browser) return notFoundPage;
    return HttpResponse.create().withStatus(404).withEntity(ContentTypes.APPLICATION_JSON,
        "{\"error\":\"not_found\",\"message\":\"no such event\"}".getBytes(StandardCharsets.UTF_8));
  }

  private HttpResponse asset(String path) {
    Asset a = assets.get(path);
    if (a == null) {
      return HttpResponse.create().withStatus(404).withEntity(ContentTypes.APPLICATION_JSON,
          "{\"error\":\"not_found\",\"message\":\"no such file\"}".getBytes(StandardCharsets.UTF_8));
    }
    return a.response();
  }

  private HttpResponse choose(HttpRequest request, String eventId, String account, String token, WaitingRoom.Manifest m) {
    if (Standing.openSale(m)) return shop;
    if (Standing.closed(m)) return waitingRoom;
    if (token == null) return waitingRoom;
    String prefix = FanContext.prefixOf(prefixes, request);
    QueueToken.Verification v = tokens.verify(token, eventId, account, prefix);
    if (!(v instanceof QueueToken.Valid valid)) return waitingRoom;
    Standing s = Standing.of(valid.claims(), m, tokens, clock.millis());
    HttpResponse page = s.state().equals("admitted") ? shop : waitingRoom;
    return s.reissue() ? page.addHeader(QueueCookie.of(tokens, s.claims(), tokenMaxAgeSeconds)) : page;
  }

  /**
   * {@code 200 {"eventId","name","venueId","venueName"?,"state","open","lobbyOpensAt"?,"startsAt"?,
   * "admissionPerMinute","maxActiveShoppers","activeShoppers","seatsRemaining","prices"?,
   * "maxSeatsPerAccount"?,"seats"?,"holdSeconds"?,"now"}}; public, cacheable for 5 s like the manifest. The
   * inventory's facts are left out when it does not answer in time. A closed event (not
   * scheduled, not opened) is a 404 as an unknown event is.
   */
  private CompletionStage<HttpResponse> summary(String eventId) {
    return manifests.current(eventId).thenCompose(m -> Standing.closed(m)
        // A closed event may not be announced yet: that it exists, its name, venue, prices and seats stay private.
        ? CompletableFuture.completedFuture(json(404, NO_SUCH_EVENT, "public, max-age=5"))
        : facts.apply(eventId).toCompletableFuture()
            .completeOnTimeout(null, factsWait.toMillis(), TimeUnit.MILLISECONDS)
            .exceptionally(e -> null)
            .thenApply(f -> json(200, summaryJson(m, f), "public, max-age=5")))
        .exceptionally(e -> notYet(e) ? tryAgain()
            : json(404, NO_SUCH_EVENT, "public, max-age=5"));
  }

  private static final String NO_SUCH_EVENT = "{\"error\":\"not_found\",\"message\":\"no such event\"}";

  /** Whether the manifest failed because this node cannot tell yet (a 503 of {@link Manifests#unknown}), not a made-up id. */
  private static boolean notYet(Throwable e) {
    Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
    return !(cause instanceof io.boxoffice.edge.ApiError a) || a.status() != 404;
  }

  private static HttpResponse tryAgain() {
    return json(503, "{\"error\":\"unavailable\",\"message\":\"this event is starting on this node, try again\"}",
        "private, no-store").addHeader(RawHeader.create("Retry-After", "1"));
  }

  private String summaryJson(WaitingRoom.Manifest m, EventFacts f) {
    StringBuilder b = new StringBuilder(256).append('{');
    field(b, "eventId", m.eventId());
    field(b, "name", m.name());
    field(b, "venueId", m.venueId());
    if (f != null) field(b, "venueName", f.venueName());
    field(b, "state", m.state());
    b.append("\"open\":").append(m.open()).append(',');
    if (m.lobbyOpensAt() > 0) field(b, "lobbyOpensAt", Instant.ofEpochMilli(m.lobbyOpensAt()).toString());
    if (m.startsAt() > 0) field(b, "startsAt", Instant.ofEpochMilli(m.startsAt()).toString());
    b.append("\"admissionPerMinute\":").append(m.admissionPerMinute()).append(',');
    b.append("\"maxActiveShoppers\":").append(m.maxActiveShoppers()).append(',');
    b.append("\"activeShoppers\":").append(m.activeShoppers()).append(',');
    b.append("\"admittedUpTo\":").append(m.admittedUpTo()).append(',');
    b.append("\"seatsRemaining\":").append(m.seatsRemaining()).append(',');
    if (f != null) {
      b.append("\"maxSeatsPerAccount\":").append(f.maxSeatsPerAccount()).append(',');
      b.append("\"seats\":").append(f.seats()).append(',');
      b.append("\"holdSeconds\":").append(f.holdSeconds()).append(',');
      b.append("\"prices\":{");
      String sep = "";
      for (Map.Entry<String, Integer> p : f.prices().entrySet()) {
        b.append(sep).append(quote(p.getKey())).append(':').append(p.getValue());
        sep = ",";
      }
      b.append("},");
    }
    field(b, "now", Instant.ofEpochMilli(clock.millis()).toString());
    b.setLength(b.length() - 1);
    return b.append('}').toString();
  }

  private static void field(StringBuilder b, String name, String value) {
    b.append('"').append(name).append("\":").append(value == null ? "null" : quote(value)).append(',');
  }

  /** A JSON string literal: quotes, backslashes and every control or non-ASCII character escaped. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  private static HttpResponse json(int status, String body, String cacheControl) {
    return HttpResponse.create().withStatus(status)
        .withEntity(ContentTypes.APPLICATION_JSON, body.getBytes(StandardCharsets.UTF_8))
        .addHeader(RawHeader.create("Cache-Control", cacheControl));
  }
}
