package io.boxoffice.accounts.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import io.boxoffice.accounts.Account;
import io.boxoffice.accounts.AccountSessions;
import io.boxoffice.accounts.HashingPool;
import io.boxoffice.accounts.SessionView;
import io.boxoffice.accounts.domain.EmailAddress;
import io.boxoffice.accounts.domain.KnownNetworks;
import io.boxoffice.accounts.domain.PasswordHasher;
import io.boxoffice.accounts.domain.SignInBudget;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ApiError;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.IdentityToken;
import io.boxoffice.edge.TokenBuckets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.HttpCookie;
import org.apache.pekko.http.javadsl.model.headers.RetryAfter;
import org.apache.pekko.http.javadsl.model.headers.SameSite;
import org.apache.pekko.http.javadsl.model.headers.SetCookie;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * {@code POST /api/accounts} registers, {@code POST /api/session} signs in and sets {@code bo_id},
 * {@code DELETE /api/session} signs that session out on the server, {@code DELETE /api/sessions}
 * signs the account out everywhere.
 *
 * <p>Sign-up and sign-in cost a PBKDF2 run, so both are limited (429 + Retry-After) per client
 * network prefix before any entity is asked, then per email as {@link SignInBudget} says (a
 * network the account signed in from before has a budget of its own), and hash on the bounded
 * {@link HashingPool} (503 {@code overloaded} when it is full).
 */
public final class AccountRoutes extends AllDirectives {
  private static final SecureRandom RANDOM = new SecureRandom();
  /** Accounts from before hashed keys were keyed by the email itself, which then had to fit a persistence id. */
  private static final int LEGACY_MAX_EMAIL = 200;

  /** Body of both calls. */
  public record Credentials(String email, String password) {}

  /** Answer of both calls: the account signed up or signed in. */
  public record AccountId(String accountId) {}

  /** The token buckets of sign-up and sign-in: per prefix, and the email's ones of {@link SignInBudget}. */
  public record Limits(TokenBuckets perPrefix, TokenBuckets knownNetwork, TokenBuckets perEmailNetwork, TokenBuckets perEmail) {
    TokenBuckets of(SignInBudget.Kind kind) {
      return switch (kind) {
        case KNOWN_NETWORK -> knownNetwork;
        case EMAIL_NETWORK -> perEmailNetwork;
        case EMAIL -> perEmail;
      };
    }
  }

  /** The account entity that answered for an email (hashed key, or the legacy one) and its answer. */
  private record Found(EntityRef<Account.Command> entity, Account.Reply reply) {}

  private final ActorSystem<?> system;
  private final Api api;
  private final IdentityToken tokens;
  private final PasswordHasher hasher;
  private final HashingPool hashing;
  private final FanContext fans;
  private final Limits limits;
  private final Identity identity;
  private final SessionView sessions;
  private final PasswordHasher.PasswordHash decoy;
  private final SignUpPace pace = new SignUpPace();

  public AccountRoutes(ActorSystem<?> system, Api api, IdentityToken tokens, PasswordHasher hasher, HashingPool hashing,
                       FanContext fans, Limits limits, Identity identity, SessionView sessions) {
    this.system = system;
    this.api = api;
    this.tokens = tokens;
    this.hasher = hasher;
    this.hashing = hashing;
    this.fans = fans;
    this.limits = limits;
    this.identity = identity;
    this.sessions = sessions;
    this.decoy = hasher.hash("decoy password for unknown emails");
  }

  public Route routes() {
    return concat(
        path(segment("api").slash("accounts"), () -> post(() -> api.body(Credentials.class, c -> limited(c, this::register)))),
        path(segment("api").slash("session"), () -> concat(
            post(() -> api.body(Credentials.class, c -> limited(c, this::signIn))),
            delete(this::signOut))),
        path(segment("api").slash("sessions"), () -> delete(this::signOutEverywhere)));
  }

  private interface Attempt {
    Route apply(EmailAddress email, String password, String prefix);
  }

  private Route limited(Credentials c, Attempt inner) {
    EmailAddress email = EmailAddress.parse(c.email())
        .orElseThrow(() -> ApiError.badRequest("a valid email address of at most " + EmailAddress.MAX_LENGTH + " characters is required"));
    if (c.password() == null || c.password().isEmpty() || c.password().length() > 1024) {
      throw ApiError.badRequest("a password of at most 1024 characters is required");
    }
    return fans.prefix(prefix -> {
      TokenBuckets.Decision byPrefix = limits.perPrefix().tryTake(prefix);
      if (!byPrefix.allowed()) return complete(tooMany(byPrefix));
      return inner.apply(email, c.password(), prefix);
    });
  }

  /** Takes from the email's buckets for an attempt from {@code prefix}: null when allowed, else the 429. */
  private HttpResponse spend(EmailAddress email, String prefix, KnownNetworks known) {
    // Per mailbox: local+tag@domain counts as local@domain (plus-addressing makes no new budget).
    for (SignInBudget.Bucket b : SignInBudget.buckets(email.limitKey(), prefix, known)) {
      TokenBuckets.Decision d = limits.of(b.kind()).tryTake(b.key());
      if (!d.allowed()) return tooMany(d);
    }
    return null;
  }

  private HttpResponse tooMany(TokenBuckets.Decision d) {
    return api.json(429, Map.of("error", "rate_limited", "message", "too many requests, slow down"))
        .addHeader(RetryAfter.create(Math.max(1, d.retryAfterSeconds())));
  }

