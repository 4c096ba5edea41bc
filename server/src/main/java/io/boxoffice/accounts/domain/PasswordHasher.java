package io.boxoffice.accounts.domain;

import io.boxoffice.common.CborSerializable;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/** Salted PBKDF2-HMAC-SHA256 password hashes. Slow on purpose: call it off the actor threads. */
public final class PasswordHasher {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A stored hash with what is needed to check a password against it. */
  public record PasswordHash(byte[] salt, int iterations, byte[] hash) implements CborSerializable {}

  private final int iterations;

  public PasswordHasher(int iterations) {
    if (iterations < 1) throw new IllegalArgumentException("iterations must be positive");
    this.iterations = iterations;
  }

  public PasswordHash hash(String password) {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    return new PasswordHash(salt, iterations, derive(password, salt, iterations));
  }

  public static boolean matches(String password, PasswordHash stored) {
    return MessageDigest.isEqual(derive(password, stored.salt(), stored.iterations()), stored.hash());
  }

  private static byte[] derive(String password, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, 256);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 unavailable", e);
    } finally {
      spec.clearPassword();
    }
  }
}
