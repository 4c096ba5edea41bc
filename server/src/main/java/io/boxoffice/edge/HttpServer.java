package io.boxoffice.edge;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.event.Logging;
import org.apache.pekko.event.LoggingAdapter;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.settings.ServerSettings;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.KillSwitches;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.SharedKillSwitch;
import org.apache.pekko.stream.TLSClosing;
import org.apache.pekko.stream.TLSProtocol;
import org.apache.pekko.stream.javadsl.BidiFlow;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.stream.javadsl.TLS;
import org.apache.pekko.stream.javadsl.TLSPlacebo;
import org.apache.pekko.stream.javadsl.Tcp;
import org.apache.pekko.util.ByteString;

/**
 * The fans' HTTP server: pekko-http's own HTTP layer on a TCP binding of ours, so that a
 * {@link HeadDeadline} can watch the bytes below it ({@code Http.newServerAt(...).bind} offers no
 * way in there). What that bind wires is kept: the {@code pekko.http.server} settings (backlog,
 * socket options, max-connections, request-timeout, pipelining-limit; the HTTP layer
 * itself sets the remote-address attribute), and graceful termination: on {@link #terminate} no
 * new connection is accepted, idle connections close at once, a connection with requests in
 * flight closes after their responses (the last one says {@code Connection: close}), and
 * whatever is left is closed at the hard deadline.
 *
 * <p>Ours on top: each client's open connections are capped ({@link PeerConnections}: a new one
 * over the cap is closed at once, unread), and the idle timeout is the fans' own
 * ({@code boxoffice.http.connections.idle-timeout}), not pekko-http's.
 */
public final class HttpServer {
  private final Tcp.ServerBinding tcp;
  private final Set<ConnectionGate.Handle> connections;
  private final SharedKillSwitch kill;
  private final ActorSystem<?> system;
  private volatile boolean terminating;

  private HttpServer(Tcp.ServerBinding tcp, Set<ConnectionGate.Handle> connections, SharedKillSwitch kill,
                     ActorSystem<?> system) {
    this.tcp = tcp;
    this.connections = connections;
    this.kill = kill;
    this.system = system;
  }

  public InetSocketAddress localAddress() {
    return tcp.localAddress();
  }

  /**
   * Binds {@code handler} at {@code iface:port}; a request head must arrive within
   * {@code headTimeout} of its first byte.
   */
  public static CompletionStage<HttpServer> bind(ActorSystem<?> system, String iface, int port, Duration headTimeout,
                                                 PeerConnections peers,
                                                 Function<HttpRequest, CompletionStage<HttpResponse>> handler) {
    return bind(system, iface, port, headTimeout, peers, Optional.empty(), handler);
  }

  /**
   * The same over TLS when {@code tls} is given: each connection gets an engine from it (so a
   * reloaded certificate serves new connections), and its handshake must be done within
   * {@code headTimeout} of the accept ({@link HandshakeDeadline}); the head deadline then watches
   * the decrypted bytes as on plain HTTP.
   */
  public static CompletionStage<HttpServer> bind(ActorSystem<?> system, String iface, int port, Duration headTimeout,
                                                 PeerConnections peers, Optional<Supplier<SSLEngine>> tls,
                                                 Function<HttpRequest, CompletionStage<HttpResponse>> handler) {
    ServerSettings settings = ServerSettings.create(system.classicSystem());
    LoggingAdapter log = Logging.getLogger(system.classicSystem(), HttpServer.class);
    Materializer materializer = Materializer.matFromSystem(system);
    Set<ConnectionGate.Handle> connections = ConcurrentHashMap.newKeySet();
    SharedKillSwitch kill = KillSwitches.shared("http-connections");
    HttpServer[] self = new HttpServer[1];
    Duration idle = peers.settings().idleTimeout();
    Attributes cancellationDelay = Attributes.apply(new Attributes.CancellationStrategy(
        Attributes.cancellationStrategyAfterDelay(settings.getStreamCancellationDelay(),
            Attributes.cancellationStrategyFailStage())));

    Flow<HttpRequest, HttpResponse, NotUsed> handlerFlow =
        Flow.<HttpRequest>create().mapAsync(settings.getPipeliningLimit(), handler::apply);
    // TCP's own idle timeout is off, as in pekko-http: the idle-timeout below covers both directions.
    return Tcp.get(system).bind(iface, port, settings.getBacklog(), settings.getSocketOptions(), false, Optional.empty())
        .mapAsyncUnordered(settings.getMaxConnections(), incoming -> {
          PeerConnections.Lease lease = peers.tryOpen(incoming.remoteAddress().getAddress());
          if (lease == null) {
            // Over its client's cap: closed before a byte is read (no TLS handshake, no HTTP
            // parsing); the client's other connections and every other client go on.
            incoming.handleWith(Flow.fromSinkAndSource(Sink.<ByteString>cancelled(), Source.<ByteString>empty()), materializer);
            return CompletableFuture.completedFuture(Done.getInstance());
          }
          BidiFlow<HttpResponse, ByteString, ByteString, HttpRequest, CompletionStage<Done>> layer =
              BidiFlow.fromGraph(new ConnectionGate(() -> self[0] != null && self[0].terminating, connections))
                  .atop(Http.get(system).serverLayer(settings, Optional.of(incoming.remoteAddress()), log), Keep.left())
                  .atop(placebo(), Keep.left())
                  .atop(BidiFlow.fromGraph(new HeadDeadline(headTimeout, incoming.remoteAddress())), Keep.left())
                  .atop(tls.isPresent() ? encrypted(tls.get(), headTimeout, incoming.remoteAddress())
                      : BidiFlow.<ByteString, ByteString>identity(), Keep.left())
                  .atop(BidiFlow.<ByteString, ByteString>bidirectionalIdleTimeout(idle), Keep.left())
                  .atop(BidiFlow.fromFlows(kill.<ByteString>flow(), kill.<ByteString>flow()), Keep.left());
          CompletionStage<Done> closed = handlerFlow
              .joinMat(layer.join(incoming.flow(), Keep.left()), Keep.right())
              .addAttributes(cancellationDelay)
              .run(materializer);
          closed.whenComplete((d, e) -> lease.release());
          // A connection's failure (a reset, a timeout) is its own end, not the binding's.
          return closed.exceptionally(e -> Done.getInstance());
        })
        .to(Sink.ignore())
        .run(materializer)
        .thenApply(binding -> {
          self[0] = new HttpServer(binding, connections, kill, system);
          return self[0];
        });
  }

