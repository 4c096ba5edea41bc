package io.boxoffice.admin.http;

import io.boxoffice.admin.LiveCounters;
import io.boxoffice.admin.http.AdminJson.EventStats;
import io.boxoffice.edge.Api;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.pekko.NotUsed;
import org.apache.pekko.http.javadsl.model.sse.ServerSentEvent;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The managers' live dashboard of one event ({@code GET /admin/events/{id}/live}): the event's
 * stats once every {@code interval} with its rates over the last ticks ({@link LiveRates}), as Server-Sent Events;
 * a tick whose stats do not come in time is skipped. A heartbeat (an SSE comment line) goes out
 * when nothing else did for {@code heartbeat}, so that stats that do not come (a database
 * outage) never let the connection's idle timeout cut the stream. Counts the streams open on
 * this node.
 */
final class LiveStream {
  private final Api api;
  private final Function<String, CompletionStage<EventStats>> statsOf;
  private final LiveCounters counters;
  private final Duration liveInterval;
  private final Duration heartbeat;
  private final AtomicInteger liveStreams = new AtomicInteger();

  LiveStream(Api api, Function<String, CompletionStage<EventStats>> statsOf, LiveCounters counters, Duration interval,
             Duration heartbeat) {
    this.heartbeat = heartbeat;
    this.api = api;
    this.statsOf = statsOf;
    this.counters = counters;
    this.liveInterval = interval;
  }

  /** Streams open now: each ends when its client goes. */
  int open() {
    return liveStreams.get();
  }

  Source<ServerSentEvent, NotUsed> of(String eventId) {
    return Source.tick(Duration.ZERO, liveInterval, "tick")
        .watchTermination((cancellable, done) -> {
          liveStreams.incrementAndGet();
          done.whenComplete((d, e) -> liveStreams.decrementAndGet());
          return NotUsed.getInstance();
        })
        .mapAsync(1, tick -> statsOf.apply(eventId)
            .thenApply(stats -> Optional.of(new LiveRates.Sample(System.nanoTime(), System.currentTimeMillis(), stats.admittedUpTo(), stats.orders(),
                counters.seatsHeld(eventId), counters.shed(eventId), stats)))
            .exceptionally(error -> Optional.empty()))
        .filter(Optional::isPresent)
        .map(Optional::get)
        .statefulMapConcat(() -> {
          LiveRates rates = new LiveRates();
          return sample -> List.of(rates.next(sample));
        })
        .map(live -> ServerSentEvent.create(api.mapper().writeValueAsString(live), "stats"))
        .keepAlive(heartbeat, ServerSentEvent::heartbeat);
  }
}
