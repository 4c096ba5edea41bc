package io.boxoffice.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
  final LongAdder seatsHeld = new LongAdder();
  /** A tab shown a second, different place (a correct line never moves anyone). */
  final LongAdder placesChanged = new LongAdder();
  /** A defense that let a bot's probe through: probe -> count (must stay empty). */
  final Map<String, LongAdder> breaches = new ConcurrentHashMap<>();
  /** "human"/"bot" -> outcome -> count: bought, no seats, abandoned, hold expired, ... */
  private final Map<String, Map<String, LongAdder>> outcomes = new ConcurrentHashMap<>();

  void sold(Account account, String orderId, List<String> seatIds) {
    sales.add(new Sale(account, orderId, List.copyOf(seatIds), System.currentTimeMillis()));
    account.seatsBought.addAndGet(seatIds.size());
  }

  void held(int seats) {
    holds.increment();
    seatsHeld.add(seats);
  }

  void outcome(Account account, String what) {
    outcomes.computeIfAbsent(account.bot ? "bot" : "human", k -> new ConcurrentHashMap<>())
        .computeIfAbsent(what, k -> new LongAdder()).increment();
  }

  void breach(String probe) {
    breaches.computeIfAbsent(probe, k -> new LongAdder()).increment();
  }

  Map<String, Long> breaches() {
    Map<String, Long> out = new TreeMap<>();
    breaches.forEach((k, n) -> out.put(k, n.sum()));
    return out;
  }

  Map<String, Map<String, Long>> outcomes() {
    Map<String, Map<String, Long>> out = new TreeMap<>();
    outcomes.forEach((kind, m) -> {
      Map<String, Long> copy = new TreeMap<>();
      m.forEach((k, n) -> copy.put(k, n.sum()));
      out.put(kind, copy);
    });
    return out;
  }

  List<Sale> salesList() {
    return new ArrayList<>(sales);
  }
}
