package io.boxoffice.edge;

import io.boxoffice.common.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import java.net.InetAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.model.AttributeKey;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server span per HTTP request, named by its route template (never by the raw path), with the
 * status; it continues a W3C {@code traceparent} sent by a trusted proxy or caller (a peer in
 * {@code boxoffice.edge.trusted-proxies}) and ignores one from anybody else. The span's own
 * traceparent rides on the request as {@link #TRACEPARENT} for routes that send commands on
 * (a hold to the event's inventory). The trace id is in the MDC ({@code traceId}) while the
 * routing runs and for the request's line in {@code io.boxoffice.edge.access} (DEBUG).
 */
public final class RequestTracing {
  /** The request span's W3C traceparent, on requests handled while tracing is on. */
  public static final AttributeKey<String> TRACEPARENT = AttributeKey.create("boxoffice-traceparent", String.class);

  private static final Logger access = LoggerFactory.getLogger("io.boxoffice.edge.access");

  /** A request's route: a name from a closed set, and its template (e.g. {@code /api/events/{eventId}/cart/holds}). */
  public record Route(String name, String template) {}

  private final Tracing tracing;
  private final ClientPrefix trusted;
  private final Function<HttpRequest, Route> routes;

  public RequestTracing(Tracing tracing, ClientPrefix trusted, Function<HttpRequest, Route> routes) {
    this.tracing = tracing;
    this.trusted = trusted;
    this.routes = routes;
  }

  /** {@code handler}, traced; {@code handler} itself when tracing is off. */
  public Function<HttpRequest, CompletionStage<HttpResponse>> around(Function<HttpRequest, CompletionStage<HttpResponse>> handler) {
    if (!tracing.on()) return handler;
    return request -> {
      Route route = routes.apply(request);
      String method = request.method().value();
      Span span = tracing.start(method + " " + route.template(), SpanKind.SERVER, callersTraceparent(request));
      span.setAttribute("http.request.method", method);
      span.setAttribute("http.route", route.template());
      String traceparent = Tracing.traceparent(span);
      String traceId = span.getSpanContext().getTraceId();
      long started = System.nanoTime();
      HttpRequest traced = traceparent == null ? request : request.addAttribute(TRACEPARENT, traceparent);
      CompletionStage<HttpResponse> response = Tracing.inTrace(traceId, () -> {
        try {
          return handler.apply(traced);
        } catch (RuntimeException e) {
          return CompletableFuture.failedFuture(e);
        }
      });
      return response.whenComplete((r, e) -> {
        int status = r == null ? 500 : r.status().intValue();
        span.setAttribute("http.response.status_code", status);
        if (status >= 500) span.setStatus(StatusCode.ERROR);
        if (e != null) span.recordException(e);
        span.end();
        if (access.isDebugEnabled()) {
          Tracing.runInTrace(traceId, () ->
              access.debug("{} {} {} {} us", method, route.template(), status, (System.nanoTime() - started) / 1000));
        }
      });
    };
  }

  /** The caller's traceparent when the TCP peer is trusted to send one; null otherwise. */
  private String callersTraceparent(HttpRequest request) {
    Optional<String> header = request.getHeader("traceparent").map(h -> h.value());
    if (header.isEmpty()) return null;
    Optional<InetAddress> peer = request.getAttribute(AttributeKeys.remoteAddress).flatMap(a -> a.getAddress());
    return peer.isPresent() && trusted.isTrusted(peer.get()) ? header.get() : null;
  }
}
