package io.boxoffice.inventory.domain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.venue.domain.SeatMap;
import io.boxoffice.venue.domain.VenueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeatBookTest {
  static final long T0 = 1_000_000L;
  static final long HOLD = 480_000L;

  /** Zone "front" (dearer): section A rows 1 (6 seats) and 2 (6 seats); zone "back": section B row 1 (10 seats). */
  static SeatMap smallVenue() {
    return SeatMap.compile(new VenueLayout("v", "Venue", List.of(
        new VenueLayout.Section("A", "front", List.of(new VenueLayout.Row("1", 6), new VenueLayout.Row("2", 6))),
        new VenueLayout.Section("B", "back", List.of(new VenueLayout.Row("1", 10))))).validated());
  }

  static SeatBook book(int maxPerAccount) {
    return new SeatBook(smallVenue(), Map.of("front", 100, "back", 50), maxPerAccount);
  }

  static Decision accept(SeatBook book, SeatBook.Outcome outcome) {
    SeatBook.Accepted a = assertInstanceOf(SeatBook.Accepted.class, outcome);
    book.apply(a.decision());
    return a.decision();
  }

  @Test
  void holdOfChosenSeatsIsAllOrNothing() {
    SeatBook book = book(8);
    accept(book, book.hold("x", List.of("A-1-1"), T0, T0 + HOLD));
    SeatBook.Outcome o = book.hold("y", List.of("A-1-2", "A-1-1"), T0, T0 + HOLD);
    assertEquals(new SeatBook.SeatsTaken(List.of("A-1-1")), o);
    assertEquals(SeatBook.AVAILABLE, book.effectiveStatus(book.map().indexOf("A-1-2"), T0));
    assertArrayEquals(new int[0], book.liveHolds("y", T0));
  }

  @Test
  void unknownSeatsAreNamedAndNothingIsHeld() {
    SeatBook book = book(8);
    assertEquals(new SeatBook.UnknownSeats(List.of("Z-9-9")), book.hold("x", List.of("A-1-1", "Z-9-9"), T0, T0 + HOLD));
    assertEquals(SeatBook.AVAILABLE, book.effectiveStatus(0, T0));
  }

  @Test
  void aHoldPastItsDeadlineCountsAsAvailableWithoutAnySweep() {
    SeatBook book = book(8);
    accept(book, book.hold("x", List.of("A-1-1"), T0, T0 + HOLD));
    assertInstanceOf(SeatBook.SeatsTaken.class, book.hold("y", List.of("A-1-1"), T0 + HOLD - 1, T0 + 2 * HOLD));
    // Nobody called expireUpTo: the deadline alone frees the seat.
    accept(book, book.hold("y", List.of("A-1-1"), T0 + HOLD, T0 + 2 * HOLD));
    assertEquals("y", book.ownerOf(0));
    assertArrayEquals(new int[0], book.liveHolds("x", T0 + HOLD));
  }

  @Test
  void confirmNeedsALiveHoldOfThatAccount() {
    SeatBook book = book(8);
    accept(book, book.hold("x", List.of("A-1-1", "A-1-2"), T0, T0 + HOLD));
    refused(book, book.confirm("y", "o-y", List.of("A-1-1", "A-1-2"), T0), "A-1-1", "A-1-2");
    refused(book, book.confirm("x", "o-x1", List.of("A-1-1", "A-1-2"), T0 + HOLD), "A-1-1", "A-1-2");
    refused(book, book.confirm("x", "o-x2", List.of("A-1-1", "A-1-3"), T0), "A-1-3");
    assertEquals(new SeatBook.HoldExpired(List.of()), book.confirm("x", "o-x3", List.of(), T0));
    accept(book, book.confirm("x", "o-x", List.of("A-1-1", "A-1-2"), T0 + HOLD - 1));
    assertEquals(SeatBook.SOLD, book.effectiveStatus(0, T0 + 10 * HOLD));
    assertEquals("o-x", book.orderOf(0));
    // Confirming the same order again changes nothing and is not an error.
    assertInstanceOf(SeatBook.AlreadySold.class, book.confirm("x", "o-x", List.of("A-1-1", "A-1-2"), T0 + 10 * HOLD));
  }

  @Test
  void soldIsFinal() {
    SeatBook book = book(8);
    accept(book, book.hold("x", List.of("A-1-1"), T0, T0 + HOLD));
    accept(book, book.confirm("x", "o1", List.of("A-1-1"), T0));
    book.expireUpTo(T0 + 5 * HOLD);
    assertInstanceOf(SeatBook.SeatsTaken.class, book.hold("y", List.of("A-1-1"), T0 + 5 * HOLD, T0 + 6 * HOLD));
    assertInstanceOf(SeatBook.Unchanged.class, book.release("x", List.of("A-1-1")));
    refused(book, book.confirm("y", "o2", List.of("A-1-1"), T0), "A-1-1");
    assertEquals("x", book.ownerOf(0));
  }

  @Test
  void anOrderRefusedOnceIsNeverSoldAlsoWhenItsFanHoldsTheSeatsAgain() {
    SeatBook book = book(8);
    accept(book, book.hold("x", List.of("A-1-1", "A-1-2"), T0, T0 + HOLD));
    // The checkout's confirm arrives after the deadline: refused, and its payment is voided.
    refused(book, book.confirm("x", "o1", List.of("A-1-1", "A-1-2"), T0 + HOLD), "A-1-1", "A-1-2");
    // The fan holds the same seats again for a new checkout...
    accept(book, book.hold("x", List.of("A-1-1", "A-1-2"), T0 + HOLD + 1, T0 + 2 * HOLD));
    // ...and a repeat of the first confirm (an ask retried after a timeout, recovery) arrives.
    assertEquals(new SeatBook.HoldExpired(List.of("A-1-1", "A-1-2")),
        book.confirm("x", "o1", List.of("A-1-1", "A-1-2"), T0 + HOLD + 2));
    assertEquals(SeatBook.HELD, book.effectiveStatus(0, T0 + HOLD + 2));
    // Also after a snapshot; the new checkout's own order sells.
    SeatBook copy = SeatBook.fromSnapshot(book.map(), Map.of("front", 100, "back", 50), 8, book.toSnapshot());
    assertInstanceOf(SeatBook.HoldExpired.class, copy.confirm("x", "o1", List.of("A-1-1", "A-1-2"), T0 + HOLD + 2));
    accept(copy, copy.confirm("x", "o2", List.of("A-1-1", "A-1-2"), T0 + HOLD + 2));
    assertEquals("o2", copy.orderOf(0));
    assertEquals(1, copy.orderCount());
  }

  /** A confirm that lost seats refuses its order for good: a decision that changes no seat. */
  static void refused(SeatBook book, SeatBook.Outcome outcome, String... lost) {
    Decision d = accept(book, outcome);
    Decision.Refused r = assertInstanceOf(Decision.Refused.class, d);
    assertEquals(List.of(lost), r.seatIds());
  }

  @Test
  void thePerAccountCapCountsLiveHoldsAndPurchases() {
    SeatBook book = book(3);
    accept(book, book.hold("x", List.of("A-1-1", "A-1-2"), T0, T0 + HOLD));
    assertEquals(new SeatBook.LimitExceeded(3), book.hold("x", List.of("A-1-3", "A-1-4"), T0, T0 + HOLD));
    accept(book, book.confirm("x", "o1", List.of("A-1-1", "A-1-2"), T0));
    assertEquals(new SeatBook.LimitExceeded(3), book.holdBest("x", 2, null, null, T0, T0 + HOLD));
    accept(book, book.hold("x", List.of("A-1-3"), T0, T0 + HOLD));
    // Expired holds stop counting.
    assertInstanceOf(SeatBook.LimitExceeded.class, book.hold("x", List.of("A-1-4"), T0 + 1, T0 + HOLD));
    assertInstanceOf(SeatBook.Accepted.class, book.hold("x", List.of("A-1-4"), T0 + HOLD, T0 + 2 * HOLD));
  }

  @Test
  void releaseGivesBackOnlyTheAccountsOwnHolds() {
    SeatBook book = book(8);
    accept(book, book.hold("x", List.of("A-1-1", "A-1-2"), T0, T0 + HOLD));
    assertInstanceOf(SeatBook.Unchanged.class, book.release("y", List.of("A-1-1")));
    Decision d = accept(book, book.release("x", List.of("A-1-1")));
    assertArrayEquals(new int[] {0}, ((Decision.Released) d).seats());
    assertEquals(SeatBook.AVAILABLE, book.effectiveStatus(0, T0));
    assertEquals(SeatBook.HELD, book.effectiveStatus(1, T0));
    accept(book, book.release("x", null));
    assertEquals(SeatBook.AVAILABLE, book.effectiveStatus(1, T0));
  }

  @Test
  void bestAvailablePrefersBetterZonesAndRowsAndTheMiddleOfTheRow() {
    SeatBook book = book(8);
    Decision.Held h = (Decision.Held) accept(book, book.holdBest("x", 2, null, null, T0, T0 + HOLD));
    assertEquals(List.of("A-1-3", "A-1-4"), ids(book, h.seats()));
    Decision.Held back = (Decision.Held) accept(book, book.holdBest("y", 2, null, "back", T0, T0 + HOLD));
    assertEquals("back", book.map().zones().get(book.map().zoneOf(back.seats()[0])));
    Decision.Held cheap = (Decision.Held) accept(book, book.holdBest("z", 2, 60, null, T0, T0 + HOLD));
    assertEquals("back", book.map().zones().get(book.map().zoneOf(cheap.seats()[0])));
    assertEquals(new SeatBook.NoSeats(), book.holdBest("w", 2, 10, null, T0, T0 + HOLD));
    assertEquals(new SeatBook.NoSeats(), book.holdBest("w", 2, null, "nowhere", T0, T0 + HOLD));
  }

  @Test
  void bestAvailableAvoidsLeavingALoneSeatWhenAnotherChoiceExists() {
    SeatBook book = book(8);
    // Row A-1: leave a run of exactly 3 (seats 4-6); row A-2: leave exactly 2 (seats 1-2).
    accept(book, book.hold("s", List.of("A-1-1", "A-1-2", "A-1-3"), T0, T0 + 10 * HOLD));
    accept(book, book.hold("t", List.of("A-2-3", "A-2-4", "A-2-5", "A-2-6"), T0, T0 + 10 * HOLD));
    Decision.Held h = (Decision.Held) accept(book, book.holdBest("x", 2, null, "front", T0, T0 + HOLD));
    assertEquals(List.of("A-2-1", "A-2-2"), ids(book, h.seats()), "taking 2 of the 3 in row 1 would strand one seat");
    // Now only row A-1 with its run of 3 is left in the front: a lone seat cannot be avoided there.
    Decision.Held h2 = (Decision.Held) accept(book, book.holdBest("y", 2, null, "front", T0, T0 + HOLD));
    assertEquals(2, h2.seats().length);
    assertTrue(ids(book, h2.seats()).stream().allMatch(id -> id.startsWith("A-1-")));
  }

  @Test
  void pairsFillAnEvenRowToTheLastSeatStartingFromItsMiddle() {
    SeatBook book = new SeatBook(SeatMap.compile(new VenueLayout("v", "V", List.of(
        new VenueLayout.Section("S", "z", List.of(new VenueLayout.Row("A", 24))))).validated()), Map.of("z", 1), 2);
    Decision.Held first = (Decision.Held) accept(book, book.holdBest("fan-0", 2, null, null, T0, T0 + HOLD));
    assertTrue(first.seats()[0] >= 9 && first.seats()[1] <= 14, "the first pair sits near the middle");
    for (int i = 1; i < 12; i++) accept(book, book.holdBest("fan-" + i, 2, null, null, T0, T0 + HOLD));
    assertArrayEquals(new int[] {0, 24, 0}, book.counts(T0), "no seat stranded");
  }

  @Test
  void bestAvailableSeesSeatsOfExpiredHoldsOnceExpired() {
    SeatBook book = book(8);
    accept(book, book.hold("s", List.of("A-1-1", "A-1-2", "A-1-3", "A-1-4", "A-1-5", "A-1-6"), T0, T0 + HOLD));
    accept(book, book.hold("t", List.of("A-2-1", "A-2-2", "A-2-3", "A-2-4", "A-2-5", "A-2-6"), T0, T0 + 3 * HOLD));
    assertEquals(new SeatBook.NoSeats(), book.holdBest("x", 2, null, "front", T0 + HOLD, T0 + 2 * HOLD));
    book.expireUpTo(T0 + HOLD);
    Decision.Held h = (Decision.Held) accept(book, book.holdBest("x", 2, null, "front", T0 + HOLD, T0 + 2 * HOLD));
    assertTrue(ids(book, h.seats()).stream().allMatch(id -> id.startsWith("A-1-")));
  }

  @Test
  void aTicketIsAdmittedOnce() {
    SeatBook book = book(8);
    accept(book, book.hold("x", List.of("A-1-1"), T0, T0 + HOLD));
    accept(book, book.confirm("x", "o1", List.of("A-1-1"), T0));
    assertEquals(new SeatBook.NotSold(), book.scan("A-1-1", "other-order", T0));
    assertEquals(new SeatBook.NotSold(), book.scan("A-1-2", "o1", T0));
    accept(book, book.scan("A-1-1", "o1", T0 + 5));
    assertEquals(new SeatBook.AlreadyScanned(T0 + 5), book.scan("A-1-1", "o1", T0 + 10));
  }

  @Test
  void availabilityPacksTwoBitsASeatHighBitsFirst() {
    SeatBook book = book(8);
    accept(book, book.hold("x", List.of("A-1-2"), T0, T0 + HOLD));
    accept(book, book.hold("y", List.of("A-1-4"), T0, T0 + HOLD));
    accept(book, book.confirm("y", "o", List.of("A-1-4"), T0));
    byte[] bits = book.availabilityBits(T0);
    assertEquals((22 + 3) / 4, bits.length);
    assertEquals(0b00_01_00_10, bits[0] & 0xff);
    // After the hold's deadline seat 2 reads as available again.
    assertEquals(0b00_00_00_10, book.availabilityBits(T0 + HOLD)[0] & 0xff);
    assertArrayEquals(new int[] {20, 1, 1}, book.counts(T0));
  }

  @Test
  void aSnapshotRestoresTheSameBook() {
    SeatBook book = book(8);
    accept(book, book.hold("x", List.of("A-1-1", "A-1-2"), T0, T0 + HOLD));
    accept(book, book.hold("y", List.of("B-1-5"), T0, T0 + 2 * HOLD));
    accept(book, book.confirm("y", "oy", List.of("B-1-5"), T0));
    accept(book, book.scan("B-1-5", "oy", T0 + 1));
    SeatBook copy = SeatBook.fromSnapshot(book.map(), Map.of("front", 100, "back", 50), 8, book.toSnapshot());
    for (long t : new long[] {T0, T0 + HOLD}) {
      assertArrayEquals(book.availabilityBits(t), copy.availabilityBits(t));
      assertArrayEquals(book.liveHolds("x", t), copy.liveHolds("x", t));
    }
    assertEquals("oy", copy.orderOf(book.map().indexOf("B-1-5")));
    assertEquals(T0 + 1, copy.scannedAt(book.map().indexOf("B-1-5")));
    assertEquals(book.seatsOf("y", T0), copy.seatsOf("y", T0));
    assertArrayEquals(book.findBest(2, null, null), copy.findBest(2, null, null));
    assertNotNull(copy.findBest(2, null, null));
    assertNull(copy.findBest(20, null, null));
  }

  static List<String> ids(SeatBook book, int[] seats) {
    return java.util.Arrays.stream(seats).mapToObj(book.map()::seatId).toList();
  }
}
