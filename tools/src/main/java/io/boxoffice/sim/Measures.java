package io.boxoffice.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fairness and honesty figures of a run, from what each account was shown. Pure: plain data
 * in, figures out, so that they are tested on synthetic outcomes (a fair lottery, a FIFO line).
 */
final class Measures {
  private Measures() {}

  /** One account as the measures need it: bot or not, whether and when it joined, the places it was shown, the seats it bought. */
  record AccountView(boolean bot, boolean joined, boolean lobby, long firstJoinAt, Set<Long> places, int seatsBought) {}

  /** The fairness figures (shares are fractions, not percents; NaN when there was nothing to measure). */
  record Fairness(long accounts, long botAccounts, double botAccountShare, long lobbyAccounts, long lobbyBotAccounts,
                  double botLobbyShare, int firstK, long placesInFirstK, long botPlacesInFirstK, double botShareFirstK,
                  double spearmanLobby, long lobbyPairs, double spearmanLate, long latePairs, Map<Integer, Long> distinctPlaces,
                  long accountsWithoutPlace, long accountsWithSeveralPlaces, long sharedPlaces, long ticketsBots, long ticketsHumans,
                  double botShareTickets) {}

  /**
   * Fairness over the accounts that joined: bots' share of them (and of the lobby), of the first
   * {@code k} places (every distinct place an account was shown counts, so extra places from
   * extra tabs count against the bots) and of the tickets; Spearman's rho of arrival time and
   * place inside the lobby cohort and among later arrivals (an account's first join, its lowest
   * place); how many distinct places each account was shown, and how many places more than one
   * account was shown.
   */
  static Fairness fairness(Collection<AccountView> all, int k) {
    List<AccountView> joined = all.stream().filter(AccountView::joined).toList();
    long bots = joined.stream().filter(AccountView::bot).count();
    List<AccountView> lobby = joined.stream().filter(AccountView::lobby).toList();
    long lobbyBots = lobby.stream().filter(AccountView::bot).count();
    long inFirstK = 0;
    long botsInFirstK = 0;
    Map<Long, Integer> holders = new HashMap<>();
    Map<Integer, Long> distinct = new TreeMap<>();
    long withoutPlace = 0;
    long several = 0;
    for (AccountView a : joined) {
      int n = a.places().size();
      distinct.merge(n, 1L, Long::sum);
      if (n == 0) withoutPlace++;
      if (n > 1) several++;
      for (long p : a.places()) {
        holders.merge(p, 1, Integer::sum);
        if (p <= k) {
          inFirstK++;
          if (a.bot()) botsInFirstK++;
        }
      }
    }
    long shared = holders.values().stream().filter(h -> h > 1).count();
    long ticketsBots = joined.stream().filter(AccountView::bot).mapToLong(AccountView::seatsBought).sum();
    long ticketsHumans = joined.stream().filter(a -> !a.bot()).mapToLong(AccountView::seatsBought).sum();
    double[][] lobbyPairs = arrivalVsPlace(lobby);
    double[][] latePairs = arrivalVsPlace(joined.stream().filter(a -> !a.lobby()).toList());
    return new Fairness(joined.size(), bots, share(bots, joined.size()), lobby.size(), lobbyBots, share(lobbyBots, lobby.size()), k,
        inFirstK, botsInFirstK, share(botsInFirstK, inFirstK), spearman(lobbyPairs[0], lobbyPairs[1]), lobbyPairs[0].length,
        spearman(latePairs[0], latePairs[1]), latePairs[0].length, distinct, withoutPlace, several, shared, ticketsBots, ticketsHumans,
        share(ticketsBots, ticketsBots + ticketsHumans));
  }

