package io.boxoffice.app;

import com.typesafe.config.Config;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Annotates this pod with {@code controller.kubernetes.io/pod-deletion-cost} ranked by member age,
 * as Pekko's rolling-update-kubernetes module does (not served by our registry): the oldest
 * members host the cluster singletons and shard coordinators, so during a rolling update or a
 * scale-down the ReplicaSet removes them last and they move once, not at every step. The
 * {@code annotated-pods} oldest members cost {@code 10000}, {@code 9999}, ... by age; every other
 * member costs 0. Re-patched when membership changes the cost; a failed PATCH is tried again with
 * backoff, except a client error (4xx: RBAC, a wrong pod name), which no retry mends.
 *
 * <p>Runs when {@code boxoffice.kubernetes.pod-deletion-cost.enabled} is on and the pod's
 * service-account token is mounted; needs {@code patch} on pods (k8s/base/rbac.yaml).
 */
public final class PodDeletionCost {
  public static final String ANNOTATION = "controller.kubernetes.io/pod-deletion-cost";
  static final int MAX_COST = 10_000;

  private PodDeletionCost() {}

  /** A member as the ranking sees it: its address and its up-number (lower: up earlier). */
  public record Aged(Address address, int upNumber) {
    static Aged of(Member m) {
      return new Aged(m.address(), m.upNumber());
    }
  }

  /** Pekko's member age order (Member.isOlderThan): lower up-number first, address order between equals. */
  static final Comparator<Aged> OLDEST_FIRST = Comparator.comparingInt(Aged::upNumber)
      .thenComparing(a -> a.address(), Member.addressOrdering());

  /** The cost of {@code self} among {@code members}: by age among the {@code annotated} oldest, else 0. */
  public static int costOf(Address self, List<Aged> members, int annotated) {
    List<Aged> byAge = new ArrayList<>(members);
    byAge.sort(OLDEST_FIRST);
    for (int i = 0; i < Math.min(annotated, byAge.size()); i++) {
      if (byAge.get(i).address().equals(self)) return MAX_COST - i;
    }
    return 0;
  }

