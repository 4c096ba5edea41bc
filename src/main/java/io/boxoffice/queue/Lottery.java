package io.boxoffice.queue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The lottery that orders the lobby at the start of a sale: each account's place follows from
 * SHA-256 of the salt drawn at the start and the account id, spread over the cohort's size. It
 * depends on nothing else, so arrival time gives no advantage, the same account always gets
 * the same place however many sessions it opens, and nobody can predict a place before the
 * salt exists. Places run from 1 to the cohort size (two accounts may share one, which only
 * means they are admitted together); later arrivals queue behind them.
 */
public final class Lottery {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Lottery() {}

  /** A fresh 256-bit salt, hex encoded. */
  public static String drawSalt() {
    byte[] salt = new byte[32];
    RANDOM.nextBytes(salt);
    return HexFormat.of().formatHex(salt);
  }

  /** The account's place in a cohort of {@code cohortSize} (at least 1) under the salt: 1..cohortSize. */
  public static long place(String accountId, String salt, long cohortSize) {
    if (cohortSize < 1) throw new IllegalArgumentException("a cohort has at least one place");
    byte[] digest = sha256(salt + ":" + accountId);
    long h = 0;
    for (int i = 0; i < 8; i++) h = (h << 8) | (digest[i] & 0xff);
    return 1 + unsignedMultiplyHigh(h, cohortSize);
  }

  /** The high 64 bits of the unsigned 128-bit product: floor(h / 2^64 * n) for unsigned h. */
  static long unsignedMultiplyHigh(long h, long n) {
    return Math.multiplyHigh(h, n) + ((h >> 63) & n);
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
