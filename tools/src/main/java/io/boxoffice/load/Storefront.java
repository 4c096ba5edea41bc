package io.boxoffice.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Plain HTTP to boxoffice nodes, as a storefront would talk to them: one call to one node
 * (blocking, or sent without waiting for the answer), or a call that moves on to the next node
 * when one does not answer and waits out {@code 503}/{@code 429} with their {@code Retry-After}.
 * Counts every answer by call and status. The load code of the chaos drill and of the on-sale
 * simulator both talk through it.
 */
public final class Storefront {
  public static final ObjectMapper JSON = new ObjectMapper();
  /** Status of a call that got no HTTP answer: refused or reset connection. */
  public static final int NO_ANSWER = -1;
  /** Status of a call whose answer did not come in time. */
  public static final int TIMED_OUT = -2;

  /** One answer (or the lack of one) from one node. */
  public record Reply(int status, String body, HttpHeaders headers, int node) {
    public boolean answered() {
      return status > 0;
    }

    public JsonNode json() {
      try {
        return body == null || body.isEmpty() ? MissingNode.getInstance() : JSON.readTree(body);
      } catch (IOException e) {
        return MissingNode.getInstance();
      }
    }

    public String error() {
      return json().path("error").asText("");
    }

    /** The body's bytes, for a binary ({@code application/octet-stream}) answer such as availability. */
    public byte[] bytes() {
      return body == null ? new byte[0] : body.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The value of a cookie this answer sets, if it sets it. */
    public Optional<String> setCookie(String name) {
      if (headers == null) return Optional.empty();
      return headers.allValues("Set-Cookie").stream()
          .filter(c -> c.startsWith(name + "="))
          .map(c -> c.substring(name.length() + 1, c.contains(";") ? c.indexOf(';') : c.length()))
          .findFirst();
    }

    public long retryAfterMillis() {
      if (headers == null) return 1000;
      try {
        return Math.max(100, Long.parseLong(headers.firstValue("Retry-After").orElse("1").trim()) * 1000);
      } catch (NumberFormatException e) {
        return 1000;
      }
    }

    @Override
    public String toString() {
      String what = status == NO_ANSWER ? "no answer" : status == TIMED_OUT ? "timed out" : Integer.toString(status);
      return what + " from node " + (node + 1) + (body == null || body.isEmpty() ? "" : ": " + abbreviate(body));
    }
  }

  private final HttpClient client;
  private final List<String> bases;
  private final boolean throughEdge;
  private final Counts<Integer> answers = new Counts<>();

  /** The nodes at 127.0.0.1 on these HTTP ports. */
  public Storefront(int[] ports) {
    this(Arrays.stream(ports).mapToObj(p -> "http://127.0.0.1:" + p).toList(), HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(2))
        .build());
  }

  /** The nodes at these base URLs ({@code http://host:port}, no trailing slash), through {@code client}. */
  public Storefront(List<String> baseUrls, HttpClient client) {
    this(baseUrls, client, false);
  }

  /**
   * As above; {@code throughEdge}: the base URL is a CDN edge worker, which learns a client's
   * network from {@code CF-Connecting-IP} (as Cloudflare sets it) and tells the origin in
   * X-Forwarded-For, so the fans' X-Forwarded-For is sent as CF-Connecting-IP.
   */
  public Storefront(List<String> baseUrls, HttpClient client, boolean throughEdge) {
    this.bases = List.copyOf(baseUrls);
    this.client = client;
    this.throughEdge = throughEdge;
  }

  public int nodes() {
    return bases.size();
  }

  /** One call to one node; never throws for network trouble (see {@link #NO_ANSWER}, {@link #TIMED_OUT}). */
  public Reply once(String call, int node, String method, String path, String body, Duration timeout, Map<String, String> headers) {
    try {
      return send(call, node, method, path, body, timeout, headers).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Reply(NO_ANSWER, "interrupted", null, node);
    } catch (ExecutionException e) {
      return new Reply(NO_ANSWER, String.valueOf(e.getCause()), null, node);
    }
  }

  /**
   * One call to one node, answered later on the client's threads; the future never fails for
   * network trouble (see {@link #NO_ANSWER}, {@link #TIMED_OUT}).
   */
  public CompletableFuture<Reply> send(String call, int node, String method, String path, String body, Duration timeout,
                                       Map<String, String> headers) {
    return send(call, node, method, path, body, timeout, headers, true);
  }

