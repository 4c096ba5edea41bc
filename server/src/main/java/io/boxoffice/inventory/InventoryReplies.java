package io.boxoffice.inventory;

import io.boxoffice.common.Refusal;
import io.boxoffice.inventory.EventInventory.Admitted;
import io.boxoffice.inventory.EventInventory.AlreadyScanned;
import io.boxoffice.inventory.EventInventory.Confirm;
import io.boxoffice.inventory.EventInventory.Confirmed;
import io.boxoffice.inventory.EventInventory.Held;
import io.boxoffice.inventory.EventInventory.Holds;
import io.boxoffice.inventory.EventInventory.Rejected;
import io.boxoffice.inventory.EventInventory.Released;
import io.boxoffice.inventory.EventInventory.Reply;
import io.boxoffice.inventory.EventInventory.SeatChange;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import io.boxoffice.inventory.domain.Decision;
import io.boxoffice.inventory.domain.SeatBook;
import java.util.ArrayList;
import java.util.List;

/**
 * What the inventory answers for what its book decided: seat indices back to seat ids and
 * prices, and each {@link SeatBook.Outcome} to its {@link Reply} (refusals as {@link Refusal}s),
 * in one place apart from the entity's batching and persistence.
 */
final class InventoryReplies {
  private InventoryReplies() {}

  /**
   * The answer to a hold asked again: the first ask's seats while the account still holds them
   * all, with their deadlines as they stand now (fault time may have moved them).
   */
  static Reply heldAgain(SeatBook book, Decision.Held earlier, long now) {
    long until = Long.MAX_VALUE;
    List<String> lost = new ArrayList<>();
    for (int s : earlier.seats()) {
      if (book.effectiveStatus(s, now) != SeatBook.HELD || !earlier.account().equals(book.ownerOf(s))) {
        lost.add(book.map().seatId(s));
      } else {
        until = Math.min(until, book.holdUntil(s));
      }
    }
    if (!lost.isEmpty()) return new Rejected(Refusal.HOLD_EXPIRED, "the hold has expired", lost);
    return new Held(seatPrices(book, earlier.seats()), until);
  }

  /**
   * The reply to what the book decided for {@code command}: a refusal says itself what the fan
   * is told ({@link SeatBook.Refused}); a decision is answered by its kind.
   */
  static Reply replyFor(SeatBook book, SeatChange command, SeatBook.Outcome outcome) {
    if (outcome instanceof SeatBook.Refused r) return new Rejected(r.refusal(), r.message(), r.seatIds());
    if (outcome instanceof SeatBook.Accepted a) return a.decision().accept(new ReplyTo(book));
    if (outcome instanceof SeatBook.AlreadySold) {
      Confirm c = (Confirm) command;
      int[] seats = c.seatIds().stream().mapToInt(book.map()::indexOf).toArray();
      return new Confirmed(c.orderId(), seatPrices(book, seats));
    }
    if (outcome instanceof SeatBook.AlreadyScanned s) return new AlreadyScanned(s.at());
    return new Released(List.of()); // SeatBook.Unchanged: nothing was released
  }

  /** The fan's answer to each kind of decision the book accepted. */
  private record ReplyTo(SeatBook book) implements Decision.Cases<Reply> {
    @Override
    public Reply held(Decision.Held h) {
      return new Held(seatPrices(book, h.seats()), h.until());
    }

    @Override
    public Reply released(Decision.Released r) {
      return new Released(seatIds(book, r.seats()));
    }

    @Override
    public Reply sold(Decision.Sold s) {
      return new Confirmed(s.orderId(), seatPrices(book, s.seats()));
    }

    @Override
    public Reply scanned(Decision.Scanned s) {
      return new Admitted(book.map().seatId(s.seat()));
    }

    @Override
    public Reply refused(Decision.Refused r) {
      return new Rejected(Refusal.HOLD_EXPIRED, "the hold has expired", r.seatIds());
    }
  }

  /** The account's holds live at {@code now - credit}, their deadlines {@code credit} later. */
  static Holds holdsOf(SeatBook book, String account, long now, long credit) {
    int[] seats = book.liveHolds(account, now - credit);
    long earliest = 0;
    for (int s : seats) earliest = earliest == 0 ? book.holdUntil(s) : Math.min(earliest, book.holdUntil(s));
    return new Holds(seatPrices(book, seats), earliest == 0 ? 0 : earliest + credit);
  }

  static List<SeatPrice> seatPrices(SeatBook book, int[] seats) {
    List<SeatPrice> out = new ArrayList<>(seats.length);
    for (int s : seats) out.add(new SeatPrice(book.map().seatId(s), book.priceOf(s)));
    return out;
  }

  static List<String> seatIds(SeatBook book, int[] seats) {
    List<String> out = new ArrayList<>(seats.length);
    for (int s : seats) out.add(book.map().seatId(s));
    return out;
  }
}
