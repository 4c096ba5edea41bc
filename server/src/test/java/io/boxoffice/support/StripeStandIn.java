package io.boxoffice.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stripe's PaymentIntents API as far as the adapter uses it, on a local port (Stripe itself cannot
 * be reached from tests). Each request is checked against Stripe's published shapes
 * (https://docs.stripe.com/api/payment_intents): the path and method, {@code Authorization: Bearer}
 * with the configured secret key, an {@code Idempotency-Key} on every POST, form-encoded fields
 * ({@code amount}, {@code currency}, {@code capture_method=manual}, {@code confirm=true}, a payment
 * method or card token); a request that breaks them is answered 400 and kept in {@link #violations}.
 * A POST repeated with a key seen before gets the first answer again, as Stripe's idempotency
 * layer does. Cards: {@code pm_card_visa} and {@code tok_visa} are set aside
 * ({@code requires_capture}); {@code pm_card_chargeDeclined}, {@code tok_chargeDeclined} and
 * {@code tok_declined} are declined with HTTP 402 ({@code card_error}, {@code card_declined},
 * {@code generic_decline}).
 */
public final class StripeStandIn implements AutoCloseable {
  public static final String SECRET_KEY = "sk_test_standin_0123456789abcdefghijklmnop";
  private static final Pattern ACTION = Pattern.compile("/v1/payment_intents/([^/]+)/(capture|cancel)");
  private static final Set<String> DECLINED = Set.of("pm_card_chargeDeclined", "tok_chargeDeclined", "tok_declined");
  private static final Set<String> APPROVED = Set.of("pm_card_visa", "tok_visa");

  /** One request as it arrived: method, path, the Idempotency-Key header (null when absent), form fields. */
  public record Request(String method, String path, String idempotencyKey, Map<String, String> form) {}

  private final ObjectMapper json = new ObjectMapper();
  private final HttpServer server;
  private final Map<String, Map<String, Object>> intents = new ConcurrentHashMap<>();
  private final Map<String, Answer> byKey = new ConcurrentHashMap<>();
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger slowAnswers = new AtomicInteger();
  private volatile long slowMillis;
  private volatile boolean searchLags;

  private record Answer(int status, String body) {}

  public StripeStandIn() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(Executors.newFixedThreadPool(8));
    server.start();
  }

  /** The API base to give the adapter. */
  public String apiBase() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The next {@code count} POSTs are carried out but answered only after {@code millis}: past the client's read timeout. */
  public void answerLate(int count, long millis) {
    slowMillis = millis;
    slowAnswers.set(count);
  }

  /** Search finds nothing, as Stripe's does for about a minute after a PaymentIntent is made. */
  public void searchLags(boolean lags) {
    searchLags = lags;
  }

  public List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  public List<String> violations() {
    synchronized (violations) {
      return List.copyOf(violations);
    }
  }

  /** Every PaymentIntent, by id: its fields as the API returns them. */
  public Map<String, Map<String, Object>> intents() {
    return Map.copyOf(intents);
  }

  public String status(String intentId) {
    Map<String, Object> intent = intents.get(intentId);
    return intent == null ? null : (String) intent.get("status");
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String method = ex.getRequestMethod();
      String path = ex.getRequestURI().getPath();
      String key = ex.getRequestHeaders().getFirst("Idempotency-Key");
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Map<String, String> form = method.equals("GET") ? decode(ex.getRequestURI().getRawQuery()) : decode(body);
      requests.add(new Request(method, path, key, form));
      Answer answer = answer(ex, method, path, key, form);
      if (method.equals("POST") && slowAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        Thread.sleep(slowMillis);
      }
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.getResponseHeaders().set("Request-Id", "req_" + UUID.randomUUID().toString().replace("-", ""));
      ex.sendResponseHeaders(answer.status(), bytes.length);
      ex.getResponseBody().write(bytes);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException ignored) {
      // The client gave up (a read timeout): the work is done, the answer is lost, as on the internet.
    }
  }

  private Answer answer(HttpExchange ex, String method, String path, String key, Map<String, String> form) throws IOException {
    String auth = ex.getRequestHeaders().getFirst("Authorization");
    if (!("Bearer " + SECRET_KEY).equals(auth)) {
      return error(401, "invalid_request_error", "api_key_invalid", null, "Invalid API Key provided", null);
    }
    if (method.equals("POST")) {
      if (key == null || key.isBlank()) return violation("POST " + path + " without Idempotency-Key");
      if (!"application/x-www-form-urlencoded".equals(contentType(ex))) return violation("POST " + path + " not form-encoded");
      Answer first = byKey.get(method + " " + path + " " + key);
      if (first != null) return first;
      Answer fresh = post(path, form);
      // Stripe keeps the answer under the key, errors included (but not 5xx or 429).
      byKey.put(method + " " + path + " " + key, fresh);
      return fresh;
    }
    if (method.equals("GET") && path.equals("/v1/payment_intents/search")) return search(form.getOrDefault("query", ""));
    return violation(method + " " + path + " is not an endpoint the adapter should call");
  }

  private Answer post(String path, Map<String, String> form) throws IOException {
    if (path.equals("/v1/payment_intents")) return create(form);
    Matcher m = ACTION.matcher(path);
    if (!m.matches()) return violation("POST " + path + " is not an endpoint the adapter should call");
    Map<String, Object> intent = intents.get(m.group(1));
    if (intent == null) {
      return error(404, "invalid_request_error", "resource_missing", null, "No such payment_intent: '" + m.group(1) + "'", null);
    }
    synchronized (intent) {
      String status = (String) intent.get("status");
      if (m.group(2).equals("capture")) {
        if (!status.equals("requires_capture")) return unexpectedState(intent, "capture");
        intent.put("status", "succeeded");
        intent.put("amount_received", intent.get("amount"));
        intent.put("amount_capturable", 0L);
      } else {
        if (status.equals("succeeded") || status.equals("canceled")) return unexpectedState(intent, "cancel");
        intent.put("status", "canceled");
        intent.put("amount_capturable", 0L);
      }
      return ok(intent);
    }
  }

  private Answer create(Map<String, String> form) throws IOException {
    List<String> wrong = new ArrayList<>();
    long amount = -1;
    try {
      amount = Long.parseLong(form.getOrDefault("amount", ""));
    } catch (NumberFormatException e) {
      wrong.add("amount is not an integer");
    }
    if (amount < 50 && amount >= 0) wrong.add("amount under the minimum charge");
    if (!form.getOrDefault("currency", "").matches("[a-z]{3}")) wrong.add("currency is not a three-letter lower-case ISO code");
    if (!"manual".equals(form.get("capture_method"))) wrong.add("capture_method is not manual");
    if (!"true".equals(form.get("confirm"))) wrong.add("confirm is not true");
    String card = form.get("payment_method");
    if (card == null && "card".equals(form.get("payment_method_data[type]"))) card = form.get("payment_method_data[card][token]");
    if (card == null) wrong.add("neither payment_method nor payment_method_data[type]=card with a card token");
    if (!wrong.isEmpty()) return violation("POST /v1/payment_intents: " + String.join(", ", wrong));

    Map<String, Object> intent = new LinkedHashMap<>();
    String id = "pi_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    intent.put("id", id);
    intent.put("object", "payment_intent");
    intent.put("amount", amount);
    intent.put("currency", form.get("currency"));
    intent.put("capture_method", "manual");
    intent.put("confirmation_method", "automatic");
    intent.put("livemode", false);
    Map<String, String> metadata = new LinkedHashMap<>();
    form.forEach((k, v) -> {
      if (k.startsWith("metadata[") && k.endsWith("]")) metadata.put(k.substring(9, k.length() - 1), v);
    });
    intent.put("metadata", metadata);
    intents.put(id, intent);
    if (DECLINED.contains(card)) {
      intent.put("status", "requires_payment_method");
      intent.put("amount_capturable", 0L);
      return error(402, "card_error", "card_declined", "generic_decline", "Your card was declined.", intent);
    }
    if (!APPROVED.contains(card)) {
      intent.put("status", "requires_payment_method");
      Answer missing = error(400, "invalid_request_error", "resource_missing", null, "No such PaymentMethod: '" + card + "'", intent);
      return new Answer(missing.status(), missing.body().replace("\"code\":\"resource_missing\"",
          "\"code\":\"resource_missing\",\"param\":\"" + (form.containsKey("payment_method") ? "payment_method" : "payment_method_data[card][token]") + "\""));
    }
    intent.put("status", "requires_capture");
    intent.put("amount_capturable", amount);
    return ok(intent);
  }

  private Answer search(String query) throws IOException {
    Matcher m = Pattern.compile("metadata\\['([^']+)'\\]:'([^']*)'").matcher(query);
    if (!m.matches()) return violation("search query not understood: " + query);
    List<Map<String, Object>> found = searchLags ? List.of() : intents.values().stream()
        .filter(i -> m.group(2).equals(((Map<?, ?>) i.get("metadata")).get(m.group(1))))
        .toList();
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("object", "search_result");
    result.put("url", "/v1/payment_intents/search");
    result.put("has_more", false);
    result.put("data", found);
    return new Answer(200, json.writeValueAsString(result));
  }

  private Answer unexpectedState(Map<String, Object> intent, String verb) throws IOException {
    return error(400, "invalid_request_error", "payment_intent_unexpected_state", null,
        "You cannot " + verb + " this PaymentIntent because it has a status of " + intent.get("status") + ".", intent);
  }

  private Answer violation(String what) throws IOException {
    violations.add(what);
    return error(400, "invalid_request_error", "parameter_invalid", null, what, null);
  }

  private Answer ok(Map<String, Object> intent) throws IOException {
    return new Answer(200, json.writeValueAsString(intent));
  }

  private Answer error(int status, String type, String code, String declineCode, String message, Map<String, Object> intent)
      throws IOException {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("type", type);
    error.put("code", code);
    if (declineCode != null) error.put("decline_code", declineCode);
    error.put("message", message);
    if (intent != null) error.put("payment_intent", intent);
    return new Answer(status, json.writeValueAsString(Map.of("error", error)));
  }

  private static String contentType(HttpExchange ex) {
    String type = ex.getRequestHeaders().getFirst("Content-Type");
    return type == null ? "" : type.split(";")[0].trim();
  }

  private static Map<String, String> decode(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) return out;
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      out.put(k, v);
    }
    return out;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
