package io.boxoffice.admin.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The live dashboard's rates from counters over sliding windows of ticks, on a clock the test sets. */
class LiveRatesTest {
  private static final AdminJson.EventStats STATS =
      new AdminJson.EventStats("waiting", 0, 0, 0, new AdminJson.SeatCounts(10, 0, 0), 0, null);

  private static LiveRates.Sample at(double seconds, long admitted, long orders, double held, Map<String, Double> shed) {
    return new LiveRates.Sample((long) (seconds * 1e9), 0, admitted, orders, held, shed, STATS);
  }

  @Test
  void theFirstTickHasNoRatesAndLaterTicksDivideByTheTimeBetween() {
    LiveRates rates = new LiveRates();
    LiveRates.Live first = rates.next(at(10, 100, 5, 40, Map.of("hold", 3.0)));
    assertEquals(0, first.admissionsPerMinute());
    assertEquals(0, first.salesPerSecond());
    assertEquals(Map.of("read", 0.0, "hold", 0.0, "checkout", 0.0), first.shed());
    assertEquals(Map.of("read", 0.0, "hold", 3.0, "checkout", 0.0), first.shedTotal());

    LiveRates.Live second = rates.next(at(12, 120, 9, 48, Map.of("hold", 7.0, "read", 1.0)));
    assertEquals(600, second.admissionsPerMinute(), "20 admitted in 2 s");
    assertEquals(2, second.salesPerSecond(), "4 orders in 2 s");
    assertEquals(4, second.holdsPerSecond(), "8 seats held in 2 s");
    assertEquals(Map.of("read", 0.5, "hold", 2.0, "checkout", 0.0), second.shed());
  }

  @Test
  void aCounterThatWentBackCountsAsNoneNeverNegative() {
    LiveRates rates = new LiveRates();
    rates.next(at(0, 100, 5, 40, Map.of("read", 10.0)));
    LiveRates.Live after = rates.next(at(1, 100, 5, 0, Map.of()));
    assertEquals(0, after.holdsPerSecond());
    assertEquals(0, after.shed().get("read"));
  }

  @Test
  void aSteadyTrickleOfAdmissionsReadsAsOneSteadyRateNotSpikesBetweenZeros() {
    LiveRates rates = new LiveRates();
    List<Double> perMinute = new ArrayList<>();
    for (int second = 0; second <= 180; second++) {
      long admitted = second / 3;
      perMinute.add(rates.next(at(second, admitted, 0, 0, Map.of())).admissionsPerMinute());
    }
    for (int second = 60; second <= 180; second++) {
      assertEquals(20, perMinute.get(second), "one admission every 3 s is 20 a minute, at " + second + " s: " + perMinute);
    }
  }

  @Test
  void aStreamYoungerThanAMinuteCountsSinceItsFirstTick() {
    LiveRates rates = new LiveRates();
    rates.next(at(100, 1000, 0, 0, Map.of()));
    for (int second = 1; second < 5; second++) rates.next(at(100 + second, 1005, 0, 0, Map.of()));
    assertEquals(60, rates.next(at(105, 1005, 0, 0, Map.of())).admissionsPerMinute(), "5 admitted in the stream's first 5 s");
  }

  @Test
  void aBurstCountsForAMinuteThenLeavesTheWindow() {
    LiveRates rates = new LiveRates();
    rates.next(at(0, 0, 0, 0, Map.of()));
    for (int second = 1; second < 60; second++) {
      assertEquals(30, rates.next(at(second, 30, 0, 0, Map.of())).admissionsPerMinute() * second / 60, 0.01,
          "30 admitted at 1 s, counted over " + second + " s");
    }
    assertEquals(30, rates.next(at(60, 30, 0, 0, Map.of())).admissionsPerMinute(), "the burst is in the last minute");
    assertEquals(0, rates.next(at(61, 30, 0, 0, Map.of())).admissionsPerMinute(), "the burst is over a minute old");
  }

  @Test
  void holdsSalesAndShedAreCountedOverTheLastTenSeconds() {
    LiveRates rates = new LiveRates();
    for (int second = 0; second <= 20; second++) rates.next(at(second, 0, 0, 0, Map.of()));
    LiveRates.Live sale = rates.next(at(21, 0, 1, 2, Map.of("hold", 5.0)));
    assertEquals(0.1, sale.salesPerSecond());
    assertEquals(0.2, sale.holdsPerSecond());
    assertEquals(0.5, sale.shed().get("hold"));
    for (int second = 22; second <= 30; second++) {
      assertEquals(0.1, rates.next(at(second, 0, 1, 2, Map.of("hold", 5.0))).salesPerSecond(), "one sale in the last 10 s, at " + second);
    }
    LiveRates.Live later = rates.next(at(31, 0, 1, 2, Map.of("hold", 5.0)));
    assertEquals(0, later.salesPerSecond(), "the sale is over 10 s old");
    assertEquals(0, later.holdsPerSecond());
    assertEquals(0, later.shed().get("hold"));
  }

  @Test
  void aSkippedTickLeavesAGapThatTheRateStillDividesBy() {
    LiveRates rates = new LiveRates();
    rates.next(at(0, 0, 0, 0, Map.of()));
    rates.next(at(50, 10, 0, 0, Map.of()));
    assertEquals(10, rates.next(at(60, 10, 0, 0, Map.of())).admissionsPerMinute(), "10 admitted over the 60 s since the first tick");
    assertEquals(0, rates.next(at(111, 10, 0, 0, Map.of())).admissionsPerMinute(), "no tick after 50 s admitted anyone");
  }
}
