package io.boxoffice.support;

import java.util.List;
import org.apache.pekko.projection.HandlerRecoveryStrategy;
import org.apache.pekko.projection.ProjectionId;
import org.apache.pekko.projection.StatusObserver;
import org.apache.pekko.projection.eventsourced.EventEnvelope;

/** Notes {@code persistenceId#sequenceNr} of every envelope a projection's handler has processed. */
public final class HandledEnvelopes<E> extends StatusObserver<EventEnvelope<E>> {
  private final List<String> handled;

  /** {@code handled} must be safe to add to from the projection's threads. */
  public HandledEnvelopes(List<String> handled) {
    this.handled = handled;
  }

  @Override public void started(ProjectionId id) {}
  @Override public void failed(ProjectionId id, Throwable cause) {}
  @Override public void stopped(ProjectionId id) {}
  @Override public void beforeProcess(ProjectionId id, EventEnvelope<E> envelope) {}

  @Override
  public void afterProcess(ProjectionId id, EventEnvelope<E> envelope) {
    handled.add(envelope.persistenceId() + "#" + envelope.sequenceNr());
  }

  @Override public void offsetProgress(ProjectionId id, EventEnvelope<E> envelope) {}
  @Override public void error(ProjectionId id, EventEnvelope<E> envelope, Throwable cause, HandlerRecoveryStrategy recovery) {}
}
