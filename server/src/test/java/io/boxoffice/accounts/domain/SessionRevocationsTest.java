package io.boxoffice.accounts.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a signed-out session is, how long it is remembered, and how nodes' views combine. */
class SessionRevocationsTest {
  static final long NOW = 1_800_000_000L;
  static final long HOUR = 3600;

  @Test
  void aSessionSignedOutIsRefusedAndTheOthersAreNot() {
    SessionRevocations r = SessionRevocations.NONE.revoke("0.abc", NOW + HOUR, NOW);
    assertTrue(r.isRevoked(0, "0.abc"));
    assertFalse(r.isRevoked(0, "0.other"), "another session of the account stays signed in");
    assertFalse(SessionRevocations.NONE.isRevoked(0, "0.abc"));
  }

  @Test
  void signingOutEverywhereRefusesEverySessionIssuedBeforeAndNoneAfter() {
    SessionRevocations r = SessionRevocations.NONE.revoke("0.abc", NOW + HOUR, NOW).signOutEverywhere(NOW);
    assertEquals(1, r.version());
    assertTrue(r.isRevoked(0, "0.xyz"), "every session of version 0");
    assertTrue(r.isRevoked(0, "id1:" + (NOW + HOUR)), "id1 tokens are version 0");
    assertFalse(r.isRevoked(1, "1.new"), "a session issued after");
    assertTrue(r.signOutEverywhere(NOW + 5).isRevoked(1, "1.new"));
  }

  @Test
  void anIdIsForgottenOnceItsTokenExpiredAndTheVersionAfterALifetime() {
    SessionRevocations r = SessionRevocations.NONE.revoke("0.old", NOW + 10, NOW).revoke("0.abc", NOW + HOUR, NOW + 20);
    assertEquals(Map.of("0.abc", NOW + HOUR), r.revoked(), "0.old expired by the second sign-out");
    assertEquals(NOW + HOUR, r.mattersUntil(12 * HOUR));
    assertEquals(Map.of(), r.pruned(NOW + HOUR + 1).revoked());
    SessionRevocations everywhere = r.signOutEverywhere(NOW + 30);
    assertEquals(NOW + 30 + 12 * HOUR, everywhere.mattersUntil(12 * HOUR));
    assertEquals(Map.of(), SessionRevocations.NONE.revoke("0.gone", NOW - 1, NOW).revoked(), "already expired: nothing to keep");
  }

  @Test
  void viewsMergeInAnyOrderAndMoreThanOnce() {
    SessionRevocations a = SessionRevocations.NONE.revoke("0.a", NOW + HOUR, NOW);
    SessionRevocations everywhere = a.signOutEverywhere(NOW + 1);
    SessionRevocations b = everywhere.revoke("1.b", NOW + HOUR, NOW + 2);
    SessionRevocations ab = a.merge(b);
    SessionRevocations ba = b.merge(a).merge(b);
    assertEquals(ab, ba);
    assertEquals(1, ab.version());
    assertTrue(ab.isRevoked(1, "1.b"), "a session signed out after the version went up stays signed out");
    assertTrue(ab.isRevoked(0, "0.a"));
    assertFalse(ab.isRevoked(1, "1.c"));
    assertEquals(NOW + 1, ab.signedOutAt());
  }
}
