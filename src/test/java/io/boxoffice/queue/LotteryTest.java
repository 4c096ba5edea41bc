package io.boxoffice.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The lottery's places: in range, fixed per account, spread evenly, and blind to arrival order. */
class LotteryTest {
  static final int COHORT = 10_000;

  @Test
  void anAccountAlwaysGetsTheSamePlaceInRange() {
    String salt = Lottery.drawSalt();
    assertEquals(64, salt.length());
    for (int i = 0; i < 1000; i++) {
      long p = Lottery.place("acct-" + i, salt, COHORT);
      assertTrue(p >= 1 && p <= COHORT, "place " + p);
      assertEquals(p, Lottery.place("acct-" + i, salt, COHORT));
    }
    assertEquals(1, Lottery.place("anyone", salt, 1));
  }

  @Test
  void aNewSaltGivesNewPlaces() {
    String a = Lottery.drawSalt();
    String b = Lottery.drawSalt();
    assertNotEquals(a, b);
    int same = 0;
    for (int i = 0; i < 1000; i++) if (Lottery.place("acct-" + i, a, COHORT) == Lottery.place("acct-" + i, b, COHORT)) same++;
    assertTrue(same < 10, same + " accounts kept their place under a new salt");
  }

  @Test
  void placesAreIndependentOfArrivalOrderAndEvenlySpread() {
    // Fixed seeds: arrivals in a random order (bots first, humans later), a fixed salt.
    Random rnd = new Random(2022);
    List<String> arrivals = new ArrayList<>();
    for (int i = 0; i < COHORT; i++) arrivals.add((i < 1000 ? "bot-" : "fan-") + Long.toHexString(rnd.nextLong()));
    String salt = "5a1f00d5eed0000000000000000000000000000000000000000000000000beef";
    double[] arrivalRank = new double[COHORT];
    double[] place = new double[COHORT];
    int[] bins = new int[10];
    int botsInFirstTenth = 0;
    for (int i = 0; i < COHORT; i++) {
      arrivalRank[i] = i;
      long p = Lottery.place(arrivals.get(i), salt, COHORT);
      place[i] = p;
      bins[(int) ((p - 1) * 10 / COHORT)]++;
      if (i < 1000 && p <= COHORT / 10) botsInFirstTenth++;
    }
    double rho = correlation(arrivalRank, place);
    assertTrue(Math.abs(rho) < 0.03, "arrival order and place correlate: " + rho);
    double chi = 0;
    for (int b : bins) chi += Math.pow(b - COHORT / 10.0, 2) / (COHORT / 10.0);
    assertTrue(chi < 27.9, "places are not evenly spread, chi-square " + chi); // 9 degrees of freedom, p = 0.001
    // The 1,000 earliest arrivals get about their share (10%) of the first tenth of places, not all of it.
    assertTrue(botsInFirstTenth > 60 && botsInFirstTenth < 140, "early arrivals got " + botsInFirstTenth + " of the first 1,000 places");
  }

  static double correlation(double[] x, double[] y) {
    double mx = 0;
    double my = 0;
    for (int i = 0; i < x.length; i++) {
      mx += x[i];
      my += y[i];
    }
    mx /= x.length;
    my /= y.length;
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
