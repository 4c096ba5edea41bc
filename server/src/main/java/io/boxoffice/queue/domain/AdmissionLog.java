package io.boxoffice.queue.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * When the line reached each place: the steps of {@code admittedUpTo} over the last shopping
 * window, oldest first. A place's window starts once, when the line reached it, whoever shows
 * its token and however often; a place the log no longer covers was admitted too long ago.
 * Pure: the waiting room persists the steps, the edge reads a compacted copy from the manifest.
 */
public final class AdmissionLog {
  /** The line reached {@code upTo} at {@code at} (epoch ms): places after the previous step up to it were admitted then. */
  public record Step(long at, long upTo) {}

  /** What {@link #admittedAt} answers for a place admitted before the log's horizon. */
  public static final long LONG_AGO = Long.MIN_VALUE;
  /** What {@link #admittedAt} answers for a place the line has not reached. */
  public static final long NOT_YET = 0;

  private AdmissionLog() {}

  /**
   * The log with the step appended, without steps older than {@code horizon} (epoch ms). The
   * newest dropped step stays as a marker at time {@link #LONG_AGO}: places up to it were
   * admitted before the horizon.
   */
  public static List<Step> append(List<Step> log, Step step, long horizon) {
    List<Step> out = new ArrayList<>(log == null ? List.of() : log);
    out.add(step);
    int firstKept = 0;
    while (firstKept < out.size() - 1 && out.get(firstKept).at() < horizon) firstKept++;
    if (firstKept == 0) return out;
    List<Step> kept = new ArrayList<>(out.size() - firstKept + 1);
    kept.add(new Step(LONG_AGO, out.get(firstKept - 1).upTo()));
    kept.addAll(out.subList(firstKept, out.size()));
    return kept;
  }

  /** When the line reached {@code place}: epoch ms, {@link #NOT_YET}, or {@link #LONG_AGO}. */
  public static long admittedAt(List<Step> log, long place) {
    if (log == null) return NOT_YET;
    for (Step step : log) {
      if (place <= step.upTo()) return step.at();
    }
    return NOT_YET;
  }

  /** The same, on the flat form of {@link #compact}. */
  public static long admittedAt(long[] flat, long place) {
    for (int i = 0; i + 1 < flat.length; i += 2) {
      if (place <= flat[i + 1]) return flat[i];
    }
    return NOT_YET;
  }

  /**
   * The log as {@code [at0, upTo0, at1, upTo1, ...]} in at most {@code maxSteps} steps: runs of
   * neighbouring steps merge into one at the run's earliest time, so a merged place's window
   * may start up to a run's length early, never late (the room counts it until its own end).
   */
  public static long[] compact(List<Step> log, int maxSteps) {
    if (log == null || log.isEmpty()) return new long[0];
    List<Step> merged = new ArrayList<>();
    int from = 0;
    // The horizon marker never merges: its places are over, the others are not.
    if (log.get(0).at() == LONG_AGO) {
      merged.add(log.get(0));
      from = 1;
    }
    int per = Math.max(1, (log.size() - from + maxSteps - 2) / Math.max(1, maxSteps - 1));
    for (int i = from; i < log.size(); i += per) {
      int last = Math.min(log.size(), i + per) - 1;
      merged.add(new Step(log.get(i).at(), log.get(last).upTo()));
    }
    long[] flat = new long[merged.size() * 2];
    for (int i = 0; i < merged.size(); i++) {
      flat[2 * i] = merged.get(i).at();
      flat[2 * i + 1] = merged.get(i).upTo();
    }
    return flat;
  }
}
