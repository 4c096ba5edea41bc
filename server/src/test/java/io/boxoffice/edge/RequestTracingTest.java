package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.boxoffice.common.Tracing;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.RemoteAddress;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.junit.jupiter.api.Test;

/** Who may continue a trace: a trusted proxy's traceparent is followed, anybody else's ignored; off means untouched. */
class RequestTracingTest {
  static final String CALLER = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

  final InMemorySpanExporter spans = InMemorySpanExporter.create();
  final Tracing tracing = Tracing.of(OpenTelemetrySdk.builder()
      .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build());
  final ClientPrefix trusted = new ClientPrefix(List.of(ClientPrefix.Cidr.parse("10.0.0.0/8")));
  final AtomicReference<HttpRequest> seen = new AtomicReference<>();
  final Function<HttpRequest, CompletionStage<HttpResponse>> handler = r -> {
    seen.set(r);
    return CompletableFuture.completedFuture(HttpResponse.create().withStatus(201));
  };

  static HttpRequest from(String peer) {
    return HttpRequest.POST("/api/events/e-1/cart/holds").addHeader(RawHeader.create("traceparent", CALLER))
        .addAttribute(AttributeKeys.remoteAddress, RemoteAddress.create(new InetSocketAddress(peer, 40000)));
  }

  SpanData traced(String peer) {
    new RequestTracing(tracing, trusted, r -> new RequestTracing.Route("hold", "/api/events/{eventId}/cart/holds"))
        .around(handler).apply(from(peer)).toCompletableFuture().join();
    assertEquals(1, spans.getFinishedSpanItems().size());
    SpanData span = spans.getFinishedSpanItems().get(0);
    assertEquals("POST /api/events/{eventId}/cart/holds", span.getName());
    assertEquals(Tracing.traceparent(io.opentelemetry.api.trace.Span.wrap(span.getSpanContext())),
        seen.get().getAttribute(RequestTracing.TRACEPARENT).orElseThrow(), "routes see the request span's traceparent");
    return span;
  }

  @Test
  void aTrustedProxysTraceparentIsContinued() {
    SpanData span = traced("10.1.2.3");
    assertEquals("0af7651916cd43dd8448eb211c80319c", span.getTraceId());
    assertEquals("b7ad6b7169203331", span.getParentSpanId());
  }

  @Test
  void anyoneElsesTraceparentIsIgnored() {
    SpanData span = traced("192.0.2.7");
    assertFalse(span.getParentSpanContext().isValid(), "a client cannot join or choose a trace");
    assertEquals(false, span.getTraceId().equals("0af7651916cd43dd8448eb211c80319c"));
  }

  @Test
  void offLeavesTheHandlerAlone() {
    RequestTracing off = new RequestTracing(Tracing.OFF, trusted, r -> new RequestTracing.Route("hold", "/x"));
    assertSame(handler, off.around(handler));
    assertNull(Tracing.traceparent(io.opentelemetry.api.trace.Span.getInvalid()));
  }
}
