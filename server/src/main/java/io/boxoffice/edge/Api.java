package io.boxoffice.edge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.boxoffice.common.Tracing;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.RetryAfter;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.ExceptionHandler;
import org.apache.pekko.http.javadsl.server.RejectionHandler;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.scaladsl.model.EntityStreamSizeException;
import org.apache.pekko.pattern.AskTimeoutException;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;
import org.apache.pekko.stream.Materializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every routes class shares: JSON in and out through Pekko's configured Jackson mapper,
 * bodies read under a size limit, asks answered or turned into 503 + Retry-After, and the one
 * place where errors become the contract's {@code {"error","message"}} bodies.
 */
public final class Api extends AllDirectives {
  private static final Logger log = LoggerFactory.getLogger(Api.class);

  private final ObjectMapper json;
  private final Materializer materializer;
  private final Duration askTimeout;
  private final long maxBodyBytes;

  public Api(ActorSystem<?> system, Duration askTimeout, long maxBodyBytes) {
    this.json = JacksonObjectMapperProvider.get(system).getOrCreate("jackson-json", java.util.Optional.empty())
        .copy()
        .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);
    strict(this.json);
    this.materializer = Materializer.matFromSystem(system);
    this.askTimeout = askTimeout;
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * Input that is not exactly what the contract says is refused, never guessed at: trailing
   * content after the value, a string where a number is due ({@code "2"}), a fraction where
   * whole cents are due ({@code 49.99} would otherwise be stored as 49), a field given twice
   * (parsers disagree on which one counts: a proxy or a log may read the first, we the last),
   * a field the request does not have.
   */
  static void strict(ObjectMapper mapper) {
    mapper.enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    mapper.configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true);
    // A field the contract does not name is refused, not dropped: a misspelt "maxPriceCent" would
    // otherwise hold seats at any price, and a client would never learn its field is ignored.
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
    mapper.configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false);
    mapper.coercionConfigDefaults()
        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.String, CoercionAction.TryConvert);
    mapper.coercionConfigFor(LogicalType.Float)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.TryConvert);
  }

  public Duration askTimeout() { return askTimeout; }
  public ObjectMapper mapper() { return json; }

  // ---- responses -------------------------------------------------------------------------

  public HttpResponse json(int status, Object body) {
    try {
      return HttpResponse.create().withStatus(status).withEntity(ContentTypes.APPLICATION_JSON, json.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  public HttpResponse error(ApiError e) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", e.code());
    body.put("message", JsonErrors.plain(e.status(), e.getMessage()));
    body.putAll(e.extra());
    HttpResponse response = json(e.status(), body);
    if (e.status() == 503 || e.status() == 429) response = response.addHeader(RetryAfter.create(1L));
    return response;
  }

  public HttpResponse error(int status, String code, String message) {
    return error(new ApiError(status, code, message));
  }

  /**
   * Completes with the stage's response; failures become contract errors, a timeout a 503. A
   * failure is logged on whichever thread completes the stage, so its line takes the request's
   * trace id from the request ({@link RequestTracing#TRACEPARENT}), not from that thread's MDC.
   */
  public Route respond(CompletionStage<HttpResponse> response) {
    return extractRequest(request -> completeWithFuture(response.exceptionally(t -> failure(t, request))));
  }

  public HttpResponse failure(Throwable t) {
    return failure(t, null);
  }

  /** Completes with {@link #failure(Throwable, HttpRequest)} of this request. */
  public Route fail(Throwable t) {
    return extractRequest(request -> complete(failure(t, request)));
  }

  /** As {@link #failure(Throwable)}, logging an unexpected failure with {@code request}'s trace id (request may be null). */
  public HttpResponse failure(Throwable t, HttpRequest request) {
    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    if (cause instanceof ApiError e) return error(e);
    if (cause instanceof TimeoutException || cause instanceof AskTimeoutException) {
      return error(503, "unavailable", "the service did not answer in time, try again");
    }
    String traceId = request == null ? null
        : request.getAttribute(RequestTracing.TRACEPARENT).map(Tracing::traceIdOf).orElse(null);
    Tracing.runInTrace(traceId, () -> log.error("request failed", cause));
    return error(503, "unavailable", "the service failed to answer, try again");
  }

  // ---- requests --------------------------------------------------------------------------

  /** Reads a JSON body of at most the default limit into {@code type}, then runs {@code inner}. */
  public <T> Route body(Class<T> type, Function<T, Route> inner) {
    return body(type, maxBodyBytes, inner);
  }

  public <T> Route body(Class<T> type, long limit, Function<T, Route> inner) {
    return extractRequestEntity(entity -> {
      if (!entity.getContentType().mediaType().equals(MediaTypes.APPLICATION_JSON)) {
        return complete(error(415, "unsupported_media_type", "the request body must be application/json"));
      }
      if (entity.getContentLengthOption().isPresent() && entity.getContentLengthOption().getAsLong() > limit) {
        return tooLarge(entity, limit);
      }
      CompletionStage<T> parsed = entity.withSizeLimit(limit).toStrict(5_000, materializer).thenApply(strict -> {
        try {
          T value = json.readValue(strict.getData().toArray(), type);
          if (value == null) throw ApiError.badRequest("a JSON object is required");
          return value;
        } catch (com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException e) {
          throw ApiError.badRequest("unknown field \"" + fieldPath(e) + "\"");
        } catch (java.io.IOException e) {
          throw ApiError.badRequest(JsonErrors.describe(e));
        }
      });
      return onComplete(parsed, result -> {
        if (result.isSuccess()) return inner.apply(result.get());
        Throwable cause = result.failed().get();
        if (cause instanceof CompletionException && cause.getCause() != null) cause = cause.getCause();
        if (cause instanceof EntityStreamSizeException) {
          return complete(error(413, "too_large", "the request body is over " + limit + " bytes"));
        }
        if (cause instanceof ApiError e) return complete(error(e));
        return complete(error(400, "bad_request", "the request body could not be read"));
      });
    });
  }

  /**
   * 413 for a body declared over the limit. A body of moderate size is read and dropped first:
   * a client still writing it would otherwise meet a closed connection (broken pipe) instead of
   * the answer. A larger one is not read; the connection closes after the answer.
   */
  private Route tooLarge(org.apache.pekko.http.javadsl.model.RequestEntity entity, long limit) {
    HttpResponse answer = error(413, "too_large", "the request body is over " + limit + " bytes");
    if (entity.getContentLengthOption().getAsLong() > DRAIN_AT_MOST) return complete(answer);
    CompletionStage<HttpResponse> drained = entity.discardBytes(materializer).completionStage().handle((done, e) -> answer);
    return completeWithFuture(drained);
  }

  /** Bodies over the limit up to this size are read and dropped before the 413 (see {@link #tooLarge}). */
  private static final long DRAIN_AT_MOST = 1 << 20;

  /** Where in the body the failure is, as {@code best.quantity} or {@code sections[0].rows[1].seats}: names the client sent, no class names. */
  static String fieldPath(com.fasterxml.jackson.databind.JsonMappingException e) {
    StringBuilder b = new StringBuilder();
    for (com.fasterxml.jackson.databind.JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        if (b.length() > 0) b.append('.');
        b.append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    String path = b.toString();
    return path.length() > 200 ? path.substring(0, 200) : path;
  }

  private static String firstLine(String message) {
    if (message == null) return "";
    int nl = message.indexOf('\n');
    String line = nl < 0 ? message : message.substring(0, nl);
    return line.length() > 200 ? line.substring(0, 200) : line;
  }

  // ---- sealing ---------------------------------------------------------------------------

  /** The root route with rejections and exceptions turned into the contract's JSON errors. */
  public Route seal(Route root) {
    ExceptionHandler exceptions = ExceptionHandler.newBuilder()
        .match(ApiError.class, e -> complete(error(e)))
        .match(EntityStreamSizeException.class, e -> complete(error(413, "too_large", "the request body is too large")))
        .matchAny(this::fail)
        .build();
    RejectionHandler rejections = RejectionHandler.defaultHandler().mapRejectionResponse(this::asContractError);
    return root.seal(rejections, exceptions);
  }

  private HttpResponse asContractError(HttpResponse response) {
    int status = response.status().intValue();
    String code = switch (status) {
      case 400 -> "bad_request";
      case 401 -> "unauthenticated";
      case 403 -> "forbidden";
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 413 -> "too_large";
      case 415 -> "unsupported_media_type";
      default -> status >= 500 ? "unavailable" : "bad_request";
    };
    String message = status == 404 ? "no such resource" : StatusCodes.get(status).reason();
    HttpResponse out = error(status, code, message);
    for (var h : response.getHeaders()) {
      if (!h.lowercaseName().equals("content-type") && !h.lowercaseName().equals("content-length")) out = out.addHeader(h);
    }
    return out;
  }
}
