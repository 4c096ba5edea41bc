package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The gate holds for a fair outcome and breaks for each unfair or unsafe one: it is able to fail. */
class SimGateTest {
  static final Scenario.GateSpec GATE = new Scenario.GateSpec(0.5, 0.1);
  static final Gate.Safety SAFE = new Gate.Safety(0, 0, 0, 0, 0, 100, 100, 100, 0);

  @Test
  void aLotteryWithOneEntryPerAccountPassesTheGate() {
    Measures.Fairness f = Measures.fairness(SimMeasuresTest.lottery(5000, 20, 7), 1000);
    List<Gate.Check> checks = Gate.checks(f, SAFE, GATE);
    assertTrue(Gate.passed(checks), checks.toString());
  }

  @Test
  void aFifoLineWithTheBotsFirstFailsTheGate() {
    // The same crowd, placed in arrival order: the bots (who came first) take the front.
    List<Measures.AccountView> crowd = SimMeasuresTest.lottery(5000, 20, 7);
    List<Measures.AccountView> byArrival = new ArrayList<>(crowd);
    byArrival.sort(Comparator.comparingLong(Measures.AccountView::firstJoinAt));
    List<Measures.AccountView> fifo = new ArrayList<>();
    for (int i = 0; i < byArrival.size(); i++) {
      Measures.AccountView a = byArrival.get(i);
      fifo.add(new Measures.AccountView(a.bot(), true, true, a.firstJoinAt(), Set.of((long) i + 1), 0));
    }
    Measures.Fairness f = Measures.fairness(fifo, 1000);
    List<Gate.Check> checks = Gate.checks(f, SAFE, GATE);
    assertFalse(Gate.passed(checks));
    assertFalse(checks.get(0).passed(), "20 bots in the first 1,000 places is 2%, above 0.4% + 0.5 points: " + checks.get(0));
    assertFalse(checks.get(1).passed(), "arrival order predicts the place: " + checks.get(1));
  }

  @Test
  void aShuffleOfEverySessionFailsTheGateThroughTheBotsExtraPlaces() {
    // Each of 20 bots with 40 tabs gets a place per tab (the seed's "shuffle every session").
    List<Measures.AccountView> crowd = SimMeasuresTest.lottery(5000, 800, 11);
    List<Measures.AccountView> perAccount = new ArrayList<>();
    for (int b = 0; b < 20; b++) {
      java.util.Set<Long> places = new java.util.HashSet<>();
      for (int t = 0; t < 40; t++) places.addAll(crowd.get(b * 40 + t).places());
      perAccount.add(new Measures.AccountView(true, true, true, crowd.get(b * 40).firstJoinAt(), places, 0));
    }
    perAccount.addAll(crowd.subList(800, crowd.size()));
    List<Gate.Check> checks = Gate.checks(Measures.fairness(perAccount, 1000), SAFE, GATE);
    assertFalse(checks.get(0).passed(), "800 bot sessions of 5,800 take about 14% of the front: " + checks.get(0));
    assertFalse(checks.get(2).passed(), "accounts with 40 places each: " + checks.get(2));
  }

  @Test
  void anySafetyCountAboveZeroFailsTheGate() {
    Measures.Fairness f = Measures.fairness(SimMeasuresTest.lottery(2000, 5, 3), 500);
    assertFalse(Gate.passed(Gate.checks(f, new Gate.Safety(1, 0, 0, 0, 0, 100, 100, 100, 0), GATE)), "a 5xx");
    assertFalse(Gate.passed(Gate.checks(f, new Gate.Safety(0, 1, 0, 0, 0, 100, 100, 100, 0), GATE)), "an oversold seat");
    assertFalse(Gate.passed(Gate.checks(f, new Gate.Safety(0, 0, 1, 0, 0, 100, 100, 100, 0), GATE)), "a seat sold twice");
    assertFalse(Gate.passed(Gate.checks(f, new Gate.Safety(0, 0, 0, 1, 0, 100, 100, 100, 0), GATE)), "a confirmed seat not counted");
    assertFalse(Gate.passed(Gate.checks(f, new Gate.Safety(0, 0, 0, 0, 1, 100, 100, 100, 0), GATE)), "a breached defense");
    assertFalse(Gate.passed(Gate.checks(f, new Gate.Safety(0, 0, 0, 0, 0, 0, 100, 100, 0), GATE)), "nothing sold");
    assertFalse(Gate.passed(Gate.checks(f, new Gate.Safety(0, 0, 0, 0, 0, 100, 140, 100, 0), GATE)),
        "a lobby of 140 for 100 accounts counts tabs or requests");
    assertFalse(Gate.passed(Gate.checks(f, new Gate.Safety(0, 0, 0, 0, 0, 100, 100, 100, 1), GATE)),
        "a hold of named seats answered with other seats");
  }

  @Test
  void againstTheLobbyBotsMayHoldTheirShareOfTheLobby() {
    // 10 bot accounts of 1,000, all of them in a lobby of 100 whose places are the first 100: 10% of them.
    Measures.Fairness f = new Measures.Fairness(1000, 10, 0.01, 100, 10, 0.1, 100, 100, 10, 0.1, 0.0, 100, 0.9, 900,
        java.util.Map.of(1, 1000L), 0, 0, 0, 0, 0, Double.NaN);
    assertFalse(Gate.checks(f, SAFE, GATE).get(0).passed(), "10% of the places for 1% of the accounts");
    assertTrue(Gate.checks(f, SAFE, new Scenario.GateSpec(0.5, 0.1, "lobby")).get(0).passed(), "10% of the lobby, 10% of its places");
    Measures.Fairness ahead = new Measures.Fairness(1000, 10, 0.01, 100, 10, 0.1, 100, 100, 20, 0.2, 0.0, 100, 0.9, 900,
        java.util.Map.of(1, 1000L), 0, 0, 0, 0, 0, Double.NaN);
    assertFalse(Gate.checks(ahead, SAFE, new Scenario.GateSpec(0.5, 0.1, "lobby")).get(0).passed(), "20% of the places for 10% of the lobby");
  }

  @Test
  void aLobbyTooSmallToMeasureFailsTheGate() {
    Measures.Fairness f = Measures.fairness(SimMeasuresTest.lottery(10, 0, 3), 5);
    assertFalse(Gate.checks(f, SAFE, GATE).get(1).passed(), "10 lobby accounts say nothing about order");
  }
}
