package io.boxoffice.chaos;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The verdict of an on-sale under fire, from what the fans were told, what the cluster answers
 * afterwards and what the payment ledger holds. Pure: everything it judges is handed to it.
 */
final class Verdict {

  /** An order as {@code GET /api/orders/{id}} showed it to its owner afterwards (status 404: not found). */
  record FoundOrder(String orderId, int status, List<String> seatIds, List<String> ticketIds) {}

  /** One row of the payment simulator's ledger. */
  record LedgerRow(String authorizeKey, String status) {
    String orderId() {
      return authorizeKey.endsWith(":authorize") ? authorizeKey.substring(0, authorizeKey.length() - ":authorize".length()) : authorizeKey;
    }
  }

  /** A stretch of time, in epoch milliseconds. */
  record Span(long from, long to) {
    long millis() {
      return to - from;
    }
  }

  /**
   * How sales fared after one fault: time to the next sale sent after it and to the next hold, the lowest sales
   * in 5 s within the next minute as a share of the 5 s average of the 10 s before (1.0: no dip),
   * and the time until sales stayed above half that average ({@code -1}: they never did).
   */
  record Recovery(ChaosCluster.Event fault, long toNextSaleMillis, long toNextHoldMillis, double lowestShare, long backToHalfMillis) {}

  /** Sales per second with and without a recent fault. */
  record Rates(double overall, double withFault, double withoutFault, long faultMillis, long cleanMillis) {}

  /** Must-be-zero counts, with a few examples of each. */
  final Map<String, Long> mustBeZero = new LinkedHashMap<>();
  final Map<String, List<String>> examples = new LinkedHashMap<>();
  final Map<String, String> figures = new LinkedHashMap<>();
  final List<String> notes = new ArrayList<>();
  long sales;

  boolean passed() {
    return mustBeZero.values().stream().allMatch(v -> v == 0) && sales > 0;
  }

  // ---- the checks -------------------------------------------------------------------------

  /** Seats named by two or more different orders that were confirmed (answered 200 or found with tickets). */
  static Map<String, Set<String>> seatsSoldTwice(Collection<SaleLog.Sale> sales, Collection<FoundOrder> found) {
    Map<String, Set<String>> ordersBySeat = new HashMap<>();
    for (SaleLog.Sale s : sales) for (String seat : s.seatIds()) ordersBySeat.computeIfAbsent(seat, k -> new TreeSet<>()).add(s.orderId());
    for (FoundOrder o : found) {
      if (o.status() != 200) continue;
      for (String seat : o.seatIds()) ordersBySeat.computeIfAbsent(seat, k -> new TreeSet<>()).add(o.orderId());
    }
    Map<String, Set<String>> twice = new LinkedHashMap<>();
    ordersBySeat.forEach((seat, orders) -> {
      if (orders.size() > 1) twice.put(seat, orders);
    });
    return twice;
  }

  /** Sales answered 200 whose order is not there afterwards with the same tickets. */
  static List<String> confirmedButMissing(Collection<SaleLog.Sale> sales, Map<String, FoundOrder> found) {
    List<String> missing = new ArrayList<>();
    for (SaleLog.Sale s : sales) {
      FoundOrder o = found.get(s.orderId());
      if (o == null || o.status() != 200) {
        missing.add(s.orderId() + " (" + (o == null ? "not looked up" : "answered " + o.status()) + ")");
      } else if (!new HashSet<>(o.seatIds()).equals(new HashSet<>(s.seatIds()))
          || !new HashSet<>(o.ticketIds()).equals(new HashSet<>(s.ticketIds()))) {
        missing.add(s.orderId() + " (tickets " + s.seatIds() + " at checkout, " + o.seatIds() + " now)");
      }
    }
    return missing;
  }

  /** Captured payments whose order is not found or has no tickets. */
  static List<String> capturedWithoutTickets(Collection<LedgerRow> ledger, Map<String, FoundOrder> found) {
    List<String> out = new ArrayList<>();
    for (LedgerRow row : ledger) {
      if (!row.status().equals("CAPTURED")) continue;
      FoundOrder o = found.get(row.orderId());
      if (o == null || o.status() != 200 || o.seatIds().isEmpty()) {
        out.add(row.orderId() + " (" + (o == null ? "owner unknown" : o.status() != 200 ? "order answered " + o.status() : "no tickets") + ")");
      }
    }
    return out;
  }

  /**
   * Authorizations neither captured nor voided: a card hold without a ticket. Checkout recovery
   * must finish or void every one that a crash left open, so after the run none may remain.
   */
  static List<String> authorizationsLeftOpen(Collection<LedgerRow> ledger) {
    List<String> open = new ArrayList<>();
    for (LedgerRow row : ledger) if (row.status().equals("AUTHORIZED")) open.add(row.orderId());
    return open;
  }

  /**
   * The event's own seat counts against its capacity: sold + held + available must be the
   * capacity (the sum at creation); a seat counted twice or lost is the difference.
   */
  static List<String> seatsNotAddingUp(long capacity, long sold, long held, long available) {
    long sum = sold + held + available;
    if (sum == capacity) return List.of();
    return List.of(sold + " sold + " + held + " held + " + available + " available = " + sum + ", capacity " + capacity);
  }

