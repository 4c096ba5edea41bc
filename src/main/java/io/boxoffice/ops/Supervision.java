package io.boxoffice.ops;

import java.time.Duration;
import org.apache.pekko.actor.typed.BackoffSupervisorStrategy;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * How every entity comes back from a failure: restarted from its journal after a backoff of
 * 200 ms growing to 5 s (with jitter), whether a write failed or anything else threw, so a
 * database blip or a split-brain duplicate never leaves an entity stopped.
 */
public final class Supervision {
  private Supervision() {}

  public static BackoffSupervisorStrategy backoff() {
    return SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.2);
  }

  public static <T> Behavior<T> restarting(Behavior<T> behavior) {
    return Behaviors.supervise(behavior).onFailure(backoff());
  }
}
