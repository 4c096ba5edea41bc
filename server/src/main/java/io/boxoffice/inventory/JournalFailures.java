package io.boxoffice.inventory;

import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.pattern.CircuitBreakerOpenException;
import org.apache.pekko.persistence.JournalProtocol;
import org.apache.pekko.persistence.SnapshotProtocol;

/**
 * Counts the journal's (and snapshot store's) answers to an inventory on their way in: failed writes and replays by
 * cause, and answers that got through. Pekko persistence keeps the journal's circuit breaker to
 * itself; what an entity sees of it is the cause of a failed call: {@link CircuitBreakerOpenException}
 * while it is open (refused without reaching the database), a {@link TimeoutException} when a call
 * outlived the breaker's call-timeout (each counts towards opening it), or the database's error.
 * Read from the journal's replies, not from the exceptions they become: the entity's own
 * restart-with-backoff (onPersistFailure) handles those inside the event-sourced behavior.
 */
final class JournalFailures extends BehaviorInterceptor<Object, Object> {
  /** The {@code cause} label values. */
  static final String BREAKER_OPEN = "breaker_open";
  static final String TIMEOUT = "timeout";
  static final String REJECTED = "rejected";
  static final String ERROR = "error";
  /** The {@code store} label values: recovery reads the snapshot store first, then the journal; each has its own breaker. */
  static final String JOURNAL = "journal";
  static final String SNAPSHOT = "snapshot";

  private final InventoryMetrics metrics;
  private final WriteSpans writing;

  JournalFailures(InventoryMetrics metrics, WriteSpans writing) {
    super(Object.class);
    this.metrics = metrics;
    this.writing = writing;
  }

  @Override
  public Behavior<Object> aroundReceive(TypedActorContext<Object> ctx, Object msg, ReceiveTarget<Object> target) {
    if (msg instanceof JournalProtocol.Response || msg instanceof SnapshotProtocol.Response) noteAnswer(msg);
    return target.apply(ctx, msg);
  }

  private void noteAnswer(Object answer) {
    if (answer instanceof JournalProtocol.WriteMessageFailure f) {
      metrics.journalFailed(JOURNAL, causeOf(f.cause()));
      writing.failed("the journal write failed", f.cause());
    } else if (answer instanceof JournalProtocol.ReplayMessagesFailure f) {
      metrics.journalFailed(JOURNAL, causeOf(f.cause()));
    } else if (answer instanceof JournalProtocol.WriteMessageRejected r) {
      metrics.journalFailed(JOURNAL, REJECTED);
      writing.failed("the journal refused the write", r.cause());
    } else if (answer instanceof SnapshotProtocol.LoadSnapshotFailed f) {
      metrics.journalFailed(SNAPSHOT, causeOf(f.cause()));
    } else if (answer instanceof JournalProtocol.WriteMessageSuccess || answer instanceof JournalProtocol.RecoverySuccess
        || answer instanceof SnapshotProtocol.LoadSnapshotResult) {
      metrics.journalAnswered();
    }
  }

  static String causeOf(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof CircuitBreakerOpenException) return BREAKER_OPEN;
      if (t instanceof TimeoutException) return TIMEOUT;
    }
    return ERROR;
  }
}
