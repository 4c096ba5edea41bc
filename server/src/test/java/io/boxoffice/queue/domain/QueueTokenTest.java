package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.queue.domain.QueueToken.Claims;
import io.boxoffice.queue.domain.QueueToken.Invalid;
import io.boxoffice.queue.domain.QueueToken.Reason;
import io.boxoffice.queue.domain.QueueToken.Valid;
import io.boxoffice.queue.domain.QueueToken.Verification;
import io.boxoffice.support.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Base64;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class QueueTokenTest {
  static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  static final long NOW = T0.getEpochSecond();
  static final String EVENT = "eras-2026-wembley-1";
  static final String ACCOUNT = "aQ3v9xK2mP0sT7wYbN4cLg";
  static final String PREFIX = "203.0.113.0/24";
  static final byte[] KEY_A = key(1);
  static final byte[] KEY_B = key(2);
  static final byte[] KEY_C = key(3);

  static byte[] key(int seed) {
    byte[] k = new byte[32];
    new SplittableRandom(seed).nextBytes(k);
    return k;
  }

  static QueueToken tokens(Clock clock, byte[] active, byte[] previous) {
    return new QueueToken(new QueueTokenSettings(clock, active, previous, Duration.ofHours(24), Duration.ofMinutes(30),
        Duration.ofSeconds(15)));
  }

  final MutableClock clock = new MutableClock(T0);
  final QueueToken tokens = tokens(clock, KEY_A, null);

  static Claims claims(long issuedAt) {
    return new Claims(EVENT, ACCOUNT, 42_317, PREFIX, issuedAt, 0);
  }

  static Reason reasonOf(Verification v) {
    return assertInstanceOf(Invalid.class, v).reason();
  }

  Verification verify(QueueToken t, String token) {
    return t.verify(token, EVENT, ACCOUNT, PREFIX);
  }

  @Test
  void aTokenVerifiesToTheClaimsItWasIssuedWith() {
    Claims issued = new Claims(EVENT, ACCOUNT, 9_876_543_210L, PREFIX, NOW - 100, NOW - 50);
    String token = tokens.issue(issued);
    assertTrue(token.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_'), "cookie-safe: " + token);
    assertEquals(issued, assertInstanceOf(Valid.class, verify(tokens, token)).claims());
  }

  @Test
  void ipv6PrefixesAndNonAsciiIdsRoundTrip() {
    Claims issued = new Claims("fête-à-paris", ACCOUNT, 1, "2001:db8:1::/48", NOW, 0);
    String token = tokens.issue(issued);
    assertEquals(issued, assertInstanceOf(Valid.class,
        tokens.verify(token, "fête-à-paris", ACCOUNT, "2001:db8:1::/48")).claims());
    assertEquals(Reason.WRONG_EVENT, reasonOf(tokens.verify(token, "fête-à-parisX", ACCOUNT, "2001:db8:1::/48")));
    assertEquals(Reason.WRONG_EVENT, reasonOf(tokens.verify(token, "fete-a-paris", ACCOUNT, "2001:db8:1::/48")));
  }

  @Test
  void flippingAnyBitOfPayloadOrMacMakesTheTokenInvalid() {
    String token = tokens.issue(claims(NOW));
    byte[] raw = Base64.getUrlDecoder().decode(token);
    int macAt = raw.length - 32;
    for (int i = 0; i < raw.length; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] tampered = raw.clone();
        tampered[i] ^= (byte) (1 << bit);
        Verification v = verify(tokens, Base64.getUrlEncoder().withoutPadding().encodeToString(tampered));
        Reason reason = reasonOf(v);
        if (i == 0) assertEquals(Reason.MALFORMED, reason, "version bit " + bit);
        else if (i < 29 || i >= macAt) assertEquals(Reason.FORGED, reason, "byte " + i + " bit " + bit);
        // A flipped length or text byte breaks the layout or the MAC.
        else assertTrue(reason == Reason.FORGED || reason == Reason.MALFORMED, "byte " + i + " bit " + bit + ": " + reason);
      }
    }
  }

  @Test
  void aTokenIsValidUntilTtlPlusLeewayAfterIssue() {
    String token = tokens.issue(claims(NOW));
    clock.advance(Duration.ofHours(24).plusSeconds(15));
    assertInstanceOf(Valid.class, verify(tokens, token));
    clock.advance(Duration.ofSeconds(1));
    assertEquals(Reason.EXPIRED, reasonOf(verify(tokens, token)));
  }

  @Test
  void aTokenFromUpToFifteenSecondsInTheFutureIsAcceptedAndNoLater() {
    assertInstanceOf(Valid.class, verify(tokens, tokens.issue(claims(NOW + 15))));
    assertEquals(Reason.ISSUED_IN_FUTURE, reasonOf(verify(tokens, tokens.issue(claims(NOW + 16)))));
  }

  @Test
  void aTokenIsBoundToItsPrefixAccountAndEvent() {
    String token = tokens.issue(claims(NOW));
    assertEquals(Reason.WRONG_PREFIX, reasonOf(tokens.verify(token, EVENT, ACCOUNT, "198.51.100.0/24")));
    assertEquals(Reason.WRONG_PREFIX, reasonOf(tokens.verify(token, EVENT, ACCOUNT, "203.0.113.0/2")));
    assertEquals(Reason.WRONG_ACCOUNT, reasonOf(tokens.verify(token, EVENT, "aSomeoneElse", PREFIX)));
    assertEquals(Reason.WRONG_ACCOUNT, reasonOf(tokens.verify(token, EVENT, ACCOUNT + "x", PREFIX)));
    assertEquals(Reason.WRONG_EVENT, reasonOf(tokens.verify(token, "eras-2026-wembley-2", ACCOUNT, PREFIX)));
    assertEquals(Reason.WRONG_EVENT, reasonOf(tokens.verify(token, null, ACCOUNT, PREFIX)));
  }

  @Test
  void aTokenOfThePreviousKeyIsValidWhileThatKeyIsConfiguredAndForgedOnceDropped() {
    String old = tokens(clock, KEY_A, null).issue(claims(NOW));
    QueueToken rotated = tokens(clock, KEY_B, KEY_A);
    assertInstanceOf(Valid.class, verify(rotated, old));
    assertInstanceOf(Valid.class, verify(rotated, rotated.issue(claims(NOW))));
    assertInstanceOf(Valid.class, verify(tokens(clock, KEY_B, null), rotated.issue(claims(NOW))),
        "the active key signs after a rotation");
    assertEquals(Reason.FORGED, reasonOf(verify(tokens(clock, KEY_B, null), old)));
  }

  /**
   * The three rollouts of a rotation from key A to key B, each rolling over the nodes one by one,
   * so that at every moment two adjacent phases run side by side: a token signed by any node
   * verifies on every other node, and the place issued before the rotation stays valid until the
   * old key is dropped after the token's lifetime.
   */
  @Test
  void aRotationInThreePhasesNeverRefusesATokenAnotherNodeSigned() {
    QueueToken phase0 = tokens(List.of(), KEY_A);
    QueueToken phase1 = tokens(List.of(KEY_B), KEY_A);
    QueueToken phase2 = tokens(List.of(KEY_A), KEY_B);
    QueueToken phase3 = tokens(List.of(), KEY_B);
    String before = phase0.issue(claims(NOW));
    List<List<QueueToken>> rollouts = List.of(List.of(phase0, phase1), List.of(phase1, phase2), List.of(phase2, phase3));
    for (int r = 0; r < 2; r++) { // the old key is still accepted in rollouts 1 and 2
      for (QueueToken verifier : rollouts.get(r)) {
        assertInstanceOf(Valid.class, verify(verifier, before), "a pre-rotation token in rollout " + (r + 1));
      }
    }
    for (List<QueueToken> mixed : rollouts) {
      for (QueueToken signer : mixed) {
        for (QueueToken verifier : mixed) {
          assertInstanceOf(Valid.class, verify(verifier, signer.issue(claims(NOW))), "signed and verified in one rollout");
        }
      }
    }
    // The single-step rotation this replaces: a node with only B active next to one with only A.
    assertEquals(Reason.FORGED, reasonOf(verify(phase0, tokens(List.of(KEY_A), KEY_B).issue(claims(NOW)))));
    // Phase 3 drops A: what A signed is forged from then on (its tokens have expired by then).
    assertEquals(Reason.FORGED, reasonOf(verify(phase3, before)));
  }

  @Test
  void acceptedKeysComeFromACommaSeparatedListOrAHoconList() {
    String a = Base64.getEncoder().encodeToString(KEY_A);
    String b = Base64.getEncoder().encodeToString(KEY_B);
    String c = Base64.getUrlEncoder().encodeToString(KEY_C);
    QueueTokenSettings fromEnv = QueueTokenSettings.fromConfig(ConfigFactory.parseString(
        "boxoffice.queue { keys { active = \"" + a + "\", accepted = \"" + b + " , " + c + "\", previous = \"\" }, "
            + "token-ttl = 2h, admission-window = 10m, clock-skew = 5s }"), clock);
    assertEquals(2, fromEnv.acceptedKeys().size());
    QueueTokenSettings fromList = QueueTokenSettings.fromConfig(ConfigFactory.parseString(
        "boxoffice.queue { keys { active = \"" + a + "\", accepted = [\"" + b + "\", \"" + a + "\"], previous = \"" + c
            + "\" }, token-ttl = 2h, admission-window = 10m, clock-skew = 5s }"), clock);
    assertEquals(2, fromList.acceptedKeys().size(), "the active key is not counted twice");
    String signedWithC = tokens(List.of(), KEY_C).issue(claims(NOW));
    assertInstanceOf(Valid.class, verify(fromEnv.tokens(), signedWithC));
    assertInstanceOf(Valid.class, verify(fromList.tokens(), signedWithC));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> QueueTokenSettings.fromConfig(
        ConfigFactory.parseString("boxoffice.queue { keys { active = \"" + a + "\", accepted = \"" + b
            + ",not*base64\" }, token-ttl = 2h, admission-window = 10m, clock-skew = 5s }"), clock));
    assertTrue(bad.getMessage().contains("accepted[1]") && !bad.getMessage().contains(b), bad.getMessage());
  }

  QueueToken tokens(List<byte[]> accepted, byte[] active) {
    return new QueueToken(new QueueTokenSettings(clock, active, accepted, Duration.ofHours(24), Duration.ofMinutes(30),
        Duration.ofSeconds(15)));
  }

  @Test
  void aTokenSignedWithAnUnknownKeyIsForged() {
    String foreign = tokens(clock, KEY_C, null).issue(claims(NOW));
    assertEquals(Reason.FORGED, reasonOf(verify(tokens(clock, KEY_A, KEY_B), foreign)));
    // The same layout with a key id of ours but another key's MAC is forged too.
    byte[] raw = Base64.getUrlDecoder().decode(foreign);
    byte[] ours = Base64.getUrlDecoder().decode(tokens.issue(claims(NOW)));
    System.arraycopy(ours, 1, raw, 1, 4);
    assertEquals(Reason.FORGED, reasonOf(verify(tokens, Base64.getUrlEncoder().withoutPadding().encodeToString(raw))));
  }

  @Test
  void theAdmissionWindowIsThirtyMinutesPlusLeewayAfterAdmission() {
    long admitted = NOW + 600;
    Claims waiting = claims(NOW);
    Claims in = waiting.admitted(admitted);
    assertFalse(tokens.admittedAndInWindow(waiting, NOW + 600));
    assertFalse(tokens.admittedAndInWindow(in, admitted - 16), "admitted at a time more than the leeway ahead");
    assertTrue(tokens.admittedAndInWindow(in, admitted - 15));
    assertTrue(tokens.admittedAndInWindow(in, admitted));
    assertTrue(tokens.admittedAndInWindow(in, admitted + 30 * 60 + 15));
    assertFalse(tokens.admittedAndInWindow(in, admitted + 30 * 60 + 16));
  }

  @Test
  void theAdmissionWindowSurvivesTheTokenOnTheInjectedClock() {
    String token = tokens.issue(claims(NOW).admitted(NOW));
    clock.advance(Duration.ofMinutes(30).plusSeconds(15));
    Claims c = assertInstanceOf(Valid.class, verify(tokens, token)).claims();
    assertTrue(tokens.admittedAndInWindow(c, clock.instant().getEpochSecond()));
    clock.advance(Duration.ofSeconds(1));
    c = assertInstanceOf(Valid.class, verify(tokens, token)).claims();
    assertFalse(tokens.admittedAndInWindow(c, clock.instant().getEpochSecond()));
  }

  @Test
  void garbageAndMutatedTokensAreInvalidAndNeverThrow() {
    String token = tokens.issue(claims(NOW));
    SplittableRandom random = new SplittableRandom(20261201);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/.|% é\u0000\uD800";
    for (String s : new String[] {null, "", "A", "AA", "AAAA", "====", token + "=", token + ".", token.substring(1),
        token.substring(0, token.length() - 1), token + "A", token + token, "x".repeat(100_000)}) {
      assertInstanceOf(Invalid.class, verify(tokens, s), String.valueOf(s));
    }
    for (int i = 0; i < 5_000; i++) {
      StringBuilder garbage = new StringBuilder();
      int len = random.nextInt(0, 300);
      for (int j = 0; j < len; j++) garbage.append(alphabet.charAt(random.nextInt(random.nextBoolean() ? 64 : alphabet.length())));
      assertInstanceOf(Invalid.class, verify(tokens, garbage.toString()), garbage.toString());

      char[] mutated = token.toCharArray();
      int edits = random.nextInt(1, 4);
      for (int e = 0; e < edits; e++) {
        int at = random.nextInt(mutated.length);
        char c = alphabet.charAt(random.nextInt(alphabet.length()));
        if (c == mutated[at]) c = c == 'A' ? 'B' : 'A';
        mutated[at] = c;
      }
      String m = new String(mutated);
      if (random.nextInt(4) == 0) m = m.substring(0, random.nextInt(m.length()));
      if (m.equals(token)) continue; // a later edit put back what an earlier one changed
      assertInstanceOf(Invalid.class, verify(tokens, m), m);

      byte[] original = Base64.getUrlDecoder().decode(token);
      byte[] raw = Arrays.copyOf(original, random.nextInt(original.length + 40));
      for (int e = 0; e < 3; e++) if (raw.length > 0) raw[random.nextInt(raw.length)] = (byte) random.nextInt(256);
      if (Arrays.equals(raw, original)) continue; // the random edits happened to change nothing
      String structural = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
      assertInstanceOf(Invalid.class, verify(tokens, structural), structural);
    }
  }

  @Test
  void onlyTheCanonicalSpellingOfATokenIsAccepted() {
    String token = tokens.issue(claims(NOW)); // 119 bytes: the last character carries 2 unused bits
    assertEquals(3, token.length() % 4);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    int last = alphabet.indexOf(token.charAt(token.length() - 1));
    String sameBytes = token.substring(0, token.length() - 1) + alphabet.charAt(last | 1);
    assertEquals(Reason.MALFORMED, reasonOf(verify(tokens, sameBytes)));
  }

  @Test
  void theSettingsComeFromConfigurationAndAnEmptyActiveKeyIsRandom() {
    String a = Base64.getEncoder().encodeToString(KEY_A);
    String b = Base64.getUrlEncoder().encodeToString(KEY_B);
    QueueTokenSettings s = QueueTokenSettings.fromConfig(ConfigFactory.parseString(
        "boxoffice.queue { keys { active = \"" + a + "\", previous = \"" + b + "\" }, token-ttl = 2h, "
            + "admission-window = 10m, clock-skew = 5s }"), clock);
    assertTrue(Arrays.equals(KEY_A, s.activeKey()) && s.acceptedKeys().size() == 1
        && Arrays.equals(KEY_B, s.acceptedKeys().get(0)));
    assertEquals(Duration.ofHours(2), s.tokenTtl());
    assertFalse(s.toString().contains(a), "settings never print a key");

    QueueTokenSettings defaults = QueueTokenSettings.fromConfig(ConfigFactory.load(), clock);
    assertEquals(Duration.ofHours(24), defaults.tokenTtl());
    assertEquals(Duration.ofMinutes(30), defaults.admissionWindow());
    assertEquals(Duration.ofSeconds(15), defaults.clockSkew());
    assertEquals(List.of(), defaults.acceptedKeys());
    assertEquals(32, defaults.activeKey().length);
    assertNotEquals(Base64.getEncoder().encodeToString(defaults.activeKey()),
        Base64.getEncoder().encodeToString(QueueTokenSettings.fromConfig(ConfigFactory.load(), clock).activeKey()));

    assertThrows(IllegalArgumentException.class, () -> QueueTokenSettings.fromConfig(ConfigFactory.parseString(
        "boxoffice.queue { keys { active = \"c2hvcnQ=\", previous = \"\" }, token-ttl = 2h, admission-window = 10m, "
            + "clock-skew = 5s }"), clock), "a 5-byte key is refused");
  }
}
