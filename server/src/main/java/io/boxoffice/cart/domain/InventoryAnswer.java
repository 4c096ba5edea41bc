package io.boxoffice.cart.domain;

import io.boxoffice.common.Refusal;
import java.util.List;

/** The event inventory's answer to the cart's look-up of holds or to its confirm, as the saga reads it. */
public sealed interface InventoryAnswer {

  /** The fan's live holds (none when the list is empty). */
  record Holds(List<PricedSeat> seats) implements InventoryAnswer {}

  /** The sale of these seats is recorded under the order. */
  record Confirmed(List<PricedSeat> seats) implements InventoryAnswer {}

  /** A refusal, with the inventory's code ({@code hold_expired}, {@code busy}, ...). */
  record Refused(Refusal code, String message, List<String> seatIds) implements InventoryAnswer {}

  /** The ask timed out or failed: the inventory may or may not have acted. */
  record NoAnswer() implements InventoryAnswer {}

  /** A reply of a kind the question does not expect. */
  record Unexpected() implements InventoryAnswer {}
}
