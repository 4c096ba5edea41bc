package io.boxoffice.admin.http;

import io.boxoffice.admin.http.AdminJson.OnSaleRequest;
import io.boxoffice.admin.http.AdminJson.VenueRequest;
import io.boxoffice.edge.ApiError;
import io.boxoffice.queue.domain.OnSaleSchedule;
import io.boxoffice.venue.domain.StadiumGenerator;
import io.boxoffice.venue.domain.VenueLayout;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** The managers' request bodies as checked domain values, or a 400 {@link ApiError} saying what is wrong. */
final class AdminRequests {
  private AdminRequests() {}

  /** The venue's layout: its sections as given, or a generated stadium. */
  static VenueLayout layout(VenueRequest r) {
    try {
      if (r.generate() == null) return new VenueLayout(r.venueId(), r.name(), r.sections()).validated();
      if (r.sections() != null) throw new IllegalArgumentException("give either sections or generate, not both");
      if (!StadiumGenerator.LAYOUT.equals(r.generate().layout())) throw new IllegalArgumentException("generate.layout must be \"stadium\"");
      if (r.generate().seats() == null) throw new IllegalArgumentException("generate.seats is required");
      if (!VenueLayout.isValidEntityId(r.venueId())) throw new IllegalArgumentException("venueId must be 1-64 letters, digits, '_' or '-'");
      return StadiumGenerator.generate(r.venueId(), r.name(), r.generate().seats()).validated();
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(e.getMessage());
    }
  }

  /** A checked on-sale schedule. */
  static OnSaleSchedule schedule(OnSaleRequest r) {
    try {
      if (r.lobbyOpensAt() == null || r.startsAt() == null) throw new IllegalArgumentException("lobbyOpensAt and startsAt are required");
      if (r.admissionPerMinute() == null || r.maxActiveShoppers() == null) {
        throw new IllegalArgumentException("admissionPerMinute and maxActiveShoppers are required");
      }
      return new OnSaleSchedule(instant(r.lobbyOpensAt(), "lobbyOpensAt"), instant(r.startsAt(), "startsAt"),
          r.admissionPerMinute(), r.maxActiveShoppers(), Boolean.TRUE.equals(r.presale()), r.powBits() == null ? 0 : r.powBits())
          .validated();
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(e.getMessage());
    }
  }

  static int orDefault(Integer value, int fallback) {
    return value == null ? fallback : value;
  }

  private static long instant(String iso, String field) {
    try {
      return Instant.parse(iso).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(field + " must be an ISO-8601 UTC time like 2026-12-01T10:00:00Z");
    }
  }
}
