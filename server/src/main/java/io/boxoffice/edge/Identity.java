package io.boxoffice.edge;

import java.util.function.Function;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/** The signed-in account of a request, from the {@code bo_id} cookie; 401 without a valid one. */
public final class Identity extends AllDirectives {
  private final IdentityToken tokens;
  private final Api api;

  public Identity(IdentityToken tokens, Api api) {
    this.tokens = tokens;
    this.api = api;
  }

  /** The signed-in account, if the request carries a valid {@code bo_id}. */
  public Route optionalAccount(Function<java.util.Optional<String>, Route> inner) {
    return optionalCookie(IdentityToken.COOKIE, cookie -> inner.apply(cookie.map(c -> tokens.verify(c.value()))));
  }

  public Route account(Function<String, Route> inner) {
    return optionalCookie(IdentityToken.COOKIE, cookie -> {
      String account = cookie.map(c -> tokens.verify(c.value())).orElse(null);
      if (account == null) return complete(api.error(401, "unauthenticated", "sign in first (POST /api/session)"));
      return inner.apply(account);
    });
  }
}
