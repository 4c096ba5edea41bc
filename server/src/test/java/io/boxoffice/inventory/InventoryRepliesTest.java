package io.boxoffice.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.boxoffice.common.Refusal;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import io.boxoffice.inventory.domain.SeatBook;
import io.boxoffice.venue.domain.SeatMap;
import io.boxoffice.venue.domain.VenueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a fan is told for each kind of decision the book accepts: its seats, their prices, its order. */
class InventoryRepliesTest {
  static final long T0 = 1_000_000L;
  static final long HOLD = 480_000L;

  final SeatBook book = new SeatBook(SeatMap.compile(new VenueLayout("v", "Venue", List.of(
      new VenueLayout.Section("A", "front", List.of(new VenueLayout.Row("1", 4))),
      new VenueLayout.Section("B", "back", List.of(new VenueLayout.Row("1", 4))))).validated()),
      Map.of("front", 100, "back", 50), 8);

  @Test
  void eachAcceptedDecisionIsAnsweredByItsKind() {
    assertEquals(new EventInventory.Held(List.of(new SeatPrice("A-1-1", 100), new SeatPrice("B-1-2", 50)), T0 + HOLD),
        decided(book.hold("fan", List.of("A-1-1", "B-1-2"), T0, T0 + HOLD)));
    assertEquals(new EventInventory.Released(List.of("B-1-2")), decided(book.release("fan", List.of("B-1-2"))));
    assertEquals(new EventInventory.Confirmed("o1", List.of(new SeatPrice("A-1-1", 100))),
        decided(book.confirm("fan", "o1", List.of("A-1-1"), T0 + 1)));
    assertEquals(new EventInventory.Admitted("A-1-1"), decided(book.scan("A-1-1", "o1", T0 + 2)));
    // A confirm that finds a seat no longer held refuses its order for good, naming the seats lost.
    assertEquals(new EventInventory.Rejected(Refusal.HOLD_EXPIRED, "the hold has expired", List.of("B-1-2")),
        decided(book.confirm("fan", "o2", List.of("B-1-2"), T0 + 3)));
  }

  /** The reply to an accepted outcome, with its decision then applied, as the entity does after persisting it. */
  private EventInventory.Reply decided(SeatBook.Outcome outcome) {
    SeatBook.Accepted accepted = (SeatBook.Accepted) outcome;
    EventInventory.Reply reply = InventoryReplies.replyFor(book, null, accepted);
    book.apply(accepted.decision());
    return reply;
  }
}
