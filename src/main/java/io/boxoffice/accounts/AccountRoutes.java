package io.boxoffice.accounts;

import io.boxoffice.edge.Api;
import io.boxoffice.edge.ApiError;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.HttpCookie;
import org.apache.pekko.http.javadsl.model.headers.SameSite;
import org.apache.pekko.http.javadsl.model.headers.SetCookie;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

/** {@code POST /api/accounts} registers, {@code POST /api/session} signs in and sets {@code bo_id}. */
public final class AccountRoutes extends AllDirectives {
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s]+\\.[^@\\s]+");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Body of both calls. */
  public record Credentials(String email, String password) {}

  private final ActorSystem<?> system;
  private final Api api;
  private final IdentityToken tokens;
  private final PasswordHasher hasher;
  private final Executor blocking;
  private final PasswordHasher.PasswordHash decoy;

  public AccountRoutes(ActorSystem<?> system, Api api, IdentityToken tokens, PasswordHasher hasher, Executor blocking) {
    this.system = system;
    this.api = api;
    this.tokens = tokens;
    this.hasher = hasher;
    this.blocking = blocking;
    this.decoy = hasher.hash("decoy password for unknown emails");
  }

  public Route routes() {
    return concat(
        path(segment("api").slash("accounts"), () -> post(() -> api.body(Credentials.class, this::register))),
        path(segment("api").slash("session"), () -> post(() -> api.body(Credentials.class, this::signIn))));
  }

  private Route register(Credentials c) {
    String email = checkedEmail(c.email());
    if (c.password() == null || c.password().length() < 10 || c.password().length() > 1024) {
      throw ApiError.badRequest("password must be 10-1024 characters");
    }
    String accountId = newAccountId();
    CompletionStage<HttpResponse> response = CompletableFuture.supplyAsync(() -> hasher.hash(c.password()), blocking)
        .thenCompose(hash -> account(email).<Account.Reply>ask(r -> new Account.Register(accountId, hash, r), api.askTimeout()))
        .thenApply(reply -> reply instanceof Account.Registered r
            ? api.json(201, Map.of("accountId", r.accountId()))
            : api.error(409, "account_exists", "an account with this email exists"));
    return api.respond(response);
  }

  private Route signIn(Credentials c) {
    if (c.email() == null || c.password() == null || c.email().length() > 200 || c.password().length() > 1024) {
      throw ApiError.badRequest("email and password are required");
    }
    String email = Account.normalizeEmail(c.email());
    CompletionStage<HttpResponse> response = account(email).<Account.Reply>ask(Account.Get::new, api.askTimeout())
        .thenApplyAsync(reply -> {
          boolean known = reply instanceof Account.Registered;
          PasswordHasher.PasswordHash stored = known ? ((Account.Registered) reply).password() : decoy;
          boolean ok = PasswordHasher.matches(c.password(), stored) && known;
          if (!ok) return api.error(401, "unauthenticated", "wrong email or password");
          String accountId = ((Account.Registered) reply).accountId();
          HttpCookie cookie = HttpCookie.create(IdentityToken.COOKIE, tokens.issue(accountId))
              .withHttpOnly(true).withSecure(true).withSameSite(SameSite.Lax).withPath("/")
              .withMaxAge(tokens.lifetime().toSeconds());
          return api.json(200, Map.of("accountId", accountId)).addHeader(SetCookie.create(cookie));
        }, blocking);
    return api.respond(response);
  }

  private org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef<Account.Command> account(String email) {
    return ClusterSharding.get(system).entityRefFor(Account.ENTITY_TYPE_KEY, email);
  }

  private static String checkedEmail(String email) {
    // The email is the account entity's key, inside a persistence id of at most 255 characters.
    if (email == null || email.length() > 200 || !EMAIL.matcher(email.trim()).matches()) {
      throw ApiError.badRequest("a valid email of at most 200 characters is required");
    }
    return Account.normalizeEmail(email);
  }

  private static String newAccountId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return "a" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
