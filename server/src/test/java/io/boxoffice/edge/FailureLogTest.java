package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.boxoffice.common.Tracing;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * An unexpected failure's log line carries its request's trace id, though it is written on
 * whichever thread completed the work, after the request's routing (and its MDC) was left.
 */
class FailureLogTest {
  static final ActorTestKit testKit = ActorTestKit.create();

  final InMemorySpanExporter spans = InMemorySpanExporter.create();
  final Tracing tracing = Tracing.of(OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build());
  final Api api = new Api(testKit.system(), Duration.ofSeconds(1), 65536);
  final List<String[]> lines = new CopyOnWriteArrayList<>();
  final AppenderBase<ILoggingEvent> capture = new AppenderBase<>() {
    @Override
    protected void append(ILoggingEvent event) {
      lines.add(new String[] {event.getMessage(), event.getMDCPropertyMap().get(Tracing.MDC_KEY)});
    }
  };
  final Logger apiLog = (Logger) LoggerFactory.getLogger(Api.class);

  @BeforeEach
  void listen() {
    capture.setContext(apiLog.getLoggerContext());
    capture.start();
    apiLog.addAppender(capture);
  }

  @AfterEach
  void stopListening() {
    apiLog.detachAppender(capture);
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  /** The request through tracing and a route of {@code route}, failed from another thread once routing returned. */
  HttpResponse failLater(Function<CompletionStage<HttpResponse>, Route> route) throws Exception {
    CompletableFuture<HttpResponse> work = new CompletableFuture<>();
    org.apache.pekko.japi.function.Function<HttpRequest, CompletionStage<HttpResponse>> routed =
        api.seal(route.apply(work)).handler(testKit.system());
    Function<HttpRequest, CompletionStage<HttpResponse>> handler = r -> {
      try {
        return routed.apply(r);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
    CompletionStage<HttpResponse> answer = new RequestTracing(tracing, new ClientPrefix(List.of()),
        r -> new RequestTracing.Route("x", "/x")).around(handler).apply(HttpRequest.GET("/x"));
    assertNull(MDC.get(Tracing.MDC_KEY), "the routing left the MDC as it found it");
    CompletableFuture.runAsync(() -> work.completeExceptionally(new IllegalStateException("a bug")));
    return answer.toCompletableFuture().get(5, TimeUnit.SECONDS);
  }

  void assertLoggedWithTheRequestsTraceId(HttpResponse response) {
    assertEquals(503, response.status().intValue());
    String traceId = spans.getFinishedSpanItems().get(0).getTraceId();
    List<String[]> failed = lines.stream().filter(l -> l[0].equals("request failed")).toList();
    assertEquals(1, failed.size());
    assertEquals(traceId, failed.get(0)[1], "the failure's line names the request's trace");
  }

  @Test
  void aFailedResponseIsLoggedWithItsRequestsTraceId() throws Exception {
    assertLoggedWithTheRequestsTraceId(failLater(api::respond));
  }

  @Test
  void aFailureAnsweredByARouteIsLoggedWithItsRequestsTraceId() throws Exception {
    assertLoggedWithTheRequestsTraceId(failLater(work -> api.onComplete(work, result -> result.isSuccess()
        ? api.complete(result.get())
        : api.fail(result.failed().get()))));
  }
}
