package io.boxoffice.admin.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The live dashboard's rates: each sample of an event's counters against the one before it, per
 * minute for admissions and per second for the rest. The first sample has rates of zero; a
 * counter that went back (a node restarted, the room moved) counts as zero, never negative.
 * Plain Java: one per stream, fed in order.
 */
final class LiveRates {
  /** The classes of requests the edge sheds, always listed (zero when none was shed). */
  static final List<String> SHED_CLASSES = List.of("read", "hold", "checkout");

  /** One reading: when ({@link System#nanoTime} for rates, epoch ms to show), the counters, and the stats it came with. */
  record Sample(long atNanos, long atMillis, long admittedUpTo, long orders, double seatsHeld, Map<String, Double> shed,
                AdminJson.EventStats stats) {}

  /** One event of {@code GET /admin/events/{id}/live}: the stats' fields, then the rates. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Live(String state, long lobby, long admittedUpTo, long activeShoppers, AdminJson.SeatCounts seats, int orders,
              AdminJson.Schedule onsale, double admissionsPerMinute, double holdsPerSecond, double salesPerSecond,
              Map<String, Double> shed, Map<String, Double> shedTotal, long at) {}

  private Sample previous;

  Live next(Sample now) {
    Sample before = previous == null ? now : previous;
    previous = now;
    double seconds = Math.max(0.001, (now.atNanos() - before.atNanos()) / 1e9);
    Map<String, Double> shed = new LinkedHashMap<>();
    Map<String, Double> shedTotal = new LinkedHashMap<>();
    for (String c : SHED_CLASSES) {
      double total = now.shed().getOrDefault(c, 0.0);
      shedTotal.put(c, total);
      shed.put(c, perSecond(total - before.shed().getOrDefault(c, 0.0), seconds));
    }
    AdminJson.EventStats s = now.stats();
    return new Live(s.state(), s.lobby(), s.admittedUpTo(), s.activeShoppers(), s.seats(), s.orders(), s.onsale(),
        round(perSecond(now.admittedUpTo() - before.admittedUpTo(), seconds) * 60),
        perSecond(now.seatsHeld() - before.seatsHeld(), seconds),
        perSecond(now.orders() - before.orders(), seconds), shed, shedTotal, now.atMillis());
  }

  private static double perSecond(double delta, double seconds) {
    return delta <= 0 ? 0 : round(delta / seconds);
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
