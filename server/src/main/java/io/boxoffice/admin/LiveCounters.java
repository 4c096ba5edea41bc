package io.boxoffice.admin;

import java.util.Map;

/**
 * What this node counts per event for the live dashboard's rates: a port, implemented at the top
 * (app's metrics). Counts only grow; the dashboard takes their differences between ticks.
 */
public interface LiveCounters {
  /** Counts nothing: a node without metrics. */
  LiveCounters NONE = new LiveCounters() {
    public double seatsHeld(String eventId) { return 0; }

    public Map<String, Double> shed(String eventId) { return Map.of(); }
  };

  /** Seats of {@code eventId} held through this node so far. */
  double seatsHeld(String eventId);

  /** Requests to {@code eventId} that this node's bulkhead refused so far, by class ({@code read}, {@code hold}, {@code checkout}). */
  Map<String, Double> shed(String eventId);
}
