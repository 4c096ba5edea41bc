package io.boxoffice.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A storefront talking to a node over real HTTP, carrying one fan's {@code bo_id} cookie by hand (it is Secure). */
public final class HttpFan {
  public static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** A response: status, headers and the body as text (and as JSON when it is). */
  public record Reply(int status, String body, java.net.http.HttpHeaders headers) {
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (Exception e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }

    public String error() {
      return json().path("error").asText();
    }
  }

  private final String base;
  private String cookie;
  private final java.util.Map<String, String> queueCookies = new java.util.concurrent.ConcurrentHashMap<>();

  public HttpFan(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  public String cookie() { return cookie; }

  public HttpFan withCookie(String value) {
    this.cookie = value;
    return this;
  }

  /** Carries a {@code bo_q_<eventId>} queue token from now on. */
  public HttpFan withQueueCookie(String eventId, String token) {
    queueCookies.put(eventId, token);
    return this;
  }

  public String queueCookie(String eventId) {
    return queueCookies.get(eventId);
  }

  /** Registers and signs in; returns the account id. */
  public String signUp(String email) {
    String body = "{\"email\":\"" + email + "\",\"password\":\"correct horse battery\"}";
    Reply created = send("POST", "/api/accounts", body);
    if (created.status() != 201) throw new AssertionError("register: " + created);
    Reply session = send("POST", "/api/session", body);
    if (session.status() != 200) throw new AssertionError("sign in: " + session);
    String setCookie = session.headers().firstValue("Set-Cookie").orElseThrow();
    cookie = setCookie.substring("bo_id=".length(), setCookie.indexOf(';'));
    return session.json().get("accountId").asText();
  }

  public Reply send(String method, String path, String body, String... headers) {
    return sendAsync(method, path, body, headers).join();
  }

  public CompletableFuture<Reply> sendAsync(String method, String path, String body, String... headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) b.header("Content-Type", "application/json");
    StringBuilder cookies = new StringBuilder();
    if (cookie != null) cookies.append("bo_id=").append(cookie);
    queueCookies.forEach((event, token) -> cookies.append(cookies.length() > 0 ? "; " : "").append("bo_q_").append(event).append('=').append(token));
    if (cookies.length() > 0) b.header("Cookie", cookies.toString());
    for (int i = 0; i + 1 < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
    return CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString())
        .thenApply(r -> new Reply(r.statusCode(), r.body(), r.headers()));
  }

  public Reply admin(String method, String path, String body) {
    return send(method, path, body, "Authorization", "Bearer " + TestNode.ADMIN_TOKEN);
  }

  /**
   * As a manager: a generated stadium venue of {@code seats} and an event in it (floor 100,
   * lower 50, upper 20), both named after a fresh id; the event's id ({@code e-<id>}).
   */
  public String newEvent(int seats) {
    String id = java.util.UUID.randomUUID().toString().substring(0, 8);
    Reply venue = admin("POST", "/admin/venues", "{\"venueId\":\"v-" + id + "\",\"name\":\"Hall\",\"generate\":"
        + "{\"layout\":\"stadium\",\"seats\":" + seats + "}}");
    if (venue.status() != 201) throw new AssertionError("venue not made: " + venue.status() + " " + venue.body());
    Reply event = admin("POST", "/admin/events", "{\"eventId\":\"e-" + id + "\",\"venueId\":\"v-" + id
        + "\",\"name\":\"Show\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}");
    if (event.status() != 201) throw new AssertionError("event not made: " + event.status() + " " + event.body());
    return "e-" + id;
  }

  /**
   * As a manager: {@link #newEvent} with an on-sale whose lobby is open now (real time) and whose
   * sale starts in ten minutes, admitting 600 a minute and 1,000 at once; the event's id.
   */
  public String newEventWithOpenLobby(int seats) {
    String event = newEvent(seats);
    java.time.Instant now = java.time.Instant.now();
    Reply put = admin("PUT", "/admin/events/" + event + "/onsale", "{\"lobbyOpensAt\":\"" + now
        + "\",\"startsAt\":\"" + now.plusSeconds(600) + "\",\"admissionPerMinute\":600,\"maxActiveShoppers\":1000}");
    if (put.status() != 200) throw new AssertionError("on-sale not put: " + put.status() + " " + put.body());
    return event;
  }
}
