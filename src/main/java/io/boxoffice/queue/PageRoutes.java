package io.boxoffice.queue;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import io.boxoffice.edge.Api;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.Manifests;
import io.boxoffice.venue.VenueLayout;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * {@code GET /events/{eventId}}: the waiting-room page until the fan is admitted, then the shop.
 * Both pages are the same bytes for every event (their script reads the event from the
 * address), built once and answered from memory; choosing between them costs two signature
 * checks and a look at this node's manifest, and asks no actor.
 */
public final class PageRoutes extends AllDirectives {
  private final Api api;
  private final Identity identity;
  private final FanContext fans;
  private final Manifests manifests;
  private final QueueToken tokens;
  private final Clock clock;
  private final long tokenMaxAgeSeconds;
  private final HttpResponse waitingRoom;
  private final HttpResponse shop;

  public PageRoutes(Api api, Identity identity, FanContext fans, Manifests manifests, QueueToken tokens, Clock clock,
                    long tokenMaxAgeSeconds) {
    this.api = api;
    this.identity = identity;
    this.fans = fans;
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

  public Route routes() {
    return path(segment("events").slash(segment()), eventId -> get(() -> {
      if (!VenueLayout.isValidEntityId(eventId)) return complete(api.error(404, "not_found", "no such event"));
      return identity.optionalAccount(account -> account.isEmpty() ? complete(waitingRoom) : page(eventId, account.get()));
    }));
  }

  private Route page(String eventId, String account) {
    return onSuccess(manifests.current(eventId), m -> {
      if (Standing.openSale(m)) return complete(shop);
      return optionalCookie(QueueToken.cookieName(eventId), cookie -> {
        if (cookie.isEmpty()) return complete(waitingRoom);
        return fans.prefix(prefix -> {
          QueueToken.Verification v = tokens.verify(cookie.get().value(), eventId, account, prefix);
          if (!(v instanceof QueueToken.Valid valid)) return complete(waitingRoom);
          Standing s = Standing.of(valid.claims(), m, tokens, clock.millis());
          HttpResponse page = s.state().equals("admitted") ? shop : waitingRoom;
          return complete(s.reissue() ? page.addHeader(QueueCookie.of(tokens, s.claims(), tokenMaxAgeSeconds)) : page);
        });
      });
    });
  }
}
