package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
