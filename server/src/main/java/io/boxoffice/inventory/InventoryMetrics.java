package io.boxoffice.inventory;

/**
 * What the inventory reports about its group commits: size and write time of each batch, and the
 * seats held and orders sold in it. Holds and sales are counted here, where they are decided and
 * written, once each: a route that counted them missed the sales whose HTTP answer failed and
 * counted a checkout retried with its Idempotency-Key twice.
 */
public interface InventoryMetrics {
  InventoryMetrics NONE = (eventId, commands, decisions, writeNanos) -> { };

  /** A batch of {@code commands} was decided into {@code decisions} and written in {@code writeNanos}. */
  void batchWritten(String eventId, int commands, int decisions, long writeNanos);

  /** A written batch held {@code seatsHeld} seats and sold {@code ordersSold} orders of {@code seatsSold} seats. */
  default void holdsAndSalesWritten(String eventId, int seatsHeld, int ordersSold, int seatsSold) {}

  /**
   * A call of an inventory to the {@code journal} or {@code snapshot} store failed; {@code cause}
   * says why (see {@link JournalFailures}): {@code breaker_open}, {@code timeout}, {@code rejected} or {@code error}.
   */
  default void journalFailed(String store, String cause) {}

  /**
   * An event's inventory came back (its first message on this node after a move from another
   * node or a restart of this one, or a restart by its supervisor after a failed write) and read
   * its snapshot and journal in {@code recoveryMillis} (after a failed write, from the failure:
   * the supervisor's backoff included): meanwhile the event sells nothing.
   */
  default void recovered(String eventId, long recoveryMillis) {}

  /** The journal or snapshot store answered an inventory (a write, a replay, a snapshot load): its circuit breaker lets calls through. */
  default void journalAnswered() {}
}
