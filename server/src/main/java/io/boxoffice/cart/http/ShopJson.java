package io.boxoffice.cart.http;

import io.boxoffice.cart.Cart;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The shop's bodies on the wire (docs/API.md): a fan's holds and an order. */
public final class ShopJson {
  private ShopJson() {}

  /**
   * {@code {"seats":[{"seatId","priceCents"}],"holdExpiresAt"}} for a new hold or the whole cart,
   * and {@code "expired":{"at"}} when the fan's last hold ran out at {@code expiredAt} (not 0).
   */
  static Map<String, Object> holds(EventInventory.Reply reply, long expiredAt) {
    List<SeatPrice> seats;
    long until;
    if (reply instanceof EventInventory.Held h) {
      seats = h.seats();
      until = h.holdExpiresAt();
    } else {
      EventInventory.Holds h = (EventInventory.Holds) reply;
      seats = h.seats();
      until = h.holdExpiresAt();
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("seats", seats.stream().map(ShopJson::seatJson).toList());
    body.put("holdExpiresAt", until == 0 ? null : Instant.ofEpochMilli(until).toString());
    if (expiredAt != 0) body.put("expired", Map.of("at", Instant.ofEpochMilli(expiredAt).toString()));
    return body;
  }

  /** The contract's order body, shared with {@code GET /api/orders/{orderId}}. */
  public static Map<String, Object> order(Cart.OrderView o) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("orderId", o.orderId());
    body.put("eventId", o.eventId());
    body.put("status", o.status());
    body.put("amountCents", o.amountCents());
    body.put("tickets", o.tickets().stream().map(t -> Map.of("ticketId", t.ticketId(), "seatId", t.seatId(), "barcode", t.barcode())).toList());
    return body;
  }

  private static Map<String, Object> seatJson(SeatPrice s) {
    return Map.of("seatId", s.seatId(), "priceCents", s.priceCents());
  }
}