  /** Where the pod is, how to reach the API server, and how long to wait for it. */
  public record Settings(URI apiServer, String namespace, String podName, String token, SSLContext tls, int annotatedPods,
                         Duration minBackoff, Duration maxBackoff, Duration connectTimeout, Duration requestTimeout) {

    /** From {@code boxoffice.kubernetes.pod-deletion-cost} and the mounted service account; empty when off or not in Kubernetes. */
    static Optional<Settings> fromConfig(Config config) throws Exception {
      Config c = config.getConfig("boxoffice.kubernetes.pod-deletion-cost");
      Path account = Path.of(c.getString("service-account-dir"));
      if (!c.getBoolean("enabled") || !Files.isReadable(account.resolve("token"))) return Optional.empty();
      return Optional.of(new Settings(URI.create(c.getString("api-server")), Files.readString(account.resolve("namespace")).trim(),
          c.getString("pod-name"), Files.readString(account.resolve("token")).trim(), trusting(account.resolve("ca.crt")),
          c.getInt("annotated-pods"), c.getDuration("retry.min-backoff"), c.getDuration("retry.max-backoff"),
          c.getDuration("connect-timeout"), c.getDuration("request-timeout")));
    }

    private static SSLContext trusting(Path caFile) throws Exception {
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      try (InputStream in = Files.newInputStream(caFile)) {
        int i = 0;
        for (Certificate ca : CertificateFactory.getInstance("X.509").generateCertificates(in)) trusted.setCertificateEntry("ca" + i++, ca);
      }
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, trust.getTrustManagers(), null);
      return tls;
    }
  }

  /** Starts the annotator on this node when configured to; does nothing otherwise. */
  public static void startIfConfigured(ActorSystem<?> system, Config config) throws Exception {
    Optional<Settings> settings = Settings.fromConfig(config);
    if (settings.isEmpty()) return;
    Address self = Cluster.get(system).selfMember().address();
    system.systemActorOf(fromCluster(annotator(self, settings.get())), "pod-deletion-cost", Props.empty());
  }

  // ---- protocol --------------------------------------------------------------------------

  /** Messages of the annotator. */
  public sealed interface Command {}

  /** The members that are up now. */
  public record MembersChanged(List<Aged> members) implements Command {}

  private record Patched(int cost, int status, String error) implements Command {}

  private record Retry() implements Command {}

  /** Translates this node's view of the cluster (members up, removed) into {@link MembersChanged}. */
  static Behavior<Command> fromCluster(Behavior<Command> annotator) {
    return Behaviors.setup(ctx -> {
      var target = ctx.spawn(annotator, "annotator");
      var events = ctx.<ClusterEvent.MemberEvent>messageAdapter(ClusterEvent.MemberEvent.class, e -> new MembersChanged(List.of()));
      Cluster cluster = Cluster.get(ctx.getSystem());
      cluster.subscriptions().tell(Subscribe.create(events, ClusterEvent.MemberEvent.class));
      return Behaviors.receiveMessage(ignored -> {
        List<Aged> up = new ArrayList<>();
        for (Member m : cluster.state().getMembers()) {
          MemberStatus status = m.status();
          if (status == MemberStatus.up() || status == MemberStatus.leaving() || status == MemberStatus.exiting()) up.add(Aged.of(m));
        }
        target.tell(new MembersChanged(up));
        return Behaviors.same();
      });
    });
  }

  /** The annotator of the pod of the member at {@code self}: a PATCH when its cost changes, retried with backoff. */
  public static Behavior<Command> annotator(Address self, Settings settings) {
    HttpClient http = HttpClient.newBuilder().sslContext(settings.tls()).connectTimeout(settings.connectTimeout()).build();
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new Annotator(ctx, timers, self, settings, http).idle()));
  }

  private static final class Annotator {
    private final ActorContext<Command> ctx;
    private final TimerScheduler<Command> timers;
    private final Address self;
    private final Settings settings;
    private final HttpClient http;
    /** The cost the pod carries (Integer.MIN_VALUE: unknown), the cost wanted, whether a PATCH is under way. */
    private int annotated = Integer.MIN_VALUE;
    private int wanted = Integer.MIN_VALUE;
    private boolean inFlight;
    private int failures;

    Annotator(ActorContext<Command> ctx, TimerScheduler<Command> timers, Address self, Settings settings, HttpClient http) {
      this.ctx = ctx;
      this.timers = timers;
      this.self = self;
      this.settings = settings;
      this.http = http;
    }

    Behavior<Command> idle() {
      return Behaviors.receive(Command.class)
          .onMessage(MembersChanged.class, m -> {
            wanted = costOf(self, m.members(), settings.annotatedPods());
            patchIfNeeded();
            return Behaviors.same();
          })
          .onMessage(Patched.class, this::onPatched)
          .onMessage(Retry.class, r -> {
            patchIfNeeded();
            return Behaviors.same();
          })
          .build();
    }

    private void patchIfNeeded() {
      if (inFlight || wanted == annotated || wanted == Integer.MIN_VALUE || timers.isTimerActive("retry")) return;
      int cost = wanted;
      inFlight = true;
      HttpRequest request = HttpRequest.newBuilder(settings.apiServer().resolve(
              "/api/v1/namespaces/" + settings.namespace() + "/pods/" + settings.podName()))
          .timeout(settings.requestTimeout())
          .header("Authorization", "Bearer " + settings.token())
          .header("Content-Type", "application/merge-patch+json")
          .method("PATCH", HttpRequest.BodyPublishers.ofString(
              "{\"metadata\":{\"annotations\":{\"" + ANNOTATION + "\":\"" + cost + "\"}}}"))
          .build();
      ctx.pipeToSelf(http.sendAsync(request, HttpResponse.BodyHandlers.ofString()), (response, error) ->
          error != null ? new Patched(cost, 0, error.toString())
              : new Patched(cost, response.statusCode(), response.statusCode() / 100 == 2 ? null : response.body()));
    }

    private Behavior<Command> onPatched(Patched p) {
      inFlight = false;
      if (p.error() == null) {
        annotated = p.cost();
        failures = 0;
        ctx.getLog().info("pod {} annotated {}={}", settings.podName(), ANNOTATION, p.cost());
        patchIfNeeded();
        return Behaviors.same();
      }
      if (p.status() >= 400 && p.status() < 500 && p.status() != 429) {
        ctx.getLog().error("pod {} cannot be annotated ({} {}); not retrying: check the Role (patch pods) and the pod name",
            settings.podName(), p.status(), p.error());
        return Behaviors.receive(Command.class).onAnyMessage(m -> Behaviors.same()).build();
      }
      failures++;
      long backoff = Math.min(settings.maxBackoff().toMillis(), settings.minBackoff().toMillis() << Math.min(failures - 1, 20));
      ctx.getLog().warn("pod {} not annotated ({} {}); trying again in {} ms", settings.podName(), p.status(), p.error(), backoff);
      timers.startSingleTimer("retry", new Retry(), Duration.ofMillis(backoff));
      return Behaviors.same();
    }
  }
}
