package io.boxoffice.queue;

import io.boxoffice.edge.ClientPrefix;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.IdentityToken;
import io.boxoffice.venue.VenueLayout;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.Cookie;
import org.apache.pekko.http.javadsl.model.headers.HttpCookiePair;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * {@code GET /events/{eventId}}: the waiting-room page until the fan is admitted, then the shop.
 * This is the one request the whole crowd repeats, so it bypasses the routing tree: a plain
 * handler reads the two cookies, checks both signatures, looks at this node's manifest and
 * answers one of two responses built once at start (the same bytes for every event; their
 * script reads the event from the address). Nothing is asked of any actor; an event this node
 * has not heard of goes on to the routing tree (404).
 */
public final class PageRoutes {
  private static final String PREFIX = "/events/";

  private final IdentityToken identities;
  private final ClientPrefix prefixes;
  private final Manifests manifests;
  private final QueueToken tokens;
  private final Clock clock;
  private final long tokenMaxAgeSeconds;
  private final HttpResponse waitingRoom;
  private final HttpResponse shop;

  public PageRoutes(IdentityToken identities, ClientPrefix prefixes, Manifests manifests, QueueToken tokens, Clock clock,
                    long tokenMaxAgeSeconds) {
    this.identities = identities;
    this.prefixes = prefixes;
    this.manifests = manifests;
    this.tokens = tokens;
    this.clock = clock;
    this.tokenMaxAgeSeconds = tokenMaxAgeSeconds;
    this.waitingRoom = page("web/waiting-room.html");
    this.shop = page("web/shop.html");
  }

  private static HttpResponse page(String resource) {
    try (InputStream in = PageRoutes.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) throw new IllegalStateException("missing " + resource);
      return HttpResponse.create()
          .withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, in.readAllBytes()))
          .addHeader(RawHeader.create("Cache-Control", "private, no-store"));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }

  /** The page for a request to {@code GET /events/{eventId}}; empty for any other request. */
  public Optional<CompletionStage<HttpResponse>> handle(HttpRequest request) {
    if (request.method() != HttpMethods.GET) return Optional.empty();
    String path = request.getUri().path();
    if (!path.startsWith(PREFIX)) return Optional.empty();
    String eventId = path.substring(PREFIX.length());
    if (!VenueLayout.isValidEntityId(eventId)) return Optional.empty();

    String identity = null;
    String queueToken = null;
    String queueCookie = QueueToken.cookieName(eventId);
    Optional<Cookie> cookies = request.getHeader(Cookie.class);
    if (cookies.isPresent()) {
      for (HttpCookiePair pair : cookies.get().getCookies()) {
        if (pair.name().equals(IdentityToken.COOKIE)) identity = pair.value();
        else if (pair.name().equals(queueCookie)) queueToken = pair.value();
      }
    }
    // An event this node has not heard of is left to the routing tree, which answers 404.
    WaitingRoom.Manifest m = manifests.known(eventId);
    if (m == null) return Optional.empty();
    String account = identity == null ? null : identities.verify(identity);
    if (account == null) return Optional.of(CompletableFuture.completedFuture(waitingRoom));
    return Optional.of(CompletableFuture.completedFuture(choose(request, eventId, account, queueToken, m)));
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
}
