package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Fault time: from the first cause (looked back) to the last one's end plus settling, overlaps once. */
class FaultLedgerTest {
  @Test
  void calmCountsNothing() {
    FaultLedger ledger = new FaultLedger(2_000);
    assertEquals(0, ledger.faultMillisUpTo(1_000_000));
    ledger.ended("unreachable a", 5_000);
    assertEquals(0, ledger.faultMillisUpTo(1_000_000));
    assertFalse(ledger.troubled());
  }

  @Test
  void anUnreachableMemberCountsFromWhenItProbablyFailedUntilItIsGonePlusSettling() {
    FaultLedger ledger = new FaultLedger(2_000);
    ledger.started("unreachable a", 10_000, 4_000);
    assertTrue(ledger.troubled());
    assertEquals(4_000, ledger.faultMillisUpTo(10_000));
    assertEquals(9_000, ledger.faultMillisUpTo(15_000));
    ledger.ended("unreachable a", 20_000);
    assertFalse(ledger.troubled());
    assertEquals(15_000, ledger.faultMillisUpTo(21_000));
    assertEquals(16_000, ledger.faultMillisUpTo(22_000));
    assertEquals(16_000, ledger.faultMillisUpTo(99_000));
  }

  @Test
  void overlappingCausesCountOnceAndTheIntervalEndsWithTheLast() {
    FaultLedger ledger = new FaultLedger(0);
    ledger.started("unreachable a", 10_000, 0);
    ledger.started("leaving b", 12_000, 0);
    ledger.ended("unreachable a", 15_000);
    assertTrue(ledger.troubled());
    ledger.ended("leaving b", 18_000);
    assertEquals(8_000, ledger.faultMillisUpTo(30_000));
  }

  @Test
  void troubleWhileSettlingContinuesTheSameIntervalAndLaterTroubleAddsANewOne() {
    FaultLedger ledger = new FaultLedger(2_000);
    ledger.started("unreachable a", 10_000, 1_000);
    ledger.ended("unreachable a", 20_000);
    // Within the settling time, and looking back over the gap: one interval 9 000 .. 31 000.
    ledger.started("unreachable b", 21_000, 4_000);
    ledger.ended("unreachable b", 29_000);
    assertEquals(22_000, ledger.faultMillisUpTo(50_000));
    // Much later: a second interval 98 000 .. 102 000.
    ledger.started("unreachable c", 100_000, 2_000);
    ledger.ended("unreachable c", 100_000);
    assertEquals(26_000, ledger.faultMillisUpTo(200_000));
  }

  @Test
  void theTotalNeverDecreases() {
    SplittableRandom random = new SplittableRandom(11);
    FaultLedger ledger = new FaultLedger(1_500);
    long now = 0;
    long last = 0;
    for (int i = 0; i < 10_000; i++) {
      now += random.nextInt(3_000);
      String cause = "member " + random.nextInt(4);
      if (random.nextBoolean()) ledger.started(cause, now, random.nextInt(5_000));
      else ledger.ended(cause, now);
      long total = ledger.faultMillisUpTo(now);
      assertTrue(total >= last, "went back from " + last + " to " + total);
      assertTrue(total <= now + 5_000);
      last = total;
    }
  }
}
