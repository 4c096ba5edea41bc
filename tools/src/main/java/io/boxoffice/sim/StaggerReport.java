package io.boxoffice.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The report of a staggered run (the seed, 9.3), beside each event's own report ({@code e1/},
 * {@code e2/}...): {@code staggered.json} (every figure), {@code staggered.html} (the events'
 * calls and p99 over one clock, their peaks shaded, and a table per event) and
 * {@code staggered.txt}, the console's screen: per event its p50/p99 per phase, 5xx, sell-out
 * time, its p99 alone and beside each other event's peak, and the spacing that keeps every
 * event within its p99 target ({@link Stagger}).
 */
final class StaggerReport {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * One event as the run left it: its start and sell-out (epoch ms, -1 never), every seat taken
   * (epoch ms, -1 never), its safety counts and gate, and its calls (phase -> bucket from its own
   * start -> latency), answers and outcomes.
   */
  record Event(String label, String eventId, long startsAt, long soldOutAt, long allTakenAt, Gate.Safety safety, boolean passed,
               Map<String, Map<Long, Histogram>> latencyByBucket, Map<String, Map<String, Long>> answers,
               Map<String, Map<String, Long>> outcomes) {}

  private final Scenario scenario;
  private final List<Event> events;
  private final long spacingMillis;
  private final long tookMillis;
  private final long bucketMillis;
  private final List<Stagger.EventCalls> calls = new ArrayList<>();
  private final Stagger.Verdict verdict;

  StaggerReport(Scenario scenario, List<Event> events, long spacingMillis, long tookMillis) {
    this.scenario = scenario;
    this.events = List.copyOf(events);
    this.spacingMillis = spacingMillis;
    this.tookMillis = tookMillis;
    this.bucketMillis = scenario.measure().bucket().toMillis();
    long origin = events.get(0).startsAt();
    for (Event e : events) {
      calls.add(new Stagger.EventCalls(e.label(), Math.round((e.startsAt() - origin) / (double) bucketMillis), e.latencyByBucket()));
    }
    this.verdict = Stagger.analyse(calls, Report.FAN_CALLS, bucketMillis, spacingMillis,
        scenario.calibration().p99Target().toMillis());
  }

  Stagger.Verdict verdict() {
    return verdict;
  }

  void write(Path dir) throws IOException {
    Map<String, Object> data = data();
    Files.writeString(dir.resolve("staggered.json"), JSON.writeValueAsString(data), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("staggered.html"), html(data), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("staggered.txt"), summary(), StandardCharsets.UTF_8);
  }

