package io.boxoffice.accounts;

import io.boxoffice.accounts.domain.SessionRevocations;
import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.Supervision;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;

/**
 * The server side of one account's sessions, keyed by account id (what a {@code bo_id} names):
 * the sessions signed out one by one and the "sign out everywhere" version
 * ({@link SessionRevocations}). Every change is published to every node's {@link SessionView}
 * (after it is persisted) and tagged by day, so a starting node reads the ones that still matter.
 * Replies {@link Sessions} to every command.
 */
public final class AccountSessions
    extends EventSourcedBehaviorWithEnforcedReplies<AccountSessions.Command, AccountSessions.Event, AccountSessions.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "AccountSessions");
  /** Account ids as sign-up makes them ({@code a} + base64url), checked again before they reach a persistence id. */
  private static final Pattern ACCOUNT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final String TAG_PREFIX = "sessions-";

  public sealed interface Command extends CborSerializable {}

  /** Replies the account's sessions as they stand (the version a new session is issued under). */
  public record Get(ActorRef<Sessions> replyTo) implements Command {}

  /** Signs out the session {@code sessionId}, whose token expires at {@code expires} (epoch seconds). */
  public record SignOut(String sessionId, long expires, ActorRef<Sessions> replyTo) implements Command {}

  /** Signs out every session issued so far. */
  public record SignOutEverywhere(ActorRef<Sessions> replyTo) implements Command {}

  /** What is signed out of {@code accountId}: the reply to every command, and what nodes are told. */
  public record Sessions(String accountId, SessionRevocations revocations) implements CborSerializable {}

  public sealed interface Event extends CborSerializable {}

  /** One session was signed out at {@code at}; its token expires at {@code expires} (epoch seconds both). */
  public record SessionSignedOut(String accountId, String sessionId, long expires, long at) implements Event {}

  /** Every session issued before {@code at} (epoch seconds) was signed out: sessions now need {@code version}. */
  public record SignedOutEverywhere(String accountId, long version, long at) implements Event {
    /** What it leaves: the version, and no ids (the version covers every session before it). */
    public SessionRevocations revocations() {
      return new SessionRevocations(version, at, java.util.Map.of());
    }
  }

  public record State(SessionRevocations revocations) implements CborSerializable {
    public State {
      revocations = revocations == null ? SessionRevocations.NONE : revocations;
    }
  }

  public static boolean validAccountId(String accountId) {
    return accountId != null && ACCOUNT_ID.matcher(accountId).matches();
  }

  /** The tag of changes made on the UTC day of {@code epochSecond}. */
  static String tag(long epochSecond) {
    return TAG_PREFIX + Instant.ofEpochSecond(epochSecond).atZone(ZoneOffset.UTC).toLocalDate();
  }

  /** Registers the entity; {@code published} tells every node about each persisted change. */
  public static void init(ActorSystem<?> system, Clock clock, Consumer<Sessions> published) {
    ClusterSharding.get(system).init(Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), clock, published)).withRole("inventory")
        .withAllocationStrategy(io.boxoffice.common.WarmPlacement.balanced(system)));
  }

  public static Behavior<Command> create(String accountId, Clock clock, Consumer<Sessions> published) {
    if (!validAccountId(accountId)) throw new IllegalArgumentException("not an account id");
    return Supervision.restarting(s -> new AccountSessions(accountId, clock, published, s));
  }

  private final String accountId;
  private final Clock clock;
  private final Consumer<Sessions> published;

  private AccountSessions(String accountId, Clock clock, Consumer<Sessions> published, Supervision supervision) {
    super(PersistenceId.of(ENTITY_TYPE_KEY.name(), accountId), supervision.backoff());
    this.accountId = accountId;
    this.clock = clock;
    this.published = published;
  }

  @Override
  public State emptyState() {
    return new State(SessionRevocations.NONE);
  }

  @Override
  public Set<String> tagsFor(Event event) {
    return Set.of(tag(event instanceof SessionSignedOut s ? s.at() : ((SignedOutEverywhere) event).at()));
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Get.class, (state, g) -> Effect().reply(g.replyTo(), sessions(state)))
        .onCommand(SignOut.class, (state, s) -> Effect()
            .persist(new SessionSignedOut(accountId, s.sessionId(), s.expires(), clock.millis() / 1000))
            .thenRun(this::publish)
            .thenReply(s.replyTo(), this::sessions))
        .onCommand(SignOutEverywhere.class, (state, s) -> Effect()
            .persist(signedOutEverywhere(state, clock.millis() / 1000))
            .thenRun(this::publish)
            .thenReply(s.replyTo(), this::sessions))
        .build();
  }

  private SignedOutEverywhere signedOutEverywhere(State state, long now) {
    return new SignedOutEverywhere(accountId, state.revocations().signOutEverywhere(now).version(), now);
  }

  private void publish(State state) {
    published.accept(sessions(state));
  }

  private Sessions sessions(State state) {
    return new Sessions(accountId, state.revocations());
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(SessionSignedOut.class, (state, s) -> new State(state.revocations().revoke(s.sessionId(), s.expires(), s.at())))
        .onEvent(SignedOutEverywhere.class, (state, e) -> new State(e.revocations()))
        .build();
  }
}
