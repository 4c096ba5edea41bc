package io.boxoffice.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The chaos verdict's checks fail on the damage they name, and its figures measure what they say. */
class VerdictTest {

  static SaleLog.Sale sale(long at, String orderId, String... seats) {
    List<String> tickets = java.util.Arrays.stream(seats).map(s -> orderId + "." + s).toList();
    return new SaleLog.Sale(at - 100, at, orderId, 0, "a1", List.of(seats), tickets, "key-" + orderId);
  }

  static Verdict.FoundOrder found(SaleLog.Sale s) {
    return new Verdict.FoundOrder(s.orderId(), 200, s.seatIds(), s.ticketIds());
  }

  @Test
  void aSeatInTwoOrdersIsSoldTwiceWhetherTheFanOrTheLedgerNamedTheSecond() {
    SaleLog.Sale a = sale(1, "e.a1.1", "A-1-1", "A-1-2");
    SaleLog.Sale b = sale(2, "e.a2.1", "A-1-3");
    assertTrue(Verdict.seatsSoldTwice(List.of(a, b), List.of(found(a), found(b))).isEmpty());
    // A captured order nobody was told about, found afterwards with a seat of a confirmed one.
    Verdict.FoundOrder hidden = new Verdict.FoundOrder("e.a3.1", 200, List.of("A-1-2"), List.of("e.a3.1.A-1-2"));
    assertEquals(Map.of("A-1-2", java.util.Set.of("e.a1.1", "e.a3.1")), Verdict.seatsSoldTwice(List.of(a, b), List.of(hidden)));
    // Two answers for one order (a retried checkout) are one sale.
    assertTrue(Verdict.seatsSoldTwice(List.of(a, a), List.of()).isEmpty());
  }

  @Test
  void aConfirmedSaleIsMissingWhenItsOrderIsGoneOrHasOtherTickets() {
    SaleLog.Sale a = sale(1, "e.a1.1", "A-1-1", "A-1-2");
    assertTrue(Verdict.confirmedButMissing(List.of(a), Map.of(a.orderId(), found(a))).isEmpty());
    assertEquals(1, Verdict.confirmedButMissing(List.of(a), Map.of(a.orderId(), new Verdict.FoundOrder(a.orderId(), 404, List.of(), List.of()))).size());
    assertEquals(1, Verdict.confirmedButMissing(List.of(a), Map.of()).size());
    assertEquals(1, Verdict.confirmedButMissing(List.of(a), Map.of(a.orderId(),
        new Verdict.FoundOrder(a.orderId(), 200, List.of("A-1-1"), List.of(a.orderId() + ".A-1-1")))).size());
  }

  @Test
  void aCapturedPaymentNeedsAnOrderWithTickets() {
    SaleLog.Sale a = sale(1, "e.a1.1", "A-1-1");
    List<Verdict.LedgerRow> ledger = List.of(new Verdict.LedgerRow("e.a1.1:authorize", "CAPTURED"),
        new Verdict.LedgerRow("e.a1.2:authorize", "VOIDED"), new Verdict.LedgerRow("e.a2.1:authorize", "CAPTURED"));
    assertEquals("e.a1.1", ledger.get(0).orderId());
    List<String> orphans = Verdict.capturedWithoutTickets(ledger, Map.of(a.orderId(), found(a),
        "e.a2.1", new Verdict.FoundOrder("e.a2.1", 200, List.of(), List.of())));
    assertEquals(1, orphans.size());
    assertTrue(orphans.get(0).startsWith("e.a2.1"), orphans.toString());
  }

  @Test
  void theLongestGapCountsTheEndsOfTheRun() {
    assertEquals(new Verdict.Span(1_000, 5_000), Verdict.longestGap(List.of(1_000L, 5_000L, 6_000L), 0, 7_000));
    assertEquals(new Verdict.Span(6_000, 20_000), Verdict.longestGap(List.of(1_000L, 5_000L, 6_000L), 0, 20_000));
    assertEquals(new Verdict.Span(0, 10_000), Verdict.longestGap(List.of(), 0, 10_000));
  }

