package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scenario files parse over the defaults, the shipped ones are valid, and the same seed makes the same crowd. */
class SimScenarioTest {

  @Test
  void theShippedScenariosParse() {
    for (String name : List.of("smoke", "seed-section-8", "spike", "hot-seats", "presale", "sybil", "stadium", "proof-of-work",
        "staggered", "staggered-at-once")) {
      Scenario s = Scenario.load(Path.of("sim/scenarios/" + name + ".conf"));
      assertEquals(name, s.name());
      assertTrue(s.humans().count() > 0 && s.botOperators() > 0, name);
    }
  }

  @Test
  void thePresaleSybilStadiumAndProofOfWorkScenariosAreWhatTheirFilesSay() {
    Scenario presale = Scenario.load(Path.of("sim/scenarios/presale.conf"));
    assertTrue(presale.onsale().presale() && presale.onsale().invitations() == 1000 && presale.onsale().registrants() == 0.8);
    Crowd sybils = Crowd.of(Scenario.load(Path.of("sim/scenarios/sybil.conf")), "t");
    assertEquals(200, sybils.botAccountsJoining());
    assertEquals(200, sybils.accounts.stream().filter(a -> a.bot).map(a -> a.tabs.get(0).forwardedFor).distinct().count(),
        "every sybil account on a network of its own");
    Scenario stadium = Scenario.load(Path.of("sim/scenarios/stadium.conf"));
    assertEquals(70_000, stadium.event().seats());
    assertEquals(100_000, stadium.humans().count());
    Crowd pow = Crowd.of(Scenario.load(Path.of("sim/scenarios/proof-of-work.conf")), "t");
    assertEquals(30, pow.accounts.stream().filter(a -> a.fullCpuPow).count(), "3 operators x 10 accounts solve with every core");
    assertTrue(pow.accounts.stream().noneMatch(a -> !a.bot && a.fullCpuPow));
  }

  @Test
  void theSeedSection8ScenarioKeepsTheSeedsShares() {
    Scenario s = Scenario.load(Path.of("sim/scenarios/seed-section-8.conf"));
    Crowd c = Crowd.of(s, "t");
    long botAccounts = c.botAccountsJoining();
    long botTabs = c.accounts.stream().filter(a -> a.bot && a.joins).mapToLong(a -> a.tabs.size()).sum();
    double accountShare = (double) botAccounts / (botAccounts + s.humans().count());
    double sessionShare = (double) botTabs / (botTabs + s.humans().count());
    assertEquals(0.0025, accountShare, 0.0001, "the seed's 500 of 200,500 accounts");
    assertEquals(0.09, sessionShare, 0.005, "the seed's 20,000 of 220,000 sessions");
  }

  @Test
  void theSpikeBringsMostOfTheCrowdInTheFirstSecondsAndHotSeatsAreWantedByMost() {
    Crowd spike = Crowd.of(Scenario.load(Path.of("sim/scenarios/spike.conf")), "t");
    long inFirstTwoSeconds = spike.humans.stream().filter(h -> h.plan.arrivalOffsetMillis() >= 0 && h.plan.arrivalOffsetMillis() <= 2000).count();
    assertTrue(inFirstTwoSeconds > 0.8 * spike.humans.size(), inFirstTwoSeconds + " of " + spike.humans.size());
    Scenario hot = Scenario.load(Path.of("sim/scenarios/hot-seats.conf"));
    assertTrue(hot.gate().botShareBaseline().equals("accounts") && Scenario.load(Path.of("sim/scenarios/spike.conf")).gate().againstLobby());
    long wanting = Crowd.of(hot, "t").humans.stream().filter(h -> h.plan.wantsHotSeats()).count();
    assertEquals(0.9 * hot.humans().count(), wanting, 50);
    assertEquals(0, Crowd.of(Scenario.load(Path.of("sim/scenarios/smoke.conf")), "t").humans.stream()
        .filter(h -> h.plan.wantsHotSeats()).count());
  }

  @Test
  void hotSeatsAreTheFirstFreeRunOfTheZonesFirstRows() {
    Scenario s = Scenario.from(ConfigFactory.parseString("humans.hot-seats { share = 1, zone = floor, rows = 2 }"));
    Sale sale = new Sale(s, "e", null, 0);
    StringBuilder seats = new StringBuilder();
    for (String row : List.of("U-1", "F-1", "F-2", "F-3")) {
      for (int n = 1; n <= 4; n++) {
        String zone = row.startsWith("U") ? "upper" : "floor";
        if (seats.length() > 0) seats.append(',');
        seats.append("{\"seatId\":\"").append(row).append('-').append(n).append("\",\"section\":\"").append(row.charAt(0))
            .append("\",\"row\":\"").append(row.substring(2)).append("\",\"zone\":\"").append(zone).append("\"}");
      }
    }
    sale.learnHotRows(new io.boxoffice.load.Storefront.Reply(200, "{\"seats\":[" + seats + "]}", null, 0));
    java.util.Set<String> taken = new java.util.HashSet<>();
    assertEquals(List.of("F-1-1", "F-1-2"), sale.hotRun(2, taken));
    taken.add("F-1-2");
    assertEquals(List.of("F-1-3", "F-1-4"), sale.hotRun(2, taken));
    assertEquals(List.of("F-2-1", "F-2-2", "F-2-3"), sale.hotRun(3, taken));
    taken.addAll(List.of("F-2-2", "F-1-4"));
    assertEquals(List.of(), sale.hotRun(3, taken), "row F-3 is not among the first two rows");
    // Availability: 2 bits a seat in seat-map order (U-1-1..4 are seats 0-3, F-1-1 is seat 4); 1 held, 2 sold.
    byte[] availability = {(byte) 0b00000000, (byte) 0b01000010, (byte) 0b10000000, (byte) 0b11000000};
    assertEquals(java.util.Set.of("F-1-1", "F-1-4", "F-2-1"), sale.hotTakenIn(availability));
  }

