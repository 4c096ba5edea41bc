package io.boxoffice.tickets.domain;

import io.boxoffice.common.Hmac;

/** The signed barcode on a ticket: event, seat and order under HMAC-SHA256, so a gate can tell forgeries at once. */
public final class Barcode {
  /** What a valid barcode names. */
  public record TicketRef(String eventId, String seatId, String orderId) {}

  private final Hmac hmac;

  public Barcode(Hmac hmac) {
    this.hmac = hmac;
  }

  public String issue(String eventId, String seatId, String orderId) {
    return hmac.seal("tk1|" + eventId + "|" + seatId + "|" + orderId);
  }

  /** The ticket a barcode names, or null for a forged or malformed one. */
  public TicketRef verify(String barcode) {
    String payload = hmac.open(barcode);
    if (payload == null) return null;
    String[] parts = payload.split("\\|");
    if (parts.length != 4 || !parts[0].equals("tk1")) return null;
    return new TicketRef(parts[1], parts[2], parts[3]);
  }
}
