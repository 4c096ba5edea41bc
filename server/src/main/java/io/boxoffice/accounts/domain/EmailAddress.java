package io.boxoffice.accounts.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * An email address as sign-up and sign-in accept it: trimmed and lower-cased, at most 254
 * characters, one {@code @} between a local part of at most 64 characters and a dotted domain
 * (labels of at most 63),
 * no whitespace, control or invisible format characters, none of {@code "(),:;<>[\]}.
 * Anything else is refused before it reaches an entity, a query or a log line.
 *
 * <p>{@link #key()} is what the {@code Account} entity is keyed by: the hex SHA-256 of the
 * normalized address, 64 characters of {@code [0-9a-f]} that no input can turn into a persistence
 * id the database refuses (PostgreSQL refuses 0x00, the journal splits on {@code |}).
 */
public final class EmailAddress {
  public static final int MAX_LENGTH = 254;
  private static final int MAX_LOCAL = 64;
  /** A DNS label. */
  private static final int MAX_LABEL = 63;
  private static final String FORBIDDEN = "\"(),:;<>[\\]";

  private final String normalized;

  private EmailAddress(String normalized) {
    this.normalized = normalized;
  }

  /** Trimmed and lower-cased. */
  public String normalized() {
    return normalized;
  }

  /** The normalized address, or empty when {@code raw} is not an acceptable email address. */
  public static Optional<EmailAddress> parse(String raw) {
    if (raw == null || raw.length() > MAX_LENGTH + 64) return Optional.empty();
    String s = raw.strip().toLowerCase(Locale.ROOT);
    if (s.length() < 3 || s.length() > MAX_LENGTH) return Optional.empty();
    int at = s.indexOf('@');
    if (at < 1 || at != s.lastIndexOf('@') || at > MAX_LOCAL) return Optional.empty();
    String domain = s.substring(at + 1);
    if (domain.isEmpty() || domain.startsWith(".") || domain.endsWith(".") || !domain.contains(".") || domain.contains("..")
        || domain.startsWith("-")) {
      return Optional.empty();
    }
    for (String label : domain.split("\\.")) {
      if (label.length() > MAX_LABEL) return Optional.empty();
    }
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (!acceptable(cp)) return Optional.empty();
      i += Character.charCount(cp);
    }
    return Optional.of(new EmailAddress(s));
  }

  private static boolean acceptable(int cp) {
    if (cp <= 0x20 || cp == 0x7f || FORBIDDEN.indexOf(cp) >= 0) return false;
    if (Character.isWhitespace(cp) || Character.isSpaceChar(cp) || Character.isISOControl(cp)) return false;
    int type = Character.getType(cp);
    return type != Character.FORMAT && type != Character.SURROGATE && type != Character.PRIVATE_USE && type != Character.UNASSIGNED;
  }

  /** The Account entity id of this address: hex SHA-256 of its normalized form. */
  public String key() {
    return sha256(normalized);
  }

  /**
   * The mailbox this address delivers to, as far as the limits can tell: the normalized address
   * without a {@code +tag} in its local part ({@code ana+1@example.com} is {@code ana@example.com}).
   * Accounts stay apart (each address is its own account); only attempts are counted together.
   */
  public String mailbox() {
    int at = normalized.indexOf('@');
    int plus = normalized.indexOf('+');
    if (plus <= 0 || plus > at) return normalized;
    return normalized.substring(0, plus) + normalized.substring(at);
  }

  /**
   * The key of this address's sign-up and sign-in limits: hex SHA-256 of its {@link #mailbox()},
   * so that plus-addressing ({@code local+1@domain}, {@code local+2@domain}, ...) draws on one
   * budget instead of making as many as an attacker likes.
   */
  public String limitKey() {
    return sha256(mailbox());
  }

  private static String sha256(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EmailAddress e && e.normalized.equals(normalized);
  }

  @Override
  public int hashCode() {
    return normalized.hashCode();
  }

  @Override
  public String toString() {
    return normalized;
  }
}