  @Test
  void theSameSeedMakesTheSameCrowd() {
    Scenario s = Scenario.load(Path.of("sim/scenarios/smoke.conf"));
    Crowd a = Crowd.of(s, "a");
    Crowd b = Crowd.of(s, "b");
    assertEquals(a.humans.size(), b.humans.size());
    for (int i = 0; i < a.humans.size(); i++) assertEquals(a.humans.get(i).plan, b.humans.get(i).plan);
    assertEquals(a.tabs(), b.tabs());
  }

  @Test
  void arrivalsFollowTheShares() {
    Scenario s = Scenario.from(ConfigFactory.parseString(
        "humans { count = 10000, arrivals { before-start = 0.6, spike = 0.3, spike-window = 5s, tail-window = 60s } }\n"
            + "onsale.lobby = 30s"));
    Crowd c = Crowd.of(s, "t");
    long before = c.humans.stream().filter(h -> h.plan.arrivalOffsetMillis() < 0).count();
    long spike = c.humans.stream().filter(h -> h.plan.arrivalOffsetMillis() >= 0 && h.plan.arrivalOffsetMillis() <= 5000).count();
    long tail = c.humans.size() - before - spike;
    assertEquals(6000, before, 150);
    assertEquals(3000, spike, 150);
    assertEquals(1000, tail, 150);
    assertTrue(c.humans.stream().allMatch(h -> h.plan.arrivalOffsetMillis() >= -30_000 && h.plan.arrivalOffsetMillis() <= 65_000));
  }

  @Test
  void staggeredSalesAreSeveralEventsEachWithACrowdOfItsOwn() {
    Scenario apart = Scenario.load(Path.of("sim/scenarios/staggered.conf"));
    assertEquals(new Scenario.StaggerSpec(3, java.time.Duration.ofSeconds(30)), apart.staggered());
    Scenario together = Scenario.load(Path.of("sim/scenarios/staggered-at-once.conf"));
    assertEquals(new Scenario.StaggerSpec(3, java.time.Duration.ZERO), together.staggered());
    assertEquals(apart.humans(), together.humans(), "the same events, only the spacing differs");
    assertTrue(!Scenario.load(Path.of("sim/scenarios/smoke.conf")).staggered().any(), "one event unless a scenario says more");
    Scenario second = apart.event(1);
    assertTrue(!second.staggered().any() && second.seed() == apart.seed() + 1);
    assertTrue(!Crowd.of(apart.event(0), "t").humans.get(0).plan.equals(Crowd.of(second, "t").humans.get(0).plan),
        "each event's crowd is its own");
    assertThrows(IllegalArgumentException.class, () -> Scenario.from(ConfigFactory.parseString(
        "staggered { events = 2, spacing = 7s }, measure.bucket = 5s")), "the events' buckets must line up");
    assertThrows(IllegalArgumentException.class, () -> Scenario.from(ConfigFactory.parseString(
        "staggered { events = 2, spacing = 10s }, fault.kind = slow-payments")));
  }

  @Test
  void anUnknownBotStrategyOrImpossibleSharesAreRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> Scenario.from(ConfigFactory.parseString("bots = [{ operators = 1, strategies = [teleport] }]")));
    assertThrows(IllegalArgumentException.class,
        () -> Scenario.from(ConfigFactory.parseString("humans.arrivals { before-start = 0.8, spike = 0.4 }")));
  }

  @Test
  void strategiesShapeTheirOperators() {
    Scenario s = Scenario.from(ConfigFactory.parseString(
        "bots = [{ operators = 1, strategies = [many-tabs, sybils, share-token, earliest-join, hold-max-never-pay], tabs = 3, accounts = 4 }]"));
    Crowd c = Crowd.of(s, "t");
    BotOperator op = c.operators.get(0);
    assertEquals(4, op.accounts.size());
    assertEquals(1, op.accomplices.size(), "share-token lends an accomplice's identity");
    assertTrue(op.accounts.stream().allMatch(a -> a.tabs.size() == 3));
    assertEquals(4, op.accounts.stream().map(a -> a.tabs.get(0).forwardedFor.substring(0, a.tabs.get(0).forwardedFor.lastIndexOf('.')))
        .distinct().count(), "sybils: a network per account");
    assertTrue(op.shape.earliest && !op.shape.pays);
    assertTrue(op.arrivalOffsetMillis < -s.onsale().lobby().toMillis(), "earliest: before the lobby opens");
  }
}
