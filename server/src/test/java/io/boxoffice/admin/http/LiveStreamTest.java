package io.boxoffice.admin.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.admin.LiveCounters;
import io.boxoffice.edge.Api;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.http.javadsl.model.sse.ServerSentEvent;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, finding 11: fan connections now close after a short idle time, so the managers' live
 * stream sends a heartbeat when no stats go out (stats that never come: a database outage) and
 * its connection is never idle for that long.
 */
class LiveStreamTest {
  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void whenNoStatsComeTheStreamStillSendsAHeartbeatEachInterval() throws Exception {
    Api api = new Api(testKit.system(), Duration.ofSeconds(1), 65536);
    LiveStream live = new LiveStream(api, eventId -> new CompletableFuture<>(), LiveCounters.NONE, Duration.ofMillis(50),
        Duration.ofMillis(200));
    long started = System.nanoTime();
    List<ServerSentEvent> sent = live.of("ev").take(3).runWith(Sink.seq(), testKit.system())
        .toCompletableFuture().get(5, TimeUnit.SECONDS);
    long ms = (System.nanoTime() - started) / 1_000_000;
    assertEquals(3, sent.size());
    assertTrue(sent.stream().allMatch(e -> e.getData().isEmpty() && e.getEventType().isEmpty()), "heartbeats: " + sent);
    assertTrue(ms >= 500 && ms < 3000, "one every 200 ms: " + ms + " ms for three");
  }
}