  private Map<String, Object> data() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("scenario", scenario.name());
    d.put("description", scenario.description());
    d.put("seed", scenario.seed());
    d.put("events", events.size());
    d.put("spacingSeconds", spacingMillis / 1000.0);
    d.put("seatsPerEvent", scenario.event().seats());
    d.put("humansPerEvent", scenario.humans().count());
    d.put("tookSeconds", tookMillis / 1000.0);
    d.put("bucketSeconds", bucketMillis / 1000.0);
    d.put("p99TargetMillis", verdict.targetMillis());
    d.put("passed", events.stream().allMatch(Event::passed));
    d.put("everyEventWithinTarget", verdict.everyWithin());
    d.put("longestPeakSeconds", verdict.longestPeakMillis() / 1000.0);
    d.put("recommendedSpacingSeconds", verdict.recommendedSpacingMillis() < 0 ? null : verdict.recommendedSpacingMillis() / 1000.0);
    d.put("reasoning", verdict.reasoning());
    List<Map<String, Object>> perEvent = new ArrayList<>();
    long origin = events.get(0).startsAt();
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      Stagger.EventFigures f = verdict.events().get(i);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("label", e.label());
      m.put("eventId", e.eventId());
      m.put("report", e.label() + "/report.html");
      m.put("startsAfterFirstSeconds", (e.startsAt() - origin) / 1000.0);
      m.put("soldOutAfterSeconds", e.soldOutAt() < 0 ? null : (e.soldOutAt() - e.startsAt()) / 1000.0);
      m.put("allSeatsTakenAfterSeconds", e.allTakenAt() < 0 ? null : (e.allTakenAt() - e.startsAt()) / 1000.0);
      m.put("fiveXx", e.safety().fiveXx());
      m.put("seatsSold", e.safety().seatsSold());
      m.put("oversold", e.safety().oversold());
      m.put("soldTwice", e.safety().soldTwice());
      m.put("gatePassed", e.passed());
      m.put("peakSeconds", f.peak() == null ? null
          : List.of(f.peak().from() * bucketMillis / 1000.0, (f.peak().to() + 1) * bucketMillis / 1000.0));
      m.put("latencyMillis", f.byPhase());
      m.put("fanCalls", f.all());
      m.put("fanCallsAlone", f.alone());
      m.put("fanCallsBesideAnotherPeak", f.besidePeaks());
      m.put("fanCallsBesideEachPeak", f.besideEach());
      m.put("worstPhaseP99Millis", f.worstP99());
      m.put("worstPhaseP99AloneMillis", Double.isNaN(f.worstP99Alone()) ? null : f.worstP99Alone());
      m.put("withinTarget", f.withinTarget());
      m.put("answers", e.answers());
      m.put("outcomes", e.outcomes());
      Stagger.EventCalls c = calls.get(i);
      List<List<Double>> perSecond = new ArrayList<>();
      Stagger.callsByBucket(c, Report.FAN_CALLS).forEach((b, count) ->
          perSecond.add(List.of((b + 0.5) * bucketMillis / 1000.0, count * 1000.0 / bucketMillis)));
      List<List<Double>> p99 = new ArrayList<>();
      Stagger.p99ByBucket(c, Report.FAN_CALLS).forEach((b, ms) -> p99.add(List.of((b + 0.5) * bucketMillis / 1000.0, ms)));
      m.put("fanCallsPerSecond", perSecond);
      m.put("p99OverTime", p99);
      perEvent.add(m);
    }
    d.put("perEvent", perEvent);
    return d;
  }

  String summary() {
    StringBuilder b = new StringBuilder();
    String took = String.format(Locale.ROOT, "%dm%02ds", tookMillis / 60_000, tookMillis / 1000 % 60);
    line(b, "== sim %s (seed %d): %s == %d events of %,d seats, %,d humans each, starting %s apart, took %s",
        scenario.name(), scenario.seed(), events.stream().allMatch(Event::passed) ? "PASSED" : "FAILED", events.size(),
        scenario.event().seats(), scenario.humans().count(), Stagger.seconds(spacingMillis), took);
    long origin = events.get(0).startsAt();
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      Stagger.EventFigures f = verdict.events().get(i);
      line(b, "%s (%s) starts at +%.0f s: every seat taken %s, sold out %s (%,d seats sold); 5xx %,d; oversold %,d; sold twice %,d;"
              + " gate %s; peak %s", e.label(), e.eventId(), (e.startsAt() - origin) / 1000.0, after(e.allTakenAt(), e.startsAt()),
          after(e.soldOutAt(), e.startsAt()), e.safety().seatsSold(), e.safety().fiveXx(), e.safety().oversold(), e.safety().soldTwice(),
          e.passed() ? "held" : "BROKEN", f.peak() == null ? "none" : String.format(Locale.ROOT, "%.0f-%.0f s",
              f.peak().from() * bucketMillis / 1000.0, (f.peak().to() + 1) * bucketMillis / 1000.0));
      StringBuilder lat = new StringBuilder();
      f.byPhase().forEach((phase, l) -> lat.append(String.format(Locale.ROOT, " %s %.0f/%.0f", phase, l.p50(), l.p99())));
      line(b, "  p50/p99 ms:%s", lat);
      StringBuilder beside = new StringBuilder();
      f.besideEach().forEach((other, l) -> beside.append(String.format(Locale.ROOT, "; beside %s's peak %s", other, p99(l))));
      line(b, "  all fan calls p99: %s; alone %s%s", p99(f.all()), p99(f.alone()), beside);
    }
    line(b, "spacing: every event within p99 <= %.0f ms: %s; longest peak %s; recommended spacing %s", verdict.targetMillis(),
        verdict.everyWithin() ? "yes" : "no", Stagger.seconds(verdict.longestPeakMillis()),
        verdict.recommendedSpacingMillis() < 0 ? "none helps (see below)" : Stagger.seconds(verdict.recommendedSpacingMillis()));
    for (String why : verdict.reasoning()) line(b, "  %s", why);
    return b.toString();
  }

  /** "at +12.1 s" after {@code start}, or "never" for -1. */
  private static String after(long at, long start) {
    return at < 0 ? "never" : String.format(Locale.ROOT, "at +%.1f s", (at - start) / 1000.0);
  }

  private static String p99(Stagger.Latency l) {
    return l.count() == 0 ? "- (no calls)" : String.format(Locale.ROOT, "%.0f ms (n=%,d)", l.p99(), l.count());
  }

  private static void line(StringBuilder b, String format, Object... args) {
    b.append(String.format(Locale.ROOT, format, args)).append('\n');
  }

  private String html(Map<String, Object> data) throws IOException {
    String echarts;
    try (InputStream in = Report.class.getClassLoader().getResourceAsStream(Report.ECHARTS)) {
      if (in == null) throw new IOException("no " + Report.ECHARTS + " on the classpath (org.webjars.npm:echarts)");
      echarts = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String template;
    try (InputStream in = StaggerReport.class.getResourceAsStream("staggered.html")) {
      if (in == null) throw new IOException("no staggered.html template next to " + StaggerReport.class.getName());
      template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    StringBuilder links = new StringBuilder();
    for (Event e : events) {
      links.append("<li><a href=\"").append(e.label()).append("/report.html\">").append(e.label()).append(" (").append(Report.escape(e.eventId()))
          .append(")</a>: fairness, honesty, calibration and its gate</li>\n");
    }
    String json = new ObjectMapper().writeValueAsString(data).replace("</", "<\\/");
    return template
        .replace("{{title}}", Report.escape("boxoffice staggered sales: " + scenario.name()))
        .replace("{{summary}}", Report.escape(summary()))
        .replace("{{links}}", links.toString())
        .replace("{{echarts}}", echarts.replace("</script", "<\\/script"))
        .replace("{{data}}", json);
  }

}
