package io.boxoffice.queue.domain;

import java.security.DigestException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * HMAC-SHA256 (RFC 2104) of one key, with the key's inner and outer pad blocks hashed once:
 * each MAC starts from copies of those two SHA-256 states, so it costs two compressions fewer
 * than {@link javax.crypto.Mac}, which hashes both pads again every time. Not thread-safe: one
 * per thread.
 */
final class HmacSha256 {
  static final int BYTES = 32;
  private static final int BLOCK = 64;

  private final MessageDigest innerStart;
  private final MessageDigest outerStart;

  HmacSha256(byte[] key) {
    byte[] k = key.length > BLOCK ? sha256().digest(key) : key;
    byte[] ipad = new byte[BLOCK];
    byte[] opad = new byte[BLOCK];
    for (int i = 0; i < BLOCK; i++) {
      byte b = i < k.length ? k[i] : 0;
      ipad[i] = (byte) (b ^ 0x36);
      opad[i] = (byte) (b ^ 0x5c);
    }
    innerStart = sha256();
    innerStart.update(ipad);
    outerStart = sha256();
    outerStart.update(opad);
    Arrays.fill(ipad, (byte) 0);
    Arrays.fill(opad, (byte) 0);
  }

  /** Writes the MAC of {@code len} bytes of {@code data} at {@code off} to {@code out} at {@code outOff}. */
  void mac(byte[] data, int off, int len, byte[] out, int outOff) {
    try {
      MessageDigest inner = (MessageDigest) innerStart.clone();
      inner.update(data, off, len);
      inner.digest(out, outOff, BYTES);
      MessageDigest outer = (MessageDigest) outerStart.clone();
      outer.update(out, outOff, BYTES);
      outer.digest(out, outOff, BYTES);
    } catch (CloneNotSupportedException | DigestException e) {
      throw new IllegalStateException("SHA-256 cannot be copied", e);
    }
  }

  private static MessageDigest sha256() {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.clone(); // fail at start, not per call, on a provider whose digests cannot be copied
      return md;
    } catch (GeneralSecurityException | CloneNotSupportedException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
