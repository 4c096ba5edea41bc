package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The simulator's measures on synthetic outcomes whose figures are known. */
class SimMeasuresTest {

  @Test
  void spearmanIsOneForTheSameOrderMinusOneForTheReverseAndRanksTiesByTheirAverage() {
    double[] x = {1, 2, 3, 4, 5};
    assertEquals(1.0, Measures.spearman(x, new double[] {10, 20, 30, 40, 50}), 1e-12);
    assertEquals(-1.0, Measures.spearman(x, new double[] {50, 40, 30, 20, 10}), 1e-12);
    // Monotone but not linear: still 1.
    assertEquals(1.0, Measures.spearman(x, new double[] {1, 8, 27, 64, 125}), 1e-12);
    assertEquals(List.of(1.0, 2.5, 2.5, 4.0), toList(Measures.ranks(new double[] {1, 7, 7, 9})));
    // A textbook case with a tie: rho = 1 - 6 sum d^2 / (n (n^2 - 1)) does not hold with ties; Pearson of ranks does.
    assertEquals(0.5, Measures.spearman(new double[] {1, 2, 3}, new double[] {1, 3, 2}), 1e-12);
  }

  @Test
  void spearmanSaysNothingAboutTooFewPairsOrAConstantSide() {
    assertTrue(Double.isNaN(Measures.spearman(new double[] {1, 2}, new double[] {2, 1})));
    assertTrue(Double.isNaN(Measures.spearman(new double[] {1, 2, 3}, new double[] {4, 4, 4})));
  }

  @Test
  void aShuffledLobbyHasNoRankCorrelationWithArrival() {
    List<Measures.AccountView> accounts = lottery(5000, 20, 42);
    Measures.Fairness f = Measures.fairness(accounts, 1000);
    // One draw of 5,000: rho has a standard error of about 1/sqrt(5000) = 0.014.
    assertTrue(Math.abs(f.spearmanLobby()) < 0.06, "rho " + f.spearmanLobby());
    assertEquals(5020, f.lobbyPairs());
  }

  @Test
  void sharesCountAccountsThatJoinedPlacesInTheFirstKAndTickets() {
    List<Measures.AccountView> accounts = new ArrayList<>();
    accounts.add(view(true, true, 1, 1, 8));
    accounts.add(view(true, true, 2, 7, 0));
    for (int i = 0; i < 8; i++) accounts.add(view(false, true, 10 + i, 2 + i, 2));
    accounts.add(new Measures.AccountView(false, false, false, 0, Set.of(), 0));
    Measures.Fairness f = Measures.fairness(accounts, 4);
    assertEquals(10, f.accounts(), "an account that never joined is not counted");
    assertEquals(0.2, f.botAccountShare(), 1e-12);
    assertEquals(4, f.placesInFirstK());
    assertEquals(1, f.botPlacesInFirstK(), "places 1-4: one bot (1), three humans (2, 3, 4)");
    assertEquals(0.25, f.botShareFirstK(), 1e-12);
    assertEquals(8, f.ticketsBots());
    assertEquals(16, f.ticketsHumans());
    assertEquals(8.0 / 24, f.botShareTickets(), 1e-12);
  }

  @Test
  void extraPlacesOfOneAccountAndPlacesHeldByTwoAccountsAreCounted() {
    List<Measures.AccountView> accounts = List.of(
        new Measures.AccountView(true, true, true, 1, Set.of(1L, 2L, 3L), 0),
        new Measures.AccountView(false, true, true, 2, Set.of(3L), 0),
        new Measures.AccountView(false, true, true, 3, Set.of(4L), 0),
        new Measures.AccountView(false, true, false, 4, Set.of(), 0));
    Measures.Fairness f = Measures.fairness(accounts, 3);
    assertEquals(Map.of(0, 1L, 1, 2L, 3, 1L), f.distinctPlaces());
    assertEquals(1, f.accountsWithSeveralPlaces());
    assertEquals(1, f.sharedPlaces(), "place 3 is held by two accounts");
    assertEquals(1, f.accountsWithoutPlace());
    assertEquals(3, f.botPlacesInFirstK(), "each of the bot's extra places counts against it");
  }

  @Test
  void etaErrorIsWhatTheFanHadMinusWhatThePageShowed() {
    Measures.EtaError e = Measures.etaError(List.of(
        new Measures.EtaSample(60, 60), new Measures.EtaSample(60, 90), new Measures.EtaSample(120, 100),
        new Measures.EtaSample(600, 1000)));
    assertEquals(4, e.samples());
    // Errors: 0, +30, -20, +400.
    assertEquals(0, e.medianError(), 1e-12, "nearest-rank median of -20, 0, 30, 400");
    assertEquals(20, e.medianAbsError(), 1e-12);
    assertEquals(400, e.p90AbsError(), 1e-12);
    // Within 30 s or 25%: 0 (yes), 30 (yes), 20 (yes), 400 > 150 (no).
    assertEquals(0.75, e.shareWithin30sOr25pct(), 1e-12);
    assertTrue(Double.isNaN(Measures.etaError(List.of()).medianError()));
  }

  @Test
  void aSeatInTwoOrdersIsSoldTwice() {
    Account a = new Account(0, -1, "a@x", true);
    Account b = new Account(1, -1, "b@x", true);
    List<Observations.Sale> sales = List.of(new Observations.Sale(a, "o1", List.of("A-1-1", "A-1-2"), 1),
        new Observations.Sale(b, "o2", List.of("A-1-2", "A-1-3"), 2));
    assertEquals(Map.of("A-1-2", List.of("o1", "o2")), Measures.soldTwice(sales));
  }

  /** {@code humans} humans and {@code bots} bots, arriving at random, places a random permutation (the lottery). */
  static List<Measures.AccountView> lottery(int humans, int bots, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int n = humans + bots;
    long[] places = new long[n];
    for (int i = 0; i < n; i++) places[i] = i + 1;
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      long t = places[i];
      places[i] = places[j];
      places[j] = t;
    }
    List<Measures.AccountView> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      boolean bot = i < bots;
      // Bots arrive first (scripts at the lobby's opening), humans over a minute.
      long arrival = bot ? 1 + r.nextInt(50) : 1000 + r.nextInt(60_000);
      out.add(new Measures.AccountView(bot, true, true, arrival, Set.of(places[i]), 0));
    }
    return out;
  }

  private static Measures.AccountView view(boolean bot, boolean lobby, long arrival, long place, int seats) {
    return new Measures.AccountView(bot, true, lobby, arrival, Set.of(place), seats);
  }

  private static List<Double> toList(double[] v) {
    List<Double> out = new ArrayList<>();
    for (double d : v) out.add(d);
    return out;
  }
}
