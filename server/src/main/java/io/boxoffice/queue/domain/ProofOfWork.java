package io.boxoffice.queue.domain;

import io.boxoffice.common.Hmac;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Proof-of-work puzzles for joining a queue: challenges signed for one event and one account,
 * valid for a few minutes and accepted once.
 *
 * <p>A challenge is {@code pw1.<expiresEpochMillis>.<id>.<mac>}; the MAC (HMAC-SHA256 under the
 * pow key, truncated to 128 bits) covers the event, the account, the expiry and the id, so a
 * challenge cannot be made up, prolonged or used by another account or for another event. An
 * answer is a decimal {@code nonce} such that SHA-256 of the UTF-8 bytes of
 * {@code challenge + ":" + nonce} begins with at least {@code bits} zero bits.
 *
 * <p>Used challenges are remembered until they expire, in a record of at most
 * {@code maxRemembered} entries (the oldest go first when it is full), so memory stays bounded
 * however many answers are presented. The record is per node: a challenge answered on one node
 * can be presented once more on another, and one whose entry was pushed out early can be
 * presented again. Both are harmless, because a challenge only ever admits the account it was
 * issued to, and one account has one place in line however often it joins. Single use is there
 * to make each join cost fresh work, not to guard the line.
 */
public final class ProofOfWork {
  /** What a presented answer is; anything but {@code ACCEPTED} is answered 403 {@code bad_pow}. */
  public enum Verdict { ACCEPTED, MALFORMED, FORGED, EXPIRED, NOT_ENOUGH_WORK, ALREADY_USED }

  private static final String VERSION = "pw1";
  private static final int MAC_BYTES = 16;
  private static final int MAX_NONCE_DIGITS = 20;
  private static final int MAX_CHALLENGE_LENGTH = 128;
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(ProofOfWork::newSha256);

  private final Hmac hmac;
  private final Clock clock;
  private final long ttlMillis;
  private final UsedChallenges used;

  public ProofOfWork(Hmac hmac, Clock clock, Duration ttl, int maxRemembered) {
    if (ttl.isNegative() || ttl.isZero()) throw new IllegalArgumentException("the challenge lifetime must be positive");
    if (maxRemembered < 1) throw new IllegalArgumentException("maxRemembered must be at least 1");
    this.hmac = hmac;
    this.clock = clock;
    this.ttlMillis = ttl.toMillis();
    this.used = new UsedChallenges(maxRemembered);
  }

  /** A fresh challenge for this account to join this event, valid for the configured lifetime. */
  public String issue(String eventId, String accountId) {
    String expires = Long.toString(clock.millis() + ttlMillis);
    byte[] idBytes = new byte[8];
    // The id only has to be unique: the MAC, not the id, is what nobody can predict.
    ThreadLocalRandom.current().nextBytes(idBytes);
    String id = B64.encodeToString(idBytes);
    return VERSION + "." + expires + "." + id + "." + B64.encodeToString(mac(eventId, accountId, expires, id));
  }

  /**
   * Checks an answer to a challenge for this account and event at the event's current
   * difficulty, and on success marks the challenge used. With {@code bits} 0 no work is needed
   * and anything (even no challenge at all) is accepted, without being recorded.
   */
  public Verdict check(String eventId, String accountId, int bits, String challenge, String nonce) {
    checkBits(bits);
    if (bits == 0) return Verdict.ACCEPTED;
    if (challenge == null || challenge.length() > MAX_CHALLENGE_LENGTH || !isDecimal(nonce)) return Verdict.MALFORMED;
    String[] parts = challenge.split("\\.", -1);
    if (parts.length != 4 || !parts[0].equals(VERSION)) return Verdict.MALFORMED;
    byte[] presentedMac;
    long expires;
    long id;
    try {
      presentedMac = B64D.decode(parts[3]);
      byte[] idBytes = B64D.decode(parts[2]);
      if (idBytes.length != 8) return Verdict.MALFORMED;
      id = toLong(idBytes);
      expires = Long.parseLong(parts[1]);
    } catch (IllegalArgumentException e) {
      return Verdict.MALFORMED;
    }
    if (!MessageDigest.isEqual(mac(eventId, accountId, parts[1], parts[2]), presentedMac)) return Verdict.FORGED;
    long now = clock.millis();
    if (now >= expires) return Verdict.EXPIRED;
    if (leadingZeroBits(digest(challenge, nonce)) < bits) return Verdict.NOT_ENOUGH_WORK;
    return used.markUsed(id, expires, now) ? Verdict.ACCEPTED : Verdict.ALREADY_USED;
  }

  /** The smallest nonce that answers {@code challenge} at {@code bits}: about 2^bits hashes. For tests and load generators. */
  public static String solve(String challenge, int bits) {
    checkBits(bits);
    for (long n = 0; n >= 0; n++) {
      String nonce = Long.toString(n);
      if (leadingZeroBits(digest(challenge, nonce)) >= bits) return nonce;
    }
    throw new IllegalStateException("no nonce found");
  }

  /** SHA-256 of the UTF-8 bytes of {@code challenge + ":" + nonce}, as the contract defines it. */
  static byte[] digest(String challenge, String nonce) {
    return SHA256.get().digest((challenge + ":" + nonce).getBytes(StandardCharsets.UTF_8));
  }

  /** How many zero bits {@code bytes} begins with, most significant bit of the first byte first. */
  public static int leadingZeroBits(byte[] bytes) {
    int zeros = 0;
    for (byte b : bytes) {
      if (b != 0) return zeros + Integer.numberOfLeadingZeros(b & 0xff) - 24;
      zeros += 8;
    }
    return zeros;
  }

  /** How many used challenges this node remembers now. */
  public int remembered() {
    return used.size();
  }

  private byte[] mac(String eventId, String accountId, String expires, String id) {
    return Arrays.copyOf(hmac.sign(MacInput.of(VERSION, eventId, accountId, expires, id)), MAC_BYTES);
  }

  private static boolean isDecimal(String s) {
    if (s == null || s.isEmpty() || s.length() > MAX_NONCE_DIGITS) return false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') return false;
    }
    return true;
  }

  private static void checkBits(int bits) {
    if (bits < 0 || bits > 256) throw new IllegalArgumentException("bits must be within 0..256: " + bits);
  }

  private static long toLong(byte[] b) {
    long v = 0;
    for (byte x : b) v = (v << 8) | (x & 0xff);
    return v;
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  /** Ids of answered challenges with their expiry, oldest first, at most {@code max} of them. */
  private static final class UsedChallenges {
    private final int max;
    private final LinkedHashMap<Long, Long> expiresById = new LinkedHashMap<>();

    UsedChallenges(int max) {
      this.max = max;
    }

    synchronized boolean markUsed(long id, long expires, long now) {
      Iterator<Map.Entry<Long, Long>> oldest = expiresById.entrySet().iterator();
      while (oldest.hasNext() && oldest.next().getValue() <= now) oldest.remove();
      if (expiresById.putIfAbsent(id, expires) != null) return false;
      if (expiresById.size() > max) {
        Iterator<Long> it = expiresById.keySet().iterator();
        it.next();
        it.remove();
      }
      return true;
    }

    synchronized int size() {
      return expiresById.size();
    }
  }
}
