package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Staggered sales (the seed, 9.3): each event's peak on one clock, its p99 alone and beside each
 * other event's peak, and the spacing that keeps every event within its p99 target.
 */
class SimStaggerTest {
  private static final long BUCKET = 5000;
  private static final List<String> FAN = Report.FAN_CALLS;

  /** {@code calls} calls of {@code millis} each. */
  private static Histogram calls(int calls, double millis) {
    Histogram h = new Histogram(TimeUnit.MINUTES.toMicros(2), 2);
    h.recordValueWithCount((long) (millis * 1000), calls);
    return h;
  }

  /** An event's "status" calls: bucket (its own clock) -> {calls, ms}. */
  private static Stagger.EventCalls event(String label, long offset, Map<Long, double[]> byBucket) {
    Map<Long, Histogram> buckets = new TreeMap<>();
    byBucket.forEach((b, c) -> buckets.put(b, calls((int) c[0], c[1])));
    Map<String, Map<Long, Histogram>> byPhase = new HashMap<>();
    byPhase.put("status", buckets);
    // A phase that is not a fan call the target holds (a slow card is the fan's choice): never counted.
    byPhase.put("checkout-slow-card", Map.of(0L, calls(1000, 9000)));
    return new Stagger.EventCalls(label, offset, byPhase);
  }

  /**
   * e1 peaks in its buckets 0-1 (1,000 calls each) and is quiet after (100 calls) but slow (400 ms)
   * while e2, starting 2 buckets later, is at its peak (its own 0-1, e1's 2-3); e2 is fast.
   */
  private static List<Stagger.EventCalls> disturbed() {
    Map<Long, double[]> e1 = new HashMap<>();
    e1.put(0L, new double[] {1000, 20});
    e1.put(1L, new double[] {1000, 20});
    e1.put(2L, new double[] {100, 400});
    e1.put(3L, new double[] {100, 400});
    e1.put(4L, new double[] {100, 20});
    Map<Long, double[]> e2 = new HashMap<>();
    e2.put(-1L, new double[] {100, 10});
    e2.put(0L, new double[] {1000, 30});
    e2.put(1L, new double[] {900, 30});
    e2.put(2L, new double[] {100, 30});
    return List.of(event("e1", 0, e1), event("e2", 2, e2));
  }

  @Test
  void anEventsPeakIsItsBusyBucketsOnTheFirstEventsClock() {
    List<Stagger.EventCalls> events = disturbed();
    assertEquals(new Stagger.Window(0, 1), Stagger.peak(events.get(0), FAN));
    assertEquals(new Stagger.Window(2, 3), Stagger.peak(events.get(1), FAN), "e2's own buckets 0-1, two buckets after e1's start");
    assertNull(Stagger.peak(new Stagger.EventCalls("none", 0, Map.of()), FAN));
  }

  @Test
  void anEventDisturbedOnlyBesideAnothersPeakKeepsItsTargetAloneAndIsToldToStartFurtherApart() {
    Stagger.Verdict v = Stagger.analyse(disturbed(), FAN, BUCKET, 10_000, 250);
    Stagger.EventFigures e1 = v.events().get(0);
    assertEquals(2000 + 100, e1.alone().count(), "its peak and its last bucket: no other event at its peak");
    assertEquals(20, e1.alone().p99(), 1);
    assertEquals(200, e1.besidePeaks().count());
    assertEquals(400, e1.besidePeaks().p99(), 5);
    assertEquals(400, e1.besideEach().get("e2").p99(), 5);
    assertFalse(e1.withinTarget(), "status p99 over the run is 400 ms (200 of 2,300 calls)");
    assertEquals(20, e1.worstP99Alone(), 1);
    assertEquals(2300, e1.byPhase().get("status").count());
    assertFalse(e1.byPhase().containsKey("checkout-slow-card"));

    Stagger.EventFigures e2 = v.events().get(1);
    assertTrue(e2.withinTarget());
    assertEquals(100, e2.besidePeaks().count(), "e2's calls in e1's peak: its own bucket -1, e1's 1");
    assertFalse(v.everyWithin());
    assertEquals(10_000, v.longestPeakMillis(), "two buckets");
    assertEquals(15_000, v.recommendedSpacingMillis(), "the longest peak and a bucket: starts 15 s apart keep every peak alone");
    assertTrue(e1.isolated() && e2.isolated(), "peaks 0-1 and 2-3");
    assertTrue(v.reasoning().get(v.reasoning().size() - 1).contains("only beside another's peak"));
  }

