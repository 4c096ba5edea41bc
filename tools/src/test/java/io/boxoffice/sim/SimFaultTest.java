package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a fault fires, whom a kill hits, and what the sale's timeline shows around it. */
class SimFaultTest {
  private static final long START = 100_000;

  private static Timeline.Sample look(long at, long active, long available, long held, long sold) {
    return new Timeline.Sample(at, available == 0 && held == 0 ? "sold_out" : "selling", 0, 0, active, available, held, sold, 0, 0, 0, 0);
  }

  @Test
  void theSaleIsAtItsPeakWhenTheShopIsNearlyFullOrAQuarterOfTheVenueIsTaken() {
    assertFalse(Fault.atPeak(look(START - 1, 400, 1000, 0, 0), START, 400, 1000), "before the start");
    assertFalse(Fault.atPeak(look(START + 1000, 359, 1000, 100, 149), START, 400, 1000), "89% of the cap, 24.9% taken");
    assertTrue(Fault.atPeak(look(START + 1000, 360, 1000, 0, 0), START, 400, 1000), "90% of the cap");
    assertTrue(Fault.atPeak(look(START + 1000, 10, 750, 100, 150), START, 400, 1000), "a quarter taken");
    assertFalse(Fault.atPeak(look(START + 1000, 400, 0, 10, 990), START, 400, 1000), "nothing left to take");
  }

  @Test
  void aFaultIsDueAtThePeakOrAtItsTimeAndNeverWhenNoneIsSet() {
    Scenario.FaultSpec peak = Scenario.from(ConfigFactory.parseString("fault.kind = pause-admissions")).fault();
    assertNull(peak.atAfterStart());
    assertTrue(Fault.due(peak, look(START + 500, 400, 100, 0, 0), START, 400, 1000));
    assertFalse(Fault.due(peak, look(START + 500, 10, 1000, 0, 0), START, 400, 1000));
    Scenario.FaultSpec at20 = Scenario.from(ConfigFactory.parseString("fault { kind = slow-payments, at = 20s }")).fault();
    assertFalse(Fault.due(at20, look(START + 19_999, 400, 100, 0, 0), START, 400, 1000));
    assertTrue(Fault.due(at20, look(START + 20_000, 0, 100, 0, 0), START, 400, 1000));
    Scenario.FaultSpec none = Scenario.from(ConfigFactory.parseString("")).fault();
    assertFalse(Fault.due(none, look(START + 20_000, 400, 100, 0, 900), START, 400, 1000));
  }

  @Test
  void theFaultOptionNamesTheKindAndWhen() {
    Scenario.FaultSpec none = Scenario.from(ConfigFactory.parseString("")).fault();
    assertEquals(Fault.Kind.SLOW_PAYMENTS, Simulator.faultOption(none, "slow-payments").kind());
    assertNull(Simulator.faultOption(none, "kill-node@peak").atAfterStart());
    assertEquals(Duration.ofSeconds(15), Simulator.faultOption(none, "pause-admissions@15s").atAfterStart());
    assertThrows(IllegalArgumentException.class, () -> Simulator.faultOption(none, "unplug"));
    assertThrows(IllegalArgumentException.class, () -> Scenario.from(ConfigFactory.parseString("fault.kill-node.node = 4")));
    assertThrows(IllegalArgumentException.class, () -> Scenario.from(ConfigFactory.parseString("fault.for = 0s")));
  }

  @Test
  void aKillHitsTheEventsHostUnlessANodeIsNamedAndRestartsTheSameNode() {
    assertEquals(2, Fault.victim("host", () -> 2));
    assertEquals(3, Fault.victim("3", () -> 2));
    assertEquals(0, Fault.victim("host", () -> 0), "no node hosts the event: nothing is killed");
    assertEquals(List.of(List.of("kill-node", "2"), List.of("restart-node", "2", "--no-wait")), Fault.killScripts(2));
  }

  @Test
  void theSimulatorsOwnNodeIsNeverKilled() {
    Scenario.FaultSpec kill = Scenario.from(ConfigFactory.parseString("fault.kind = kill-node")).fault();
    assertThrows(IllegalArgumentException.class, () -> Fault.breaker(kill, null, "e", null, true));
  }

  @Test
  void theTimelineShowsSalesBeforeDuringAndAfterAndTheLongestStall() {
    // 10 seats/s until t=10 s, the fault at 10 s: nothing sold for 8 s, then 5/s, undone at 20 s, then 10/s again.
    List<Timeline.Sample> looks = new ArrayList<>();
    long sold = 0;
    for (int t = 0; t <= 30; t++) {
      if (t > 0 && t <= 10) sold += 10;
      else if (t > 18 && t <= 20) sold += 5;
      else if (t > 20) sold += 10;
      looks.add(look(START + t * 1000L, 100, 1000, 50, sold));
    }
    Fault.Stall s = Fault.stall(looks, START + 10_000, START + 20_000, 10_000);
    assertEquals(10.0, s.soldPerSecondBefore(), 1e-9);
    assertEquals(1.0, s.soldPerSecondDuring(), 1e-9);
    assertEquals(10.0, s.soldPerSecondAfter(), 1e-9);
    assertEquals(9.0, s.firstSaleAfterSeconds(), 1e-9);
    assertEquals(9.0, s.longestStallSeconds(), 1e-9);
  }

  @Test
  void aStallStillGoingAtTheLastLookCountsToItButNotOnceTheVenueIsGone() {
    List<Timeline.Sample> looks = List.of(look(START, 10, 100, 0, 10), look(START + 1000, 10, 100, 0, 20),
        look(START + 5000, 10, 100, 0, 20));
    Fault.Stall going = Fault.stall(looks, START + 1000, START + 5000, 1000);
    assertEquals(-1, going.firstSaleAfterSeconds());
    assertEquals(4.0, going.longestStallSeconds(), 1e-9);
    List<Timeline.Sample> soldOut = List.of(look(START, 10, 100, 0, 10), look(START + 1000, 0, 0, 0, 110),
        look(START + 9000, 0, 0, 0, 110));
    assertEquals(1.0, Fault.stall(soldOut, START, START + 9000, 1000).longestStallSeconds(), 1e-9, "the 8 s after the sell-out are no stall");
  }
}
