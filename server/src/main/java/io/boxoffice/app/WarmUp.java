package io.boxoffice.app;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.Cookie;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.stream.Materializer;

/**
 * Requests a node answers itself, in-process, before it joins the cluster: the edge's common
 * work (routing, cookie parsing and HMAC checks, JSON bodies and error answers, the metrics of
 * each request) is loaded and compiled while nobody watches the node's heartbeats yet. A node
 * started again under an on-sale's load otherwise did all of it as a member, on cores it shares
 * with the nodes serving the sale, missed heartbeats and was downed. None of these requests
 * reaches an entity, the database or another node: they need nothing that only a member has.
 */
final class WarmUp {

  /** How many requests were answered, and in how long. */
  record Result(int requests, Duration took) {}

  private WarmUp() {}

  /**
   * Sends up to {@code requests} requests through {@code handler}, one at a time, and stops early
   * once {@code maxDuration} has passed; an answer that does not come within it ends the warm-up.
   */
  static Result run(Function<HttpRequest, CompletionStage<HttpResponse>> handler, Materializer materializer, int requests,
                    Duration maxDuration) {
    long started = System.nanoTime();
    long deadline = started + maxDuration.toNanos();
    List<HttpRequest> mix = requests();
    int sent = 0;
    while (sent < requests && System.nanoTime() < deadline) {
      HttpRequest request = mix.get(sent % mix.size());
      try {
        HttpResponse response = handler.apply(request).toCompletableFuture()
            .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        response.discardEntityBytes(materializer).completionStage().toCompletableFuture().join();
      } catch (Exception e) {
        if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        break;
      }
      sent++;
    }
    return new Result(sent, Duration.ofNanos(System.nanoTime() - started));
  }

  /**
   * Answered by the edge alone: the API document, and a fan's hold, status and cart with no
   * sign-in, with a forged one (its HMAC checked and refused), and with a malformed body.
   */
  static List<HttpRequest> requests() {
    String event = "/api/events/warm-up";
    String forged = "bo_id=djEuYWNjb3VudC4xNzAwMDAwMDAwLmZvcmdlZA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    HttpRequest hold = HttpRequest.create(event + "/cart/holds").withMethod(HttpMethods.POST)
        .withEntity(ContentTypes.APPLICATION_JSON, "{\"best\":{\"quantity\":2}}".getBytes(StandardCharsets.UTF_8));
    return List.of(
        HttpRequest.create("/api/openapi.json"),
        hold,
        hold.addHeader(RawHeader.create("Cookie", forged)),
        HttpRequest.create(event + "/queue/status").addHeader(Cookie.create("bo_id", "not-a-token")),
        HttpRequest.create(event + "/cart").addHeader(RawHeader.create("Cookie", forged)),
        HttpRequest.create(event + "/cart/checkout").withMethod(HttpMethods.POST)
            .addHeader(RawHeader.create("Idempotency-Key", "warm-up"))
            .withEntity(ContentTypes.APPLICATION_JSON, "{\"paymentToken\":".getBytes(StandardCharsets.UTF_8)));
  }
}
