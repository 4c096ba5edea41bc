package io.boxoffice.edge;

/**
 * Whether a session a valid {@code bo_id} names has been signed out on the server. Accounts
 * implement it from an in-memory view that every node keeps (no database read per request).
 */
@FunctionalInterface
public interface RevokedSessions {
  RevokedSessions NONE = (account, version, sessionId) -> false;

  boolean revoked(String accountId, long version, String sessionId);
}
