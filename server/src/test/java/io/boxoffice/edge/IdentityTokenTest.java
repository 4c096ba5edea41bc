package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.boxoffice.common.Hmac;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The signed {@code bo_id} value: what it names, and everything it refuses. */
class IdentityTokenTest {
  static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");
  final Hmac hmac = Hmac.fromBase64OrRandom("");
  final IdentityToken tokens = new IdentityToken(hmac, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofHours(1));

  @Test
  void anIssuedTokenNamesItsAccountUntilItExpires() {
    String token = tokens.issue("acc-42");
    assertEquals("acc-42", tokens.verify(token));
    IdentityToken later = new IdentityToken(hmac, Clock.fixed(NOW.plusSeconds(3600), ZoneOffset.UTC), Duration.ofHours(1));
    assertEquals("acc-42", later.verify(token), "valid through its last second");
    IdentityToken tooLate = new IdentityToken(hmac, Clock.fixed(NOW.plusSeconds(3601), ZoneOffset.UTC), Duration.ofHours(1));
    assertNull(tooLate.verify(token));
  }

  @Test
  void forgedOrMalformedTokensNameNobody() {
    String token = tokens.issue("acc-42");
    assertNull(tokens.verify(null));
    assertNull(tokens.verify(""));
    assertNull(tokens.verify(token.substring(0, token.length() - 2)));
    assertNull(tokens.verify(token + "x"));
    assertNull(new IdentityToken(Hmac.fromBase64OrRandom(""), Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofHours(1)).verify(token),
        "another key");
    long later = NOW.getEpochSecond() + 60;
    // Signed with our key but not the shape we issue.
    for (String payload : new String[] {"id2|acc|" + later, "id1|acc", "id1|acc|", "id1|acc|x", "id1|a|b|" + later,
        "id1|acc|" + later + "|", "id1acc|" + later, "|id1|acc|" + later, "id1|acc|+" + later + "0000000000000000000"}) {
      assertNull(tokens.verify(hmac.seal(payload)), payload);
    }
    assertEquals("acc", tokens.verify(hmac.seal("id1|acc|" + later)));
  }

  @Test
  void anId2TokenKeepsAccountAndExpiryAtFieldsOneAndTwoAndNamesItsSession() {
    IdentityToken.Session s = tokens.open(tokens.issue("acc-42", 3));
    assertEquals("acc-42", s.accountId());
    assertEquals(NOW.getEpochSecond() + 3600, s.expires());
    assertEquals(3, s.version());
    String[] fields = hmac.open(tokens.issue("acc-42", 3)).split("\\|");
    assertEquals(4, fields.length);
    assertEquals("id2", fields[0]);
    assertEquals("acc-42", fields[1]);
    assertEquals(String.valueOf(NOW.getEpochSecond() + 3600), fields[2]);
    assertEquals(s.sessionId().substring(0, 2), "3.");
    assertNotEquals(s.sessionId(), tokens.open(tokens.issue("acc-42", 3)).sessionId(), "each sign-in is a session of its own");
  }

  @Test
  void id1TokensAreStillReadUntilTheyExpireAsVersionZero() {
    long later = NOW.getEpochSecond() + 60;
    IdentityToken.Session s = tokens.open(hmac.seal("id1|acc|" + later));
    assertEquals(new IdentityToken.Session("acc", later, 0, "id1:" + later), s);
    assertNull(tokens.open(hmac.seal("id1|acc|" + (NOW.getEpochSecond() - 1))));
  }

  @Test
  void aSignedOutSessionNamesNobody() {
    java.util.Set<String> out = new java.util.HashSet<>();
    long[] version = {0};
    IdentityToken revoking = new IdentityToken(hmac, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofHours(1),
        (account, v, session) -> v < version[0] || out.contains(session));
    String one = revoking.issue("acc-42", 0);
    String two = revoking.issue("acc-42", 0);
    String old = hmac.seal("id1|acc-42|" + (NOW.getEpochSecond() + 60));
    out.add(revoking.open(one).sessionId());
    assertNull(revoking.verify(one));
    assertEquals("acc-42", revoking.verify(two), "the account's other sessions stay");
    assertEquals("acc-42", revoking.verify(old));
    version[0] = 1;
    assertNull(revoking.verify(two));
    assertNull(revoking.verify(old), "signing out everywhere covers id1 tokens too");
    assertEquals("acc-42", revoking.verify(revoking.issue("acc-42", 1)));
  }

  @Test
  void malformedId2TokensNameNobody() {
    long later = NOW.getEpochSecond() + 60;
    for (String payload : new String[] {"id2|acc|" + later + "|", "id2|acc|" + later + "|x", "id2|acc|" + later + "|.abc",
        "id2|acc|" + later + "|1.", "id2|acc|" + later + "|-1.abc", "id2|acc|" + later + "|1.a|b", "id2||" + later + "|1.a",
        "id2|acc|x|1.a", "id2|acc||1.a", "id2|acc|" + later}) {
      assertNull(tokens.verify(hmac.seal(payload)), payload);
    }
    assertEquals("acc", tokens.verify(hmac.seal("id2|acc|" + later + "|1.a")));
  }
}
