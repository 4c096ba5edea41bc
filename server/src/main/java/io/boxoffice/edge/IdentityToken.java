package io.boxoffice.edge;

import io.boxoffice.common.Hmac;
import java.time.Clock;
import java.time.Duration;

/**
 * The signed {@code bo_id} cookie value: account id and expiry under HMAC-SHA256. Accounts issue
 * it at sign-in; every signed-in route reads it, so it lives at the edge with {@link Identity}.
 */
public final class IdentityToken {
  public static final String COOKIE = "bo_id";

  private final Hmac hmac;
  private final Clock clock;
  private final Duration lifetime;

  public IdentityToken(Hmac hmac, Clock clock, Duration lifetime) {
    this.hmac = hmac;
    this.clock = clock;
    this.lifetime = lifetime;
  }

  public Duration lifetime() {
    return lifetime;
  }

  public String issue(String accountId) {
    long expires = clock.instant().plus(lifetime).getEpochSecond();
    return hmac.seal("id1|" + accountId + "|" + expires);
  }

  /** The account id, or null for a forged, malformed or expired token. */
  public String verify(String token) {
    String payload = hmac.open(token);
    if (payload == null || !payload.startsWith("id1|")) return null;
    // id1|account|expires, read without a split: every signed-in request and page comes here.
    int bar = payload.indexOf('|', 4);
    if (bar < 0) return null;
    try {
      long expires = Long.parseLong(payload, bar + 1, payload.length(), 10);
      return clock.millis() / 1000 <= expires ? payload.substring(4, bar) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
