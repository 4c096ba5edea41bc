package io.boxoffice.app;

import org.apache.pekko.http.javadsl.model.HttpRequest;

/** A request's kind of route, for latency metrics: a short fixed set, never raw paths (ids would explode the series). */
public final class RouteNames {
  private RouteNames() {}

  public static String of(HttpRequest request) {
    String path = request.getUri().path();
    String method = request.method().value();
    if (path.startsWith("/events/")) return "page";
    if (path.startsWith("/admin/")) return "admin";
    if (path.startsWith("/gate/")) return "gate";
    if (path.equals("/metrics")) return "metrics";
    if (path.startsWith("/static/") || path.equals("/favicon.ico")) return "static";
    if (path.startsWith("/api/accounts") || path.startsWith("/api/session")) return "accounts";
    if (path.startsWith("/api/me/tickets/") && path.endsWith("/qr")) return "ticket_qr";
    if (path.startsWith("/api/orders/") || path.startsWith("/api/me/")) return "orders";
    if (path.startsWith("/api/events/")) {
      String rest = path.substring(path.indexOf('/', "/api/events/".length()) + 1);
      if (rest.equals("queue")) return "queue_join";
      if (rest.startsWith("queue/")) return "queue_" + rest.substring("queue/".length()).replaceAll("[^a-z]", "");
      if (rest.equals("cart/checkout")) return "checkout";
      if (rest.startsWith("cart/holds")) return method.equals("DELETE") ? "release" : "hold";
      if (rest.equals("cart")) return "cart";
      if (rest.equals("seatmap") || rest.equals("availability")) return rest;
      if (rest.startsWith("presale/")) return "presale";
      if (rest.equals("summary")) return "summary";
    }
    return "other";
  }
}