  /**
   * Idempotency-Keys whose checkouts captured more than one order: a fan retrying a checkout
   * with the same key must be charged once. {@code captured}: order ids captured in the ledger.
   */
  static Map<String, Set<String>> keysCapturedMoreThanOnce(Collection<SaleLog.Sale> sales, Set<String> captured) {
    Map<String, Set<String>> ordersByKey = new HashMap<>();
    for (SaleLog.Sale s : sales) {
      if (captured.contains(s.orderId())) ordersByKey.computeIfAbsent(s.idempotencyKey(), k -> new TreeSet<>()).add(s.orderId());
    }
    Map<String, Set<String>> twice = new LinkedHashMap<>();
    ordersByKey.forEach((key, orders) -> {
      if (orders.size() > 1) twice.put(key, orders);
    });
    return twice;
  }

  // ---- the figures ------------------------------------------------------------------------

  /** The longest time without a success between {@code from} and {@code to}, counting both ends. */
  static Span longestGap(List<Long> successes, long from, long to) {
    List<Long> times = new ArrayList<>();
    for (long t : successes) if (t >= from && t <= to) times.add(t);
    times.sort(null);
    Span longest = new Span(from, from);
    long previous = from;
    for (long t : times) {
      if (t - previous > longest.millis()) longest = new Span(previous, t);
      previous = t;
    }
    if (to - previous > longest.millis()) longest = new Span(previous, to);
    return longest;
  }

  /** For each fault, how sales fared after it until the next fault (at most a minute), see {@link Recovery}. */
  static List<Recovery> recoveries(List<ChaosCluster.Event> faults, List<SaleLog.Sale> sales, List<Long> holdTimes, long until) {
    List<Long> saleTimes = sales.stream().map(SaleLog.Sale::atMillis).toList();
    List<Recovery> out = new ArrayList<>();
    for (int i = 0; i < faults.size(); i++) {
      ChaosCluster.Event f = faults.get(i);
      long horizon = Math.min(until, f.atMillis() + HORIZON_MILLIS);
      if (i + 1 < faults.size()) horizon = Math.min(horizon, Math.max(f.atMillis() + RATE_WINDOW_MILLIS, faults.get(i + 1).atMillis()));
      long[] dip = dip(saleTimes, f.atMillis(), horizon);
      out.add(new Recovery(f, firstSentAfter(sales, f.atMillis()), firstAfter(holdTimes, f.atMillis()), dip[0] / 1000.0, dip[1]));
    }
    return out;
  }

  static final long BASELINE_MILLIS = 10_000;
  static final long RATE_WINDOW_MILLIS = 5_000;
  static final long HORIZON_MILLIS = 60_000;

  /**
   * Slides a 5 s window (in steps of 0.1 s) from {@code at} to {@code horizon}: the lowest count
   * in it as thousandths of the 5 s average of the 10 s before {@code at}, and the time from
   * {@code at} to the end of the last window under half that average (0 when none was; -1 when
   * the last window of all was). No sales before: no dip, nothing to recover.
   */
  static long[] dip(List<Long> saleTimes, long at, long horizon) {
    long before = saleTimes.stream().filter(t -> t >= at - BASELINE_MILLIS && t < at).count();
    if (before == 0) return new long[] {1000, 0};
    double baseline = (double) before * RATE_WINDOW_MILLIS / BASELINE_MILLIS;
    List<Long> after = new ArrayList<>(saleTimes.stream().filter(t -> t >= at && t < horizon).toList());
    after.sort(null);
    long lowest = Long.MAX_VALUE;
    long lastBelow = Long.MIN_VALUE;
    long lastStart = Math.max(at, horizon - RATE_WINDOW_MILLIS);
    for (long start = at; start <= lastStart; start += 100) {
      long from = start;
      long count = after.stream().filter(t -> t >= from && t < from + RATE_WINDOW_MILLIS).count();
      lowest = Math.min(lowest, count);
      if (count < baseline / 2) lastBelow = start;
    }
    long share = Math.min(1000, Math.round(1000 * lowest / baseline));
    if (lastBelow == Long.MIN_VALUE) return new long[] {share, 0};
    if (lastBelow == lastStart) return new long[] {share, -1};
    return new long[] {share, lastBelow + RATE_WINDOW_MILLIS - at};
  }

  /** Sales in each {@code bucketMillis} from {@code from} to {@code to}. */
  static List<Integer> timeline(List<Long> saleTimes, long from, long to, long bucketMillis) {
    int buckets = (int) Math.max(1, (to - from + bucketMillis - 1) / bucketMillis);
    Integer[] counts = new Integer[buckets];
    java.util.Arrays.fill(counts, 0);
    for (long t : saleTimes) {
      if (t < from || t >= to) continue;
      counts[(int) ((t - from) / bucketMillis)]++;
    }
    return List.of(counts);
  }