  /**
   * As {@link #send(String, int, String, String, String, Duration, Map)}; without {@code keepOkBody}
   * the body of a 200 is read and dropped (the reply's body is empty), as for a large answer whose
   * content the caller does not look at: a 70,000-seat map is megabytes, and hundreds read at once
   * would otherwise be held in memory together. The body of any other answer is kept (its error code).
   */
  public CompletableFuture<Reply> send(String call, int node, String method, String path, String body, Duration timeout,
                                       Map<String, String> headers, boolean keepOkBody) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(bases.get(node) + path))
        .timeout(timeout)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) b.header("Content-Type", "application/json");
    headers.forEach((name, value) -> b.header(throughEdge && name.equals("X-Forwarded-For") ? "CF-Connecting-IP" : name, value));
    return client.sendAsync(b.build(), keepOkBody ? BODY : UNLESS_OK)
        .handle((r, error) -> {
          Reply reply = error == null ? new Reply(r.statusCode(), r.body(), r.headers(), node) : failed(error, node);
          answers.increment(call, reply.status());
          return reply;
        });
  }

  /**
   * Bodies as text in UTF-8, binary ones one char per byte (ISO-8859-1), so that {@link Reply#bytes} gives them back whole;
   * a gzipped body (asked for with {@code Accept-Encoding: gzip}, as a large seat map must be) is unzipped first.
   */
  private static final HttpResponse.BodyHandler<String> BODY = info -> {
    java.nio.charset.Charset charset = info.headers().firstValue("Content-Type")
        .filter(t -> t.startsWith("application/octet-stream")).isPresent() ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8;
    if (!info.headers().firstValue("Content-Encoding").orElse("").equalsIgnoreCase("gzip")) {
      return HttpResponse.BodySubscribers.ofString(charset);
    }
    return HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofByteArray(), zipped -> {
      try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(zipped))) {
        return new String(in.readAllBytes(), charset);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  };

  /** A 200's body read and dropped; any other answer's kept as {@link #BODY} keeps it. */
  private static final HttpResponse.BodyHandler<String> UNLESS_OK = info -> info.statusCode() == 200
      ? HttpResponse.BodySubscribers.replacing("") : BODY.apply(info);

  private static Reply failed(Throwable error, int node) {
    Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    return new Reply(e instanceof HttpTimeoutException ? TIMED_OUT : NO_ANSWER, e.toString(), null, node);
  }

  /**
   * A call that keeps trying until it gets an answer other than 503/429 or its time is up: a node
   * that does not answer is left for the next one (the fan's {@code home} moves with it), 503 and
   * 429 are retried after their {@code Retry-After} (at most 2 s), on the next node after three.
   */
  public Reply call(String call, int[] home, String method, String path, String body, Duration timeout, long deadlineMillis,
             Map<String, String> headers) {
    int busy = 0;
    int attempt = 0;
    while (true) {
      Reply r = once(call, home[0], method, path, body, timeout, headers);
      attempt++;
      boolean late = System.currentTimeMillis() >= deadlineMillis;
      if (!r.answered()) {
        home[0] = (home[0] + 1) % bases.size();
        if (late) return r;
        sleep(Math.min(1000, 50L * attempt) + ThreadLocalRandom.current().nextLong(50));
      } else if (r.status() == 503 || r.status() == 429) {
        if (late) return r;
        if (++busy % 3 == 0) home[0] = (home[0] + 1) % bases.size();
        sleep(Math.min(2000, r.retryAfterMillis()) / 2 + ThreadLocalRandom.current().nextLong(Math.min(2000, r.retryAfterMillis()) / 2 + 1));
      } else {
        return r;
      }
    }
  }

  /**
   * The headers a browser tab of a fan sends: its identity and queue cookies (both Secure, so a
   * client on plain HTTP sets them by hand; either may be null) and, when not null, its client
   * network as X-Forwarded-For (a node trusts it from loopback peers only).
   */
  public static Map<String, String> fanHeaders(String eventId, String identity, String queueToken, String forwardedFor) {
    Map<String, String> h = new LinkedHashMap<>();
    StringBuilder cookies = new StringBuilder();
    if (identity != null) cookies.append("bo_id=").append(identity);
    if (queueToken != null && !queueToken.isEmpty()) {
      cookies.append(cookies.length() > 0 ? "; " : "").append("bo_q_").append(eventId).append('=').append(queueToken);
    }
    if (cookies.length() > 0) h.put("Cookie", cookies.toString());
    if (forwardedFor != null) h.put("X-Forwarded-For", forwardedFor);
    return h;
  }

  /** Answers so far: call -> status -> count (negative statuses: no answer, timed out). */
  public Map<String, Map<Integer, Long>> answers() {
    return answers.snapshot();
  }

  public static void sleep(long millis) {
    try {
      Thread.sleep(Math.max(0, millis));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public static String abbreviate(String s) {
    String one = s.replace('\n', ' ');
    return one.length() <= 200 ? one : one.substring(0, 200) + "...";
  }
}
