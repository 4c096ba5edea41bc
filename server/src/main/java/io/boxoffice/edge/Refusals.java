package io.boxoffice.edge;

import io.boxoffice.common.Refusal;
import java.util.List;
import java.util.Map;

/** The one mapping from the entities' refusals to the contract's statuses and error codes. */
public final class Refusals {
  private Refusals() {}

  public static ApiError toApiError(Refusal refusal, String message, List<String> seatIds) {
    Map<String, Object> seats = seatIds == null || seatIds.isEmpty() ? Map.of() : Map.of("seats", seatIds);
    return switch (refusal) {
      case SEATS_TAKEN -> new ApiError(409, "seats_taken", message, seats);
      case NO_SEATS -> new ApiError(409, "no_seats", message);
      case CHECKOUT_IN_PROGRESS -> new ApiError(409, "checkout_in_progress", message);
      case CART_CHANGED -> new ApiError(409, "cart_changed", message, seats);
      case EVENT_EXISTS -> new ApiError(409, "event_exists", message);
      // The waiting room's: the manager's request conflicts with the on-sale as it stands.
      case ALREADY_SCHEDULED -> new ApiError(409, "already_scheduled", message);
      case ALREADY_STARTED -> new ApiError(409, "already_started", message);
      case NOT_ON_SALE -> new ApiError(409, "not_on_sale", message);
      case NOT_OPEN -> new ApiError(409, "not_open", message);
      case STARTED -> new ApiError(409, "started", message);
      case NOT_STARTED -> new ApiError(409, "not_started", message);
      case PLACE_GIVEN_UP -> new ApiError(409, "place_given_up", message);
      case LIMIT_EXCEEDED -> new ApiError(422, "limit_exceeded", message);
      case RATE_LIMITED -> new ApiError(429, "rate_limited", message);
      case UNKNOWN_SEATS -> new ApiError(400, "bad_request", message, seats);
      case HOLD_EXPIRED -> new ApiError(410, "hold_expired", message, seats);
      case PAYMENT_DECLINED -> new ApiError(402, "payment_declined", message);
      case NOT_FOUND -> new ApiError(404, "not_found", message);
      case BUSY -> new ApiError(503, "overloaded", message);
      case UNAVAILABLE -> new ApiError(503, "unavailable", message);
      // The edge checks the pass before it asks the inventory, so this one reaches no fan unless
      // the inventory's own check disagrees; the contract has kept it a plain 400 since then.
      case NOT_ADMITTED, INVALID -> new ApiError(400, "bad_request", message);
    };
  }
}
