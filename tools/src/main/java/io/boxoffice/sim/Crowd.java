package io.boxoffice.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Everyone in a run, made from the scenario and its seed: the humans with their arrival times and
 * choices, the bot operators with their accounts and tabs. The same seed makes the same crowd.
 */
final class Crowd {
  final List<Human> humans = new ArrayList<>();
  final List<BotOperator> operators = new ArrayList<>();
  final List<Account> accounts = new ArrayList<>();

  static Crowd of(Scenario s, String runTag) {
    Crowd c = new Crowd();
    SplittableRandom root = new SplittableRandom(s.seed());
    SplittableRandom humanRandom = root.split();
    SplittableRandom botRandom = root.split();
    long lobbyMillis = s.onsale().lobby().toMillis();
    Scenario.HumanSpec h = s.humans();
    for (int i = 0; i < h.count(); i++) {
      SplittableRandom r = humanRandom.split();
      Account a = new Account(c.accounts.size(), -1, "sim-" + runTag + "-h" + i + "@sim.example.com", true);
      // Each person on a network (/24) of their own: rate limits per network are not what a crowd trips over.
      Tab tab = new Tab(a, 0, (10 + i / 65536) + "." + (i / 256 % 256) + "." + (i % 256) + ".7");
      a.tabs.add(tab);
      c.accounts.add(a);
      double u = r.nextDouble();
      long offset;
      if (u < h.beforeStart()) {
        offset = -lobbyMillis + (long) (r.nextDouble() * lobbyMillis);
      } else if (u < h.beforeStart() + h.spike()) {
        // Most of the spike in its first moments: exponential with a quarter of the window as mean, cut at the window.
        long window = h.spikeWindow().toMillis();
        offset = Math.min(window, (long) (-Math.log(1 - r.nextDouble()) * window / 4));
      } else {
        offset = h.spikeWindow().toMillis() + (long) (r.nextDouble() * h.tailWindow().toMillis());
      }
      int quantity = h.minQuantity() + r.nextInt(h.maxQuantity() - h.minQuantity() + 1);
      long think = between(r, h.minThink().toMillis(), h.maxThink().toMillis());
      double choice = r.nextDouble();
      boolean abandons = choice < h.abandon();
      boolean declined = !abandons && choice < h.abandon() + h.decline();
      boolean slow = !abandons && !declined && choice < h.abandon() + h.decline() + h.slow();
      long slowThink = between(r, h.minSlowThink().toMillis(), h.maxSlowThink().toMillis());
      // Drawn last, so that scenarios without hot seats make the same crowds as before.
      boolean hot = r.nextDouble() < s.hotSeats().share();
      c.humans.add(new Human(tab, new Human.Plan(offset, quantity, think, declined, slow, slowThink, abandons, hot)));
    }
    int operatorId = 0;
    int spread = 0;
    for (Scenario.BotGroup g : s.bots()) {
      for (int o = 0; o < g.operators(); o++) {
        SplittableRandom r = botRandom.split();
        BotOperator op = new BotOperator(operatorId++, g);
        op.arrivalOffsetMillis = op.shape.earliest ? -lobbyMillis - 1000 : -lobbyMillis + (long) (r.nextDouble() * lobbyMillis);
        for (int n = 0; n < op.shape.accounts + op.shape.accomplices; n++) {
          boolean accomplice = n >= op.shape.accounts;
          Account a = new Account(c.accounts.size(), op.id, "sim-" + runTag + "-b" + op.id + "-" + n + "@sim.example.com",
              !accomplice);
          String network = op.shape.networkPerAccount
              ? "100." + (64 + spread / 256 % 64) + "." + (spread++ % 256) + ".9" : op.network(n);
          int tabs = accomplice ? 1 : op.shape.tabs;
          for (int t = 0; t < tabs; t++) a.tabs.add(new Tab(a, t, network));
          a.fullCpuPow = op.shape.fullCpuPow;
          c.accounts.add(a);
          (accomplice ? op.accomplices : op.accounts).add(a);
        }
        c.operators.add(op);
      }
    }
    return c;
  }

  private static long between(SplittableRandom r, long min, long max) {
    return max <= min ? min : min + (long) (r.nextDouble() * (max - min));
  }

  long tabs() {
    return accounts.stream().mapToLong(a -> a.tabs.size()).sum();
  }

  long botAccountsJoining() {
    return accounts.stream().filter(a -> a.bot && a.joins).count();
  }
}
