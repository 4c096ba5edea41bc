package io.boxoffice.app;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.boxoffice.common.Tracing;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A hold through real HTTP on a real node is one trace: the edge's request span, the event
 * inventory's span for the hold command (its child, across the sharding hop), and the journal
 * write's span (the command's child); a trusted caller's traceparent is continued; the request's
 * log line carries the trace id.
 */
class TracingIntegrationTest {
  static final InMemorySpanExporter spans = InMemorySpanExporter.create();
  static OpenTelemetrySdk otel;
  static Node node;
  static final List<ILoggingEvent> accessLines = new CopyOnWriteArrayList<>();
  static final AppenderBase<ILoggingEvent> capture = new AppenderBase<>() {
    @Override
    protected void append(ILoggingEvent event) {
      event.prepareForDeferredProcessing();
      accessLines.add(event);
    }
  };

  @BeforeAll
  static void start() throws Exception {
    otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .setSampler(Sampler.parentBased(Sampler.alwaysOn()))
        .addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
    node = Node.start(TestNode.config(TestNode.PG_URL, "target/unused"),
        new Node.Options(Clock.systemUTC(), TestNode.payments(), Tracing.of(otel)));
    Logger access = (Logger) LoggerFactory.getLogger("io.boxoffice.edge.access");
    access.setLevel(Level.DEBUG);
    capture.setContext(access.getLoggerContext());
    capture.start();
    access.addAppender(capture);
  }

  @AfterAll
  static void stop() {
    Logger access = (Logger) LoggerFactory.getLogger("io.boxoffice.edge.access");
    access.detachAppender(capture);
    access.setLevel(null);
    node.stop();
    otel.close();
  }

  static String openEvent() {
    String id = UUID.randomUUID().toString().substring(0, 8);
    HttpFan admin = new HttpFan(node.httpPort());
    admin.admin("POST", "/admin/venues", "{\"venueId\":\"v-" + id + "\",\"name\":\"H\",\"generate\":{\"layout\":\"stadium\",\"seats\":100}}");
    admin.admin("POST", "/admin/events", "{\"eventId\":\"e-" + id + "\",\"venueId\":\"v-" + id + "\",\"name\":\"S\","
        + "\"prices\":{\"floor\":1,\"lower\":1,\"upper\":1}}");
    TestCluster.open(admin, "e-" + id);
    return "e-" + id;
  }

  static final String HOLD = "POST /api/events/{eventId}/cart/holds";

  static Optional<SpanData> span(String traceId, String name) {
    return spans.getFinishedSpanItems().stream()
        .filter(s -> s.getTraceId().equals(traceId) && s.getName().equals(name)).findFirst();
  }

  /** The trace of the hold whose edge span is the only one in {@code traceId}: edge, inventory, journal. */
  static SpanData[] holdTrace(String traceId) {
    SpanData[] found = new SpanData[3];
    await("edge, inventory and journal spans of the hold").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .until(() -> {
          found[0] = span(traceId, HOLD).orElse(null);
          found[1] = span(traceId, "inventory HoldBest").orElse(null);
          found[2] = span(traceId, "journal write").orElse(null);
          return found[0] != null && found[1] != null && found[2] != null;
        });
    return found;
  }

  @Test
  void oneHoldIsOneTraceFromTheEdgeThroughTheInventoryToTheJournal() {
    String eventId = openEvent();
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("trace-" + UUID.randomUUID() + "@example.com");
    spans.reset();
    assertEquals(200, fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}").status());

    String traceId = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .until(() -> spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals(HOLD)).findFirst(), Optional::isPresent)
        .get().getTraceId();
    SpanData[] trace = holdTrace(traceId);
    SpanData edge = trace[0];
    SpanData inventory = trace[1];
    SpanData journal = trace[2];
    assertEquals(SpanKind.SERVER, edge.getKind());
    assertEquals(200L, edge.getAttributes().get(io.opentelemetry.api.common.AttributeKey.longKey("http.response.status_code")));
    assertEquals("/api/events/{eventId}/cart/holds",
        edge.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("http.route")), "the template, never the path");
    assertTrue(!edge.getParentSpanContext().isValid(), "a request without a traceparent starts a trace");
    assertEquals(edge.getSpanId(), inventory.getParentSpanId(), "the inventory's span is the request's child");
    assertEquals("Held", inventory.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("boxoffice.reply")));
    assertEquals(inventory.getSpanId(), journal.getParentSpanId(), "the journal write is the command's child");
    assertTrue(journal.getEndEpochNanos() <= inventory.getEndEpochNanos(), "the command is answered after the write");

    // The request's log line, written after the response, carries the trace id (MDC traceId).
    await("the request's log line").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() ->
        accessLines.stream().anyMatch(e -> traceId.equals(e.getMDCPropertyMap().get("traceId"))
            && e.getFormattedMessage().contains("/cart/holds 200")));
  }

  @Test
  void aTrustedCallersTraceparentIsContinued() {
    String eventId = openEvent();
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("trace-in-" + UUID.randomUUID() + "@example.com");
    String callerTrace = "0af7651916cd43dd8448eb211c80319c";
    String callerSpan = "b7ad6b7169203331";
    // 127.0.0.1 is one of the trusted proxies in the node's configuration.
    assertEquals(200, fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":1}}",
        "traceparent", "00-" + callerTrace + "-" + callerSpan + "-01").status());

    SpanData[] trace = holdTrace(callerTrace);
    assertEquals(callerSpan, trace[0].getParentSpanId(), "the edge span is the caller's child");
    assertEquals(trace[0].getSpanId(), trace[1].getParentSpanId());
    assertEquals(trace[1].getSpanId(), trace[2].getParentSpanId());
    assertNotNull(trace[2]);
  }

  @Test
  void theTraceparentCrossesNodesInsideTheHoldCommand() {
    String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    var hold = new io.boxoffice.inventory.EventInventory.HoldBest("fan", 2, null, null, null, "r-1", traceparent,
        node.system().ignoreRef());
    // Serialized as between two nodes (jackson-cbor through Artery), read back whole.
    var back = (io.boxoffice.inventory.EventInventory.HoldBest)
        new org.apache.pekko.actor.testkit.typed.javadsl.SerializationTestKit(node.system()).verifySerialization(hold, false);
    assertEquals(traceparent, back.traceparent());
  }
}
