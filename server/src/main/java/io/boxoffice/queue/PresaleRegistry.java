package io.boxoffice.queue;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.common.Supervision;
import io.boxoffice.queue.domain.Sampler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
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
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * Who registered for an event's presale, days before the sale, so that invitations go to a
 * random sample of them. Registering twice keeps one registration. Replies {@link Registered}
 * and {@link Sampled}.
 */
public final class PresaleRegistry
    extends EventSourcedBehaviorWithEnforcedReplies<PresaleRegistry.Command, PresaleRegistry.Event, PresaleRegistry.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "PresaleRegistry");

  public sealed interface Command extends CborSerializable {}

  /** Registers the account; replies {@link Registered}. */
  public record Register(String accountId, ActorRef<Registered> replyTo) implements Command {}

  /** Replies {@link Sampled}: a uniformly random sample of at most {@code count} registrants. */
  public record Sample(int count, ActorRef<Sampled> replyTo) implements Command {}

  public record Registered(int registrants) implements CborSerializable {}

  public record Sampled(List<String> accountIds) implements CborSerializable {}

  public sealed interface Event extends CborSerializable {}

  public record AccountRegistered(String accountId) implements Event {}

  /** The registrants in registration order; grown in place by this entity alone. */
  public record State(List<String> accounts, Set<String> known) {}

  /** The journal form of {@link State}: an immutable copy, taken on the entity's own thread. */
  public record Snapshot(List<String> accounts) implements CborSerializable {}

  public static void init(ActorSystem<?> system, SnapshotPolicy snapshots) {
    ClusterSharding.get(system).init(Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), snapshots)).withRole("inventory")
        .withAllocationStrategy(io.boxoffice.common.WarmPlacement.balanced(system)));
  }

  public static Behavior<Command> create(String eventId, SnapshotPolicy snapshots) {
    return Supervision.restarting(s -> new PresaleRegistry(PersistenceId.of(ENTITY_TYPE_KEY.name(), eventId), snapshots, s));
  }

  private final SnapshotPolicy snapshots;

  private PresaleRegistry(PersistenceId id, SnapshotPolicy snapshots, Supervision supervision) {
    super(id, supervision.backoff());
    this.snapshots = snapshots;
  }

  @Override
  public State emptyState() {
    return new State(new ArrayList<>(), new HashSet<>());
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return snapshots.criteria();
  }

  @Override
  public org.apache.pekko.persistence.typed.SnapshotAdapter<State> snapshotAdapter() {
    return new org.apache.pekko.persistence.typed.SnapshotAdapter<>() {
      @Override
      public Object toJournal(State state) {
        return new Snapshot(List.copyOf(state.accounts()));
      }

      @Override
      public State fromJournal(Object from) {
        List<String> accounts = new ArrayList<>(((Snapshot) from).accounts());
        return new State(accounts, new HashSet<>(accounts));
      }
    };
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return (state, command) -> {
      if (command instanceof Register r) {
        if (state.known().contains(r.accountId())) return Effect().reply(r.replyTo(), new Registered(state.accounts().size()));
        return Effect().persist(new AccountRegistered(r.accountId()))
            .thenReply(r.replyTo(), s -> new Registered(s.accounts().size()));
      }
      Sample s = (Sample) command;
      return Effect().reply(s.replyTo(), new Sampled(List.copyOf(Sampler.sample(state.accounts(), s.count(), new SplittableRandom()))));
    };
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return (state, event) -> {
      // The lists are private to this entity and only grow, so they are extended in place.
      String account = ((AccountRegistered) event).accountId();
      if (state.known().add(account)) state.accounts().add(account);
      return state;
    };
  }
}
