package io.boxoffice.common;

import com.typesafe.config.Config;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.MDC;

/**
 * Traces of a request across edge, inventory and journal (OpenTelemetry), carried between nodes
 * as a W3C {@code traceparent} string inside the commands. Off (and free: no span is made, nothing
 * is carried) unless {@code boxoffice.tracing.endpoint} names an OTLP collector; then new traces
 * are sampled at {@code sample-ratio}, and a trace a trusted caller started keeps its caller's
 * decision (parent-based).
 */
public final class Tracing {
  /** No spans at all. */
  public static final Tracing OFF = new Tracing(OpenTelemetry.noop(), false, () -> {});

  /** The MDC key of the trace id in every log line written while a traced request is handled. */
  public static final String MDC_KEY = "traceId";

  /** {@code work}'s result, with {@code traceId} as the MDC's trace id meanwhile (unchanged when null); the MDC as it was afterwards. */
  public static <T> T inTrace(String traceId, Supplier<T> work) {
    String outer = MDC.get(MDC_KEY);
    if (traceId != null) MDC.put(MDC_KEY, traceId);
    try {
      return work.get();
    } finally {
      if (outer == null) MDC.remove(MDC_KEY);
      else MDC.put(MDC_KEY, outer);
    }
  }

  /** As {@link #inTrace}, for work without a result (a log line). */
  public static void runInTrace(String traceId, Runnable work) {
    inTrace(traceId, () -> {
      work.run();
      return null;
    });
  }

  private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();
  private static final TextMapGetter<String> TRACEPARENT = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(String carrier) {
      return List.of("traceparent");
    }

    @Override
    public String get(String carrier, String key) {
      return key.equals("traceparent") ? carrier : null;
    }
  };

  private final Tracer tracer;
  private final boolean on;
  private final Runnable shutdown;

  private Tracing(OpenTelemetry otel, boolean on, Runnable shutdown) {
    this.tracer = otel.getTracer("io.boxoffice");
    this.on = on;
    this.shutdown = shutdown;
  }

  /** Spans through this OpenTelemetry (its SDK's sampler and exporters decide what is kept). */
  public static Tracing of(OpenTelemetry otel) {
    return new Tracing(otel, true, () -> {});
  }

  /** From {@code boxoffice.tracing}: OTLP over http/protobuf to {@code endpoint}, or {@link #OFF} when it is empty. */
  public static Tracing fromConfig(Config config) {
    Config c = config.getConfig("boxoffice.tracing");
    String endpoint = c.getString("endpoint").trim();
    if (endpoint.isEmpty()) return OFF;
    String traces = endpoint.endsWith("/v1/traces") ? endpoint
        : endpoint.replaceAll("/+$", "") + "/v1/traces";
    SdkTracerProvider provider = SdkTracerProvider.builder()
        .setResource(Resource.getDefault().merge(Resource.create(
            Attributes.of(io.opentelemetry.api.common.AttributeKey.stringKey("service.name"), c.getString("service-name")))))
        .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(c.getDouble("sample-ratio"))))
        .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder().setEndpoint(traces).build()).build())
        .build();
    OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(provider).build();
    return new Tracing(sdk, true, sdk::close);
  }

  public boolean on() {
    return on;
  }

  /** Flushes and stops the exporter (at the node's shutdown). */
  public void close() {
    shutdown.run();
  }

  /** A span named {@code name} of this kind, the child of the W3C {@code traceparent} when it is a valid one, else a new trace. */
  public Span start(String name, SpanKind kind, String traceparent) {
    SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(kind);
    if (traceparent != null) builder.setParent(W3C.extract(Context.root(), traceparent, TRACEPARENT));
    else builder.setNoParent();
    return builder.startSpan();
  }

  /** A child of {@code parent}, linked to the spans of {@code links} (others it works for, as a group commit does). */
  public Span startChild(String name, Span parent, List<Span> links) {
    SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(SpanKind.INTERNAL).setParent(Context.root().with(parent));
    for (Span link : links) {
      if (link != parent && link.getSpanContext().isValid()) builder.addLink(link.getSpanContext());
    }
    return builder.startSpan();
  }

  /** The W3C {@code traceparent} of the span, or null when it has none (tracing off). */
  public static String traceparent(Span span) {
    SpanContext context = span.getSpanContext();
    if (!context.isValid()) return null;
    Map<String, String> carrier = new HashMap<>(2);
    W3C.inject(Context.root().with(span), carrier, Map::put);
    return carrier.get("traceparent");
  }

  /** The trace id of a W3C {@code traceparent} ({@code 00-<trace id>-<span id>-<flags>}), null when malformed. */
  public static String traceIdOf(String traceparent) {
    if (traceparent == null || traceparent.length() < 55 || traceparent.charAt(2) != '-') return null;
    return traceparent.substring(3, 35);
  }
}
