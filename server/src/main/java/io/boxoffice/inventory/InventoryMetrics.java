package io.boxoffice.inventory;

/** What the inventory reports about its group commits: size and write time of each batch. */
public interface InventoryMetrics {
  InventoryMetrics NONE = (eventId, commands, decisions, writeNanos) -> { };

  /** A batch of {@code commands} was decided into {@code decisions} and written in {@code writeNanos}. */
  void batchWritten(String eventId, int commands, int decisions, long writeNanos);
}
