package io.boxoffice.cart.domain;

/** A seat being bought and its price, as the inventory listed the fan's holds. */
public record PricedSeat(String seatId, int priceCents) {}