  @Test
  void whenEveryEventKeptItsTargetThisRunsSpacingIsEnough() {
    Map<Long, double[]> quiet = Map.of(0L, new double[] {1000, 20}, 1L, new double[] {500, 30});
    Stagger.Verdict v = Stagger.analyse(List.of(event("e1", 0, quiet), event("e2", 0, quiet)), FAN, BUCKET, 0, 250);
    assertTrue(v.everyWithin());
    assertEquals(0, v.recommendedSpacingMillis());
    assertTrue(v.reasoning().get(v.reasoning().size() - 1).contains("at once"));
    assertTrue(Double.isNaN(v.events().get(0).worstP99Alone()), "at once: never alone at its peak");
  }

  @Test
  void anEventThatBreaksItsTargetEvenAloneCannotBeSavedBySpacing() {
    Map<Long, double[]> slow = Map.of(0L, new double[] {1000, 600}, 1L, new double[] {100, 20});
    Map<Long, double[]> fast = Map.of(0L, new double[] {1000, 20});
    Stagger.Verdict v = Stagger.analyse(List.of(event("e1", 0, slow), event("e2", 6, fast)), FAN, BUCKET, 30_000, 250);
    assertEquals(600, v.events().get(0).worstP99Alone(), 10);
    assertEquals(-1, v.recommendedSpacingMillis());
    assertTrue(v.reasoning().get(v.reasoning().size() - 1).contains("e1 broke"));
  }

  @Test
  void theTailOfARushSharedAtOnceIsNoEvidenceOfWhatAnEventDoesAlone() {
    // Started together: e1's peak (0-2) outlasts e2's (0-1); e1's bucket 2, outside e2's peak, is the slow tail of the shared rush.
    Map<Long, double[]> e1 = Map.of(0L, new double[] {1000, 900}, 1L, new double[] {1000, 900}, 2L, new double[] {1000, 600});
    Map<Long, double[]> e2 = Map.of(0L, new double[] {1000, 900}, 1L, new double[] {1000, 900}, 2L, new double[] {100, 20});
    Stagger.Verdict v = Stagger.analyse(List.of(event("e1", 0, e1), event("e2", 0, e2)), FAN, BUCKET, 0, 250);
    Stagger.EventFigures first = v.events().get(0);
    assertEquals(new Stagger.Window(0, 2), first.peak());
    assertEquals(600, first.worstP99Alone(), 10, "its calls outside e2's peak");
    assertFalse(first.isolated());
    assertNull(first.withinTargetAlone(250), "its peak overlapped e2's: what it does alone is not known");
    assertEquals(20_000, v.recommendedSpacingMillis(), "the longest peak (15 s) and a bucket, not 'no spacing helps'");
  }

  @Test
  void eventsThatWereNeverAloneAreToldTheSpacingThatKeepsTheirPeaksApart() {
    Map<Long, double[]> slow = Map.of(0L, new double[] {1000, 600}, 1L, new double[] {1000, 600}, 2L, new double[] {1000, 600});
    Stagger.Verdict v = Stagger.analyse(List.of(event("e1", 0, slow), event("e2", 0, slow)), FAN, BUCKET, 0, 250);
    assertFalse(v.everyWithin());
    assertEquals(15_000, v.longestPeakMillis());
    assertEquals(20_000, v.recommendedSpacingMillis());
    assertNotNull(v.events().get(0).besideEach().get("e2"));
  }
}
