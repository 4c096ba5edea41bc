package io.boxoffice.venue.domain;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.TypedText;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The compact definition of a venue: sections in price zones, rows with seat counts. Seats are
 * named {@code <sectionId>-<rowId>-<n>}, n from 1. This is what is persisted; {@link SeatMap}
 * is compiled from it.
 */
public record VenueLayout(String venueId, String name, List<Section> sections) implements CborSerializable {

  public static final int MAX_SEATS = 200_000;
  public static final int MAX_SEATS_PER_ROW = 1_000;
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_]{1,32}");

  /** A section of the venue, all in one price zone. */
  public record Section(String sectionId, String zone, List<Row> rows) {}

  /** A row of {@code seats} seats numbered from 1. */
  public record Row(String rowId, int seats) {}

  public int seatCount() {
    int n = 0;
    for (Section s : sections) for (Row r : s.rows()) n += r.seats();
    return n;
  }

  /**
   * True when the id may name a venue, an event or other entity (it is part of persistence ids):
   * 1-64 of {@code [A-Za-z0-9_-]}. A loop, not a regular expression: every request naming an
   * event asks.
   */
  public static boolean isValidEntityId(String id) {
    if (id == null || id.isEmpty() || id.length() > 64) return false;
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
      if (!ok) return false;
    }
    return true;
  }

  /** Checks the layout and throws {@link IllegalArgumentException} with a sentence for a person. */
  public VenueLayout validated() {
    if (!isValidEntityId(venueId)) throw new IllegalArgumentException("venueId must be 1-64 letters, digits, '_' or '-'");
    TypedText.name("name", name, 200);
    if (sections == null || sections.isEmpty()) throw new IllegalArgumentException("a venue needs at least one section");
    Set<String> sectionIds = new HashSet<>();
    long total = 0;
    for (Section s : sections) {
      if (s == null || s.sectionId() == null || !ID.matcher(s.sectionId()).matches())
        throw new IllegalArgumentException("sectionId must be 1-32 letters, digits or '_'");
      if (!sectionIds.add(s.sectionId())) throw new IllegalArgumentException("duplicate sectionId " + s.sectionId());
      if (s.zone() == null || !ID.matcher(s.zone()).matches())
        throw new IllegalArgumentException("zone of section " + s.sectionId() + " must be 1-32 letters, digits or '_'");
      if (s.rows() == null || s.rows().isEmpty()) throw new IllegalArgumentException("section " + s.sectionId() + " has no rows");
      Set<String> rowIds = new HashSet<>();
      for (Row r : s.rows()) {
        if (r == null || r.rowId() == null || !ID.matcher(r.rowId()).matches())
          throw new IllegalArgumentException("rowId in section " + s.sectionId() + " must be 1-32 letters, digits or '_'");
        if (!rowIds.add(r.rowId())) throw new IllegalArgumentException("duplicate row " + r.rowId() + " in section " + s.sectionId());
        if (r.seats() < 1 || r.seats() > MAX_SEATS_PER_ROW)
          throw new IllegalArgumentException("row " + s.sectionId() + "-" + r.rowId() + " must have 1-" + MAX_SEATS_PER_ROW + " seats");
        total += r.seats();
      }
    }
    if (total > MAX_SEATS) throw new IllegalArgumentException("a venue has at most " + MAX_SEATS + " seats");
    return this;
  }
}
