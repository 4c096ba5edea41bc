package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;

/**
 * The lottery is a permutation of the lobby: distinct places, fixed per join index and salt,
 * blind to arrival order, and for any one account uniform over the salts. Fixed seeds and a
 * fixed salt keep the statistics reproducible; the thresholds are p = 0.001 and |rho| < 0.05.
 */
class LotteryTest {
  static final int COHORT = 10_000;
  static final String SALT = "5a1f00d5eed0000000000000000000000000000000000000000000000000beef";

  @Test
  void tenThousandLobbyAccountsGetTenThousandDistinctPlacesInRange() {
    boolean[] taken = new boolean[COHORT + 1];
    for (int index = 1; index <= COHORT; index++) {
      long p = Lottery.place(index, SALT, COHORT);
      assertTrue(p >= 1 && p <= COHORT, "place " + p);
      assertTrue(!taken[(int) p], "place " + p + " given twice");
      taken[(int) p] = true;
      assertEquals(p, Lottery.place(index, SALT, COHORT), "the same account keeps its place");
    }
    assertEquals(1, Lottery.place(1, SALT, 1));
    for (int n : new int[] {2, 3, 5, 17, 1000, 65_537}) {
      boolean[] seen = new boolean[n + 1];
      for (int i = 1; i <= n; i++) {
        int p = (int) Lottery.place(i, SALT, n);
        assertTrue(p >= 1 && p <= n && !seen[p], "cohort " + n + ": place " + p);
        seen[p] = true;
      }
    }
    assertThrows(IllegalArgumentException.class, () -> Lottery.place(COHORT + 1, SALT, COHORT));
  }

  @Test
  void placesAreBlindToArrivalOrder() {
    // Join index = arrival order: the earliest 10% (the bots that refresh at lobby open) are 1..1000.
    double[] arrival = new double[COHORT];
    double[] place = new double[COHORT];
    long[][] table = new long[10][10];
    int earlyInFirstTenth = 0;
    for (int i = 0; i < COHORT; i++) {
      long p = Lottery.place(i + 1, SALT, COHORT);
      arrival[i] = i + 1;
      place[i] = p;
      table[i * 10 / COHORT][(int) ((p - 1) * 10 / COHORT)]++;
      if (i < COHORT / 10 && p <= COHORT / 10) earlyInFirstTenth++;
    }
    // Both are permutations of 1..n, so the ranks are the values and Spearman is Pearson on them.
    double rho = pearson(arrival, place);
    double chi = chiSquareIndependence(table);
    double p = 1 - new ChiSquaredDistribution(81).cumulativeProbability(chi);
    System.out.printf("lottery: %d accounts, Spearman(arrival, place) = %.4f, chi-square(arrival decile x place decile) = %.1f"
        + " (81 df, p = %.3f), earliest 10%% got %d of the first 1,000 places%n", COHORT, rho, chi, p, earlyInFirstTenth);
    assertTrue(Math.abs(rho) < 0.05, "arrival order and place correlate: rho " + rho);
    assertTrue(p > 0.001, "places depend on arrival decile: chi-square " + chi + ", p " + p);
    assertTrue(earlyInFirstTenth > 60 && earlyInFirstTenth < 140, "early arrivals got " + earlyInFirstTenth + " of the first 1,000 places");
  }

  @Test
  void anyOneAccountsPlaceIsUniformOverTheSalts() {
    // The first to join and one in the middle: over 10,000 fresh salts, each lands in every tenth of the line equally often.
    Random rnd = new Random(2026);
    byte[] salt = new byte[32];
    for (long index : new long[] {1, 5_000}) {
      long[] bins = new long[10];
      for (int s = 0; s < COHORT; s++) {
        rnd.nextBytes(salt);
        bins[(int) ((Lottery.place(index, HexFormat.of().formatHex(salt), COHORT) - 1) * 10 / COHORT)]++;
      }
      double chi = 0;
      for (long b : bins) chi += Math.pow(b - COHORT / 10.0, 2) / (COHORT / 10.0);
      double p = 1 - new ChiSquaredDistribution(9).cumulativeProbability(chi);
      System.out.printf("lottery: join index %d over %d salts, bins %s, chi-square %.1f (9 df, p = %.3f)%n",
          index, COHORT, Arrays.toString(bins), chi, p);
      assertTrue(p > 0.001, "join index " + index + " is not uniform over salts: " + Arrays.toString(bins));
    }
  }

  @Test
  void aNewSaltGivesNewPlaces() {
    String a = Lottery.drawSalt();
    String b = Lottery.drawSalt();
    assertEquals(64, a.length());
    assertNotEquals(a, b);
    int same = 0;
    for (int i = 1; i <= 1000; i++) if (Lottery.place(i, a, COHORT) == Lottery.place(i, b, COHORT)) same++;
    assertTrue(same < 10, same + " accounts kept their place under a new salt");
  }

  /** Pearson's chi-square statistic of independence of a contingency table. */
  static double chiSquareIndependence(long[][] t) {
    int rows = t.length;
    int cols = t[0].length;
    double total = 0;
    double[] r = new double[rows];
    double[] c = new double[cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        r[i] += t[i][j];
        c[j] += t[i][j];
        total += t[i][j];
      }
    }
    double chi = 0;
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        double expected = r[i] * c[j] / total;
        chi += Math.pow(t[i][j] - expected, 2) / expected;
      }
    }
    return chi;
  }

  static double pearson(double[] x, double[] y) {
    double mx = Arrays.stream(x).average().orElse(0);
    double my = Arrays.stream(y).average().orElse(0);
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (int i = 0; i < x.length; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
      syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / Math.sqrt(sxx * syy);
  }
}
