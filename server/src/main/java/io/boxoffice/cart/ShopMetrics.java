package io.boxoffice.cart;

/**
 * What the shop reports: seats its carts' hold timers gave back. A port, implemented at the top
 * (app's metrics). Holds and sales are counted by the inventory, where they are decided.
 */
public interface ShopMetrics {
  /** Reports nothing: a test of the cart alone. */
  ShopMetrics NONE = new ShopMetrics() {
    public void seatsReleasedByTimer(String eventId, int seats) { }
  };

  /** A cart's hold timer gave {@code seats} seats of an abandoned hold back to the sale. */
  void seatsReleasedByTimer(String eventId, int seats);
}
