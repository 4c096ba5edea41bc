package io.boxoffice.queue.domain;

import com.typesafe.config.Config;
import java.time.Duration;

/**
 * The {@code boxoffice.bots} settings: presale and proof-of-work keys, challenge lifetime, rate
 * limits, and how many tokens of them a ticket's QR code takes ({@code qrCost}: it costs the
 * node more than a cheap read).
 */
public record BotSettings(
    String presaleKey,
    String powKey,
    Duration powChallengeTtl,
    int powUsedMax,
    Limit perAccount,
    Limit perPrefix,
    int maxKeys,
    int qrCost) {

  /** One token-bucket limit: a burst, then so many requests a second. */
  public record Limit(int burst, double perSecond) {
    static Limit from(Config c) {
      return new Limit(c.getInt("burst"), c.getDouble("per-second"));
    }
  }

  /** Reads {@code boxoffice.bots} from a node's configuration. */
  public static BotSettings from(Config config) {
    Config c = config.getConfig("boxoffice.bots");
    return new BotSettings(
        c.getString("presale-key"),
        c.getString("pow-key"),
        c.getDuration("pow-challenge-ttl"),
        c.getInt("pow-used-max"),
        Limit.from(c.getConfig("rate-limits.per-account")),
        Limit.from(c.getConfig("rate-limits.per-prefix")),
        c.getInt("rate-limits.max-keys"),
        c.getInt("rate-limits.qr-cost"));
  }

  /** Without the keys, so that logging the settings does not leak them. */
  @Override
  public String toString() {
    return "BotSettings[powChallengeTtl=" + powChallengeTtl + ", powUsedMax=" + powUsedMax
        + ", perAccount=" + perAccount + ", perPrefix=" + perPrefix + ", maxKeys=" + maxKeys + ", qrCost=" + qrCost + "]";
  }
}
