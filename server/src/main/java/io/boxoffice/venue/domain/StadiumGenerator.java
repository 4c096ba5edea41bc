package io.boxoffice.venue.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * Generates a stadium of an exact seat count in zones {@code floor}, {@code lower} and
 * {@code upper}: 10% floor in sections F1.., 40% lower bowl in sections 101.., 50% upper
 * bowl in sections 301... Sections have up to 25 rows named A..Z (I skipped), AA.. after.
 */
public final class StadiumGenerator {
  public static final String LAYOUT = "stadium";
  public static final int MIN_SEATS = 3;

  private static final int ROWS_PER_SECTION = 25;

  private StadiumGenerator() {}

  public static VenueLayout generate(String venueId, String name, int seats) {
    if (seats < MIN_SEATS || seats > VenueLayout.MAX_SEATS)
      throw new IllegalArgumentException("a generated stadium has " + MIN_SEATS + "-" + VenueLayout.MAX_SEATS + " seats");
    int floor = Math.max(1, seats / 10);
    int lower = Math.max(1, seats * 4 / 10);
    int upper = seats - floor - lower;
    List<VenueLayout.Section> sections = new ArrayList<>();
    zone(sections, "floor", "F", 1, floor, 20);
    zone(sections, "lower", "", 101, lower, 24);
    zone(sections, "upper", "", 301, upper, 28);
    return new VenueLayout(venueId, name, List.copyOf(sections));
  }

  private static void zone(List<VenueLayout.Section> out, String zone, String prefix, int firstNumber, int seats, int rowWidth) {
    int perSection = ROWS_PER_SECTION * rowWidth;
    int number = firstNumber;
    int left = seats;
    while (left > 0) {
      int inSection = Math.min(left, perSection);
      List<VenueLayout.Row> rows = new ArrayList<>();
      int rowIndex = 0;
      int rowLeft = inSection;
      while (rowLeft > 0) {
        int width = Math.min(rowWidth, rowLeft);
        rows.add(new VenueLayout.Row(rowName(rowIndex++), width));
        rowLeft -= width;
      }
      out.add(new VenueLayout.Section(prefix + number, zone, List.copyOf(rows)));
      number++;
      left -= inSection;
    }
  }

  /** A, B, ... H, J, ... Z, AA, AB, ...: letter row names as venues use them, without I. */
  static String rowName(int index) {
    String letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    StringBuilder sb = new StringBuilder();
    int i = index;
    do {
      sb.insert(0, letters.charAt(i % letters.length()));
      i = i / letters.length() - 1;
    } while (i >= 0);
    return sb.toString();
  }
}
