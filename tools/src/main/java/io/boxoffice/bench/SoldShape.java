package io.boxoffice.bench;

import io.boxoffice.inventory.domain.Decision;
import io.boxoffice.inventory.domain.SeatBook;
import io.boxoffice.venue.domain.SeatMap;
import io.boxoffice.venue.domain.StadiumGenerator;
import io.boxoffice.venue.domain.VenueLayout;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * The 80%-sold stadium both best-available measurements search: 70,000 seats, exactly 56,000
 * of them sold, picked by a seeded shuffle so every run sees the same scattered free runs.
 * Seat index i of the seat map is {@code seat_id = i + 1} in the seed's {@code seats} table.
 */
final class SoldShape {
  static final int SEATS = 70_000;
  static final int SOLD = SEATS * 8 / 10;
  static final long SEED = 0x5EA7_B00CL;

  private SoldShape() {}

  static VenueLayout stadium() {
    return StadiumGenerator.generate("bench-stadium", "Bench Stadium", SEATS);
  }

  static Map<String, Integer> prices() {
    return Map.of("floor", 20_000, "lower", 12_000, "upper", 6_000);
  }

  /** The sold seat indices, ascending. */
  static int[] soldSeats() {
    int[] seats = IntStream.range(0, SEATS).toArray();
    SplittableRandom random = new SplittableRandom(SEED);
    for (int i = SEATS - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = seats[i];
      seats[i] = seats[j];
      seats[j] = t;
    }
    int[] sold = Arrays.copyOf(seats, SOLD);
    Arrays.sort(sold);
    return sold;
  }

  /** A seat book of the stadium with {@link #soldSeats()} sold, one order per row. */
  static SeatBook soldBook() {
    SeatMap map = SeatMap.compile(stadium());
    SeatBook book = new SeatBook(map, prices(), 50);
    int[] sold = soldSeats();
    for (int i = 0; i < sold.length; ) {
      int row = map.rowOf(sold[i]);
      int j = i;
      while (j < sold.length && map.rowOf(sold[j]) == row) j++;
      book.apply(new Decision.Sold("bench-sold", "bench-order-" + row, Arrays.copyOfRange(sold, i, j)));
      i = j;
    }
    return book;
  }
}
