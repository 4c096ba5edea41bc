package io.boxoffice.accounts;

import com.typesafe.config.Config;
import java.time.Duration;

/**
 * The {@code boxoffice.accounts} settings: password hashing, its pool, sessions and sign-in limits
 * ({@code perEmail} is the ceiling of one email's attempts from networks it has not signed in
 * from, all together; see {@code accounts.domain.SignInBudget}).
 */
public record AccountSettings(
    int pbkdf2Iterations,
    Duration sessionLifetime,
    int hashingThreads,
    int hashingQueue,
    int hashingPerNetwork,
    Limit perPrefix,
    Limit perEmail,
    Limit perEmailNetwork,
    Limit knownNetwork,
    int maxKeys,
    Duration sessionPruneInterval,
    Duration sessionsReadWait) {

  /** One token-bucket limit: a burst, then so many requests a second. */
  public record Limit(int burst, double perSecond) {
    static Limit from(Config c) {
      return new Limit(c.getInt("burst"), c.getDouble("per-second"));
    }
  }

  /** Reads {@code boxoffice.accounts} from a node's configuration. */
  public static AccountSettings from(Config config) {
    Config c = config.getConfig("boxoffice.accounts");
    return new AccountSettings(
        c.getInt("pbkdf2-iterations"),
        Duration.ofHours(c.getInt("session-hours")),
        c.getInt("hashing.threads"),
        c.getInt("hashing.queue"),
        c.getInt("hashing.per-network"),
        Limit.from(c.getConfig("rate-limits.per-prefix")),
        Limit.from(c.getConfig("rate-limits.per-email")),
        Limit.from(c.getConfig("rate-limits.per-email-network")),
        Limit.from(c.getConfig("rate-limits.known-network")),
        c.getInt("rate-limits.max-keys"),
        c.getDuration("sessions.prune-interval"),
        c.getDuration("sessions.read-wait"));
  }
}
