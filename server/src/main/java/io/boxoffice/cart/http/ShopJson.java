package io.boxoffice.cart.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.boxoffice.cart.Cart;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import io.boxoffice.tickets.Orders;
import java.time.Instant;
import java.util.List;

/** The shop's bodies on the wire (docs/API.md): a fan's holds and an order. */
public final class ShopJson {
  private ShopJson() {}

  /**
   * A new hold or the whole cart: {@code holdExpiresAt} is null when nothing is held, and
   * {@code expired} is there only when the fan's last hold ran out with nothing held since.
   */
  public record Holds(List<PricedSeat> seats, String holdExpiresAt,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Expired expired) {}

  /** A held seat and its price. */
  public record PricedSeat(String seatId, int priceCents) {}

  /** When the fan's last hold ran out. */
  public record Expired(String at) {}

  /** The holds of an inventory's {@code Held} or {@code Holds}, with when the last one ran out at {@code expiredAt} (0: left out). */
  static Holds holds(EventInventory.Reply reply, long expiredAt) {
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
    return new Holds(seats.stream().map(s -> new PricedSeat(s.seatId(), s.priceCents())).toList(), isoOrNull(until),
        expiredAt == 0 ? null : new Expired(Instant.ofEpochMilli(expiredAt).toString()));
  }

  /** The contract's order body, shared with {@code GET /api/orders/{orderId}}. */
  public static Orders.Order order(Cart.OrderView o) {
    return new Orders.Order(o.orderId(), o.eventId(), o.status(), o.amountCents(),
        o.tickets().stream().map(t -> new Orders.OrderTicket(t.ticketId(), t.seatId(), t.barcode())).toList());
  }

  private static String isoOrNull(long epochMillis) {
    return epochMillis == 0 ? null : Instant.ofEpochMilli(epochMillis).toString();
  }
}
