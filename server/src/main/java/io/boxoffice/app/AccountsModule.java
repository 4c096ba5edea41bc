package io.boxoffice.app;

import com.typesafe.config.Config;
import io.boxoffice.accounts.Account;
import io.boxoffice.accounts.AccountSettings;
import io.boxoffice.accounts.HashingPool;
import io.boxoffice.accounts.domain.PasswordHasher;
import io.boxoffice.accounts.http.AccountRoutes;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ClientPrefix;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.IdentityToken;
import io.boxoffice.edge.TokenBuckets;
import java.time.Clock;
import org.apache.pekko.actor.typed.ActorSystem;

/** Accounts: the entity, sign-up and sign-in with their own hashing pool and rate limits. */
final class AccountsModule {
  private AccountsModule() {}

  static void start(ActorSystem<Void> system) {
    Account.init(system);
  }

  static AccountRoutes routes(ActorSystem<Void> system, Config config, Api api, IdentityToken identityTokens) {
    AccountSettings settings = AccountSettings.from(config);
    HashingPool hashing = new HashingPool(settings.hashingThreads(), settings.hashingQueue());
    system.getWhenTerminated().thenRun(hashing::close);
    // Attempts a second are a matter of real time, whatever clock the sale runs on.
    Clock wall = Clock.systemUTC();
    FanContext limits = new FanContext(ClientPrefix.fromConfig(config),
        new TokenBuckets(settings.perEmail().burst(), settings.perEmail().perSecond(), settings.maxKeys(), wall),
        new TokenBuckets(settings.perPrefix().burst(), settings.perPrefix().perSecond(), settings.maxKeys(), wall),
        api);
    return new AccountRoutes(system, api, identityTokens, new PasswordHasher(settings.pbkdf2Iterations()), hashing, limits);
  }
}
