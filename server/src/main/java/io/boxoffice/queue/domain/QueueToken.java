package io.boxoffice.queue.domain;

import io.boxoffice.inventory.domain.QueuePassCheck;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The signed queue token of cookie {@code bo_q_<eventId>}: a fan's place in one event's line,
 * bound to the account and the client network prefix, under HMAC-SHA256: the active key signs,
 * it and the accepted keys verify (a rotation in phases keeps every place valid on every node).
 *
 * <p>A token is the unpadded base64url of
 * {@code version(1) keyId(4) place(8) issuedAt(8) admittedAt(8) len(1) eventId len(1) accountId
 * len(1) prefix mac(32)}: integers big-endian, texts UTF-8 of at most 255 bytes, the MAC over
 * everything before it. The key id (derived from the key) picks the one key to check, so a
 * verification computes at most one MAC, and {@link HmacSha256} computes it from the key's
 * precomputed pad states; fixed offsets make parsing a few array reads.
 */
public final class QueueToken implements QueuePassCheck {
  public static final String COOKIE_PREFIX = "bo_q_";

  private static final byte VERSION = 1;
  private static final int MAC_BYTES = 32;
  private static final int FIXED = 1 + 4 + 8 + 8 + 8;
  private static final int MAX_TEXT = 255;
  private static final int MIN_BYTES = FIXED + 3 + MAC_BYTES;
  private static final int MAX_BYTES = FIXED + 3 * (1 + MAX_TEXT) + MAC_BYTES;
  private static final int MIN_CHARS = (MIN_BYTES * 4 + 2) / 3;
  private static final int MAX_CHARS = (MAX_BYTES * 4 + 2) / 3;
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();
  private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  private static final char FIRST_CHAR = ALPHABET.charAt((VERSION & 0xff) >>> 2);
  private static final byte[] B64_VALUE = new byte[128];

  static {
    Arrays.fill(B64_VALUE, (byte) -1);
    for (int i = 0; i < ALPHABET.length(); i++) B64_VALUE[ALPHABET.charAt(i)] = (byte) i;
  }

  /** What a token says: whose place in which line, from which network, issued and admitted when (epoch seconds, 0 = not admitted). */
  public record Claims(String eventId, String accountId, long place, String prefix, long issuedAt, long admittedAt) {
    public Claims {
      Objects.requireNonNull(eventId, "eventId");
      Objects.requireNonNull(accountId, "accountId");
      Objects.requireNonNull(prefix, "prefix");
    }

    /** The same place, admitted at {@code epochSecond}. */
    public Claims admitted(long epochSecond) {
      return new Claims(eventId, accountId, place, prefix, issuedAt, epochSecond);
    }
  }

  /** Why a token was refused. */
  public enum Reason { MALFORMED, FORGED, EXPIRED, ISSUED_IN_FUTURE, WRONG_EVENT, WRONG_ACCOUNT, WRONG_PREFIX }

  /** The outcome of {@link #verify}: the token's claims, or why it was refused. */
  public sealed interface Verification permits Valid, Invalid {}

  /** A token signed by a live key, for this event, account and prefix, within its lifetime. */
  public record Valid(Claims claims) implements Verification {}

  /** A refused token; one shared instance per reason. */
  public record Invalid(Reason reason) implements Verification {
    private static final Invalid[] BY_REASON =
        Arrays.stream(Reason.values()).map(Invalid::new).toArray(Invalid[]::new);

    public static Invalid of(Reason reason) {
      return BY_REASON[reason.ordinal()];
    }
  }

  private static final Invalid MALFORMED = Invalid.of(Reason.MALFORMED);
  private static final Invalid FORGED = Invalid.of(Reason.FORGED);

  private final Clock clock;
  private final long ttlSeconds;
  private final long windowSeconds;
  private final long skewSeconds;
  private final byte[] activeKey;
  private final int activeId;
  /** The accepted keys (verify only) and their ids, in the same order. */
  private final List<byte[]> acceptedKeys;
  private final int[] acceptedIds;
  private final ThreadLocal<Scratch> scratch;

