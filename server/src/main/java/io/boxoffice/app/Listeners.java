package io.boxoffice.app;

import com.typesafe.config.Config;
import io.boxoffice.edge.ClientPrefix;
import io.boxoffice.edge.HttpServer;
import io.boxoffice.edge.PeerConnections;
import io.boxoffice.edge.ServerTls;
import io.boxoffice.edge.TransportSecurity;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * The node's HTTP listeners: plain HTTP, and HTTPS when TLS is on (plain HTTP then only
 * redirects). Our own bind of pekko-http's HTTP layer: it has no deadline for a request's head
 * ({@link HttpServer}).
 */
final class Listeners {
  private Listeners() {}

  /** {@code https} is null without TLS. */
  record Bound(HttpServer http, HttpServer https) {}

  static Bound bind(ActorSystem<Void> system, Config config, NodeSettings node, ServerTls tls,
                    Function<HttpRequest, CompletionStage<HttpResponse>> handler) throws Exception {
    ServerTls.Settings tlsSettings = ServerTls.Settings.fromConfig(config);
    PeerConnections.Settings connections = PeerConnections.Settings.fromConfig(config);
    HttpServer https = null;
    Function<HttpRequest, CompletionStage<HttpResponse>> plainHandler = handler;
    if (tls != null) {
      https = HttpServer.bind(system, node.httpInterface(), tls.settings().port(), node.headerReadTimeout(),
              new PeerConnections(connections), Optional.of(tls::newEngine), transportSecurity(config, 443).https(handler))
          .toCompletableFuture()
          .get(node.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
      https.addToCoordinatedShutdown(node.unbindDeadline());
      tls.watch(system);
      plainHandler = transportSecurity(config, https.localAddress().getPort()).redirectAll();
    } else if (tlsSettings.forwardedProto()) {
      plainHandler = transportSecurity(config, 443).behindProxy(handler);
    }
    HttpServer http = HttpServer.bind(system, node.httpInterface(), node.httpPort(), node.headerReadTimeout(),
            new PeerConnections(connections), plainHandler)
        .toCompletableFuture()
        .get(node.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
    http.addToCoordinatedShutdown(node.unbindDeadline());
    return new Bound(http, https);
  }

  /** HSTS, and redirects to {@code redirectPort}: the configured one, or the HTTPS listener's own when that is 0. */
  private static TransportSecurity transportSecurity(Config config, int boundHttpsPort) {
    ServerTls.Settings settings = ServerTls.Settings.fromConfig(config);
    int port = settings.redirectPort() != 0 ? settings.redirectPort() : boundHttpsPort;
    return new TransportSecurity(settings.strictTransportSecurity(), port, ClientPrefix.fromConfig(config));
  }
}
