package io.boxoffice.sim;

import io.boxoffice.load.EdgeWorker;
import io.boxoffice.load.OriginRequests;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A run through the CDN edge worker ({@code --edge}): the crowd talks to the worker, the event
 * manager to the origin. {@code --edge local} starts the repository's worker
 * ({@code edge-worker/}, under Cloudflare's {@code workerd}) in front of the simulator's own node,
 * with that node's keys; {@code --edge URL} names a worker already running in front of
 * {@code --target}. Either way the origin's own request counters (its {@code /metrics}, by kind
 * of route) are read before and after the sale, so the report says what reached the origin.
 */
final class EdgeFront implements AutoCloseable {
  /** The kinds of origin request for the public bytes a waiting fan's page reads (its own state is {@code queue_status}). */
  static final List<String> PUBLIC_WAITING = List.of("page", "static", "queue_manifest", "summary");

  final String url;
  private final String originMetrics;
  private final EdgeWorker worker;
  private Map<String, Long> before = Map.of();

  private EdgeFront(String url, String originMetrics, EdgeWorker worker) {
    this.url = url;
    this.originMetrics = originMetrics;
    this.worker = worker;
  }

  /** A worker already running at {@code url}; the origin's counters at {@code originMetrics} (null: none read). */
  static EdgeFront running(String url, String originMetrics) {
    return new EdgeFront(url.replaceAll("/+$", ""), originMetrics, null);
  }

  /**
   * Starts {@code root/edge-worker} under workerd in front of {@code origin}, with the queue and
   * identity keys of the node's {@code keys.properties}; returns once it answers.
   */
  static EdgeFront local(Path root, String origin, Path keysFile, String originMetrics, Path log)
      throws IOException, InterruptedException {
    Properties keys = new Properties();
    try (InputStream in = Files.newInputStream(keysFile)) {
      keys.load(in);
    }
    String queueKeys = join(keys.getProperty("BOXOFFICE_QUEUE_KEY"), keys.getProperty("BOXOFFICE_QUEUE_KEY_PREVIOUS"));
    String identityKeys = keys.getProperty("BOXOFFICE_IDENTITY_KEY");
    if (queueKeys.isEmpty() || identityKeys == null) throw new IllegalStateException("no queue or identity key in " + keysFile);
    EdgeWorker worker = EdgeWorker.start(root, origin, queueKeys, identityKeys, Map.of(), log);
    return new EdgeFront(worker.url, originMetrics, worker);
  }

  private static String join(String active, String previous) {
    StringBuilder b = new StringBuilder(active == null ? "" : active.trim());
    if (previous != null && !previous.isBlank()) b.append(b.length() > 0 ? "," : "").append(previous.trim());
    return b.toString();
  }

  /** Reads the origin's request counters as they are before the sale. */
  void markBefore() {
    before = originRequests();
  }

  /** Origin requests by kind of route since {@link #markBefore}; empty when the origin's counters cannot be read. */
  Map<String, Long> originRequestsSince() {
    Map<String, Long> now = originRequests();
    Map<String, Long> out = new TreeMap<>();
    now.forEach((route, n) -> {
      long d = n - before.getOrDefault(route, 0L);
      if (d > 0) out.put(route, d);
    });
    return out;
  }

  /** route -> requests the origin answered so far; empty when its counters cannot be read. */
  Map<String, Long> originRequests() {
    if (originMetrics == null) return Map.of();
    try {
      return OriginRequests.byRoute(originMetrics);
    } catch (IOException | RuntimeException e) {
      return Map.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Map.of();
    }
  }

  /**
   * What reached the origin, against what the crowd sent: origin requests by kind; the waiting
   * pages' requests (public bytes and the fan's own state) per waiting fan per minute; the share
   * of the waiting pages' requests the edge answered itself. A status call answered "admitted"
   * is an admitted fan's first call (the page asks when the manifest says its turn has come),
   * which the edge forwards by design: it is counted apart, not as a waiting fan's.
   *
   * @param sentByPhase the crowd's calls by the simulator's phase (page, manifest, status...)
   * @param statusesAdmitted status answers that said "admitted" (every one of them the origin's)
   * @param waitingFanMinutes the minutes the crowd's tabs spent in line, summed over the tabs
   */
  static Map<String, Object> figures(Map<String, Long> origin, Map<String, Long> sentByPhase, long statusesAdmitted,
                                     double waitingFanMinutes) {
    long originPublic = PUBLIC_WAITING.stream().mapToLong(k -> origin.getOrDefault(k, 0L)).sum();
    long originStatus = origin.getOrDefault("queue_status", 0L);
    long originPrivate = Math.max(0, originStatus - statusesAdmitted);
    long sentWaiting = sentByPhase.getOrDefault("page", 0L) + sentByPhase.getOrDefault("manifest", 0L)
        + sentByPhase.getOrDefault("status", 0L) - statusesAdmitted;
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("originRequestsByKind", origin);
    m.put("originRequestsTotal", origin.values().stream().mapToLong(Long::longValue).sum());
    m.put("waitingFanMinutes", Math.round(waitingFanMinutes * 10) / 10.0);
    m.put("waitingPageRequestsSent", sentWaiting);
    m.put("statusesAnsweredAdmitted", statusesAdmitted);
    m.put("originWaitingPublicRequests", originPublic);
    m.put("originWaitingPrivateRequests", originPrivate);
    double perFanMinute = waitingFanMinutes <= 0 ? Double.NaN : (originPublic + originPrivate) / waitingFanMinutes;
    m.put("originRequestsPerWaitingFanPerMinute", Math.round(perFanMinute * 1000) / 1000.0);
    m.put("originPrivateRequestsPerWaitingFanPerMinute",
        waitingFanMinutes <= 0 ? Double.NaN : Math.round(originPrivate / waitingFanMinutes * 1000) / 1000.0);
    m.put("shareServedAtEdge", sentWaiting <= 0 ? Double.NaN
        : Math.round(Math.max(0, 1 - (double) (originPublic + originPrivate) / sentWaiting) * 100_000) / 1000.0);
    return m;
  }

  /** The console's lines of {@link #figures}. */
  static String summary(Map<String, Object> f) {
    return String.format(java.util.Locale.ROOT,
        "edge: %s waiting-fan minutes; the waiting pages sent %,d requests, the origin answered %,d public (page, assets, manifest,"
            + " summary) and %,d private (status): %.3f origin requests per waiting fan per minute (private %.3f); %.3f%% served at"
            + " the edge; %,d status calls answered admitted (an admitted fan's first call, the origin's by design)%n"
            + "  origin requests by kind: %s (total %,d)%n",
        f.get("waitingFanMinutes"), (Long) f.get("waitingPageRequestsSent"), (Long) f.get("originWaitingPublicRequests"),
        (Long) f.get("originWaitingPrivateRequests"), (Double) f.get("originRequestsPerWaitingFanPerMinute"),
        (Double) f.get("originPrivateRequestsPerWaitingFanPerMinute"), (Double) f.get("shareServedAtEdge"),
        (Long) f.get("statusesAnsweredAdmitted"), f.get("originRequestsByKind"), (Long) f.get("originRequestsTotal"));
  }

  @Override
  public void close() {
    if (worker != null) worker.close();
  }
}
