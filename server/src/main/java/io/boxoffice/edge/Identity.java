package io.boxoffice.edge;

import java.util.function.Function;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The signed-in account of a request, from the {@code bo_id} cookie; 401 without a valid one,
 * or 429 once the request's network has spent its per-prefix budget of such refusals
 * ({@link FanContext#refused}).
 */
public final class Identity extends AllDirectives {
  private final IdentityToken tokens;
  private final Api api;
  private final FanContext fans;
  private final TokenBuckets refusals;

  public Identity(IdentityToken tokens, Api api, FanContext fans, TokenBuckets refusals) {
    this.tokens = tokens;
    this.api = api;
    this.fans = fans;
    this.refusals = refusals;
  }

  public Route account(Function<String, Route> inner) {
    return optionalCookie(IdentityToken.COOKIE, cookie -> {
      String account = cookie.map(c -> tokens.verify(c.value())).orElse(null);
      if (account == null) {
        return fans.refused(refusals, () -> complete(api.error(401, "unauthenticated", "sign in first (POST /api/session)")));
      }
      return inner.apply(account);
    });
  }
}
