package io.boxoffice.edge;

import java.util.concurrent.CompletionStage;

/**
 * Which events exist, for a route that derives an entity's id from what a client sent (an order
 * id names its event): asked before any entity is, so that a made-up event starts nothing. A
 * port of the edge: the waiting room's {@code queue.Manifests} implements it from this node's
 * manifests and the on-sale keeper's catalogue; {@code Node} wires it.
 */
public interface KnownEvents {
  /**
   * Completes when {@code eventId} names an event that was created; fails with an {@link ApiError}:
   * 404 {@code not_found} for one nobody created, 503 {@code unavailable} while this node cannot
   * tell yet. Never starts an entity.
   */
  CompletionStage<Void> exists(String eventId);
}
