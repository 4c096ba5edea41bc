package io.boxoffice.edge;

/** What the edge reports about itself: requests its bulkheads shed. A port, implemented at the top (app's metrics). */
public interface EdgeMetrics {
  /** One request to {@code eventId} of class {@code priority} was refused 503 by the event's bulkhead. */
  void requestShed(String eventId, String priority);
}
