package io.boxoffice.app;

import com.typesafe.config.Config;
import io.boxoffice.accounts.Account;
import io.boxoffice.accounts.AccountSettings;
import io.boxoffice.accounts.HashingPool;
import io.boxoffice.accounts.SessionView;
import io.boxoffice.accounts.domain.PasswordHasher;
import io.boxoffice.accounts.http.AccountRoutes;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ClientPrefix;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.IdentityToken;
import io.boxoffice.edge.TokenBuckets;
import java.time.Clock;
import org.apache.pekko.actor.typed.ActorSystem;

/** Accounts: the entity, sign-up and sign-in with their own hashing pool and rate limits. */
final class AccountsModule {
  private AccountsModule() {}

  /** Starts the entities and this node's view of signed-out sessions (its read of the journal may still run). */
  static SessionView.Started start(ActorSystem<Void> system, Config config, Clock clock) {
    Account.init(system);
    AccountSettings settings = AccountSettings.from(config);
    return SessionView.start(system, clock, settings.sessionLifetime(), settings.sessionPruneInterval());
  }

  /**
   * Waits for the start's read of signed-out sessions, at most {@code wait}: a node that listens
   * before it would take a replayed signed-out cookie. Past the wait it listens anyway (the read
   * goes on, and is logged when it fails).
   */
  static void awaitSessions(SessionView.Started sessions, java.time.Duration wait) throws InterruptedException {
    try {
      sessions.loaded().toCompletableFuture().get(wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
      org.slf4j.LoggerFactory.getLogger(AccountsModule.class)
          .error("signed-out sessions not read within {}: listening anyway, still reading", wait);
    }
  }

  static AccountRoutes routes(ActorSystem<Void> system, Config config, Api api, IdentityToken identityTokens, Identity identity,
                              SessionView sessions) {
    AccountSettings settings = AccountSettings.from(config);
    HashingPool hashing = new HashingPool(settings.hashingThreads(), settings.hashingQueue(), settings.hashingPerNetwork());
    system.getWhenTerminated().thenRun(hashing::close);
    // Attempts a second are a matter of real time, whatever clock the sale runs on.
    Clock wall = Clock.systemUTC();
    AccountRoutes.Limits limits = new AccountRoutes.Limits(
        buckets(settings.perPrefix(), settings, wall),
        buckets(settings.knownNetwork(), settings, wall),
        buckets(settings.perEmailNetwork(), settings, wall),
        buckets(settings.perEmail(), settings, wall));
    // The routes take only the client prefix from it; the buckets they take from are in `limits`.
    FanContext fans = new FanContext(ClientPrefix.fromConfig(config), limits.perEmail(), limits.perPrefix(), api);
    return new AccountRoutes(system, api, identityTokens, new PasswordHasher(settings.pbkdf2Iterations()), hashing, fans, limits,
        identity, sessions);
  }

  private static TokenBuckets buckets(AccountSettings.Limit limit, AccountSettings settings, Clock clock) {
    return new TokenBuckets(limit.burst(), limit.perSecond(), settings.maxKeys(), clock);
  }
}
