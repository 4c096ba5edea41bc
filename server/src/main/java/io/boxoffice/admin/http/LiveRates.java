package io.boxoffice.admin.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The live dashboard's rates, each counted over a sliding window of the stream's samples rather
 * than between two ticks: a rate between two 1-second ticks reads 0, then 60 for one admission,
 * then 0 again. Admissions per minute are counted over the last {@link #ADMISSIONS_WINDOW}, the
 * per-second figures (holds, sales, requests shed) over the last {@link #SHORT_WINDOW}; while the
 * stream is younger than a window, over the time since its first sample. The first sample has
 * rates of zero; a counter that went back (a node restarted, the room moved) adds nothing for
 * that tick, never a negative. Plain Java: one per stream, fed in order.
 */
final class LiveRates {
  /** The classes of requests the edge sheds, always listed (zero when none was shed). */
  static final List<String> SHED_CLASSES = List.of("read", "hold", "checkout");
  /** What "admissions / min" counts over: a minute, so that the figure is the admissions of the last minute once the stream is that old. */
  static final Duration ADMISSIONS_WINDOW = Duration.ofSeconds(60);
  /** What holds/s, sales/s and shed/s count over: long enough that a single sale does not read as a spike, short enough to follow a surge. */
  static final Duration SHORT_WINDOW = Duration.ofSeconds(10);

  /** One reading: when ({@link System#nanoTime} for rates, epoch ms to show), the counters, and the stats it came with. */
  record Sample(long atNanos, long atMillis, long admittedUpTo, long orders, double seatsHeld, Map<String, Double> shed,
                AdminJson.EventStats stats) {}

  /** One event of {@code GET /admin/events/{id}/live}: the stats' fields, then the rates. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Live(String state, long lobby, long admittedUpTo, long activeShoppers, AdminJson.SeatCounts seats, int orders,
              AdminJson.Schedule onsale, double admissionsPerMinute, double holdsPerSecond, double salesPerSecond,
              Map<String, Double> shed, Map<String, Double> shedTotal, long at) {}

  /** What one tick added to each counter since the sample before it (never negative), stamped with the tick's time. */
  private record Step(long atNanos, double admitted, double held, double orders, Map<String, Double> shed) {}

  private final long admissionsWindowNanos;
  private final long shortWindowNanos;
  /** Oldest first; the first step is the baseline whose time starts the longest window and whose increments count for nothing. */
  private final Deque<Step> steps = new ArrayDeque<>();
  private Sample previous;

  LiveRates() {
    this(ADMISSIONS_WINDOW, SHORT_WINDOW);
  }

  LiveRates(Duration admissionsWindow, Duration shortWindow) {
    this.admissionsWindowNanos = admissionsWindow.toNanos();
    this.shortWindowNanos = shortWindow.toNanos();
  }

  Live next(Sample now) {
    Sample before = previous == null ? now : previous;
    previous = now;
    Map<String, Double> shedStep = new LinkedHashMap<>();
    Map<String, Double> shedTotal = new LinkedHashMap<>();
    for (String c : SHED_CLASSES) {
      double total = now.shed().getOrDefault(c, 0.0);
      shedTotal.put(c, total);
      shedStep.put(c, grown(total - before.shed().getOrDefault(c, 0.0)));
    }
    steps.addLast(new Step(now.atNanos(), grown(now.admittedUpTo() - before.admittedUpTo()),
        grown(now.seatsHeld() - before.seatsHeld()), grown(now.orders() - before.orders()), shedStep));
    long longest = Math.max(admissionsWindowNanos, shortWindowNanos);
    while (steps.size() > 1 && startsAtOrBefore(secondOf(steps), now.atNanos() - longest)) steps.removeFirst();

    Window minute = window(now.atNanos(), admissionsWindowNanos);
    Window recent = window(now.atNanos(), shortWindowNanos);
    Map<String, Double> shed = new LinkedHashMap<>();
    for (String c : SHED_CLASSES) shed.put(c, recent.perSecond(recent.shed.getOrDefault(c, 0.0)));
    AdminJson.EventStats s = now.stats();
    return new Live(s.state(), s.lobby(), s.admittedUpTo(), s.activeShoppers(), s.seats(), s.orders(), s.onsale(),
        round(minute.perSecondUnrounded(minute.admitted) * 60), recent.perSecond(recent.held),
        recent.perSecond(recent.orders), shed, shedTotal, now.atMillis());
  }

  /** The increments of the steps after the window's baseline (the latest step at or before {@code now - length}, else the first), and the time they span. */
  private Window window(long now, long length) {
    Window w = new Window();
    Iterator<Step> newestFirst = steps.descendingIterator();
    while (newestFirst.hasNext()) {
      Step step = newestFirst.next();
      if (!newestFirst.hasNext() || step.atNanos() <= now - length) {
        w.seconds = (now - step.atNanos()) / 1e9;
        break;
      }
      w.admitted += step.admitted();
      w.held += step.held();
      w.orders += step.orders();
      step.shed().forEach((c, n) -> w.shed.merge(c, n, Double::sum));
    }
    return w;
  }

  private static final class Window {
    double seconds;
    double admitted;
    double held;
    double orders;
    final Map<String, Double> shed = new LinkedHashMap<>();

    double perSecondUnrounded(double count) {
      return seconds <= 0 ? 0 : count / seconds;
    }

    double perSecond(double count) {
      return round(perSecondUnrounded(count));
    }
  }

  private static Step secondOf(Deque<Step> steps) {
    Iterator<Step> it = steps.iterator();
    it.next();
    return it.next();
  }

  private static boolean startsAtOrBefore(Step step, long nanos) {
    return step.atNanos() <= nanos;
  }

  private static double grown(double delta) {
    return Math.max(0, delta);
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
