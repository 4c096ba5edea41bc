package io.boxoffice.queue.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The lottery that orders the lobby at the start of a sale. Each lobby account holds a join
 * index (1..cohort size, one per account, given once by its {@link WaitingRoom}); at the start
 * the room draws a fresh salt, and the account's place is the image of its join index under a
 * permutation of 1..cohort size keyed by that salt. So places are distinct (a permutation has
 * no collisions), every order is as likely as any other whatever the arrival order, the same
 * account gets the same place from any device or node (index and salt are persisted), and
 * nobody can predict a place before the salt exists.
 *
 * <p>The permutation is a six-round balanced Feistel network over the smallest even-bit domain
 * holding the cohort, with SHA-256 of salt, round and half-block as round function, restricted
 * to 1..cohort size by cycle walking (re-encrypt until the value falls inside: a bijection of
 * the domain stays a bijection of any subset it is walked on). Luby-Rackoff: with a
 * pseudo-random round function, four or more rounds give a pseudo-random permutation.
 */
public final class Lottery {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int ROUNDS = 6;
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  });

  private Lottery() {}

  /** A fresh 256-bit salt, hex encoded. */
  public static String drawSalt() {
    byte[] salt = new byte[32];
    RANDOM.nextBytes(salt);
    return HexFormat.of().formatHex(salt);
  }

  /** The place (1..cohortSize) of the lobby account that holds join index {@code joinIndex} (1..cohortSize) under the salt. */
  public static long place(long joinIndex, String salt, long cohortSize) {
    if (cohortSize < 1) throw new IllegalArgumentException("a cohort has at least one place");
    if (joinIndex < 1 || joinIndex > cohortSize) throw new IllegalArgumentException("join index " + joinIndex + " outside 1.." + cohortSize);
    int bits = Math.max(2, 64 - Long.numberOfLeadingZeros(cohortSize - 1));
    if ((bits & 1) == 1) bits++;
    int half = bits / 2;
    long mask = (1L << half) - 1;
    byte[] key = salt.getBytes(StandardCharsets.UTF_8);
    long x = joinIndex - 1;
    do {
      long left = x >>> half;
      long right = x & mask;
      for (int round = 0; round < ROUNDS; round++) {
        long next = left ^ (roundFunction(key, round, right) & mask);
        left = right;
        right = next;
      }
      x = (left << half) | right;
    } while (x >= cohortSize);
    return x + 1;
  }

  private static long roundFunction(byte[] key, int round, long value) {
    MessageDigest sha = SHA256.get();
    sha.update(key);
    sha.update((byte) round);
    for (int i = 56; i >= 0; i -= 8) sha.update((byte) (value >>> i));
    byte[] d = sha.digest();
    long h = 0;
    for (int i = 0; i < 8; i++) h = (h << 8) | (d[i] & 0xff);
    return h;
  }
}
