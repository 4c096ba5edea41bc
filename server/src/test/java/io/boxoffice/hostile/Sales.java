package io.boxoffice.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.support.HttpFan;
import java.util.List;
import java.util.UUID;

/** Venues, events and bought tickets over HTTP, for the hostile tests; the admin token is given, not assumed. */
final class Sales {
  private final int port;
  private final String adminToken;

  Sales(int port, String adminToken) {
    this.port = port;
    this.adminToken = adminToken;
  }

  HttpFan.Reply admin(String method, String path, String body) {
    return new HttpFan(port).send(method, path, body, "Authorization", "Bearer " + adminToken);
  }

  /** A 200-seat venue. */
  String venue() {
    String id = "v-" + UUID.randomUUID().toString().substring(0, 8);
    HttpFan.Reply r = admin("POST", "/admin/venues", "{\"venueId\":\"" + id + "\",\"name\":\"Hall\",\"generate\":"
        + "{\"layout\":\"stadium\",\"seats\":200}}");
    if (r.status() != 201) throw new AssertionError("venue: " + r.status() + " " + r.body());
    return id;
  }

  /** An event on open sale (every signed-in fan may shop). */
  String openEvent(String venueId) {
    String id = closedEvent(venueId);
    // Events are created closed: opening the sale is the manager's explicit choice.
    HttpFan.Reply open = admin("POST", "/admin/events/" + id + "/open", null);
    if (open.status() != 200) throw new AssertionError("open: " + open.status() + " " + open.body());
    return id;
  }

  /** An event as it is created: closed (fans get 403 not_on_sale). */
  String closedEvent(String venueId) {
    String id = "e-" + UUID.randomUUID().toString().substring(0, 8);
    HttpFan.Reply r = admin("POST", "/admin/events", "{\"eventId\":\"" + id + "\",\"venueId\":\"" + venueId
        + "\",\"name\":\"Show\",\"prices\":{\"floor\":100,\"lower\":50,\"upper\":20}}");
    if (r.status() != 201) throw new AssertionError("event: " + r.status() + " " + r.body());
    return id;
  }

  /** The event's stats as the admin API gives them (JSON text). */
  String stats(String eventId) {
    HttpFan.Reply r = admin("GET", "/admin/events/" + eventId + "/stats", null);
    if (r.status() != 200) throw new AssertionError("stats: " + r.status() + " " + r.body());
    return r.json().get("seats").toString() + " orders " + r.json().get("orders");
  }

  /** What {@link #stats} says after {@code n} more one-seat orders on top of {@code before}. */
  static String soldPlus(String before, int n) {
    try {
      String seatsJson = before.substring(0, before.indexOf(" orders "));
      JsonNode seats = HttpFan.JSON.readTree(seatsJson);
      long orders = Long.parseLong(before.substring(before.indexOf(" orders ") + " orders ".length()));
      com.fasterxml.jackson.databind.node.ObjectNode next = HttpFan.JSON.createObjectNode();
      seats.fields().forEachRemaining(f -> next.set(f.getKey(), f.getValue()));
      next.put("available", seats.get("available").asLong() - n);
      next.put("sold", seats.get("sold").asLong() + n);
      return next.toString() + " orders " + (orders + n);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  /** The event's state in the admin list. */
  String state(String eventId) {
    HttpFan.Reply r = admin("GET", "/admin/events", null);
    for (JsonNode e : r.json().get("events")) if (e.get("eventId").asText().equals(eventId)) return e.get("state").asText();
    throw new AssertionError("not listed: " + eventId);
  }

  /** A fan, signed up and signed in. */
  HttpFan fan() {
    HttpFan fan = new HttpFan(port);
    fan.signUp("hostile-" + UUID.randomUUID() + "@example.com");
    return fan;
  }

  /** Two best-available seats bought by {@code fan}: their barcodes. */
  static List<String> buyTwo(HttpFan fan, String eventId) {
    HttpFan.Reply hold = fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}");
    if (hold.status() != 200) throw new AssertionError("hold: " + hold.status() + " " + hold.body());
    HttpFan.Reply order = fan.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", UUID.randomUUID().toString());
    if (order.status() != 200) throw new AssertionError("checkout: " + order.status() + " " + order.body());
    JsonNode tickets = order.json().get("tickets");
    return List.of(tickets.get(0).get("barcode").asText(), tickets.get(1).get("barcode").asText());
  }
}
