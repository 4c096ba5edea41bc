package io.boxoffice.sim;

import io.boxoffice.load.Counts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/** What the crowd met during a run, kept for the measures: sales, holds, outcomes, places that moved. */
final class Observations {
  /** One confirmed order: whose, which seats, when (epoch ms). */
  record Sale(Account account, String orderId, List<String> seatIds, long atMillis) {}

  /** Seats a bot held and will not pay for (inventory denial), when (epoch ms). */
  record DeniedHold(Account account, List<String> seatIds, long atMillis) {}

  final ConcurrentLinkedQueue<Sale> sales = new ConcurrentLinkedQueue<>();
  final ConcurrentLinkedQueue<DeniedHold> deniedHolds = new ConcurrentLinkedQueue<>();
  final LongAdder holds = new LongAdder();
  /** Status answers that told the page "admitted": the first call of an admitted fan, not a waiting one's. */
  final LongAdder statusesAdmitted = new LongAdder();
  final LongAdder seatsHeld = new LongAdder();
  /** Holds of named seats answered 200 with other seats than those named (all or nothing: must stay 0). */
  final LongAdder partialHolds = new LongAdder();
  /** Holds of named hot seats: tried, refused seats_taken, held. */
  final LongAdder hotTried = new LongAdder();
  final LongAdder hotTaken = new LongAdder();
  final LongAdder hotHeld = new LongAdder();
  /** A tab shown a second, different place (a correct line never moves anyone). */
  final LongAdder placesChanged = new LongAdder();
  /** A defense that let a bot's probe through: probe -> count (must stay empty). */
  private final Counts<String> breaches = new Counts<>();
  /** "human"/"bot" -> outcome -> count: bought, no seats, abandoned, hold expired, ... */
  private final Counts<String> outcomes = new Counts<>();

  void sold(Account account, String orderId, List<String> seatIds) {
    sales.add(new Sale(account, orderId, List.copyOf(seatIds), System.currentTimeMillis()));
    account.seatsBought.addAndGet(seatIds.size());
  }

  void held(int seats) {
    holds.increment();
    seatsHeld.add(seats);
  }

  void outcome(Account account, String what) {
    outcomes.increment(account.bot ? "bot" : "human", what);
  }

  void breach(String probe) {
    breaches.increment("breaches", probe);
  }

  Map<String, Long> breaches() {
    return breaches.snapshot().getOrDefault("breaches", Map.of());
  }

  Map<String, Map<String, Long>> outcomes() {
    return outcomes.snapshot();
  }

  List<Sale> salesList() {
    return new ArrayList<>(sales);
  }
}
