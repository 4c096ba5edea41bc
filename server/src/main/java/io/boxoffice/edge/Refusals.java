package io.boxoffice.edge;

import java.util.List;
import java.util.Map;

/** The one mapping from the entities' refusal codes to the contract's statuses and error codes. */
public final class Refusals {
  private Refusals() {}

  public static ApiError toApiError(String code, String message, List<String> seatIds) {
    Map<String, Object> seats = seatIds == null || seatIds.isEmpty() ? Map.of() : Map.of("seats", seatIds);
    return switch (code) {
      case "seats_taken" -> new ApiError(409, "seats_taken", message, seats);
      case "no_seats", "checkout_in_progress", "event_exists", "account_exists" -> new ApiError(409, code, message);
      case "limit_exceeded" -> new ApiError(422, "limit_exceeded", message);
      case "unknown_seats" -> new ApiError(400, "bad_request", message, seats);
      case "hold_expired" -> new ApiError(410, "hold_expired", message, seats);
      case "payment_declined" -> new ApiError(402, "payment_declined", message);
      case "not_found" -> new ApiError(404, "not_found", message);
      case "busy" -> new ApiError(503, "overloaded", message);
      case "unavailable" -> new ApiError(503, "unavailable", message);
      default -> new ApiError(400, "bad_request", message);
    };
  }
}
