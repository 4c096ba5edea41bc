package io.boxoffice.venue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StadiumGeneratorTest {

  @Test
  void generatesExactlyTheAskedSeatCountInThreeZones() {
    for (int seats : new int[] {3, 10, 999, 70_000, 123_457}) {
      VenueLayout layout = StadiumGenerator.generate("v", "Stadium", seats).validated();
      assertEquals(seats, layout.seatCount());
      SeatMap map = SeatMap.compile(layout);
      assertEquals(seats, map.seatCount());
      assertEquals(List.of("floor", "lower", "upper"), map.zones());
    }
  }

  @Test
  void seatIdsAreUniqueAndNamedSectionRowNumber() {
    SeatMap map = SeatMap.compile(StadiumGenerator.generate("v", "Stadium", 70_000));
    Set<String> ids = new HashSet<>();
    for (int s = 0; s < map.seatCount(); s++) {
      String id = map.seatId(s);
      assertTrue(ids.add(id), id);
      int row = map.rowOf(s);
      assertEquals(map.sectionId(map.rowSection(row)) + "-" + map.rowId(row) + "-" + map.seatNumber(s), id);
      assertEquals(s, map.indexOf(id));
    }
    assertEquals(-1, map.indexOf("nope-A-1"));
    assertEquals("F1-A-1", map.seatId(0));
  }

  @Test
  void rowsAreContiguousRangesNumberedFromOne() {
    SeatMap map = SeatMap.compile(StadiumGenerator.generate("v", "Stadium", 5_000));
    int next = 0;
    for (int r = 0; r < map.rowCount(); r++) {
      assertEquals(next, map.rowStart(r));
      for (int i = 0; i < map.rowLength(r); i++) assertEquals(i + 1, map.seatNumber(next + i));
      next += map.rowLength(r);
    }
    assertEquals(map.seatCount(), next);
  }

  @Test
  void rowNamesSkipTheLetterI() {
    assertEquals("A", StadiumGenerator.rowName(0));
    assertEquals("H", StadiumGenerator.rowName(7));
    assertEquals("J", StadiumGenerator.rowName(8));
    assertEquals("AA", StadiumGenerator.rowName(25));
  }

  @Test
  void refusesSizesOutsideTheLimits() {
    assertThrows(IllegalArgumentException.class, () -> StadiumGenerator.generate("v", "S", 2));
    assertThrows(IllegalArgumentException.class, () -> StadiumGenerator.generate("v", "S", VenueLayout.MAX_SEATS + 1));
  }

  @Test
  void explicitLayoutsAreValidated() {
    VenueLayout.Section ok = new VenueLayout.Section("112", "lower", List.of(new VenueLayout.Row("F", 10)));
    assertEquals(10, new VenueLayout("v", "n", List.of(ok)).validated().seatCount());
    assertThrows(IllegalArgumentException.class, () -> new VenueLayout("v", "n", List.of(ok, ok)).validated());
    assertThrows(IllegalArgumentException.class, () -> new VenueLayout("v", "n",
        List.of(new VenueLayout.Section("1-2", "z", List.of(new VenueLayout.Row("A", 1))))).validated());
    assertThrows(IllegalArgumentException.class, () -> new VenueLayout("v", "n",
        List.of(new VenueLayout.Section("1", "z", List.of(new VenueLayout.Row("A", 0))))).validated());
    assertThrows(IllegalArgumentException.class, () -> new VenueLayout("bad id", "n", List.of(ok)).validated());
    assertThrows(IllegalArgumentException.class, () -> new VenueLayout("v", "n", List.of()).validated());
  }
}
