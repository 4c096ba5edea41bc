package io.boxoffice.queue;

import com.typesafe.config.Config;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settings of {@link QueueToken}, read once at start from {@code boxoffice.queue}: the active
 * key (signs and verifies), the previous key during a rotation (verifies only, null when none),
 * token lifetime, admission window and clock-skew leeway.
 */
public record QueueTokenSettings(
    Clock clock,
    byte[] activeKey,
    byte[] previousKey,
    Duration tokenTtl,
    Duration admissionWindow,
    Duration clockSkew) {
  private static final Logger log = LoggerFactory.getLogger(QueueTokenSettings.class);
  static final int MIN_KEY_BYTES = 32;

  public QueueTokenSettings {
    if (clock == null) throw new IllegalArgumentException("a clock is required");
    checkKey(activeKey, "active");
    if (previousKey != null) checkKey(previousKey, "previous");
    activeKey = activeKey.clone();
    previousKey = previousKey == null ? null : previousKey.clone();
    if (tokenTtl.isNegative() || tokenTtl.isZero()) throw new IllegalArgumentException("token-ttl must be positive");
    if (admissionWindow.isNegative() || admissionWindow.isZero()) {
      throw new IllegalArgumentException("admission-window must be positive");
    }
    if (clockSkew.isNegative()) throw new IllegalArgumentException("clock-skew cannot be negative");
  }

  /** The settings under {@code boxoffice.queue}; an empty active key is a random one, with a warning. */
  public static QueueTokenSettings fromConfig(Config config, Clock clock) {
    Config c = config.getConfig("boxoffice.queue");
    String active = c.getString("keys.active").trim();
    String previous = c.getString("keys.previous").trim();
    byte[] activeKey;
    if (active.isEmpty()) {
      log.warn("boxoffice.queue.keys.active is not set: queue tokens are signed with a random key, so places in "
          + "line do not survive a restart and are not shared between nodes");
      activeKey = new byte[MIN_KEY_BYTES];
      new SecureRandom().nextBytes(activeKey);
    } else {
      activeKey = base64(active, "boxoffice.queue.keys.active");
    }
    return new QueueTokenSettings(
        clock,
        activeKey,
        previous.isEmpty() ? null : base64(previous, "boxoffice.queue.keys.previous"),
        c.getDuration("token-ttl"),
        c.getDuration("admission-window"),
        c.getDuration("clock-skew"));
  }

  /** The verifier and signer these settings describe. */
  public QueueToken tokens() {
    return new QueueToken(this);
  }

  @Override
  public byte[] activeKey() {
    return activeKey.clone();
  }

  @Override
  public byte[] previousKey() {
    return previousKey == null ? null : previousKey.clone();
  }

  @Override
  public String toString() {
    return "QueueTokenSettings[previousKey=" + (previousKey != null) + ", tokenTtl=" + tokenTtl
        + ", admissionWindow=" + admissionWindow + ", clockSkew=" + clockSkew + "]";
  }

  private static void checkKey(byte[] key, String which) {
    if (key == null || key.length < MIN_KEY_BYTES) {
      throw new IllegalArgumentException("the " + which + " queue key needs at least " + MIN_KEY_BYTES + " bytes");
    }
  }

  /** Standard or URL-safe base64; the message never repeats the value, which is a secret. */
  private static byte[] base64(String value, String setting) {
    try {
      return (value.indexOf('-') >= 0 || value.indexOf('_') >= 0 ? Base64.getUrlDecoder() : Base64.getDecoder())
          .decode(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(setting + " is not valid base64");
    }
  }
}
