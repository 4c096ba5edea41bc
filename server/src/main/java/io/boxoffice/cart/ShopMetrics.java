package io.boxoffice.cart;

/** What the shop reports: seats held and orders sold through this node. A port, implemented at the top (app's metrics). */
public interface ShopMetrics {
  /** {@code seats} seats of {@code eventId} were held, durably. */
  void seatsHeld(String eventId, int seats);

  /** One order of {@code eventId} was sold. */
  void orderSold(String eventId);
}
