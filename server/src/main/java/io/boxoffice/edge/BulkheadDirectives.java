package io.boxoffice.edge;

import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/** Runs a route inside its event's {@link Bulkhead}, answering 503 overloaded with Retry-After when the class's share is full. */
public final class BulkheadDirectives extends AllDirectives {
  private final Bulkhead bulkhead;
  private final Api api;
  private final EdgeMetrics metrics;

  public BulkheadDirectives(Bulkhead bulkhead, Api api, EdgeMetrics metrics) {
    this.bulkhead = bulkhead;
    this.api = api;
    this.metrics = metrics;
  }

  public Route guard(String eventId, Bulkhead.Priority priority, Supplier<Route> inner) {
    return extractRequestContext(ctx -> {
      if (!bulkhead.tryEnter(eventId, priority)) {
        metrics.requestShed(eventId, priority.name().toLowerCase());
        return complete(api.error(503, "overloaded", "this event is busy right now, try again in a moment"));
      }
      // The place is given back when the response is ready, whatever it is (also rejections and failures).
      return mapRouteResultFuture(result -> result.whenComplete((r, e) -> bulkhead.exit(eventId)), inner);
    });
  }
}
