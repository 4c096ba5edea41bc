package io.boxoffice.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.HdrHistogram.Histogram;

/**
 * Staggered sales (the seed, 9.3 "Spreading the demand"): several hot events on the same node or
 * cluster, starting {@code spacing} apart or at once. From each event's fan calls, timed by
 * phase and by bucket of its own clock, this finds each event's peak (the stretch of buckets
 * whose calls were at least half of its busiest bucket's), its p50/p99 per phase, its p99 while
 * it was alone (no other event at its peak) and while each other event was at its peak, and
 * what spacing keeps every event within its p99 target.
 */
final class Stagger {
  private Stagger() {}

  /** The highest latency a histogram keeps, in microseconds (as {@link Traffic}'s). */
  private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(2);
  /** A bucket is in an event's peak when its calls are at least this share of its busiest bucket's. */
  static final double PEAK_SHARE = 0.5;

  /**
   * One event's fan calls: phase -> bucket of {@code bucketMillis} from the event's own start ->
   * latency (microseconds); {@code offsetBuckets}: its start after the first event's, in buckets.
   */
  record EventCalls(String label, long offsetBuckets, Map<String, Map<Long, Histogram>> byPhase) {}

  /** Buckets {@code from} to {@code to} (inclusive) on the first event's clock; seconds from its start in the report. */
  record Window(long from, long to) {
    boolean contains(long bucket) {
      return bucket >= from && bucket <= to;
    }

    long buckets() {
      return to - from + 1;
    }

    boolean overlaps(Window other) {
      return from <= other.to && other.from <= to;
    }
  }

  /** Calls and their p50/p99 (ms); p50 and p99 are NaN without calls. */
  record Latency(long count, double p50, double p99) {
    static Latency of(Histogram h) {
      if (h.getTotalCount() == 0) return new Latency(0, Double.NaN, Double.NaN);
      return new Latency(h.getTotalCount(), h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0);
    }
  }

  /**
   * One event's figures: its peak (null without calls), latency per phase over the whole run,
   * all its fan calls together over the whole run, alone and beside any other event's peak, and
   * beside each other event's peak (by label); the worst phase's p99 over the whole run and
   * alone (NaN when it was never alone); whether every phase kept the target; whether its peak
   * was {@code isolated}: no other event's peak overlapped it.
   */
  record EventFigures(String label, Window peak, Map<String, Latency> byPhase, Latency all, Latency alone, Latency besidePeaks,
                      Map<String, Latency> besideEach, double worstP99, double worstP99Alone, boolean withinTarget, boolean isolated) {
    /**
     * Whether it kept the target alone; null when that is not known: it was never alone, or its
     * peak overlapped another's (then its calls outside the other peaks are the tail of a shared
     * rush, not the event alone: three events started at once have peaks of 10 and 15 s, and the
     * longer one's last 5 s are no evidence of what it does by itself).
     */
    Boolean withinTargetAlone(double targetMillis) {
      return !isolated || Double.isNaN(worstP99Alone) ? null : worstP99Alone <= targetMillis;
    }
  }

  /**
   * The whole: each event's figures, the spacing between starts, the longest peak, whether
   * every event kept its p99 target, the spacing recommended (ms; -1: none can be, on this
   * evidence) and why, in words.
   */
  record Verdict(List<EventFigures> events, long spacingMillis, long longestPeakMillis, double targetMillis, boolean everyWithin,
                 long recommendedSpacingMillis, List<String> reasoning) {}

