package io.boxoffice.queue.http;

import io.boxoffice.cart.ShopAdmission;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.FanContext;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.Standing;
import io.boxoffice.queue.domain.QueueToken;
import java.time.Clock;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The shop's door: a fan may shop an event with an on-sale only with a queue token for this
 * event, account and network prefix whose place the line has reached, inside its shopping
 * window; 403 {@code bad_token} for a forged, expired or foreign token, 403 {@code not_admitted}
 * otherwise. Checked on every shop request from the token and this node's manifest alone.
 * An event this node has not heard of is 404 {@code not_found}; a closed event (neither
 * scheduled nor opened) 403 {@code not_on_sale}; an explicitly opened event is an open sale.
 * Every shop request of an on-sale or an open sale takes a token of its account's and of its
 * network's rate limits first (429 + Retry-After without one): an open sale has no line, but
 * a signed-in bot may no more hammer it than any other.
 */
public final class QueueAdmission extends AllDirectives implements ShopAdmission {
  private final Api api;
  private final FanContext fans;
  private final Manifests manifests;
  private final QueueToken tokens;
  private final Clock clock;
  private final long tokenMaxAgeSeconds;

  public QueueAdmission(Api api, FanContext fans, Manifests manifests, QueueToken tokens, Clock clock, long tokenMaxAgeSeconds) {
    this.api = api;
    this.fans = fans;
    this.manifests = manifests;
    this.tokens = tokens;
    this.clock = clock;
    this.tokenMaxAgeSeconds = tokenMaxAgeSeconds;
  }

  @Override
  public Route admitted(String eventId, String accountId, Function<EventInventory.QueuePass, Route> inner) {
    return onSuccess(manifests.current(eventId), m -> {
      if (Standing.closed(m)) return complete(api.error(403, "not_on_sale", "this event is not on sale"));
      if (Standing.openSale(m)) return fans.prefix(prefix -> fans.limited(accountId, prefix, () -> inner.apply(null)));
      return fans.prefix(prefix -> fans.limited(accountId, prefix, () -> optionalCookie(QueueToken.cookieName(eventId), cookie -> {
        if (cookie.isEmpty()) return complete(api.error(403, "not_admitted", "wait for your turn in the queue"));
        QueueToken.Verification v = tokens.verify(cookie.get().value(), eventId, accountId, prefix);
        if (!(v instanceof QueueToken.Valid valid)) {
          return complete(api.error(403, "bad_token", "the queue token is forged, expired or from another network"));
        }
        Standing s = Standing.of(valid.claims(), m, tokens, clock.millis());
        if (!s.state().equals("admitted")) return complete(api.error(403, "not_admitted", "it is not your turn yet"));
        if (!s.reissue()) return inner.apply(new EventInventory.QueuePass(cookie.get().value(), prefix));
        // Admitted by this very request: the token now carries the start of the shopping window.
        String renewed = tokens.issue(s.claims());
        return respondWithHeader(QueueCookie.of(renewed, s.claims().eventId(), tokenMaxAgeSeconds),
            () -> inner.apply(new EventInventory.QueuePass(renewed, prefix)));
      })));
    });
  }

  @Override
  public Route charged(String accountId, int tokens, Supplier<Route> inner) {
    if (tokens <= 0) return inner.get();
    return fans.prefix(prefix -> fans.limited(accountId, prefix, tokens, inner));
  }
}
