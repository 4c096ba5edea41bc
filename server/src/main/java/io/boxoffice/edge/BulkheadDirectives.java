package io.boxoffice.edge;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.RequestContext;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Runs a route at its event's {@link FairPace} (a paced event's request first waits for its
 * turn, or is refused when that is more than the fair wait away), then inside its event's
 * {@link Bulkhead}: at once, or once its turn in the event's
 * line comes (the route is not run meanwhile), or not at all, answering 503 overloaded with
 * Retry-After when the class's share is full or the wait ran out. Routes put it right after
 * the door (the identity cookie, the queue pass and the per-fan and per-network limits, all
 * cheap) and before the body is read: junk refused at the door never takes a turn or a place
 * from its event's admitted fans, and a shed or waiting request costs no body parse or ask.
 */
public final class BulkheadDirectives extends AllDirectives {
  private final Bulkhead bulkhead;
  private final FairPace pace;
  private final Executor dispatcher;
  private final EdgeMetrics metrics;
  private final HttpResponse overloaded;

  /** Places in flight only: no event is ever paced. */
  public BulkheadDirectives(Bulkhead bulkhead, Api api, EdgeMetrics metrics) {
    this(bulkhead, FairPace.off(), Runnable::run, api, metrics);
  }

  /** @param dispatcher where a paced request goes on when its turn comes */
  public BulkheadDirectives(Bulkhead bulkhead, FairPace pace, Executor dispatcher, Api api, EdgeMetrics metrics) {
    this.bulkhead = bulkhead;
    this.pace = pace;
    this.dispatcher = dispatcher;
    this.metrics = metrics;
    // Immutable: the same response (JSON, Retry-After) serves every shed request.
    this.overloaded = api.error(503, "overloaded", "this event is busy right now, try again in a moment");
  }

  public Route guard(String eventId, Bulkhead.Priority priority, Supplier<Route> inner) {
    return extractRequestContext(ctx -> {
      // A paced event's request waits for its turn, or is refused when that is too far (FairPace).
      long wait = pace.delay(eventId, priority, System.nanoTime());
      if (wait == 0) return enter(ctx, eventId, priority, inner);
      if (wait == FairPace.REFUSED) return shed(ctx, eventId, priority);
      return onSuccess(CompletableFuture.supplyAsync(() -> true, CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS, dispatcher)),
          turn -> enter(ctx, eventId, priority, inner));
    });
  }

  private Route enter(RequestContext ctx, String eventId, Bulkhead.Priority priority, Supplier<Route> inner) {
    CompletableFuture<Boolean> place = bulkhead.enter(eventId, priority).toCompletableFuture();
    // Most requests go in (or are refused) at once; one in its event's line waits for its turn.
    if (place.isDone()) return place.join() ? inside(eventId, inner) : shed(ctx, eventId, priority);
    return onSuccess(place, admitted -> admitted ? inside(eventId, inner) : shed(ctx, eventId, priority));
  }

  private Route inside(String eventId, Supplier<Route> inner) {
    // The place is given back when the response is ready, whatever it is (also rejections and failures).
    return mapRouteResultFuture(result -> result.whenComplete((r, e) -> bulkhead.exit(eventId)), inner);
  }

  private Route shed(RequestContext ctx, String eventId, Bulkhead.Priority priority) {
    metrics.requestShed(eventId, priority.label);
    // The body, if any, is never read: drained, so that the connection stays usable.
    ctx.getRequest().discardEntityBytes(ctx.getMaterializer());
    return complete(overloaded);
  }
}