  /** [arrivals, places] of the accounts that were shown a place. */
  private static double[][] arrivalVsPlace(List<AccountView> accounts) {
    List<AccountView> placed = accounts.stream().filter(a -> !a.places().isEmpty() && a.firstJoinAt() > 0).toList();
    double[] arrival = new double[placed.size()];
    double[] place = new double[placed.size()];
    for (int i = 0; i < placed.size(); i++) {
      arrival[i] = placed.get(i).firstJoinAt();
      place[i] = placed.get(i).places().stream().mapToLong(Long::longValue).min().orElse(0);
    }
    return new double[][] {arrival, place};
  }

  static double share(long part, long whole) {
    return whole == 0 ? Double.NaN : (double) part / whole;
  }

  /** Spearman's rank correlation (ties get their average rank); NaN for fewer than 3 pairs or a constant side. */
  static double spearman(double[] x, double[] y) {
    if (x.length != y.length) throw new IllegalArgumentException("pairs of unequal length");
    if (x.length < 3) return Double.NaN;
    return pearson(ranks(x), ranks(y));
  }

  static double[] ranks(double[] v) {
    Integer[] order = new Integer[v.length];
    for (int i = 0; i < v.length; i++) order[i] = i;
    Arrays.sort(order, (a, b) -> Double.compare(v[a], v[b]));
    double[] rank = new double[v.length];
    int i = 0;
    while (i < v.length) {
      int j = i;
      while (j + 1 < v.length && v[order[j + 1]] == v[order[i]]) j++;
      double average = (i + j) / 2.0 + 1;
      for (int m = i; m <= j; m++) rank[order[m]] = average;
      i = j + 1;
    }
    return rank;
  }

  /** Pearson's r from the sums of one pass (ranks are small whole numbers: no precision lost). */
  private static double pearson(double[] x, double[] y) {
    double n = x.length;
    double sumX = 0;
    double sumY = 0;
    double sumXx = 0;
    double sumYy = 0;
    double sumXy = 0;
    for (int i = 0; i < x.length; i++) {
      sumX += x[i];
      sumY += y[i];
      sumXx += x[i] * x[i];
      sumYy += y[i] * y[i];
      sumXy += x[i] * y[i];
    }
    double covariance = sumXy - sumX * sumY / n;
    double varianceX = sumXx - sumX * sumX / n;
    double varianceY = sumYy - sumY * sumY / n;
    return varianceX <= 0 || varianceY <= 0 ? Double.NaN : covariance / Math.sqrt(varianceX * varianceY);
  }

  /** A wait the page showed (s) and the wait the fan had from then until the line reached its place (s). */
  record EtaSample(double shownSeconds, double hadSeconds) {}

  /** How wrong the promised waits were: error = had - shown (positive: it took longer than promised). */
  record EtaError(int samples, double medianError, double medianAbsError, double p90AbsError, double shareWithin30sOr25pct) {}

  static EtaError etaError(List<EtaSample> samples) {
    if (samples.isEmpty()) return new EtaError(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    double[] err = new double[samples.size()];
    double[] abs = new double[samples.size()];
    int within = 0;
    for (int i = 0; i < samples.size(); i++) {
      EtaSample s = samples.get(i);
      err[i] = s.hadSeconds() - s.shownSeconds();
      abs[i] = Math.abs(err[i]);
      if (abs[i] <= Math.max(30, 0.25 * s.shownSeconds())) within++;
    }
    return new EtaError(samples.size(), percentile(err, 50), percentile(abs, 50), percentile(abs, 90), (double) within / samples.size());
  }

  /** The nearest-rank percentile of {@code values} (0 < p <= 100). */
  static double percentile(double[] values, double p) {
    if (values.length == 0) return Double.NaN;
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /** Seats named by more than one confirmed order: seat -> order ids. */
  static Map<String, List<String>> soldTwice(Collection<Observations.Sale> sales) {
    Map<String, List<String>> orders = new TreeMap<>();
    for (Observations.Sale s : sales) {
      for (String seat : s.seatIds()) orders.computeIfAbsent(seat, x -> new ArrayList<>()).add(s.orderId());
    }
    orders.values().removeIf(o -> o.size() < 2);
    return orders;
  }
}
