package io.boxoffice.app;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpCharsets;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.management.javadsl.ManagementRouteProvider;
import org.apache.pekko.management.javadsl.ManagementRouteProviderSettings;

/**
 * {@code GET /metrics} in Prometheus text on the management port (conf/management.conf), never
 * on the fans' port: per-event sales and the lobby are for SREs and Prometheus only.
 */
public final class MetricsRoutes extends AllDirectives implements ManagementRouteProvider {
  private static final Map<ActorSystem, Metrics> PUBLISHED = new ConcurrentHashMap<>();

  private final ActorSystem system;

  public MetricsRoutes(ExtendedActorSystem system) {
    this.system = system;
  }

  /** Called once the node's metrics exist; until then {@code /metrics} answers 503. */
  public static void publish(ActorSystem system, Metrics metrics) {
    PUBLISHED.put(system, metrics);
    system.getWhenTerminated().thenRun(() -> PUBLISHED.remove(system));
  }

  @Override
  public Route routes(ManagementRouteProviderSettings settings) {
    return path("metrics", () -> get(this::scrape));
  }

  private Route scrape() {
    Metrics metrics = PUBLISHED.get(system);
    if (metrics == null) return complete(StatusCodes.SERVICE_UNAVAILABLE, "starting");
    return complete(HttpResponse.create().withEntity(
        ContentTypes.create(MediaTypes.TEXT_PLAIN, HttpCharsets.UTF_8), metrics.scrape()));
  }
}
