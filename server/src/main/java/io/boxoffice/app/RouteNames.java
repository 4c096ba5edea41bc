package io.boxoffice.app;

import java.util.List;
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

  public static String of(HttpRequest request) {
    String path = request.getUri().path();
    String method = request.method().value();
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
        default -> rest.startsWith("cart/holds") ? (method.equals("DELETE") ? "release" : "hold")
            : rest.startsWith("presale/") ? "presale" : "other";
      };
    }
    return "other";
  }
}
