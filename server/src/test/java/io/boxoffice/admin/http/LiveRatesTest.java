package io.boxoffice.admin.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The live dashboard's rates from counters between ticks. */
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
}
