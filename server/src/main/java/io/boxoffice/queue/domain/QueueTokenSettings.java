package io.boxoffice.queue.domain;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueType;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settings of {@link QueueToken}, read once at start from {@code boxoffice.queue}: the active
 * key (signs and verifies), the accepted keys (verify only: the next key in phase 1 of a
 * rotation, the old one in phase 2; see docs/operations/key-rotation.md), token lifetime,
 * admission window and clock-skew leeway.
 */
public record QueueTokenSettings(
    Clock clock,
    byte[] activeKey,
    List<byte[]> acceptedKeys,
    Duration tokenTtl,
    Duration admissionWindow,
    Duration clockSkew) {
  private static final Logger log = LoggerFactory.getLogger(QueueTokenSettings.class);
  static final int MIN_KEY_BYTES = 32;

  public QueueTokenSettings {
    if (clock == null) throw new IllegalArgumentException("a clock is required");
    checkKey(activeKey, "active");
    activeKey = activeKey.clone();
    List<byte[]> accepted = new ArrayList<>();
    for (byte[] key : acceptedKeys == null ? List.<byte[]>of() : acceptedKeys) {
      checkKey(key, "accepted");
      // The active key verifies anyway, and a key listed twice is one key.
      if (Arrays.equals(key, activeKey) || accepted.stream().anyMatch(k -> Arrays.equals(k, key))) continue;
      accepted.add(key.clone());
    }
    acceptedKeys = List.copyOf(accepted);
    if (tokenTtl.isNegative() || tokenTtl.isZero()) throw new IllegalArgumentException("token-ttl must be positive");
    if (admissionWindow.isNegative() || admissionWindow.isZero()) {
      throw new IllegalArgumentException("admission-window must be positive");
    }
    if (clockSkew.isNegative()) throw new IllegalArgumentException("clock-skew cannot be negative");
  }

  /** One accepted key besides the active one, or none ({@code previousKey} null): the form before rotations had phases. */
  public QueueTokenSettings(Clock clock, byte[] activeKey, byte[] previousKey, Duration tokenTtl, Duration admissionWindow,
                            Duration clockSkew) {
    this(clock, activeKey, previousKey == null ? List.of() : List.of(previousKey), tokenTtl, admissionWindow, clockSkew);
  }

  /**
   * The settings under {@code boxoffice.queue}; an empty active key is a random one, with a
   * warning. Accepted keys: {@code keys.accepted} (base64 keys separated by commas, or a list)
   * and {@code keys.previous} (one key, the older way to name one).
   */
  public static QueueTokenSettings fromConfig(Config config, Clock clock) {
    Config c = config.getConfig("boxoffice.queue");
    String active = c.getString("keys.active").trim();
    byte[] activeKey;
    if (active.isEmpty()) {
      log.warn("boxoffice.queue.keys.active is not set: queue tokens are signed with a random key, so places in "
          + "line do not survive a restart and are not shared between nodes");
      activeKey = new byte[MIN_KEY_BYTES];
      new SecureRandom().nextBytes(activeKey);
    } else {
      activeKey = base64(active, "boxoffice.queue.keys.active");
    }
    List<byte[]> accepted = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    if (c.hasPath("keys.accepted")) {
      if (c.getValue("keys.accepted").valueType() == ConfigValueType.LIST) texts.addAll(c.getStringList("keys.accepted"));
      else texts.addAll(Arrays.asList(c.getString("keys.accepted").split(",")));
    }
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i).trim();
      if (!text.isEmpty()) accepted.add(base64(text, "boxoffice.queue.keys.accepted[" + i + "]"));
    }
    String previous = c.hasPath("keys.previous") ? c.getString("keys.previous").trim() : "";
    if (!previous.isEmpty()) accepted.add(base64(previous, "boxoffice.queue.keys.previous"));
    return new QueueTokenSettings(
        clock,
        activeKey,
        accepted,
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
  public List<byte[]> acceptedKeys() {
    return acceptedKeys.stream().map(byte[]::clone).toList();
  }

  @Override
  public String toString() {
    return "QueueTokenSettings[acceptedKeys=" + acceptedKeys.size() + ", tokenTtl=" + tokenTtl
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
