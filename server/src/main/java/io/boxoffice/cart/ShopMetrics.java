package io.boxoffice.cart;

/** What the shop reports: seats held and orders sold through this node. A port, implemented at the top (app's metrics). */
public interface ShopMetrics {
  /** Reports nothing: a test of the cart alone. */
  ShopMetrics NONE = new ShopMetrics() {
    public void seatsHeld(String eventId, int seats) { }

    public void orderSold(String eventId) { }

    public void seatsReleasedByTimer(String eventId, int seats) { }
  };

  /** {@code seats} seats of {@code eventId} were held, durably. */
  void seatsHeld(String eventId, int seats);

  /** One order of {@code eventId} was sold. */
  void orderSold(String eventId);

  /** A cart's hold timer gave {@code seats} seats of an abandoned hold back to the sale. */
  void seatsReleasedByTimer(String eventId, int seats);
}
