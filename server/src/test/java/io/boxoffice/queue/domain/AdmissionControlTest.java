package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AdmissionControlTest {
  static final long T0 = 1_000_000;

  static AdmissionControl.Line run(AdmissionControl.Line line, AdmissionControl.Limits limits, int seconds) {
    for (int s = 1; s <= seconds; s++) line = AdmissionControl.advance(line, limits, line.at() + 1000);
    return line;
  }

  @Test
  void theLineMovesAtTheAdmissionRate() {
    for (int perMinute : new int[] {7, 60, 600, 1000, 12_345}) {
      AdmissionControl.Limits limits = new AdmissionControl.Limits(perMinute, Integer.MAX_VALUE, 0, Long.MAX_VALUE, false, false);
      long admitted = run(new AdmissionControl.Line(0, 0, T0), limits, 30).admittedUpTo();
      double expected = perMinute / 2.0;
      assertTrue(Math.abs(admitted - expected) <= Math.max(1, expected * 0.1), perMinute + "/min admitted " + admitted + " in 30 s");
    }
  }

  @Test
  void activeShoppersNeverExceedTheCap() {
    // 480 shop already; everyone admitted from here on stays shopping.
    AdmissionControl.Line line = new AdmissionControl.Line(1000, 0, T0);
    for (int s = 0; s < 10; s++) {
      long active = 480 + (line.admittedUpTo() - 1000);
      line = AdmissionControl.advance(line, new AdmissionControl.Limits(6000, 500, active, Long.MAX_VALUE, false, false), line.at() + 1000);
    }
    assertEquals(1020, line.admittedUpTo(), "only the 20 free places are given");
  }

  @Test
  void noBurstAfterTheCapLifts() {
    AdmissionControl.Limits capped = new AdmissionControl.Limits(600, 10, 10, Long.MAX_VALUE, false, false);
    AdmissionControl.Line line = run(new AdmissionControl.Line(0, 0, T0), capped, 60);
    assertEquals(0, line.admittedUpTo());
    AdmissionControl.Limits open = new AdmissionControl.Limits(600, 10_000, 0, Long.MAX_VALUE, false, false);
    assertEquals(10, AdmissionControl.advance(line, open, line.at() + 1000).admittedUpTo(), "one second's worth, not a minute's");
  }

  @Test
  void neverPastTheLastPlaceHandedOut() {
    AdmissionControl.Limits limits = new AdmissionControl.Limits(6000, 10_000, 0, 42, false, false);
    assertEquals(42, run(new AdmissionControl.Line(0, 0, T0), limits, 10).admittedUpTo());
  }

  @Test
  void pausedOrWithoutSeatsNobodyIsAdmitted() {
    AdmissionControl.Limits paused = new AdmissionControl.Limits(6000, 10_000, 0, Long.MAX_VALUE, true, false);
    assertEquals(5, run(new AdmissionControl.Line(5, 0, T0), paused, 10).admittedUpTo());
    AdmissionControl.Limits soldOut = new AdmissionControl.Limits(6000, 10_000, 0, Long.MAX_VALUE, false, true);
    assertEquals(5, run(new AdmissionControl.Line(5, 0, T0), soldOut, 10).admittedUpTo());
  }
}
