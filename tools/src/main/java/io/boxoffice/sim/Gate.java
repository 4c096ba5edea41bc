package io.boxoffice.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The thresholds a run must keep: bots get no more of the first K places than their share of
 * accounts plus a margin, arrival order does not predict lobby places, every account holds one
 * place and no place is held twice, the lobby counts accounts (not tabs), nothing is sold twice or beyond the venue, no 5xx, no defense
 * let a bot through, and something was sold at all (a run that sold nothing measured nothing).
 */
final class Gate {
  private Gate() {}

  /** One threshold: what it says, the run's value, and whether it held. */
  record Check(String name, String value, boolean passed) {}

  /**
   * The safety counts of a run, and the lobby as the event counted it against the accounts that
   * joined before the start (a lobby that counts tabs or requests is larger).
   */
  record Safety(long fiveXx, long oversold, long soldTwice, long confirmedNotCounted, long breaches, long seatsSold,
                long lobbyCounted, long lobbyAccounts, long partialHolds) {}

  /** Fewer lobby accounts than this and Spearman's rho says nothing. */
  static final int MIN_LOBBY_PAIRS = 30;

  static List<Check> checks(Measures.Fairness f, Safety s, Scenario.GateSpec g) {
    List<Check> out = new ArrayList<>();
    double baseline = g.againstLobby() ? f.botLobbyShare() : f.botAccountShare();
    String of = g.againstLobby() ? "lobby accounts" : "accounts";
    double limit = baseline + g.botShareMarginPoints() / 100.0;
    out.add(new Check(String.format(Locale.ROOT, "bots' share of the first %,d places <= their share of %s + %.1f points",
        f.firstK(), of, g.botShareMarginPoints()),
        String.format(Locale.ROOT, "%s of %,d places vs %s of %,d %s (limit %s)", pct(f.botShareFirstK()), f.placesInFirstK(),
            pct(baseline), g.againstLobby() ? f.lobbyAccounts() : f.accounts(), of, pct(limit)),
        f.placesInFirstK() > 0 && f.botShareFirstK() <= limit + 1e-12));
    out.add(new Check(String.format(Locale.ROOT, "|Spearman| of arrival and place in the lobby < %.2f", g.maxAbsSpearman()),
        String.format(Locale.ROOT, "%.4f over %,d lobby accounts", f.spearmanLobby(), f.lobbyPairs()),
        f.lobbyPairs() >= MIN_LOBBY_PAIRS && Math.abs(f.spearmanLobby()) < g.maxAbsSpearman()));
    out.add(new Check("every account holds exactly one place, no place is held by two accounts",
        String.format(Locale.ROOT, "%,d accounts with several places, %,d places shared (%,d accounts never saw theirs)",
            f.accountsWithSeveralPlaces(), f.sharedPlaces(), f.accountsWithoutPlace()),
        f.accountsWithSeveralPlaces() == 0 && f.sharedPlaces() == 0 && f.accounts() > 0));
    out.add(new Check("the lobby counts accounts, not tabs: its count <= accounts that tried to join before the start",
        String.format(Locale.ROOT, "%,d counted, %,d accounts tried to join before the start", s.lobbyCounted(), s.lobbyAccounts()),
        s.lobbyCounted() >= 0 && s.lobbyCounted() <= s.lobbyAccounts()));
    out.add(new Check("0 oversold, 0 sold twice",
        String.format(Locale.ROOT, "%,d oversold, %,d seats sold twice, %,d confirmed seats the event does not count",
            s.oversold(), s.soldTwice(), s.confirmedNotCounted()),
        s.oversold() == 0 && s.soldTwice() == 0 && s.confirmedNotCounted() == 0));
    out.add(new Check("holds of named seats are all or nothing (200 only with exactly the seats named)",
        String.format(Locale.ROOT, "%,d holds answered with other seats", s.partialHolds()), s.partialHolds() == 0));
    out.add(new Check("0 answers 5xx", String.format(Locale.ROOT, "%,d", s.fiveXx()), s.fiveXx() == 0));
    out.add(new Check("0 defenses breached by bots", String.format(Locale.ROOT, "%,d", s.breaches()), s.breaches() == 0));
    out.add(new Check("something was sold", String.format(Locale.ROOT, "%,d seats", s.seatsSold()), s.seatsSold() > 0));
    return out;
  }

  static boolean passed(List<Check> checks) {
    return checks.stream().allMatch(Check::passed);
  }

  static String pct(double share) {
    return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.2f%%", share * 100);
  }
}
