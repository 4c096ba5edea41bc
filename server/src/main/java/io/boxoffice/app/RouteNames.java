package io.boxoffice.app;

import java.util.List;
import org.apache.pekko.http.javadsl.model.HttpMethod;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;

/**
 * A request's kind of route, the {@code route} label of the request metrics: one of {@link #ALL},
 * whatever the path. Never built from the path's text: a client choosing paths would otherwise
 * choose label values, one new series per made-up path.
 */
public final class RouteNames {
  /** Every value {@link #of} returns. */
  public static final List<String> ALL = List.of("page", "admin", "gate", "metrics", "accounts", "orders", "queue_join",
      "queue_status", "queue_manifest", "queue_challenge", "checkout", "release", "hold", "cart", "seatmap", "availability",
      "presale", "other");

  private RouteNames() {}

  /** The path template of each route name: the span names of traced requests (RequestTracing). */
  static final java.util.Map<String, String> TEMPLATES = java.util.Map.ofEntries(
      java.util.Map.entry("page", "/events/{eventId}"),
      java.util.Map.entry("admin", "/admin/*"),
      java.util.Map.entry("gate", "/gate/*"),
      java.util.Map.entry("metrics", "/metrics"),
      java.util.Map.entry("static", "/static/*"),
      java.util.Map.entry("openapi", "/api/openapi.json"),
      java.util.Map.entry("accounts", "/api/accounts|session"),
      java.util.Map.entry("ticket_qr", "/api/me/tickets/{ticketId}/qr"),
      java.util.Map.entry("orders", "/api/orders|me/*"),
      java.util.Map.entry("queue_join", "/api/events/{eventId}/queue"),
      java.util.Map.entry("queue_status", "/api/events/{eventId}/queue/status"),
      java.util.Map.entry("queue_manifest", "/api/events/{eventId}/queue/manifest"),
      java.util.Map.entry("queue_challenge", "/api/events/{eventId}/queue/challenge"),
      java.util.Map.entry("checkout", "/api/events/{eventId}/cart/checkout"),
      java.util.Map.entry("cart", "/api/events/{eventId}/cart"),
      java.util.Map.entry("seatmap", "/api/events/{eventId}/seatmap"),
      java.util.Map.entry("availability", "/api/events/{eventId}/availability"),
      java.util.Map.entry("summary", "/api/events/{eventId}/summary"),
      java.util.Map.entry("hold", "/api/events/{eventId}/cart/holds"),
      java.util.Map.entry("release", "/api/events/{eventId}/cart/holds/{seatId}"),
      java.util.Map.entry("presale", "/api/events/{eventId}/presale/*"));

  /** The request's route name and template; unknown paths are {@code other}, never their own text. */
  public static io.boxoffice.edge.RequestTracing.Route route(HttpRequest request) {
    String name = of(request);
    return new io.boxoffice.edge.RequestTracing.Route(name, TEMPLATES.getOrDefault(name, "other"));
  }

  public static String of(HttpRequest request) {
    return of(request.getUri().path(), request.method());
  }

  /** {@link #of(HttpRequest)} of a request's path and method. */
  public static String of(String path, HttpMethod method) {
    if (path.startsWith("/events/")) return "page";
    if (path.startsWith("/admin/")) return "admin";
    if (path.startsWith("/gate/")) return "gate";
    if (path.equals("/metrics")) return "metrics";
    if (path.startsWith("/static/") || path.equals("/favicon.ico")) return "static";
    if (path.equals("/api/openapi.json")) return "openapi";
    if (path.startsWith("/api/accounts") || path.startsWith("/api/session")) return "accounts";
    if (path.startsWith("/api/me/tickets/") && path.endsWith("/qr")) return "ticket_qr";
    if (path.startsWith("/api/orders/") || path.startsWith("/api/me/")) return "orders";
    if (path.startsWith("/api/events/")) {
      int idEnd = path.indexOf('/', "/api/events/".length());
      if (idEnd < 0) return "other";
      String rest = path.substring(idEnd + 1);
      return switch (rest) {
        case "queue" -> "queue_join";
        case "queue/status" -> "queue_status";
        case "queue/manifest" -> "queue_manifest";
        case "queue/challenge" -> "queue_challenge";
        case "cart/checkout" -> "checkout";
        case "cart" -> "cart";
        case "seatmap" -> "seatmap";
        case "availability" -> "availability";
        case "summary" -> "summary";
        default -> rest.startsWith("cart/holds") ? (HttpMethods.DELETE.equals(method) ? "release" : "hold")
            : rest.startsWith("presale/") ? "presale" : "other";
      };
    }
    return "other";
  }
}
