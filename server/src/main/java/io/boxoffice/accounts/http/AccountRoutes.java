package io.boxoffice.accounts.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import io.boxoffice.accounts.Account;
import io.boxoffice.accounts.HashingPool;
import io.boxoffice.accounts.domain.EmailAddress;
import io.boxoffice.accounts.domain.PasswordHasher;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ApiError;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.IdentityToken;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.HttpCookie;
import org.apache.pekko.http.javadsl.model.headers.SameSite;
import org.apache.pekko.http.javadsl.model.headers.SetCookie;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * {@code POST /api/accounts} registers, {@code POST /api/session} signs in and sets {@code bo_id}.
 * Both cost a PBKDF2 run, so both are limited per client network prefix and per email (429 +
 * Retry-After) before any entity is asked, and hash on the bounded {@link HashingPool} (503
 * {@code overloaded} when it is full).
 */
public final class AccountRoutes extends AllDirectives {
  private static final SecureRandom RANDOM = new SecureRandom();
  /** Accounts from before hashed keys were keyed by the email itself, which then had to fit a persistence id. */
  private static final int LEGACY_MAX_EMAIL = 200;

  /** Body of both calls. */
  public record Credentials(String email, String password) {}

  /** Answer of both calls: the account signed up or signed in. */
  public record AccountId(String accountId) {}

  private final ActorSystem<?> system;
  private final Api api;
  private final IdentityToken tokens;
  private final PasswordHasher hasher;
  private final HashingPool hashing;
  private final FanContext limits;
  private final PasswordHasher.PasswordHash decoy;
  private final SignUpPace pace = new SignUpPace();

  /** {@code limits} holds the sign-in buckets: its "account" buckets are keyed by email. */
  public AccountRoutes(ActorSystem<?> system, Api api, IdentityToken tokens, PasswordHasher hasher, HashingPool hashing,
                       FanContext limits) {
    this.system = system;
    this.api = api;
    this.tokens = tokens;
    this.hasher = hasher;
    this.hashing = hashing;
    this.limits = limits;
    this.decoy = hasher.hash("decoy password for unknown emails");
  }

  public Route routes() {
    return concat(
        path(segment("api").slash("accounts"), () -> post(() -> api.body(Credentials.class, c -> limited(c, this::register)))),
        path(segment("api").slash("session"), () -> concat(
            post(() -> api.body(Credentials.class, c -> limited(c, this::signIn))),
            delete(this::signOut))));
  }

  private Route limited(Credentials c, java.util.function.BiFunction<EmailAddress, String, Route> inner) {
    EmailAddress email = EmailAddress.parse(c.email())
        .orElseThrow(() -> ApiError.badRequest("a valid email address of at most " + EmailAddress.MAX_LENGTH + " characters is required"));
    if (c.password() == null || c.password().isEmpty() || c.password().length() > 1024) {
      throw ApiError.badRequest("a password of at most 1024 characters is required");
    }
    // Per mailbox: local+tag@domain counts as local@domain (plus-addressing makes no new budget).
    return limits.prefix(prefix -> limits.limited(email.limitKey(), prefix, () -> inner.apply(email, c.password())));
  }

  private Route register(EmailAddress email, String password) {
    if (password.length() < 10) throw ApiError.badRequest("password must be 10-1024 characters");
    String accountId = newAccountId();
    // The password is hashed whether or not the email has an account: a 409 account_exists costs
    // and takes as long as a 201, so its timing does not tell more than the answer itself.
    // And a 409, which writes nothing, waits as long as creating an account has lately taken (SignUpPace).
    CompletionStage<HttpResponse> response = hashing.run(() -> hasher.hash(password))
        .thenCompose(hash -> {
          long started = System.nanoTime();
          return legacy(email).thenCompose(old -> old instanceof Account.Registered
                  ? CompletableFuture.completedFuture((Account.Reply) new Account.Exists())
                  : account(email).<Account.Reply>ask(r -> new Account.Register(accountId, hash, r), api.askTimeout()))
              .thenCompose(reply -> paced(reply, System.nanoTime() - started));
        })
        .thenApply(reply -> reply instanceof Account.Registered r
            ? api.json(201, new AccountId(r.accountId()))
            : api.error(409, "account_exists", "an account with this email exists"));
    return api.respond(response);
  }

  private CompletionStage<Account.Reply> paced(Account.Reply reply, long tookNanos) {
    if (reply instanceof Account.Registered) {
      pace.created(tookNanos);
      return CompletableFuture.completedFuture(reply);
    }
    long wait = pace.paddingNanos(tookNanos);
    if (wait <= 0) return CompletableFuture.completedFuture(reply);
    return CompletableFuture.supplyAsync(() -> reply,
        CompletableFuture.delayedExecutor(wait, java.util.concurrent.TimeUnit.NANOSECONDS, system.executionContext()));
  }

  private Route signIn(EmailAddress email, String password) {
    CompletionStage<HttpResponse> response = account(email).<Account.Reply>ask(Account.Get::new, api.askTimeout())
        .thenCompose(reply -> reply instanceof Account.Registered ? CompletableFuture.completedFuture(reply) : legacy(email))
        .thenCompose(reply -> hashing.run(() -> {
          boolean known = reply instanceof Account.Registered;
          PasswordHasher.PasswordHash stored = known ? ((Account.Registered) reply).password() : decoy;
          boolean ok = PasswordHasher.matches(password, stored) && known;
          if (!ok) return api.error(401, "unauthenticated", "wrong email or password");
          String accountId = ((Account.Registered) reply).accountId();
          HttpCookie cookie = HttpCookie.create(IdentityToken.COOKIE, tokens.issue(accountId))
              .withHttpOnly(true).withSecure(true).withSameSite(SameSite.Lax).withPath("/")
              .withMaxAge(tokens.lifetime().toSeconds());
          return api.json(200, new AccountId(accountId)).addHeader(SetCookie.create(cookie));
        }));
    return api.respond(response);
  }

  /**
   * 204 and the {@code bo_id} cookie cleared (expired, with the attributes it was set with). The
   * token itself stays valid until it expires: nothing server-side revokes it yet.
   */
  private Route signOut() {
    HttpCookie cleared = HttpCookie.create(IdentityToken.COOKIE, "")
        .withHttpOnly(true).withSecure(true).withSameSite(SameSite.Lax).withPath("/").withMaxAge(0);
    return complete(HttpResponse.create().withStatus(204).addHeader(SetCookie.create(cleared)));
  }

  private EntityRef<Account.Command> account(EmailAddress email) {
    return ClusterSharding.get(system).entityRefFor(Account.ENTITY_TYPE_KEY, email.key());
  }

  /**
   * The account an email registered before accounts were keyed by hash, or {@link Account.Unknown}.
   * Only emails that were valid keys then are looked up (nothing with {@code |}, nothing longer
   * than the old limit), and they are validated emails, so the lookup cannot poison anything.
   */
  private CompletionStage<Account.Reply> legacy(EmailAddress email) {
    String old = email.normalized();
    if (old.length() > LEGACY_MAX_EMAIL || old.indexOf('|') >= 0) return CompletableFuture.completedFuture(new Account.Unknown());
    return ClusterSharding.get(system).entityRefFor(Account.ENTITY_TYPE_KEY, old).ask(Account.Get::new, api.askTimeout());
  }

  private static String newAccountId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return "a" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
