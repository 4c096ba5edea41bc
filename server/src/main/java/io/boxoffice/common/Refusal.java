package io.boxoffice.common;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Why the inventory, the cart or the waiting room refuses a command, as it travels in their
 * replies from the entity to the route (through the cart when it passes the inventory's refusal
 * on). The edge
 * maps each to the contract's status and error code in one place ({@code edge.Refusals}).
 * {@link #code()} is the form in replies between nodes (Jackson writes and reads it), so a node
 * of an older build reads a newer node's refusal and the other way round: never change one.
 */
public enum Refusal {
  /** No such event, order or ticket here. */
  NOT_FOUND("not_found"),
  /** An event with this id exists already. */
  EVENT_EXISTS("event_exists"),
  /** The hold needs a queue pass that this fan does not have. */
  NOT_ADMITTED("not_admitted"),
  /** The event's buffer of waiting commands is full; asking again later may succeed. */
  BUSY("busy"),
  /** Some of the named seats are held or sold by someone else. */
  SEATS_TAKEN("seats_taken"),
  /** Some of the named seats do not exist at this event. */
  UNKNOWN_SEATS("unknown_seats"),
  /** No block of adjacent seats fits a best-available request. */
  NO_SEATS("no_seats"),
  /** The account would hold more seats than the event allows. */
  LIMIT_EXCEEDED("limit_exceeded"),
  /** Nothing is held, or the hold ran out before the sale. */
  HOLD_EXPIRED("hold_expired"),
  /** A ticket the inventory does not know. */
  INVALID("invalid"),
  /** Another checkout of this cart, under another key, is under way. */
  CHECKOUT_IN_PROGRESS("checkout_in_progress"),
  /** The seats held are not the seats the fan expected to pay for (another tab changed the cart); nothing was charged. */
  CART_CHANGED("cart_changed"),
  /** The card was declined; the seats stay held until their deadline. */
  PAYMENT_DECLINED("payment_declined"),
  /** The event or the processor did not answer; nothing was charged, the fan may try again. */
  UNAVAILABLE("unavailable"),
  /** The waiting room's: an event with an on-sale schedule cannot become an open sale. */
  ALREADY_SCHEDULED("already_scheduled"),
  /** The waiting room's: the on-sale has started, it cannot be rescheduled. */
  ALREADY_STARTED("already_started"),
  /** The waiting room's: the event has no on-sale to join. */
  NOT_ON_SALE("not_on_sale"),
  /** The waiting room's: its lobby is not open yet. */
  NOT_OPEN("not_open"),
  /** The waiting room's: the sale has started, the lobby is closed. */
  STARTED("started"),
  /** The waiting room's: the sale has not started yet. */
  NOT_STARTED("not_started"),
  /** The waiting room's: the account gave its place up and the line has passed it; it gets no other. */
  PLACE_GIVEN_UP("place_given_up"),
  /** Too many requests from this client at once or lately; it may try again after Retry-After. */
  RATE_LIMITED("rate_limited");

  private final String code;

  Refusal(String code) {
    this.code = code;
  }

  @JsonValue
  public String code() {
    return code;
  }

  /** The refusal a reply's code names; an unknown code is a reply this build cannot read. */
  @JsonCreator
  public static Refusal fromCode(String code) {
    for (Refusal r : values()) {
      if (r.code.equals(code)) return r;
    }
    throw new IllegalArgumentException("no refusal has the code " + code);
  }
}