  @Test
  void recoveryIsMeasuredFromTheKillToTheNextSaleAndUntilSalesStayAboveHalfTheirRate() {
    // 2 sales a second for 10 s, a kill at 10 s, then nothing until 14 s and 2 a second again.
    List<SaleLog.Sale> sales = new java.util.ArrayList<>();
    for (long t = 0; t < 10_000; t += 500) sales.add(sale(t, "o" + t));
    // Under way when the node died: sent before the kill, answered after it.
    sales.add(new SaleLog.Sale(9_900, 10_050, "late", 0, "a1", List.of(), List.of(), "key-late"));
    for (long t = 14_000; t < 30_000; t += 500) sales.add(sale(t, "o" + t));
    ChaosCluster.Event kill = new ChaosCluster.Event(10_000, "kill", "node 2 pid 42");
    Verdict.Recovery r = Verdict.recoveries(List.of(kill), sales, List.of(10_100L), 30_000).get(0);
    assertEquals(4_000, r.toNextSaleMillis(), "the sale under way at the kill does not count");
    assertEquals(100, r.toNextHoldMillis());
    assertEquals(0.3, r.lowestShare(), 1e-9, "the 5 s from the kill saw 3 sales, against 10 in 5 s before");
    // Half the rate is 5 sales in 5 s: the last window with fewer starts at 11.0 s (14.0-15.5 s: 4 sales).
    // (The sale under way at 10.05 s is in the window from 10.0 s only.)
    assertEquals(6_000, r.backToHalfMillis());
    assertEquals(2, kill.node());
    // No dip at all.
    assertEquals(0, Verdict.recoveries(List.of(new ChaosCluster.Event(20_000, "kill", "")), sales, List.of(), 30_000).get(0).backToHalfMillis());
    // Sales that never come back.
    assertEquals(-1, Verdict.recoveries(List.of(new ChaosCluster.Event(5_000, "kill", "")), List.of(sale(1_000, "a"), sale(2_000, "b")),
        List.of(), 30_000).get(0).backToHalfMillis());
  }

  @Test
  void salesAreSplitIntoTimesWithAndWithoutARecentFault() {
    List<ChaosCluster.Event> events = List.of(new ChaosCluster.Event(10_000, "kill", "node 1"),
        new ChaosCluster.Event(12_000, "start", "node 1"),
        new ChaosCluster.Event(40_000, "pause", "node 3"), new ChaosCluster.Event(44_000, "resume", "node 3"));
    List<Verdict.Span> windows = Verdict.faultWindows(events, 5_000);
    assertEquals(List.of(new Verdict.Span(10_000, 15_000), new Verdict.Span(40_000, 49_000)), windows);
    List<Long> sales = List.of(1_000L, 11_000L, 12_000L, 20_000L, 45_000L, 59_000L);
    Verdict.Rates rates = Verdict.rates(sales, windows, 0, 60_000);
    assertEquals(14_000, rates.faultMillis());
    assertEquals(46_000, rates.cleanMillis());
    assertEquals(3 * 1000.0 / 14_000, rates.withFault(), 1e-9);
    assertEquals(3 * 1000.0 / 46_000, rates.withoutFault(), 1e-9);
    assertEquals(0.1, rates.overall(), 1e-9);
  }

  @Test
  void theVerdictFailsOnAnyNonZeroCountAndOnARunThatSoldNothing() {
    Verdict v = new Verdict();
    v.sales = 10;
    v.count("seats sold twice", 0, List.of());
    assertTrue(v.passed());
    assertTrue(v.render("t").contains("VERDICT: PASS"));
    v.count("seats still held after every deadline passed", 3, List.of());
    assertFalse(v.passed());
    assertTrue(v.render("t").contains("FAIL (seats still held after every deadline passed)"));
    Verdict none = new Verdict();
    none.count("seats sold twice", 0, List.of());
    assertFalse(none.passed(), "a run without sales proves nothing");
    assertEquals(List.of(2, 0, 1), Verdict.timeline(List.of(0L, 4_999L, 12_000L), 0, 15_000, 5_000));
    assertEquals(20, Verdict.percentile(List.of(10L, 30L, 20L, -1L), 50));
    assertEquals(30, Verdict.percentile(List.of(10L, 30L, 20L, -1L), 100));
  }

  @Test
  void authorizationsNeitherCapturedNorVoidedAreCounted() {
    List<Verdict.LedgerRow> ledger = List.of(new Verdict.LedgerRow("e.a1.1:authorize", "CAPTURED"),
        new Verdict.LedgerRow("e.a1.2:authorize", "VOIDED"), new Verdict.LedgerRow("e.a2.1:authorize", "AUTHORIZED"),
        new Verdict.LedgerRow("e.a3.1:authorize", "DECLINED"));
    assertEquals(List.of("e.a2.1"), Verdict.authorizationsLeftOpen(ledger));
    assertEquals(List.of(), Verdict.authorizationsLeftOpen(ledger.subList(0, 2)));
  }

  @Test
  void theSeatCountsMustAddUpToTheCapacity() {
    assertEquals(List.of(), Verdict.seatsNotAddingUp(100, 60, 10, 30));
    assertEquals(1, Verdict.seatsNotAddingUp(100, 61, 10, 30).size(), "a seat counted twice");
    assertEquals(1, Verdict.seatsNotAddingUp(100, 60, 9, 30).size(), "a seat lost");
  }

