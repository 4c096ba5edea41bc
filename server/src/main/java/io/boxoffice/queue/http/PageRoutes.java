package io.boxoffice.queue.http;

import io.boxoffice.edge.BrowserGuards;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.Standing;
import io.boxoffice.queue.WaitingRoom;
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
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * The fan's pages, off the routing tree (the whole crowd repeats these requests, and nothing
 * here asks an actor):
 *
 * <p>Pages carry the edge's {@code frame-ancestors 'none'} header ({@code BrowserGuards}) and
 * their own policy in a {@code <meta>} tag: our scripts, styles and calls only, no inline code.
 *
 * <ul>
 *   <li>{@code GET /events/{eventId}}: one page (waiting-room.html), the same bytes for every fan
 *       and every event, built once at start: no cookie is read and nothing about the fan is in
 *       it, so a CDN may keep it ({@code public}, a short max-age, a strong {@code ETag} and 304 on
 *       {@code If-None-Match}). The script reads the event from the address and learns the rest
 *       from the calls it makes (the summary, the fan's status or join, the public manifest), and
 *       moves from the room to the shop by itself. An event that does not exist is a 404 page for
 *       a browser ({@code Accept: text/html}) and the contract's JSON 404 otherwise, kept only
 *       briefly: it may be created a moment later.</li>
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
  /**
   * The page's caching: a minute fresh, then a minute more served stale while a cache fetches it
   * again. Short, because a release changes the asset hashes the page names.
   */
  static final String PAGE_CACHE = "public, max-age=60, stale-while-revalidate=60";
  /** A missing event's answer: kept briefly, so a flood of made-up ids is cheap and a new event is soon found. */
  static final String NOT_FOUND_CACHE = "public, max-age=5";

  /** What the inventory knows of an event and the page shows: the venue's name, prices, limits. */
  public record EventFacts(String venueName, Map<String, Integer> prices, int maxSeatsPerAccount, int seats, int holdSeconds) {}

  /** A static file and its answer, built once. */
  private record Asset(String path, String hash, HttpResponse response) {}

  private final Manifests manifests;
  private final Clock clock;
  private final Function<String, CompletionStage<EventFacts>> facts;
  private final Map<String, Asset> assets = new LinkedHashMap<>();
  /** The page's strong validator: a hash of its bytes, quoted. */
  private final String pageTag;
  private final HttpResponse page;
  private final HttpResponse notModified;
  private final HttpResponse notFoundPage;
  private final HttpResponse notFoundJson;
  /** How long a summary waits for the event's facts before it goes without them. */
  private final Duration factsWait;

  public PageRoutes(Manifests manifests, Clock clock, Function<String, CompletionStage<EventFacts>> facts, Duration factsWait) {
    this.factsWait = factsWait;
    this.manifests = manifests;
    this.clock = clock;
    this.facts = facts;
    asset("fan.js", ContentTypes.create(MediaTypes.APPLICATION_JAVASCRIPT, org.apache.pekko.http.javadsl.model.HttpCharsets.UTF_8));
    asset("fan.css", ContentTypes.create(MediaTypes.TEXT_CSS, org.apache.pekko.http.javadsl.model.HttpCharsets.UTF_8));
    asset("favicon.svg", ContentTypes.create(MediaTypes.IMAGE_SVG_XML));
    byte[] room = withAssetVersions(read("web/waiting-room.html")).getBytes(StandardCharsets.UTF_8);
    this.pageTag = "\"" + hash(room, 16) + "\"";
    RawHeader etag = RawHeader.create("ETag", pageTag);
    RawHeader cache = RawHeader.create("Cache-Control", PAGE_CACHE);
    this.page = BrowserGuards.withDefaults(HttpResponse.create()
        .withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, room)).addHeader(etag).addHeader(cache));
    this.notModified = BrowserGuards.withDefaults(HttpResponse.create().withStatus(304).addHeader(etag).addHeader(cache));
    this.notFoundPage = BrowserGuards.withDefaults(HttpResponse.create().withStatus(404)
        .withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, withAssetVersions(read("web/not-found.html")).getBytes(StandardCharsets.UTF_8)))
        .addHeader(RawHeader.create("Cache-Control", NOT_FOUND_CACHE)).addHeader(RawHeader.create("Vary", "Accept")));
    this.notFoundJson = BrowserGuards.withDefaults(json(404, "{\"error\":\"not_found\",\"message\":\"no such event\"}", NOT_FOUND_CACHE)
        .addHeader(RawHeader.create("Vary", "Accept")));
  }

  private static String read(String resource) {
    try (InputStream in = PageRoutes.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) throw new IllegalStateException("missing " + resource);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }

  /** The first {@code bytes} bytes of the SHA-256 of {@code content}, in hex. */
  private static String hash(byte[] content, int bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content), 0, bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private void asset(String name, ContentType type) {
    byte[] bytes = read("web/" + name).getBytes(StandardCharsets.UTF_8);
    String hash = hash(bytes, 6);
    HttpResponse response = BrowserGuards.withDefaults(HttpResponse.create().withEntity(HttpEntities.create(type, bytes))
        .addHeader(RawHeader.create("ETag", "\"" + hash + "\""))
        .addHeader(RawHeader.create("Cache-Control", "public, max-age=31536000, immutable")));
    assets.put(STATIC + name, new Asset(STATIC + name, hash, response));
  }

  /** The page names each asset with its content hash, so that a new release is never mixed with a cached old one. */
  private String withAssetVersions(String html) {
    for (Asset a : assets.values()) html = html.replace("\"" + a.path() + "\"", "\"" + a.path() + "?v=" + a.hash() + "\"");
    return html;
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
    if (!VenueLayout.isValidEntityId(eventId)) return Optional.of(CompletableFuture.completedFuture(unknown(request)));
    if (manifests.known(eventId) != null) return Optional.of(CompletableFuture.completedFuture(page(request)));
    // Not heard here (yet): a made-up id is a 404 page; a starting room is waited for, briefly.
    return Optional.of(manifests.current(eventId)
        .thenApply(heard -> page(request))
        .exceptionally(e -> notYet(e) ? tryAgain() : unknown(request)));
  }

  /** The page, or 304 when the request names its tag ({@code If-None-Match}: a list, weak or strong, or {@code *}). */
  private HttpResponse page(HttpRequest request) {
    Optional<org.apache.pekko.http.javadsl.model.HttpHeader> match = request.getHeader("If-None-Match");
    if (match.isEmpty()) return page;
    for (String tag : match.get().value().split(",")) {
      String t = tag.trim();
      if (t.startsWith("W/")) t = t.substring(2);
      if (t.equals(pageTag) || t.equals("*")) return notModified;
    }
    return page;
  }

  /** The 404 page for a browser; the contract's JSON error for anything else (storefronts, scripts). */
  private HttpResponse unknown(HttpRequest request) {
    boolean browser = request.getHeader("Accept").map(h -> h.value().contains("text/html")).orElse(false);
    return browser ? notFoundPage : notFoundJson;
  }

  private HttpResponse asset(String path) {
    Asset a = assets.get(path);
    if (a == null) {
      return HttpResponse.create().withStatus(404).withEntity(ContentTypes.APPLICATION_JSON,
          "{\"error\":\"not_found\",\"message\":\"no such file\"}".getBytes(StandardCharsets.UTF_8));
    }
    return a.response();
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
