package io.boxoffice.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The dials an event manager should set, from what a run measured (DESIGN, the sale step 1: by
 * Little's law the shoppers in the shop are the admission rate times the time each spends
 * shopping). The rate is the highest rate at which shoppers entered the shop in a time bucket
 * where every fan call kept its p99 target; the cap is that rate times the measured mean time
 * to shop. When no bucket broke the target, the rate is only a floor of what the platform holds
 * (the admission dial, not the platform, bounded it) and the report says so.
 */
final class Calibration {
  private Calibration() {}

  /** A shopper's visit to the shop: admitted (as its page saw it) and done (paid, refused or walked away), epoch ms. */
  record Visit(long admittedAt, long doneAt) {}

  /**
   * The recommendation. {@code shopSeconds} the mean time to shop (n {@code visits}); the highest
   * entering rate where p99 held ({@code heldPerSecond}), whether p99 ever broke
   * ({@code p99Broke}; false: the rate is a floor); the dials; and for a demand of
   * {@code demand} times the crowd that came, how long admitting all of them takes at that rate
   * and how long selling the venue out takes. {@code reasoning} says each step in words.
   */
  record Dials(long visits, double shopSeconds, double heldPerSecond, boolean p99Broke, double worstP99Millis,
               int admissionsPerMinute, int maxActiveShoppers, double demand, long plannedFans, double minutesToAdmitAll,
               double minutesToSellOut, List<String> reasoning) {}

  /**
   * @param visits       the humans' visits to the shop (those that finished)
   * @param p99ByBucket  bucket (from the start, of {@code bucketMillis}) -> the worst p99 of any fan call in it, ms
   * @param startsAt     the sale's start, epoch ms
   * @param targetMillis the p99 every fan call must keep
   * @param demand       the demand planned for, times {@code fansThatCame}
   * @param seats        the venue's seats
   * @param seatsPerShopper seats sold per admitted shopper, as measured
   */
  static Dials of(List<Visit> visits, Map<Long, Double> p99ByBucket, long bucketMillis, long startsAt, double targetMillis,
                  double demand, long fansThatCame, int seats, double seatsPerShopper) {
    List<String> why = new ArrayList<>();
    double shop = visits.stream().mapToLong(v -> v.doneAt() - v.admittedAt()).average().orElse(Double.NaN) / 1000.0;
    Map<Long, Integer> entering = new TreeMap<>();
    for (Visit v : visits) entering.merge(Math.floorDiv(v.admittedAt() - startsAt, bucketMillis), 1, Integer::sum);
    double held = 0;
    boolean broke = false;
    double worst = 0;
    for (Map.Entry<Long, Double> b : p99ByBucket.entrySet()) {
      if (b.getKey() < 0) continue;
      worst = Math.max(worst, b.getValue());
      if (b.getValue() > targetMillis) {
        broke = true;
        continue;
      }
      held = Math.max(held, entering.getOrDefault(b.getKey(), 0) * 1000.0 / bucketMillis);
    }
    why.add(String.format(Locale.ROOT, "time to shop: %.1f s on average over %,d shoppers (admitted to paid, refused or gone)",
        shop, visits.size()));
    if (broke) {
      why.add(String.format(Locale.ROOT, "the fastest entry into the shop in a %.0f s bucket where every fan call kept p99 <= %.0f ms:"
          + " %.2f shoppers/s (the worst bucket's p99 was %.0f ms)", bucketMillis / 1000.0, targetMillis, held, worst));
    } else {
      why.add(String.format(Locale.ROOT, "p99 <= %.0f ms held in every bucket (worst %.0f ms): the fastest entry seen, %.2f shoppers/s,"
          + " is a floor of what the platform holds; the admission dial bounded it, rehearse with a higher one to find the ceiling",
          targetMillis, worst, held));
    }
    int perMinute = (int) Math.floor(held * 60);
    int cap = (int) Math.ceil(held * (Double.isNaN(shop) ? 0 : shop));
    why.add(String.format(Locale.ROOT, "admissions per minute = %.2f/s x 60 = %,d; active-shopper cap = rate x time to shop"
        + " (Little's law) = %.2f/s x %.1f s = %,d", held, perMinute, held, shop, cap));
    long planned = Math.round(demand * fansThatCame);
    double admitAll = perMinute == 0 ? Double.POSITIVE_INFINITY : (double) planned / perMinute;
    double sellOut = perMinute == 0 || seatsPerShopper <= 0 ? Double.POSITIVE_INFINITY : seats / (perMinute * seatsPerShopper);
    why.add(String.format(Locale.ROOT, "at %.1fx the crowd that came (%,d fans): admitting all of them takes %.1f min; at %.2f seats"
        + " per shopper the %,d seats sell out in %.1f min, so %s", demand, planned, admitAll, seatsPerShopper, seats, sellOut,
        sellOut < admitAll ? String.format(Locale.ROOT, "about %,d fans are still waiting then: the page should tell them early",
            Math.max(0, planned - Math.round(sellOut * perMinute))) : "every fan reaches the shop before the seats are gone"));
    return new Dials(visits.size(), shop, held, broke, worst, perMinute, cap, demand, planned, admitAll, sellOut, List.copyOf(why));
  }
}
