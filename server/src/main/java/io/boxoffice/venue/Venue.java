package io.boxoffice.venue;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.Supervision;
import io.boxoffice.venue.domain.VenueLayout;
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

/** A venue's layout, defined once. Replies {@link Defined}, {@link Exists} or {@link Unknown}. */
public final class Venue extends EventSourcedBehaviorWithEnforcedReplies<Venue.Command, Venue.Event, Venue.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "Venue");
  /** Tag of a venue's definition: the managers' directory of venues reads it. */
  public static final String TAG = "venue";

  public sealed interface Command extends CborSerializable {}

  /** Defines the venue; replies {@link Defined} or {@link Exists}. */
  public record Define(VenueLayout layout, ActorRef<Reply> replyTo) implements Command {}

  /** Replies {@link Defined} or {@link Unknown}. */
  public record Get(ActorRef<Reply> replyTo) implements Command {}

  public sealed interface Reply extends CborSerializable {}

  public record Defined(VenueLayout layout) implements Reply {}

  public record Exists() implements Reply {}

  public record Unknown() implements Reply {}

  public sealed interface Event extends CborSerializable {}

  public record VenueDefined(VenueLayout layout) implements Event {}

  /** The layout, null until defined. */
  public record State(VenueLayout layout) implements CborSerializable {}

  public static void init(ActorSystem<?> system) {
    ClusterSharding.get(system).init(Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId())).withRole("inventory")
        .withAllocationStrategy(io.boxoffice.common.WarmPlacement.balanced(system)));
  }

  public static Behavior<Command> create(String venueId) {
    return Supervision.restarting(s -> new Venue(PersistenceId.of(ENTITY_TYPE_KEY.name(), venueId), s));
  }

  private Venue(PersistenceId id, Supervision supervision) {
    super(id, supervision.backoff());
  }

  @Override
  public State emptyState() {
    return new State(null);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return (state, command) -> {
      if (command instanceof Define d) {
        if (state.layout() != null) return Effect().reply(d.replyTo(), new Exists());
        return Effect().persist(new VenueDefined(d.layout())).thenReply(d.replyTo(), s -> new Defined(s.layout()));
      }
      Get g = (Get) command;
      return Effect().reply(g.replyTo(), state.layout() == null ? new Unknown() : new Defined(state.layout()));
    };
  }

  @Override
  public java.util.Set<String> tagsFor(Event event) {
    return java.util.Set.of(TAG);
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return (state, event) -> new State(((VenueDefined) event).layout());
  }
}
