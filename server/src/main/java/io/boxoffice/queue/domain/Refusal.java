package io.boxoffice.queue.domain;

import java.util.Optional;

/**
 * Why the waiting room refuses a command, with the message a manager or fan reads. Each is one
 * of the {@link io.boxoffice.common.Refusal}s, which is what travels in the room's replies and
 * what the edge maps to the contract's status and error code ({@code edge.Refusals}).
 */
public enum Refusal {
  EVENT_EXISTS(io.boxoffice.common.Refusal.EVENT_EXISTS, "an event with this id exists"),
  ALREADY_SCHEDULED(io.boxoffice.common.Refusal.ALREADY_SCHEDULED, "the event has an on-sale schedule"),
  ALREADY_STARTED(io.boxoffice.common.Refusal.ALREADY_STARTED, "the sale has started"),
  NOT_FOUND(io.boxoffice.common.Refusal.NOT_FOUND, "no on-sale is scheduled"),
  NOT_ON_SALE(io.boxoffice.common.Refusal.NOT_ON_SALE, "the event has no on-sale"),
  NOT_OPEN(io.boxoffice.common.Refusal.NOT_OPEN, "the lobby is not open yet"),
  STARTED(io.boxoffice.common.Refusal.STARTED, "the sale has started"),
  NOT_STARTED(io.boxoffice.common.Refusal.NOT_STARTED, "the sale has not started"),
  PLACE_GIVEN_UP(io.boxoffice.common.Refusal.PLACE_GIVEN_UP,
      "this account gave its place up and the line has passed it: one account has one place in a sale");

  private final io.boxoffice.common.Refusal refusal;
  private final String message;

  Refusal(io.boxoffice.common.Refusal refusal, String message) {
    this.refusal = refusal;
    this.message = message;
  }

  /** The refusal as it travels in replies and reaches the edge. */
  public io.boxoffice.common.Refusal refusal() {
    return refusal;
  }

  /** The contract's error code (never changes: it travels in replies between nodes). */
  public String code() {
    return refusal.code();
  }

  public String message() {
    return message;
  }

  /** The refusal a reply's code names; empty for null or a code that is no refusal of the room (such as {@code unavailable}). */
  public static Optional<Refusal> fromCode(String code) {
    for (Refusal r : values()) {
      if (r.code().equals(code)) return Optional.of(r);
    }
    return Optional.empty();
  }
}