  /** Per-thread MACs and buffers, so a verification allocates nothing but its result. */
  private final class Scratch {
    final HmacSha256 active = new HmacSha256(activeKey);
    final HmacSha256[] accepted = acceptedKeys.stream().map(HmacSha256::new).toArray(HmacSha256[]::new);
    final byte[] bytes = new byte[MAX_BYTES];
    final byte[] expected = new byte[MAC_BYTES];
    final byte[] actual = new byte[MAC_BYTES];
  }

  public QueueToken(QueueTokenSettings settings) {
    this.clock = settings.clock();
    this.ttlSeconds = settings.tokenTtl().toSeconds();
    this.windowSeconds = settings.admissionWindow().toSeconds();
    this.skewSeconds = settings.clockSkew().toSeconds();
    this.activeKey = settings.activeKey();
    this.activeId = keyId(activeKey);
    this.acceptedKeys = settings.acceptedKeys();
    this.acceptedIds = new int[acceptedKeys.size()];
    Set<Integer> ids = new HashSet<>(List.of(activeId));
    for (int i = 0; i < acceptedIds.length; i++) {
      acceptedIds[i] = keyId(acceptedKeys.get(i));
      if (!ids.add(acceptedIds[i])) {
        throw new IllegalArgumentException("two configured queue keys share a key id: generate another new key");
      }
    }
    this.scratch = ThreadLocal.withInitial(Scratch::new);
  }

  public static String cookieName(String eventId) {
    return COOKIE_PREFIX + eventId;
  }

  /** The signed token of {@code claims}, under the active key. */
  public String issue(Claims claims) {
    byte[] event = text(claims.eventId(), "eventId");
    byte[] account = text(claims.accountId(), "accountId");
    byte[] prefix = text(claims.prefix(), "prefix");
    if (claims.place() < 0 || claims.issuedAt() < 0 || claims.admittedAt() < 0) {
      throw new IllegalArgumentException("place and times cannot be negative");
    }
    int macAt = FIXED + 3 + event.length + account.length + prefix.length;
    byte[] b = new byte[macAt + MAC_BYTES];
    b[0] = VERSION;
    INT.set(b, 1, activeId);
    LONG.set(b, 5, claims.place());
    LONG.set(b, 13, claims.issuedAt());
    LONG.set(b, 21, claims.admittedAt());
    int at = put(b, FIXED, event);
    at = put(b, at, account);
    put(b, at, prefix);
    scratch.get().active.mac(b, 0, macAt, b, macAt);
    return B64.encodeToString(b);
  }

  /**
   * The claims of {@code token} when the active or an accepted key signed it for this event, account and prefix
   * and it is within its lifetime; otherwise why not. Never throws for any input text.
   */
  public Verification verify(String token, String eventId, String accountId, String prefix) {
    if (token == null) return MALFORMED;
    Scratch s = scratch.get();
    byte[] b = s.bytes;
    int n = decode(token, b);
    if (n < MIN_BYTES || b[0] != VERSION) return MALFORMED;
    int eventAt = FIXED + 1;
    int eventLen = b[FIXED] & 0xff;
    int accountAt = eventAt + eventLen + 1;
    if (accountAt + 1 + MAC_BYTES > n) return MALFORMED;
    int accountLen = b[accountAt - 1] & 0xff;
    int prefixAt = accountAt + accountLen + 1;
    if (prefixAt + MAC_BYTES > n) return MALFORMED;
    int prefixLen = b[prefixAt - 1] & 0xff;
    int macAt = prefixAt + prefixLen;
    if (macAt + MAC_BYTES != n) return MALFORMED;

    int keyId = (int) INT.get(b, 1);
    HmacSha256 key = keyId == activeId ? s.active : null;
    for (int i = 0; key == null && i < acceptedIds.length; i++) {
      if (acceptedIds[i] == keyId) key = s.accepted[i];
    }
    if (key == null) return FORGED;
    key.mac(b, 0, macAt, s.expected, 0);
    System.arraycopy(b, macAt, s.actual, 0, MAC_BYTES);
    if (!MessageDigest.isEqual(s.expected, s.actual)) return FORGED;

    if (!same(b, eventAt, eventLen, eventId)) return Invalid.of(Reason.WRONG_EVENT);
    if (!same(b, accountAt, accountLen, accountId)) return Invalid.of(Reason.WRONG_ACCOUNT);
    if (!same(b, prefixAt, prefixLen, prefix)) return Invalid.of(Reason.WRONG_PREFIX);
    long issuedAt = (long) LONG.get(b, 13);
    long now = Math.floorDiv(clock.millis(), 1000);
    if (issuedAt > now + skewSeconds) return Invalid.of(Reason.ISSUED_IN_FUTURE);
    if (now > issuedAt + ttlSeconds + skewSeconds) return Invalid.of(Reason.EXPIRED);
    return new Valid(new Claims(eventId, accountId, (long) LONG.get(b, 5), prefix, issuedAt, (long) LONG.get(b, 21)));
  }