  private Route register(EmailAddress email, String password, String prefix) {
    if (password.length() < 10) throw ApiError.badRequest("password must be 10-1024 characters");
    HttpResponse limited = spend(email, prefix, KnownNetworks.NONE);
    if (limited != null) return complete(limited);
    String accountId = newAccountId();
    // The password is hashed whether or not the email has an account: a 409 account_exists costs
    // and takes as long as a 201, so its timing does not tell more than the answer itself.
    // And a 409, which writes nothing, waits as long as creating an account has lately taken (SignUpPace).
    CompletionStage<HttpResponse> response = hashing.run(prefix, () -> hasher.hash(password))
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

  private Route signIn(EmailAddress email, String password, String prefix) {
    CompletionStage<HttpResponse> response = find(email).thenCompose(found -> {
      boolean known = found.reply() instanceof Account.Registered;
      HttpResponse limited = spend(email, prefix, known ? ((Account.Registered) found.reply()).networks() : KnownNetworks.NONE);
      if (limited != null) return CompletableFuture.completedFuture(limited);
      PasswordHasher.PasswordHash stored = known ? ((Account.Registered) found.reply()).password() : decoy;
      return hashing.run(prefix, () -> PasswordHasher.matches(password, stored) && known).thenCompose(ok -> {
        if (!ok) return CompletableFuture.completedFuture(api.error(401, "unauthenticated", "wrong email or password"));
        String accountId = ((Account.Registered) found.reply()).accountId();
        found.entity().tell(new Account.RememberNetwork(prefix));
        return sessionsOf(accountId).ask(AccountSessions.Get::new, api.askTimeout()).thenApply(current -> {
          HttpCookie cookie = HttpCookie.create(IdentityToken.COOKIE, tokens.issue(accountId, current.revocations().version()))
              .withHttpOnly(true).withSecure(true).withSameSite(SameSite.Lax).withPath("/")
              .withMaxAge(tokens.lifetime().toSeconds());
          return api.json(200, new AccountId(accountId)).addHeader(SetCookie.create(cookie));
        });
      });
    });
    return api.respond(response);
  }

  /**
   * 204 and the {@code bo_id} cookie cleared (expired, with the attributes it was set with); a
   * valid session is signed out on the server first (every node then refuses its token), so
   * the answer waits for that (503 when it cannot be recorded: the fan tries again).
   */
  private Route signOut() {
    return optionalCookie(IdentityToken.COOKIE, cookie -> {
      IdentityToken.Session session = cookie.map(c -> tokens.open(c.value())).orElse(null);
      if (session == null || !AccountSessions.validAccountId(session.accountId())) return complete(signedOut());
      return api.respond(sessionsOf(session.accountId())
          .<AccountSessions.Sessions>ask(r -> new AccountSessions.SignOut(session.sessionId(), session.expires(), r), api.askTimeout())
          .thenApply(this::recorded));
    });
  }

  /** 204 and {@code bo_id} cleared once every session of the account issued so far is signed out; 401 without a valid sign-in. */
  private Route signOutEverywhere() {
    return identity.account(accountId -> {
      if (!AccountSessions.validAccountId(accountId)) return complete(signedOut());
      return api.respond(sessionsOf(accountId)
          .<AccountSessions.Sessions>ask(AccountSessions.SignOutEverywhere::new, api.askTimeout())
          .thenApply(this::recorded));
    });
  }

  /** This node refuses the sessions at once (the others when the entity's news reaches them). */
  private HttpResponse recorded(AccountSessions.Sessions signedOut) {
    sessions.merge(signedOut);
    return signedOut();
  }

  private static HttpResponse signedOut() {
    HttpCookie cleared = HttpCookie.create(IdentityToken.COOKIE, "")
        .withHttpOnly(true).withSecure(true).withSameSite(SameSite.Lax).withPath("/").withMaxAge(0);
    return HttpResponse.create().withStatus(204).addHeader(SetCookie.create(cleared));
  }

  private EntityRef<Account.Command> account(EmailAddress email) {
    return ClusterSharding.get(system).entityRefFor(Account.ENTITY_TYPE_KEY, email.key());
  }

  private EntityRef<AccountSessions.Command> sessionsOf(String accountId) {
    return ClusterSharding.get(system).entityRefFor(AccountSessions.ENTITY_TYPE_KEY, accountId);
  }

  /** The account of {@code email}: keyed by hash, else from before ({@link #legacy}). */
  private CompletionStage<Found> find(EmailAddress email) {
    EntityRef<Account.Command> hashed = account(email);
    return hashed.<Account.Reply>ask(Account.Get::new, api.askTimeout())
        .thenCompose(reply -> reply instanceof Account.Registered
            ? CompletableFuture.completedFuture(new Found(hashed, reply))
            : legacy(email).thenApply(old -> new Found(legacyRef(email), old)));
  }

  private EntityRef<Account.Command> legacyRef(EmailAddress email) {
    return ClusterSharding.get(system).entityRefFor(Account.ENTITY_TYPE_KEY, email.normalized());
  }

  /**
   * The account an email registered before accounts were keyed by hash, or {@link Account.Unknown}.
   * Only emails that were valid keys then are looked up (nothing with {@code |}, nothing longer
   * than the old limit), and they are validated emails, so the lookup cannot poison anything.
   */
  private CompletionStage<Account.Reply> legacy(EmailAddress email) {
    String old = email.normalized();
    if (old.length() > LEGACY_MAX_EMAIL || old.indexOf('|') >= 0) return CompletableFuture.completedFuture(new Account.Unknown());
    return legacyRef(email).ask(Account.Get::new, api.askTimeout());
  }

  private static String newAccountId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return "a" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
