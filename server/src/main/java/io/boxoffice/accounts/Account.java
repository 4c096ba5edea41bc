package io.boxoffice.accounts;

import io.boxoffice.accounts.domain.KnownNetworks;
import io.boxoffice.accounts.domain.PasswordHasher;
import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.Supervision;
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
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * A sign-in identity, keyed by {@link EmailAddress#key()} (the hex SHA-256 of the normalized
 * email) so that an email is registered once and no input reaches a persistence id. Accounts
 * registered before that were keyed by the normalized email itself; {@code AccountRoutes} still
 * reads them. Holds the account id and the password hash (hashing happens outside, off the
 * actor threads) and the networks it has signed in from ({@link KnownNetworks}, which have a
 * budget of wrong guesses of their own). Replies {@link Registered}, {@link Exists} or {@link Unknown}.
 */
public final class Account extends EventSourcedBehaviorWithEnforcedReplies<Account.Command, Account.Event, Account.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "Account");

  public sealed interface Command extends CborSerializable {}

  /** Registers the email; replies {@link Registered} or {@link Exists}. */
  public record Register(String accountId, PasswordHasher.PasswordHash password, ActorRef<Reply> replyTo) implements Command {}

  /** Replies {@link Registered} with the stored hash, or {@link Unknown}. */
  public record Get(ActorRef<Reply> replyTo) implements Command {}

  /** Remembers that the account signed in from {@code prefix} (a client network prefix); no reply. */
  public record RememberNetwork(String prefix) implements Command {}

  public sealed interface Reply extends CborSerializable {}

  /** The account, its password hash and the networks it signed in from. */
  public record Registered(String accountId, PasswordHasher.PasswordHash password, KnownNetworks networks) implements Reply {
    public Registered {
      networks = networks == null ? KnownNetworks.NONE : networks;
    }
  }

  public record Exists() implements Reply {}

  public record Unknown() implements Reply {}

  public sealed interface Event extends CborSerializable {}

  public record AccountRegistered(String accountId, PasswordHasher.PasswordHash password) implements Event {}

  /** The account signed in from a network it had not signed in from (among its last {@link KnownNetworks#MAX}). */
  public record NetworkRemembered(String prefix) implements Event {}

  /** Null fields until registered. */
  public record State(String accountId, PasswordHasher.PasswordHash password, KnownNetworks networks) implements CborSerializable {
    public State {
      networks = networks == null ? KnownNetworks.NONE : networks;
    }

    Registered registered() {
      return new Registered(accountId, password, networks);
    }
  }

  public static void init(ActorSystem<?> system) {
    ClusterSharding.get(system).init(Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId())).withRole("inventory")
        .withAllocationStrategy(io.boxoffice.common.WarmPlacement.balanced(system)));
  }

  /** {@code entityId} is an {@link EmailAddress#key()}, or a valid normalized email for an account from before. */
  public static Behavior<Command> create(String entityId) {
    return Supervision.restarting(s -> new Account(PersistenceId.of(ENTITY_TYPE_KEY.name(), entityId), s));
  }

  private Account(PersistenceId id, Supervision supervision) {
    super(id, supervision.backoff());
  }

  @Override
  public State emptyState() {
    return new State(null, null, KnownNetworks.NONE);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Register.class, (state, r) -> state.accountId() != null
            ? Effect().reply(r.replyTo(), new Exists())
            : Effect().persist(new AccountRegistered(r.accountId(), r.password())).thenReply(r.replyTo(), State::registered))
        .onCommand(Get.class, (state, g) ->
            Effect().reply(g.replyTo(), state.accountId() == null ? new Unknown() : state.registered()))
        .onCommand(RememberNetwork.class, (state, r) -> state.accountId() == null || state.networks().contains(r.prefix())
            ? Effect().noReply()
            : Effect().persist(new NetworkRemembered(r.prefix())).thenNoReply())
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(AccountRegistered.class, (state, r) -> new State(r.accountId(), r.password(), state.networks()))
        .onEvent(NetworkRemembered.class, (state, n) -> new State(state.accountId(), state.password(), state.networks().remember(n.prefix())))
        .build();
  }
}
