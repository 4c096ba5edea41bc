package io.boxoffice.edge;

import io.boxoffice.common.Hmac;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;

/**
 * The signed {@code bo_id} cookie value under HMAC-SHA256. Accounts issue it at sign-in; every
 * signed-in route reads it, so it lives at the edge with {@link Identity}.
 *
 * <p>Payload {@code id2|<account>|<expires>|<sessionId>}: account at field 1 and expiry (epoch
 * seconds) at field 2, so a verifier that knows only those (the CDN worker) reads it as it read
 * {@code id1|<account>|<expires>}, still accepted until the last of those expires. The session id
 * is {@code <version>.<random>}: the account's sign-out version it was issued under, then 96
 * random bits. An id1 token is version 0 with the session id {@code id1:<expires>}. A session
 * that {@link RevokedSessions} names as signed out verifies as nobody.
 */
public final class IdentityToken {
  public static final String COOKIE = "bo_id";
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A verified session: who, until when (epoch seconds), under which sign-out version, which session. */
  public record Session(String accountId, long expires, long version, String sessionId) {}

  private final Hmac hmac;
  private final Clock clock;
  private final Duration lifetime;
  private final RevokedSessions revocations;

  public IdentityToken(Hmac hmac, Clock clock, Duration lifetime) {
    this(hmac, clock, lifetime, RevokedSessions.NONE);
  }

  public IdentityToken(Hmac hmac, Clock clock, Duration lifetime, RevokedSessions revocations) {
    this.hmac = hmac;
    this.clock = clock;
    this.lifetime = lifetime;
    this.revocations = revocations;
  }

  public Duration lifetime() {
    return lifetime;
  }

  /** A token of a new session under sign-out version 0. */
  public String issue(String accountId) {
    return issue(accountId, 0);
  }

  /** A token of a new session of {@code accountId} under the account's sign-out {@code version}. */
  public String issue(String accountId, long version) {
    byte[] b = new byte[12];
    RANDOM.nextBytes(b);
    return issueSession(accountId, version + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(b));
  }

  /** A token of the session {@code sessionId} ({@code <version>.<random>}): fixed sessions make the edge's test vectors. */
  String issueSession(String accountId, String sessionId) {
    long expires = clock.instant().plus(lifetime).getEpochSecond();
    return hmac.seal("id2|" + accountId + "|" + expires + "|" + sessionId);
  }

  /** The account id, or null for a forged, malformed, expired or signed-out token. */
  public String verify(String token) {
    Session s = open(token);
    return s == null ? null : s.accountId();
  }

  /** The session, or null for a forged, malformed, expired or signed-out token. */
  public Session open(String token) {
    Session s = read(hmac.open(token));
    if (s == null || clock.millis() / 1000 > s.expires()) return null;
    return revocations.revoked(s.accountId(), s.version(), s.sessionId()) ? null : s;
  }

  /** Parses a payload without a split: every signed-in request and page comes here. */
  private static Session read(String payload) {
    if (payload == null) return null;
    boolean v2 = payload.startsWith("id2|");
    if (!v2 && !payload.startsWith("id1|")) return null;
    int bar = payload.indexOf('|', 4);
    if (bar <= 4) return null;
    if (!v2) return read1(payload, bar);
    int bar2 = payload.indexOf('|', bar + 1);
    if (bar2 < 0) return null;
    int dot = payload.indexOf('.', bar2 + 1);
    if (dot <= bar2 + 1 || dot == payload.length() - 1 || payload.indexOf('|', bar2 + 1) >= 0) return null;
    try {
      long expires = parseDigits(payload, bar + 1, bar2);
      long version = parseDigits(payload, bar2 + 1, dot);
      return new Session(payload.substring(4, bar), expires, version, payload.substring(bar2 + 1));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Session read1(String payload, int bar) {
    try {
      long expires = parseDigits(payload, bar + 1, payload.length());
      return new Session(payload.substring(4, bar), expires, 0, "id1:" + expires);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Digits only (no sign), at most 18 of them. */
  private static long parseDigits(String s, int from, int to) {
    if (to <= from || to - from > 18) throw new NumberFormatException();
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') throw new NumberFormatException();
    }
    return Long.parseLong(s, from, to, 10);
  }
}
