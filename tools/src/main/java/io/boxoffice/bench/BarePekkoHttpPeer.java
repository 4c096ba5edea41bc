package io.boxoffice.bench;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * The ceiling of our stack for {@link PageBench}: pekko-http's own server ({@code newServerAt().bind})
 * answering every request with the page's bytes from memory and doing nothing else (no cookie,
 * no signature, no routing, no metrics), with the node's default-dispatcher sizing and TCP
 * workers. Run in a JVM of its own with the node's JVM options, on pekko's defaults (not the
 * node's application.conf: no cluster). Arguments: the page file, the port. Prints {@code up}
 * once bound.
 */
public final class BarePekkoHttpPeer {
  private BarePekkoHttpPeer() {}

  public static void main(String[] args) throws Exception {
    byte[] page = Files.readAllBytes(Path.of(args[0]));
    int port = Integer.parseInt(args[1]);
    // As conf/cluster.conf sizes a node's default dispatcher (one thread per core) and runs the
    // TCP connections' actors on it.
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "bare-peer", ConfigFactory.parseString("""
        pekko.loglevel = WARNING
        pekko.actor.default-dispatcher.fork-join-executor {
          parallelism-min = 2
          parallelism-factor = 1.0
          parallelism-max = 64
        }
        pekko.io.tcp.worker-dispatcher = "pekko.actor.default-dispatcher"
        """).withFallback(ConfigFactory.defaultReference()));
    HttpResponse response = HttpResponse.create()
        .withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, page))
        .addHeader(RawHeader.create("Cache-Control", "private, no-store"));
    org.apache.pekko.japi.function.Function<HttpRequest, CompletionStage<HttpResponse>> handler =
        request -> CompletableFuture.completedFuture(response);
    Http.get(system).newServerAt("127.0.0.1", port).bind(handler).toCompletableFuture().get();
    System.out.println("up");
  }
}
