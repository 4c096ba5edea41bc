package io.boxoffice.queue.domain;

import java.util.Optional;

/**
 * Why the waiting room refuses a command. {@link #code()} travels in replies between nodes and
 * reaches fans and managers as the contract's error code, so it never changes.
 */
public enum Refusal {
  EVENT_EXISTS("event_exists", "an event with this id exists"),
  ALREADY_SCHEDULED("already_scheduled", "the event has an on-sale schedule"),
  ALREADY_STARTED("already_started", "the sale has started"),
  NOT_FOUND("not_found", "no on-sale is scheduled"),
  NOT_ON_SALE("not_on_sale", "the event has no on-sale"),
  NOT_OPEN("not_open", "the lobby is not open yet"),
  STARTED("started", "the sale has started"),
  NOT_STARTED("not_started", "the sale has not started");

  private final String code;
  private final String message;

  Refusal(String code, String message) {
    this.code = code;
    this.message = message;
  }

  public String code() {
    return code;
  }

  public String message() {
    return message;
  }

  /** The refusal a reply's code names; empty for null or a code that is no refusal of the room (such as {@code unavailable}). */
  public static Optional<Refusal> fromCode(String code) {
    for (Refusal r : values()) {
      if (r.code.equals(code)) return Optional.of(r);
    }
    return Optional.empty();
  }
}
