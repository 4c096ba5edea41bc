package io.boxoffice.common;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.BackoffSupervisorStrategy;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.typed.internal.JournalFailureException;
import org.slf4j.event.Level;

/**
 * How every entity comes back from a failure: restarted from its journal after a backoff of
 * {@code minBackoff} growing to {@code maxBackoff} (with jitter), whether a write failed or
 * anything else threw, so a database blip or a split-brain duplicate never leaves an entity
 * stopped. Read from {@code boxoffice.supervision} (conf/boxoffice.conf), once per actor system.
 *
 * <p>But not forever: an entity that fails {@code maxRestarts} times in a row (without
 * {@code resetAfter} of calm between two failures) cannot recover by itself, for example a
 * persistence id its database refuses. Restarting it forever only hammers the journal and
 * snapshot store that every other entity of the node shares (their circuit breakers open for
 * everyone), so it stops, logged at ERROR; sharding starts it afresh on the next message sent to it.
 */
public record Supervision(Duration minBackoff, Duration maxBackoff, double randomFactor, int maxRestarts, Duration resetAfter)
    implements Extension {

  public static Supervision fromConfig(Config config) {
    Config c = config.getConfig("boxoffice.supervision");
    return new Supervision(c.getDuration("min-backoff"), c.getDuration("max-backoff"), c.getDouble("random-factor"),
        c.getInt("max-restarts"), c.getDuration("reset-after"));
  }

  private static final ExtensionId<Supervision> ID = new ExtensionId<>() {
    @Override
    public Supervision createExtension(ActorSystem<?> system) {
      Config config = system.settings().config();
      // A system made from a bare config (a test's) gets the values the node ships.
      return fromConfig(config.hasPath("boxoffice.supervision") ? config : ConfigFactory.load());
    }
  };

  /** The supervision of {@code system}'s entities. */
  public static Supervision of(ActorSystem<?> system) {
    return ID.apply(system);
  }

  public BackoffSupervisorStrategy backoff() {
    return SupervisorStrategy.restartWithBackoff(minBackoff, maxBackoff, randomFactor)
        .withMaxRestarts(maxRestarts)
        .withResetBackoffAfter(resetAfter);
  }

  /**
   * The entity that {@code entity} makes (given the supervision it passes on as its persistence
   * failure strategy), restarted with {@link #backoff()}; a persistence failure that outlasted the
   * entity's own restarts stops it at once instead of starting a second round of them.
   */
  public static <T> Behavior<T> restarting(Function<Supervision, Behavior<T>> entity) {
    return Behaviors.setup(ctx -> of(ctx.getSystem()).supervise(entity.apply(of(ctx.getSystem()))));
  }

  private <T> Behavior<T> supervise(Behavior<T> behavior) {
    Behavior<T> stopsWhenItsJournalGivesUp = Behaviors.supervise(behavior)
        .onFailure(JournalFailureException.class, SupervisorStrategy.stop().withLogLevel(Level.ERROR));
    return Behaviors.supervise(stopsWhenItsJournalGivesUp).onFailure(backoff());
  }
}
