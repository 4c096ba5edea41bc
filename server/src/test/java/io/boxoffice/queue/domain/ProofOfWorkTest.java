package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.common.Hmac;
import io.boxoffice.queue.domain.ProofOfWork.Verdict;
import io.boxoffice.support.MutableClock;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProofOfWorkTest {
  static final Duration TTL = Duration.ofMinutes(5);
  static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  final ProofOfWork pow = new ProofOfWork(new Hmac(KEY), clock, TTL, 1000);

  /** SHA-256 as the contract states it, computed here independently of the class under test. */
  static byte[] sha256(String challenge, String nonce) throws Exception {
    return MessageDigest.getInstance("SHA-256").digest((challenge + ":" + nonce).getBytes(StandardCharsets.UTF_8));
  }

  /** The first nonce (from 0) whose hash starts with {@code zeroBytes} zero bytes and whose next byte passes {@code nextByte}. */
  static String nonceWhere(String challenge, int zeroBytes, java.util.function.IntPredicate nextByte) throws Exception {
    for (long n = 0; ; n++) {
      byte[] h = sha256(challenge, Long.toString(n));
      boolean zeros = true;
      for (int i = 0; i < zeroBytes; i++) zeros &= h[i] == 0;
      if (zeros && nextByte.test(h[zeroBytes] & 0xff)) return Long.toString(n);
    }
  }

  @Test
  void aSolvedChallengeIsAcceptedOnceThenRefused() throws Exception {
    String challenge = pow.issue("e1", "alice");
    String nonce = ProofOfWork.solve(challenge, 8);
    assertEquals(0, sha256(challenge, nonce)[0]);
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 8, challenge, nonce));
    assertEquals(Verdict.ALREADY_USED, pow.check("e1", "alice", 8, challenge, nonce));
  }

  @Test
  void eachChallengeIsNewAndAnsweredOnItsOwn() {
    String first = pow.issue("e1", "alice");
    String second = pow.issue("e1", "alice");
    assertNotEquals(first, second);
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 8, first, ProofOfWork.solve(first, 8)));
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 8, second, ProofOfWork.solve(second, 8)));
  }

  @Test
  void aNonceWithoutEnoughZeroBitsIsRefusedAndDoesNotUseUpTheChallenge() throws Exception {
    String challenge = pow.issue("e1", "alice");
    String wrong = nonceWhere(challenge, 0, b -> b != 0);
    assertEquals(Verdict.NOT_ENOUGH_WORK, pow.check("e1", "alice", 8, challenge, wrong));
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 8, challenge, ProofOfWork.solve(challenge, 8)));
  }

  @Test
  void aNonceMustBeAPlainDecimalString() {
    String challenge = pow.issue("e1", "alice");
    String good = ProofOfWork.solve(challenge, 8);
    for (String nonce : Arrays.asList(null, "", "12a", "-1", "+1", " 1", "1 ", "1.0", "0x1f", "\u0661\u0662",
        "123456789012345678901", good + " ")) {
      assertEquals(Verdict.MALFORMED, pow.check("e1", "alice", 8, challenge, nonce), "nonce <" + nonce + ">");
    }
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 8, challenge, good));
  }

  @Test
  void aChallengeExpiresFiveMinutesAfterItWasIssued() {
    String lastMoment = pow.issue("e1", "alice");
    clock.advance(TTL.minusMillis(1));
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 8, lastMoment, ProofOfWork.solve(lastMoment, 8)));

    String late = pow.issue("e1", "alice");
    clock.advance(TTL);
    assertEquals(Verdict.EXPIRED, pow.check("e1", "alice", 8, late, ProofOfWork.solve(late, 8)));
  }

  @Test
  void forgedOrAlteredChallengesAreRefusedEvenWithTheWorkDone() {
    String real = pow.issue("e1", "alice");
    String[] p = real.split("\\.");
    String prolonged = String.join(".", p[0], Long.toString(Long.parseLong(p[1]) + 3_600_000), p[2], p[3]);
    String otherId = String.join(".", p[0], p[1], p[2].charAt(0) == 'A' ? "B" + p[2].substring(1) : "A" + p[2].substring(1), p[3]);
    String otherMac = String.join(".", p[0], p[1], p[2], p[3].charAt(0) == 'A' ? "B" + p[3].substring(1) : "A" + p[3].substring(1));
    String otherKey = new ProofOfWork(new Hmac("another key, another key, another".getBytes(StandardCharsets.US_ASCII)),
        clock, TTL, 10).issue("e1", "alice");
    for (String forged : List.of(prolonged, otherId, otherMac, otherKey)) {
      assertEquals(Verdict.FORGED, pow.check("e1", "alice", 8, forged, ProofOfWork.solve(forged, 8)), forged);
    }
    for (String junk : List.of("", "pw1", "pw1.1.2", "pw2." + real.substring(4), real + ".x", "pw1.soon." + p[2] + "." + p[3],
        "pw1." + p[1] + ".!!." + p[3])) {
      assertEquals(Verdict.MALFORMED, pow.check("e1", "alice", 8, junk, "0"), junk);
    }
    assertEquals(Verdict.MALFORMED, pow.check("e1", "alice", 8, null, "0"));
  }

  @Test
  void aChallengeCannotMoveToAnotherAccountOrEvent() {
    String challenge = pow.issue("e1", "alice");
    String nonce = ProofOfWork.solve(challenge, 8);
    assertEquals(Verdict.FORGED, pow.check("e1", "mallory", 8, challenge, nonce));
    assertEquals(Verdict.FORGED, pow.check("e2", "alice", 8, challenge, nonce));
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 8, challenge, nonce));
  }

  @Test
  void fieldsCannotBeShiftedBetweenEventAndAccount() {
    String challenge = pow.issue("e|1", "alice");
    String nonce = ProofOfWork.solve(challenge, 8);
    assertEquals(Verdict.FORGED, pow.check("e", "1|alice", 8, challenge, nonce));
  }

  @Test
  void zeroBitsNeedNoWorkAndNoChallenge() {
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 0, null, null));
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 0, "anything", "x"));
    assertEquals("0", ProofOfWork.solve(pow.issue("e1", "alice"), 0));
    assertEquals(0, pow.remembered());
  }

  @Test
  void leadingZeroBitsAreCountedAcrossByteBoundaries() {
    assertEquals(0, ProofOfWork.leadingZeroBits(new byte[] {(byte) 0x80, 0}));
    assertEquals(7, ProofOfWork.leadingZeroBits(new byte[] {0x01, 0}));
    assertEquals(8, ProofOfWork.leadingZeroBits(new byte[] {0x00, (byte) 0xff}));
    assertEquals(11, ProofOfWork.leadingZeroBits(new byte[] {0x00, 0x10}));
    assertEquals(12, ProofOfWork.leadingZeroBits(new byte[] {0x00, 0x0f, (byte) 0xff}));
    assertEquals(17, ProofOfWork.leadingZeroBits(new byte[] {0x00, 0x00, 0x40}));
    assertEquals(256, ProofOfWork.leadingZeroBits(new byte[32]));
  }

  @Test
  void twelveBitsMeanAZeroByteAndAZeroNibble() throws Exception {
    String challenge = pow.issue("e1", "alice");
    String solved = ProofOfWork.solve(challenge, 12);
    byte[] h = sha256(challenge, solved);
    assertTrue(h[0] == 0 && (h[1] & 0xf0) == 0, "12 zero bits");

    // A zero first byte but a one within the next four bits: 8 to 11 zero bits, not 12.
    String short12 = nonceWhere(challenge, 1, b -> (b & 0xf0) != 0);
    assertEquals(Verdict.NOT_ENOUGH_WORK, pow.check("e1", "alice", 12, challenge, short12));
    // Exactly 12 zero bits: the 13th is a one.
    String exactly12 = nonceWhere(challenge, 1, b -> (b & 0xf8) == 0x08);
    assertEquals(Verdict.NOT_ENOUGH_WORK, pow.check("e1", "alice", 13, challenge, exactly12));
    assertEquals(Verdict.ACCEPTED, pow.check("e1", "alice", 12, challenge, exactly12));
  }

  @Test
  void theRecordOfUsedChallengesIsBoundedAndForgetsExpiredOnes() {
    ProofOfWork small = new ProofOfWork(new Hmac(KEY), clock, TTL, 3);
    for (int i = 0; i < 10; i++) {
      String c = small.issue("e1", "alice");
      assertEquals(Verdict.ACCEPTED, small.check("e1", "alice", 4, c, ProofOfWork.solve(c, 4)));
      assertTrue(small.remembered() <= 3);
    }
    clock.advance(TTL);
    String c = small.issue("e1", "alice");
    assertEquals(Verdict.ACCEPTED, small.check("e1", "alice", 4, c, ProofOfWork.solve(c, 4)));
    assertEquals(1, small.remembered());
  }
}
