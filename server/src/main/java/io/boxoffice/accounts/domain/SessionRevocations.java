package io.boxoffice.accounts.domain;

import java.util.HashMap;
import java.util.Map;

/**
 * What one account has signed out on the server, so a replayed {@code bo_id} is refused.
 *
 * <p>Two facts, both small: {@code version}, raised by "sign out everywhere" (a session token
 * carries the version it was issued under, and one issued under an older version is refused),
 * and {@code revoked}, the ids of sessions signed out one by one, each kept until its token
 * expires (after that the token's own expiry refuses it). {@code signedOutAt} (epoch seconds of
 * the last "sign out everywhere") says how long the version still matters: tokens issued before
 * it expire at most a session lifetime later. Times are passed in, never read here.
 */
public record SessionRevocations(long version, long signedOutAt, Map<String, Long> revoked) {
  public static final SessionRevocations NONE = new SessionRevocations(0, 0, Map.of());

  public SessionRevocations {
    revoked = revoked == null ? Map.of() : Map.copyOf(revoked);
  }

  /** Whether a session issued under {@code sessionVersion} with id {@code sessionId} is signed out. */
  public boolean isRevoked(long sessionVersion, String sessionId) {
    return sessionVersion < version || revoked.containsKey(sessionId);
  }

  /** Signs out one session whose token expires at {@code expires}; ids expired by {@code now} are dropped. */
  public SessionRevocations revoke(String sessionId, long expires, long now) {
    Map<String, Long> next = new HashMap<>(pruned(now).revoked);
    if (expires >= now) next.put(sessionId, expires);
    return new SessionRevocations(version, signedOutAt, next);
  }

  /** Signs out every session issued so far: the version goes up and covers every id signed out before. */
  public SessionRevocations signOutEverywhere(long now) {
    return new SessionRevocations(version + 1, now, Map.of());
  }

  /**
   * Both views together (as nodes hear them, in any order, more than once): the higher version
   * and its time, and the ids of both (an id the higher version covers stays refused either way,
   * and goes when its token expires).
   */
  public SessionRevocations merge(SessionRevocations other) {
    Map<String, Long> ids = new HashMap<>(revoked);
    other.revoked.forEach((id, until) -> ids.merge(id, until, Math::max));
    return new SessionRevocations(Math.max(version, other.version), Math.max(signedOutAt, other.signedOutAt), ids);
  }

  /** Without the ids whose tokens expired before {@code now}. */
  public SessionRevocations pruned(long now) {
    Map<String, Long> next = new HashMap<>();
    revoked.forEach((id, until) -> {
      if (until >= now) next.put(id, until);
    });
    return next.size() == revoked.size() ? this : new SessionRevocations(version, signedOutAt, next);
  }

  /** Until when (epoch seconds) any of this can still refuse a token that has not expired by itself. */
  public long mattersUntil(long sessionLifetimeSeconds) {
    long until = version > 0 ? signedOutAt + sessionLifetimeSeconds : 0;
    for (long expires : revoked.values()) until = Math.max(until, expires);
    return until;
  }
}