  /**
   * @param events       the events in order of their start
   * @param fanCalls     the phases held to the target (a slow card is the fan's own choice)
   * @param bucketMillis the buckets' length
   * @param spacingMillis the time between two starts in this run
   * @param targetMillis the p99 every fan call must keep
   */
  static Verdict analyse(List<EventCalls> events, List<String> fanCalls, long bucketMillis, long spacingMillis, double targetMillis) {
    List<Window> peaks = new ArrayList<>();
    for (EventCalls e : events) peaks.add(peak(e, fanCalls));
    List<EventFigures> figures = new ArrayList<>();
    long longest = 0;
    for (int i = 0; i < events.size(); i++) {
      EventCalls e = events.get(i);
      Window own = peaks.get(i);
      if (own != null) longest = Math.max(longest, own.buckets() * bucketMillis);
      List<Window> others = new ArrayList<>();
      for (int j = 0; j < events.size(); j++) if (j != i && peaks.get(j) != null) others.add(peaks.get(j));
      LongPredicate besideAny = b -> others.stream().anyMatch(w -> w.contains(b));
      Map<String, Latency> byPhase = new LinkedHashMap<>();
      double worst = 0;
      double worstAlone = Double.NaN;
      for (String phase : fanCalls) {
        Map<Long, Histogram> buckets = e.byPhase().get(phase);
        if (buckets == null || buckets.isEmpty()) continue;
        Latency whole = Latency.of(merge(Map.of(phase, buckets), List.of(phase), e.offsetBuckets(), b -> true));
        byPhase.put(phase, whole);
        worst = Math.max(worst, whole.p99());
        Latency alone = Latency.of(merge(Map.of(phase, buckets), List.of(phase), e.offsetBuckets(), besideAny.negate()));
        if (alone.count() > 0) worstAlone = Double.isNaN(worstAlone) ? alone.p99() : Math.max(worstAlone, alone.p99());
      }
      Map<String, Latency> besideEach = new LinkedHashMap<>();
      for (int j = 0; j < events.size(); j++) {
        Window w = peaks.get(j);
        if (j == i || w == null) continue;
        besideEach.put(events.get(j).label(), Latency.of(merge(e.byPhase(), fanCalls, e.offsetBuckets(), w::contains)));
      }
      figures.add(new EventFigures(e.label(), own, byPhase, Latency.of(merge(e.byPhase(), fanCalls, e.offsetBuckets(), b -> true)),
          Latency.of(merge(e.byPhase(), fanCalls, e.offsetBuckets(), besideAny.negate())),
          Latency.of(merge(e.byPhase(), fanCalls, e.offsetBuckets(), besideAny)), besideEach, worst, worstAlone, worst <= targetMillis,
          own != null && others.stream().noneMatch(own::overlaps)));
    }
    return verdict(figures, spacingMillis, longest, bucketMillis, targetMillis);
  }

  private static Verdict verdict(List<EventFigures> figures, long spacingMillis, long longestPeakMillis, long bucketMillis,
                                 double targetMillis) {
    List<String> why = new ArrayList<>();
    boolean every = figures.stream().allMatch(EventFigures::withinTarget);
    for (EventFigures f : figures) {
      why.add(String.format(Locale.ROOT, "%s: worst phase p99 %.0f ms over the run%s; all its fan calls p99 %s alone, %s beside another's peak",
          f.label(), f.worstP99(), Double.isNaN(f.worstP99Alone()) ? ", never alone"
              : String.format(Locale.ROOT, " (%.0f ms while no other event was at its peak%s)", f.worstP99Alone(),
                  f.isolated() ? "" : "; its peak overlapped another's"),
          ms(f.alone()), ms(f.besidePeaks())));
    }
    long recommended;
    String s = seconds(spacingMillis);
    if (every) {
      recommended = spacingMillis;
      why.add(String.format(Locale.ROOT, "every event kept p99 <= %.0f ms in every phase with starts %s apart: that spacing is enough%s",
          targetMillis, s, spacingMillis == 0 ? " (they may start at once)" : ""));
    } else {
      List<String> brokeAlone = figures.stream().filter(f -> Boolean.FALSE.equals(f.withinTargetAlone(targetMillis)))
          .map(EventFigures::label).toList();
      // Known only for events whose peak no other peak overlapped.
      boolean everAlone = figures.stream().anyMatch(f -> f.withinTargetAlone(targetMillis) != null);
      // Peaks no longer overlap once the starts are further apart than the longest peak (plus a bucket for the rounding).
      long apart = roundUp(longestPeakMillis + bucketMillis, bucketMillis);
      if (!brokeAlone.isEmpty()) {
        recommended = -1;
        why.add(String.format(Locale.ROOT, "%s broke p99 <= %.0f ms even with its peak alone: no spacing keeps"
            + " every event within its target on this node; lower the admissions (see each event's calibration) first",
            String.join(", ", brokeAlone), targetMillis));
      } else if (!everAlone) {
        recommended = apart;
        why.add(String.format(Locale.ROOT, "every event's peak overlapped another's (starts %s apart) and p99 broke; the longest peak lasted %s,"
            + " so starts at least %s apart keep the peaks apart; whether each event then keeps its target alone is what a run at"
            + " that spacing shows", s, seconds(longestPeakMillis), seconds(apart)));
      } else {
        recommended = Math.max(spacingMillis + bucketMillis, apart);
        why.add(String.format(Locale.ROOT, "every event whose peak was alone kept p99 <= %.0f ms; it broke only beside another's peak; the"
            + " longest peak lasted %s, so starts at least %s apart keep every peak alone", targetMillis, seconds(longestPeakMillis),
            seconds(recommended)));
      }
    }
    return new Verdict(List.copyOf(figures), spacingMillis, longestPeakMillis, targetMillis, every, recommended, List.copyOf(why));
  }

