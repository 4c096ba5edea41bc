package io.boxoffice.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** What the fans were told during a run: every hold and every sale answered 200, and what went astray. */
final class SaleLog {

  /**
   * A checkout answered 200: when it was first sent and when the answer came, the order, its seats
   * and ticket ids as the answer named them, whose it is, and the Idempotency-Key it was sent with.
   */
  record Sale(long startedMillis, long atMillis, String orderId, int fan, String accountId, List<String> seatIds,
              List<String> ticketIds, String idempotencyKey) {}

  /** A checkout whose outcome its fan did not learn in time: to be asked again, with the same key, after the run. */
  record Unanswered(Fan fan, String idempotencyKey, String paymentToken, long startedMillis, String lastAnswer) {}

  private final List<Long> holds = new ArrayList<>();
  private final List<Long> admissions = new ArrayList<>();
  private final List<Unanswered> unanswered = new ArrayList<>();
  private final List<Sale> sales = new ArrayList<>();
  private final AtomicLong latestHoldDeadline = new AtomicLong();
  final LongAdder fansStarted = new LongAdder();
  final LongAdder fansAdmitted = new LongAdder();
  final LongAdder abandoned = new LongAdder();
  final LongAdder released = new LongAdder();
  final LongAdder holdExpiredAtCheckout = new LongAdder();
  final LongAdder declined = new LongAdder();
  /** Checkouts whose outcome the fan never learned (no answer in time, however often retried). */
  final LongAdder checkoutsUnknown = new LongAdder();
  final LongAdder notAdmittedAfterAdmission = new LongAdder();
  final LongAdder noSeats = new LongAdder();

  synchronized void held(long atMillis, long deadlineMillis) {
    holds.add(atMillis);
    latestHoldDeadline.accumulateAndGet(deadlineMillis, Math::max);
  }

  synchronized void sold(Sale sale) {
    sales.add(sale);
  }

  synchronized void unanswered(Unanswered checkout) {
    unanswered.add(checkout);
    checkoutsUnknown.increment();
  }

  synchronized List<Unanswered> unanswered() {
    return List.copyOf(unanswered);
  }

  synchronized void admitted(long atMillis) {
    admissions.add(atMillis);
    fansAdmitted.increment();
  }

  synchronized List<Long> admissions() {
    return List.copyOf(admissions);
  }

  synchronized List<Long> holds() {
    return List.copyOf(holds);
  }

  synchronized List<Sale> sales() {
    return List.copyOf(sales);
  }

  long latestHoldDeadline() {
    return latestHoldDeadline.get();
  }
}