  @Test
  void anIdempotencyKeyCapturesAtMostOneOrder() {
    SaleLog.Sale first = new SaleLog.Sale(0, 1, "e.a1.1", 0, "a1", List.of("A-1-1"), List.of("t1"), "k1");
    SaleLog.Sale retried = new SaleLog.Sale(0, 2, "e.a1.1", 0, "a1", List.of("A-1-1"), List.of("t1"), "k1");
    SaleLog.Sale other = new SaleLog.Sale(0, 3, "e.a1.2", 0, "a1", List.of("A-1-2"), List.of("t2"), "k2");
    assertTrue(Verdict.keysCapturedMoreThanOnce(List.of(first, retried, other), java.util.Set.of("e.a1.1", "e.a1.2")).isEmpty(),
        "a retry answered with the same order is one capture");
    SaleLog.Sale second = new SaleLog.Sale(0, 4, "e.a1.3", 0, "a1", List.of("A-1-3"), List.of("t3"), "k1");
    assertEquals(Map.of("k1", java.util.Set.of("e.a1.1", "e.a1.3")),
        Verdict.keysCapturedMoreThanOnce(List.of(first, second, other), java.util.Set.of("e.a1.1", "e.a1.2", "e.a1.3")));
    assertTrue(Verdict.keysCapturedMoreThanOnce(List.of(first, second), java.util.Set.of("e.a1.1")).isEmpty(),
        "an order voided, not captured, charges nothing");
  }

  @Test
  void aSeedReplaysTheSameVictims() {
    for (String target : List.of("alternate", "random", "others")) {
      List<Integer> once = new java.util.ArrayList<>();
      List<Integer> again = new java.util.ArrayList<>();
      java.util.Random a = new java.util.Random(42);
      java.util.Random b = new java.util.Random(42);
      for (int kill = 0; kill < 20; kill++) {
        once.add(OnSaleUnderFire.killTarget(a, target, 1 + kill % 3, kill, 3));
        again.add(OnSaleUnderFire.killTarget(b, target, 1 + kill % 3, kill, 3));
      }
      assertEquals(once, again, target);
      assertTrue(once.stream().allMatch(n -> n >= 1 && n <= 3), once.toString());
    }
    List<Integer> otherSeed = new java.util.ArrayList<>();
    List<Integer> seed42 = new java.util.ArrayList<>();
    java.util.Random c = new java.util.Random(7);
    java.util.Random d = new java.util.Random(42);
    for (int kill = 0; kill < 20; kill++) {
      otherSeed.add(OnSaleUnderFire.killTarget(c, "random", 1, kill, 3));
      seed42.add(OnSaleUnderFire.killTarget(d, "random", 1, kill, 3));
    }
    assertFalse(otherSeed.equals(seed42), "another seed, other victims");
  }

  @Test
  void aDownNodeJoinsWhileAnotherIsAMember() {
    assertEquals(Map.of(2, false), OnSaleUnderFire.restartPlan(new boolean[] {true, false, true}, new boolean[] {true, false, false}));
    assertEquals(Map.of(1, false, 3, false), OnSaleUnderFire.restartPlan(new boolean[] {false, true, false}, new boolean[] {false, true, false}));
    assertEquals(Map.of(), OnSaleUnderFire.restartPlan(new boolean[] {true, true, true}, new boolean[] {true, true, true}));
  }

  @Test
  void withEveryProcessGoneNodeOneFormsTheClusterAndTheOthersJoinIt() {
    assertEquals(Map.of(1, true, 2, false, 3, false),
        OnSaleUnderFire.restartPlan(new boolean[] {false, false, false}, new boolean[] {false, false, false}));
  }

  @Test
  void nothingIsRestartedWhileTheNodesStillRunningAreNoMembers() {
    // The resolver downed every node: node 1 has exited, 2 and 3 are still exiting. Restarted now,
    // node 1 could only join, and nobody would form the cluster once 2 and 3 are gone.
    assertEquals(Map.of(), OnSaleUnderFire.restartPlan(new boolean[] {false, true, true}, new boolean[] {false, false, false}));
    // A stranded joiner (not a member) holds the others back until its join timeout ends it.
    assertEquals(Map.of(), OnSaleUnderFire.restartPlan(new boolean[] {true, false, false}, new boolean[] {false, false, false}));
    // A member's word counts only while its process runs.
    assertEquals(Map.of(), OnSaleUnderFire.restartPlan(new boolean[] {false, true, false}, new boolean[] {true, false, false}));
  }
}