  /**
   * The event's peak on the first event's clock: from the first to the last bucket whose fan
   * calls were at least {@link #PEAK_SHARE} of its busiest bucket's; null without calls.
   */
  static Window peak(EventCalls e, List<String> fanCalls) {
    Map<Long, Long> calls = callsByBucket(e, fanCalls);
    long max = calls.values().stream().mapToLong(Long::longValue).max().orElse(0);
    if (max == 0) return null;
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    for (Map.Entry<Long, Long> c : calls.entrySet()) {
      if (c.getValue() < PEAK_SHARE * max) continue;
      from = Math.min(from, c.getKey());
      to = Math.max(to, c.getKey());
    }
    return new Window(from, to);
  }

  /** bucket on the first event's clock -> the event's fan calls answered in it. */
  static Map<Long, Long> callsByBucket(EventCalls e, List<String> fanCalls) {
    Map<Long, Long> calls = new TreeMap<>();
    e.byPhase().forEach((phase, buckets) -> {
      if (!fanCalls.contains(phase)) return;
      buckets.forEach((b, h) -> calls.merge(b + e.offsetBuckets(), h.getTotalCount(), Long::sum));
    });
    return calls;
  }

  /** bucket on the first event's clock -> the p99 (ms) of all the event's fan calls in it. */
  static Map<Long, Double> p99ByBucket(EventCalls e, List<String> fanCalls) {
    Map<Long, Histogram> merged = new TreeMap<>();
    e.byPhase().forEach((phase, buckets) -> {
      if (!fanCalls.contains(phase)) return;
      buckets.forEach((b, h) -> merged.computeIfAbsent(b + e.offsetBuckets(), k -> new Histogram(MAX_MICROS, 2)).add(h));
    });
    Map<Long, Double> out = new TreeMap<>();
    merged.forEach((b, h) -> out.put(b, h.getValueAtPercentile(99) / 1000.0));
    return out;
  }

  /** The phases' calls in the buckets (on the first event's clock) that {@code in} accepts, together. */
  private static Histogram merge(Map<String, Map<Long, Histogram>> byPhase, List<String> phases, long offset, LongPredicate in) {
    Histogram all = new Histogram(MAX_MICROS, 2);
    for (String phase : phases) {
      Map<Long, Histogram> buckets = byPhase.get(phase);
      if (buckets == null) continue;
      buckets.forEach((b, h) -> {
        if (in.test(b + offset)) all.add(h);
      });
    }
    return all;
  }

  private static long roundUp(long millis, long step) {
    return (millis + step - 1) / step * step;
  }

  static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.0f s", millis / 1000.0);
  }

  private static String ms(Latency l) {
    return l.count() == 0 ? "-" : String.format(Locale.ROOT, "%.0f ms (n=%,d)", l.p99(), l.count());
  }
}
