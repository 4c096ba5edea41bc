package io.boxoffice.common;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256 with one key: signs, and verifies in constant time. One {@link Mac} per thread. */
public final class Hmac {
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();

  private final SecretKeySpec key;
  private final ThreadLocal<Mac> mac;

  public Hmac(byte[] keyBytes) {
    if (keyBytes.length < 32) throw new IllegalArgumentException("an HMAC key needs at least 32 bytes");
    this.key = new SecretKeySpec(keyBytes.clone(), "HmacSHA256");
    this.mac = ThreadLocal.withInitial(this::newMac);
  }

  /** A key from base64 configuration, or a random one when the setting is empty. */
  public static Hmac fromBase64OrRandom(String base64) {
    if (base64 == null || base64.isBlank()) {
      byte[] k = new byte[32];
      new SecureRandom().nextBytes(k);
      return new Hmac(k);
    }
    return new Hmac(decode(base64));
  }

  /** Standard or URL-safe base64 (openssl's or a URL-safe generator's); IllegalArgumentException when neither. */
  public static byte[] decode(String base64) {
    String v = base64.trim();
    return (v.indexOf('-') >= 0 || v.indexOf('_') >= 0 ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(v);
  }

  private Mac newMac() {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(key);
      return m;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  public byte[] sign(byte[] data) {
    return mac.get().doFinal(data);
  }

  /** Constant-time check that {@code signature} is the MAC of {@code data}. */
  public boolean verify(byte[] data, byte[] signature) {
    return MessageDigest.isEqual(sign(data), signature);
  }

  /** {@code base64url(payload) + "." + base64url(mac)}: a compact signed text. */
  public String seal(String payload) {
    byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
    return B64.encodeToString(bytes) + "." + B64.encodeToString(sign(bytes));
  }

  /** The payload of a text made by {@link #seal}, or null when it is malformed or forged. */
  public String open(String sealed) {
    if (sealed == null || sealed.length() > 4096) return null;
    int dot = sealed.indexOf('.');
    if (dot <= 0 || dot != sealed.lastIndexOf('.')) return null;
    try {
      byte[] payload = B64D.decode(sealed.substring(0, dot));
      byte[] sig = B64D.decode(sealed.substring(dot + 1));
      return verify(payload, sig) ? new String(payload, StandardCharsets.UTF_8) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
