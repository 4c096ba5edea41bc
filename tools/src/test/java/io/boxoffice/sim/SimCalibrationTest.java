package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The dials from a run: the fastest entry where p99 held, and Little's law with the measured time to shop. */
class SimCalibrationTest {
  private static final long START = 1_000_000;

  /** {@code perSecond} shoppers a second entering in each 5 s bucket, each shopping {@code shopMillis}. */
  private static List<Calibration.Visit> visits(int[] perSecond, long shopMillis) {
    List<Calibration.Visit> out = new ArrayList<>();
    for (int b = 0; b < perSecond.length; b++) {
      for (int i = 0; i < perSecond[b] * 5; i++) {
        long at = START + b * 5000L + i * 5000L / (perSecond[b] * 5);
        out.add(new Calibration.Visit(at, at + shopMillis));
      }
    }
    return out;
  }

  @Test
  void theRateIsTheFastestEntryWhereP99HeldAndTheCapIsRateTimesTimeToShop() {
    // 4/s, 10/s, 20/s in three buckets; p99 broke (900 ms) in the 20/s one.
    Calibration.Dials d = Calibration.of(visits(new int[] {4, 10, 20}, 30_000), Map.of(0L, 80.0, 1L, 240.0, 2L, 900.0), 5000, START,
        250, 4, 1000, 10_000, 2.0);
    assertTrue(d.p99Broke());
    assertEquals(10.0, d.heldPerSecond(), 1e-9);
    assertEquals(600, d.admissionsPerMinute());
    assertEquals(30.0, d.shopSeconds(), 1e-9);
    assertEquals(300, d.maxActiveShoppers(), "Little's law: 10/s x 30 s");
    assertEquals(4000, d.plannedFans());
    assertEquals(4000 / 600.0, d.minutesToAdmitAll(), 1e-9);
    assertEquals(10_000 / (600 * 2.0), d.minutesToSellOut(), 1e-9);
    assertTrue(d.reasoning().stream().anyMatch(l -> l.contains("Little's law")));
  }

  @Test
  void whenP99NeverBrokeTheRateIsAFloor() {
    Calibration.Dials d = Calibration.of(visits(new int[] {4, 6}, 10_000), Map.of(0L, 80.0, 1L, 100.0), 5000, START, 250, 1, 100, 50,
        1.0);
    assertFalse(d.p99Broke());
    assertEquals(6.0, d.heldPerSecond(), 1e-9);
    assertEquals(60, d.maxActiveShoppers());
    assertTrue(d.reasoning().get(1).contains("floor"));
    assertTrue(d.reasoning().get(3).contains("sell out"));
  }

  @Test
  void bucketsBeforeTheStartAreNotTheSalesCapacity() {
    Calibration.Dials d = Calibration.of(visits(new int[] {3}, 1000), Map.of(-1L, 10.0, 0L, 400.0), 5000, START, 250, 1, 10, 10, 1);
    assertTrue(d.p99Broke());
    assertEquals(0, d.admissionsPerMinute());
  }

  @Test
  void theWorstP99OfABucketIsTheSlowestFanCallButNotASlowCard() {
    org.HdrHistogram.Histogram fast = new org.HdrHistogram.Histogram(120_000_000L, 2);
    fast.recordValue(50_000);
    org.HdrHistogram.Histogram slow = new org.HdrHistogram.Histogram(120_000_000L, 2);
    slow.recordValue(3_000_000);
    Map<Long, Double> worst = Report.worstP99ByBucket(Map.of("hold", Map.of(0L, fast), "checkout-slow-card", Map.of(0L, slow),
        "join", Map.of(1L, slow)));
    assertEquals(50.0, worst.get(0L), 1.0);
    assertEquals(3000.0, worst.get(1L), 30.0);
  }
}