  /** From {@code at} to the answer of the first sale whose checkout was sent after it (sales under way do not count); -1 if none. */
  static long firstSentAfter(List<SaleLog.Sale> sales, long at) {
    long best = -1;
    for (SaleLog.Sale s : sales) if (s.startedMillis() >= at && (best < 0 || s.atMillis() - at < best)) best = s.atMillis() - at;
    return best;
  }

  static long firstAfter(List<Long> times, long at) {
    long best = -1;
    for (long t : times) if (t >= at && (best < 0 || t - at < best)) best = t - at;
    return best;
  }

  /** The faults' times of trouble: from each fault's start until {@code recentMillis} after it ended. */
  static List<Span> faultWindows(List<ChaosCluster.Event> events, long recentMillis) {
    List<Span> spans = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      ChaosCluster.Event e = events.get(i);
      String endAction = switch (e.action()) {
        case "kill" -> "";
        case "pause" -> "resume";
        case "db-outage" -> "db-restored";
        case "partition" -> "heal";
        case "rolling-restart" -> "rolled";
        default -> null;
      };
      if (endAction == null) continue;
      long end = e.atMillis();
      if (!endAction.isEmpty()) {
        end = Long.MAX_VALUE;
        for (int j = i + 1; j < events.size(); j++) {
          ChaosCluster.Event later = events.get(j);
          if (later.action().equals(endAction) && (!endAction.equals("resume") || later.node() == e.node())) {
            end = later.atMillis();
            break;
          }
        }
      }
      spans.add(new Span(e.atMillis(), end == Long.MAX_VALUE ? end : end + recentMillis));
    }
    return merge(spans);
  }

  static List<Span> merge(List<Span> spans) {
    List<Span> sorted = new ArrayList<>(spans);
    sorted.sort((a, b) -> Long.compare(a.from(), b.from()));
    List<Span> out = new ArrayList<>();
    for (Span s : sorted) {
      if (!out.isEmpty() && s.from() <= out.get(out.size() - 1).to()) {
        Span last = out.remove(out.size() - 1);
        out.add(new Span(last.from(), Math.max(last.to(), s.to())));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  static Rates rates(List<Long> saleTimes, List<Span> faultWindows, long from, long to) {
    long faultMillis = 0;
    for (Span w : faultWindows) faultMillis += Math.max(0, Math.min(to, w.to()) - Math.max(from, w.from()));
    long cleanMillis = (to - from) - faultMillis;
    long inFault = 0;
    long all = 0;
    for (long t : saleTimes) {
      if (t < from || t > to) continue;
      all++;
      for (Span w : faultWindows) {
        if (t >= w.from() && t < w.to()) {
          inFault++;
          break;
        }
      }
    }
    return new Rates(perSecond(all, to - from), perSecond(inFault, faultMillis), perSecond(all - inFault, cleanMillis),
        faultMillis, cleanMillis);
  }

  static String rate(double perSecond, long overMillis) {
    return Double.isNaN(perSecond) ? "n/a (no such time)" : String.format(Locale.ROOT, "%.1f over %s", perSecond, seconds(overMillis));
  }

  private static double perSecond(long count, long millis) {
    return millis <= 0 ? Double.NaN : count * 1000.0 / millis;
  }

  /** Nearest-rank percentile of non-negative values; -1 when there are none. */
  static long percentile(List<Long> values, double p) {
    List<Long> sorted = new ArrayList<>(values);
    sorted.removeIf(v -> v < 0);
    if (sorted.isEmpty()) return -1;
    sorted.sort(null);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

  // ---- the report -------------------------------------------------------------------------

  void count(String name, long value, List<String> someExamples) {
    mustBeZero.put(name, value);
    if (!someExamples.isEmpty()) examples.put(name, someExamples.subList(0, Math.min(10, someExamples.size())));
  }

  String render(String title) {
    StringBuilder b = new StringBuilder();
    String rule = "=".repeat(78);
    b.append(rule).append('\n').append(title).append('\n').append(rule).append('\n');
    mustBeZero.forEach((name, value) -> b.append(String.format(Locale.ROOT, "%-62s %6d   %s%n", name + " (must be 0)", value,
        value == 0 ? "ok" : "FAIL")));
    figures.forEach((name, value) -> b.append(String.format(Locale.ROOT, "%-62s %s%n", name, value)));
    examples.forEach((name, list) -> {
      b.append(name).append(", for example:\n");
      list.forEach(e -> b.append("    ").append(e).append('\n'));
    });
    notes.forEach(n -> b.append("note: ").append(n).append('\n'));
    b.append(rule).append('\n');
    String failed = String.join(", ", mustBeZero.entrySet().stream().filter(e -> e.getValue() != 0).map(Map.Entry::getKey).toList());
    b.append("VERDICT: ").append(passed() ? "PASS" : sales == 0 ? "FAIL (nothing was sold: the run proves nothing)" : "FAIL (" + failed + ")")
        .append('\n').append(rule).append('\n');
    return b.toString();
  }

  static String seconds(long millis) {
    return millis < 0 ? "never" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }
}