  /** {@link #verify} and {@link #admittedAndInWindow}: what the inventory asks of a hold's pass. */
  @Override
  public boolean admits(String token, String eventId, String accountId, String prefix, long nowEpochSecond) {
    return verify(token, eventId, accountId, prefix) instanceof Valid valid && admittedAndInWindow(valid.claims(), nowEpochSecond);
  }

  /**
   * Whether the place was admitted and its shopping window is still open at {@code nowSec}:
   * admitted (not 0), not later than now plus the clock-skew leeway, and now at most window plus
   * leeway after the admission.
   */
  public boolean admittedAndInWindow(Claims claims, long nowSec) {
    long admittedAt = claims.admittedAt();
    return admittedAt != 0 && admittedAt <= nowSec + skewSeconds && nowSec <= admittedAt + windowSeconds + skewSeconds;
  }

  // ---- encoding --------------------------------------------------------------------------

  private static byte[] text(String value, String name) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0 || bytes.length > MAX_TEXT) {
      throw new IllegalArgumentException(name + " must be 1 to " + MAX_TEXT + " UTF-8 bytes");
    }
    return bytes;
  }

  private static int put(byte[] b, int at, byte[] text) {
    b[at] = (byte) text.length;
    System.arraycopy(text, 0, b, at + 1, text.length);
    return at + 1 + text.length;
  }

  /** Whether {@code len} UTF-8 bytes of {@code b} at {@code at} spell {@code s}; null never matches. */
  private static boolean same(byte[] b, int at, int len, String s) {
    if (s == null || s.length() > len) return false; // UTF-8 has at least one byte a character
    if (s.length() == len) {
      int i = 0;
      for (; i < len; i++) {
        char c = s.charAt(i);
        if (c >= 0x80) break;
        if (b[at + i] != (byte) c) return false;
      }
      if (i == len) return true;
    }
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    return Arrays.equals(b, at, at + len, utf8, 0, utf8.length);
  }

  /**
   * Decodes canonical unpadded base64url into {@code out}; the byte count, or -1 for anything
   * else. Cheap checks come first (length, the version's first character, no padding, zero bits
   * after the last byte), so most garbage is refused before the JDK's fast decoder runs.
   */
  private static int decode(String s, byte[] out) {
    int len = s.length();
    if (len < MIN_CHARS || len > MAX_CHARS || (len & 3) == 1 || s.charAt(0) != FIRST_CHAR) return -1;
    int last = sextet(s.charAt(len - 1));
    int unusedBits = switch (len & 3) {
      case 2 -> 0xf;
      case 3 -> 0x3;
      default -> 0;
    };
    if (last < 0 || (last & unusedBits) != 0) return -1;
    try {
      // Latin-1 turns any character beyond it into '?', which is no base64url character.
      return B64D.decode(s.getBytes(StandardCharsets.ISO_8859_1), out);
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  /** The 6-bit value of a base64url character, or -1. */
  private static int sextet(char c) {
    return c < 128 ? B64_VALUE[c] : -1;
  }

  /** A public 4-byte name of a key: the start of its MAC of a fixed label. */
  private static int keyId(byte[] key) {
    byte[] label = "boxoffice queue key id".getBytes(StandardCharsets.US_ASCII);
    byte[] tag = new byte[HmacSha256.BYTES];
    new HmacSha256(key).mac(label, 0, label.length, tag, 0);
    return (int) INT.get(tag, 0);
  }
}
