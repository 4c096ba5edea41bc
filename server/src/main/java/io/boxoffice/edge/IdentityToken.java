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
    if (payload == null) return null;
    String[] parts = payload.split("\\|");
    if (parts.length != 3 || !parts[0].equals("id1")) return null;
    try {
      long expires = Long.parseLong(parts[2]);
      return clock.instant().getEpochSecond() <= expires ? parts[1] : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
