package io.boxoffice.common;

import java.time.Duration;
import org.apache.pekko.actor.typed.BackoffSupervisorStrategy;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.typed.internal.JournalFailureException;
import org.slf4j.event.Level;

/**
 * How every entity comes back from a failure: restarted from its journal after a backoff of
 * 200 ms growing to 5 s (with jitter), whether a write failed or anything else threw, so a
 * database blip or a split-brain duplicate never leaves an entity stopped.
 *
 * <p>But not forever: an entity that fails {@link #MAX_RESTARTS} times in a row (about a minute
 * and a half of backoff without {@link #RESET_AFTER} of calm between two failures) cannot recover
 * by itself, for example a persistence id its database refuses. Restarting it forever only
 * hammers the journal and snapshot store that every other entity of the node shares (their
 * circuit breakers open for everyone), so it stops, logged at ERROR; sharding starts it afresh
 * on the next message sent to it.
 */
public final class Supervision {
  static final int MAX_RESTARTS = 20;
  static final Duration RESET_AFTER = Duration.ofSeconds(30);

  private Supervision() {}

  public static BackoffSupervisorStrategy backoff() {
    return SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.2)
        .withMaxRestarts(MAX_RESTARTS)
        .withResetBackoffAfter(RESET_AFTER);
  }

  /**
   * {@code behavior} restarted with {@link #backoff()}; a persistence failure that outlasted the
   * entity's own restarts stops it at once instead of starting a second round of them.
   */
  public static <T> Behavior<T> restarting(Behavior<T> behavior) {
    Behavior<T> stopsWhenItsJournalGivesUp = Behaviors.supervise(behavior)
        .onFailure(JournalFailureException.class, SupervisorStrategy.stop().withLogLevel(Level.ERROR));
    return Behaviors.supervise(stopsWhenItsJournalGivesUp).onFailure(backoff());
  }
}