  /**
   * Plain bytes above, TLS records below: pekko-stream's TLS stage between two byte layers (the
   * HTTP layer's session information is the placebo's), and the handshake deadline under it.
   */
  private static BidiFlow<ByteString, ByteString, ByteString, ByteString, NotUsed> encrypted(
      Supplier<SSLEngine> engines, Duration handshakeTimeout, InetSocketAddress peer) {
    AtomicBoolean handshakeDone = new AtomicBoolean();
    BidiFlow<ByteString, TLSProtocol.SslTlsOutbound, TLSProtocol.SslTlsInbound, ByteString, NotUsed> unwrap =
        BidiFlow.fromFlows(
            Flow.<ByteString>create().map(bytes -> (TLSProtocol.SslTlsOutbound) new TLSProtocol.SendBytes(bytes)),
            Flow.<TLSProtocol.SslTlsInbound>create()
                .filter(in -> in instanceof TLSProtocol.SessionBytes)
                .map(in -> ((TLSProtocol.SessionBytes) in).bytes()));
    return unwrap
        .atop(TLS.create(engines, session -> handshakeDone.set(true), TLSClosing.eagerClose()), Keep.left())
        .atop(BidiFlow.fromGraph(new HandshakeDeadline(handshakeTimeout, handshakeDone::get, peer)), Keep.left());
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static BidiFlow<TLSProtocol.SslTlsOutbound, ByteString, ByteString, TLSProtocol.SslTlsInbound, NotUsed> placebo() {
    // SessionBytes is an SslTlsInbound: Java's generics cannot say so.
    return (BidiFlow) TLSPlacebo.getInstance();
  }

  /** Stops accepting connections; those open go on. */
  public CompletionStage<Done> unbind() {
    return tcp.unbind().thenApply(u -> Done.getInstance());
  }

  /**
   * Stops accepting connections, closes idle ones, lets requests in flight be answered, and closes
   * every connection left at {@code hardDeadline}. Completes when all are closed.
   */
  public CompletionStage<Done> terminate(Duration hardDeadline) {
    terminating = true;
    return unbind().exceptionally(e -> Done.getInstance()).thenCompose(d -> {
      List<ConnectionGate.Handle> open = List.copyOf(connections);
      open.forEach(ConnectionGate.Handle::close);
      CompletableFuture<Void> all = CompletableFuture.allOf(
          open.stream().map(h -> h.closed().toCompletableFuture()).toArray(CompletableFuture[]::new));
      system.scheduler().scheduleOnce(hardDeadline, () -> {
        kill.shutdown();
        connections.forEach(ConnectionGate.Handle::abort);
      }, system.executionContext());
      // A handler that never answers must not hold the shutdown beyond the deadline.
      return all.completeOnTimeout(null, hardDeadline.toMillis() + 1000, TimeUnit.MILLISECONDS)
          .thenApply(v -> Done.getInstance());
    });
  }

  /** As pekko-http's ServerBinding does: unbind, then terminate, in coordinated shutdown's phases. */
  public HttpServer addToCoordinatedShutdown(Duration hardDeadline) {
    CoordinatedShutdown shutdown = CoordinatedShutdown.get(system.classicSystem());
    shutdown.addTask(CoordinatedShutdown.PhaseServiceUnbind(), "http-unbind-" + localAddress(), this::unbind);
    shutdown.addTask(CoordinatedShutdown.PhaseServiceRequestsDone(), "http-terminate-" + localAddress(),
        () -> terminate(hardDeadline));
    return this;
  }
}
