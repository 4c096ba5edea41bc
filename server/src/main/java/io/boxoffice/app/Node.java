package io.boxoffice.app;

import com.typesafe.config.Config;
import io.boxoffice.accounts.http.AccountRoutes;
import io.boxoffice.admin.http.AdminRoutes;
import io.boxoffice.cart.Cart;
import io.boxoffice.cart.CartSettings;
import io.boxoffice.cart.CheckoutRecovery;
import io.boxoffice.cart.http.CartOrders;
import io.boxoffice.cart.http.EventViews;
import io.boxoffice.cart.http.ShopRoutes;
import io.boxoffice.cart.http.ShopSettings;
import io.boxoffice.common.Hmac;
import io.boxoffice.common.ReadSide;
import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.BrowserGuards;
import io.boxoffice.edge.Bulkhead;
import io.boxoffice.edge.BulkheadDirectives;
import io.boxoffice.edge.ClientPrefix;
import io.boxoffice.edge.DispatcherLag;
import io.boxoffice.edge.FairPace;
import io.boxoffice.edge.HttpServer;
import io.boxoffice.accounts.AccountSettings;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.IdentityToken;
import io.boxoffice.edge.OpenApiRoutes;
import io.boxoffice.edge.ServerTls;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.InventorySettings;
import io.boxoffice.cart.http.PaymentWebhookRoutes;
import io.boxoffice.payment.PaymentGateway;
import io.boxoffice.payment.StripeWebhook;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.PresaleRegistry;
import io.boxoffice.queue.QueuePlace;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.queue.domain.BotSettings;
import io.boxoffice.queue.domain.QueueToken;
import io.boxoffice.queue.domain.QueueTokenSettings;
import io.boxoffice.queue.http.PageRoutes;
import io.boxoffice.queue.http.QueueAdmission;
import io.boxoffice.queue.http.QueueRoutes;
import io.boxoffice.tickets.TicketWallet;
import io.boxoffice.tickets.domain.Barcode;
import io.boxoffice.tickets.http.TicketRoutes;
import io.boxoffice.venue.Venue;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.JoinSeedNodes;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.management.cluster.bootstrap.ClusterBootstrap;
import org.apache.pekko.management.javadsl.PekkoManagement;
import org.apache.pekko.stream.Materializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One boxoffice node: the actor system, its sharded entities, and the HTTP API.
 *
 * <p>Why one file of this size: it is the composition root, and the order of {@link #start}
 * matters (keys and certificates before the actor system, entities before the routes that ask
 * them, the warm-up before the node joins, the listeners last); kept in one method it reads top
 * to bottom. Each feature's own wiring is in its module ({@code QueueModule}, {@code AccountsModule},
 * {@code PaymentsModule}, {@code Listeners}) and its tunables in typed settings.
 */
public final class Node {
  private static final Logger log = LoggerFactory.getLogger(Node.class);

  /**
   * What a caller may choose besides configuration: the clock, the payment processor, and where
   * spans go (null: as {@code boxoffice.tracing} says).
   */
  public record Options(Clock clock, PaymentGateway payments, io.boxoffice.common.Tracing tracing) {
    public Options(Clock clock, PaymentGateway payments) {
      this(clock, payments, null);
    }
  }

  private final ActorSystem<Void> system;
  private final HttpServer binding;
  private final HttpServer https; // null without TLS
  private final PaymentGateway payments;
  private final int managementPort;
  private final WarmUp.Result warmUp;
  private final Duration stopTimeout;

  private Node(ActorSystem<Void> system, HttpServer binding, HttpServer https, PaymentGateway payments, int managementPort,
               WarmUp.Result warmUp, Duration stopTimeout) {
    this.warmUp = warmUp;
    this.stopTimeout = stopTimeout;
    this.system = system;
    this.binding = binding;
    this.https = https;
    this.payments = payments;
    this.managementPort = managementPort;
  }

  public ActorSystem<Void> system() { return system; }
  /** The requests this node answered itself before it joined the cluster. */
  WarmUp.Result warmUp() { return warmUp; }
  public int httpPort() { return binding.localAddress().getPort(); }
  /** The HTTPS listener's port, or -1 when TLS is off. */
  public int httpsPort() { return https == null ? -1 : https.localAddress().getPort(); }
  public PaymentGateway payments() { return payments; }
  public int managementPort() { return managementPort; }

  /** Where each kind of entity is, by entity id: sharding in a node, probes or local actors in tests. */
  record Refs(Function<String, RecipientRef<EventInventory.Command>> inventories,
              Function<String, RecipientRef<Cart.Command>> carts,
              Function<String, RecipientRef<TicketWallet.Command>> wallets,
              Function<String, RecipientRef<WaitingRoom.Command>> rooms,
              Function<String, RecipientRef<QueuePlace.Command>> places,
              Function<String, RecipientRef<PresaleRegistry.Command>> registries) {
    static Refs of(ClusterSharding sharding) {
      return new Refs(id -> sharding.entityRefFor(EventInventory.ENTITY_TYPE_KEY, id),
          id -> sharding.entityRefFor(Cart.ENTITY_TYPE_KEY, id),
          id -> sharding.entityRefFor(TicketWallet.ENTITY_TYPE_KEY, id),
          id -> sharding.entityRefFor(WaitingRoom.ENTITY_TYPE_KEY, id),
          id -> sharding.entityRefFor(QueuePlace.ENTITY_TYPE_KEY, id),
          id -> sharding.entityRefFor(PresaleRegistry.ENTITY_TYPE_KEY, id));
    }
  }

  /** Starts a node from already loaded configuration (see {@link NodeConfig#resolve}). */
  public static Node start(Config base, Options options) throws Exception {
    // Keys first: a node that would sign with the wrong keys must not start at all.
    Config resolved = NodeConfig.resolve(base);
    // The embedded data directory is owner-only before the keys or the database are written in it.
    EmbeddedDataDir.ownerOnlyDirectory(resolved);
    Config config = NodeSecrets.resolve(resolved);
    // So is a node told to serve HTTPS without a certificate it can use (expired, malformed, not its key's).
    ServerTls.Settings tlsSettings = ServerTls.Settings.fromConfig(config);
    ServerTls tls = tlsSettings.enabled() ? ServerTls.load(tlsSettings, Clock.systemUTC()) : null;
    NodeSettings settings = NodeSettings.fromConfig(config);
    // And one whose configured payments would sell unpaid (the simulator in production) or cannot work (Stripe without keys).
    if (options.payments() == null) PaymentsModule.Settings.fromConfig(config).checked();
    Schema.atStart(config);
    EmbeddedDataDir.ownerOnlyFiles(config);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "boxoffice", config);
    // Files H2 made while the node ran (a trace file) are owner-only when it stops, as at the next start.
    system.getWhenTerminated().thenRun(() -> EmbeddedDataDir.ownerOnlyFilesQuietly(config));
    try {
      Config bo = config.getConfig("boxoffice");
      org.apache.pekko.http.javadsl.model.Uri management = PekkoManagement.get(system.classicSystem()).start()
          .toCompletableFuture().get(settings.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
      Metrics metrics = new Metrics();
      MetricsRoutes.publish(system.classicSystem(), metrics);
      // The earliest expiry of Artery's certificates (NaN with remote TLS off): alerted before it comes.
      metrics.gauge("boxoffice_remote_tls_certificate_expiry_timestamp_seconds",
          "Earliest notAfter (epoch seconds) of the certificates in Artery's key and trust stores",
          io.micrometer.core.instrument.Tags.empty(), RemoteTls.expiryGauge(config));
      io.boxoffice.common.Tracing tracing = options.tracing() != null ? options.tracing()
          : io.boxoffice.common.Tracing.fromConfig(config);
      system.getWhenTerminated().thenRun(tracing::close);
      Clock clock = options.clock();
      PaymentGateway payments = options.payments() != null ? options.payments() : PaymentsModule.gateway(system, config);
      Refs refs = Refs.of(ClusterSharding.get(system));
      Config db = config.getConfig(NodeConfig.DB + ".db");
      ReadSide readSide = ReadSide.start(system, db.getString("url"), db.getString("user"), db.getString("password"),
          Duration.ofMillis(db.getLong("connectionTimeout")));
      Duration askTimeout = settings.askTimeout();
      Barcode barcodes = new Barcode(Hmac.fromBase64OrRandom(bo.getString("secrets.ticket-key")));
      SnapshotPolicy walletSnapshots = SnapshotPolicy.fromConfig(bo.getConfig("snapshots"), "ticket-wallet");

      // One verifier for the edge and the inventory's own check: the same keys.
      QueueTokenSettings queueSettings = QueueTokenSettings.fromConfig(config, clock);
      QueueToken queueTokens = queueSettings.tokens();
      // Hold clocks stop while this node sees the cluster in trouble: a fan must not lose a cart to our fault.
      FaultLedger faults = ClusterFaults.start(system, clock, bo.getDuration("inventory.fault-settle"), metrics);
      InventorySettings inventorySettings = InventorySettings.fromConfig(config, clock, queueTokens, metrics, faults)
          .withTracing(tracing);
      EventInventory.init(system, inventorySettings);
      // A fan who has bought frees its active-shopper slot for the next fan in line (its pass
      // still admits until its window ends, within the per-account cap); a fan's first hold
      // keeps its slot for the whole window (before it, the slot lapses after the arrival window).
      Cart.init(system, new CartSettings(clock, payments, barcodes, refs.inventories(), refs.wallets(), askTimeout,
          bo.getDuration("cart.retry-min"), bo.getDuration("cart.retry-max"),
          SnapshotPolicy.fromConfig(bo.getConfig("snapshots"), "cart"),
          (eventId, accountId) -> refs.places().apply(QueuePlace.entityId(eventId, accountId)).tell(new QueuePlace.Bought()))
          .withHoldTimer(bo.getDuration("cart.hold-recheck"), bo.getDuration("cart.hold-release-grace"), metrics)
          .withShoppingStarted((eventId, accountId) ->
              refs.places().apply(QueuePlace.entityId(eventId, accountId)).tell(new QueuePlace.Shopping()))
          .withTracing(tracing), bo.getDuration("cart.passivate-idle-after"));
      // Journal write times are wall-clock times, so the sweep measures staleness on the wall clock.
      CheckoutRecovery.init(system, readSide, Clock.systemUTC(), bo.getDuration("checkout-recovery.interval"),
          bo.getDuration("checkout-recovery.stalled-after"), refs.carts());
      QueueModule.Entities queue = QueueModule.start(system, config, clock, refs, readSide, askTimeout);
      TicketWallet.init(system, walletSnapshots);
      io.boxoffice.accounts.SessionView.Started sessions = AccountsModule.start(system, config, clock);
      Venue.init(system);
      io.boxoffice.admin.Directory.init(system, readSide, metrics::directoryRowSkipped);

      Function<HttpRequest, CompletionStage<HttpResponse>> handler =
          routes(system, config, settings, clock, barcodes, inventorySettings, refs, queue, queueSettings, queueTokens,
              payments, metrics, readSide, sessions.view());
      handler = new io.boxoffice.edge.RequestTracing(tracing, ClientPrefix.fromConfig(config), RouteNames::route).around(handler);
      ClusterGauges.register(system, metrics, settings.shardGaugesDelay(), settings.shardGaugesInterval());
      // Only now a member: the start-up above (class loading, the first compilations) and the
      // warm-up run before anyone watches this node's heartbeats or places shards on it.
      WarmUp.Result warm = WarmUp.run(handler, Materializer.matFromSystem(system), bo.getInt("warm-up.requests"), bo.getDuration("warm-up.max-duration"));
      if (warm.requests() > 0) {
        log.info("warm-up: {} requests in {} ms before joining", warm.requests(), warm.took().toMillis());
        // And the read-back of an event, so the first event this node takes over reads back warm.
        io.boxoffice.inventory.ReadBackWarmUp.Result readBack = io.boxoffice.inventory.ReadBackWarmUp.run(system);
        log.info("warm-up: an event of {} seats written and read back ({} bytes) in {} ms", readBack.seats(), readBack.bytes(),
            readBack.took().toMillis());
      }
      join(system, config, settings);
      PodDeletionCost.startIfConfigured(system, config);
      Config probe = bo.getConfig("dead-member-probe");
      if (probe.getBoolean("enabled")) {
        DeadMemberProbe.start(system, probe.getDuration("interval"), probe.getDuration("connect-timeout"), probe.getInt("refusals"),
            config.getString("pekko.cluster.split-brain-resolver.keep-majority.role"));
      }
      if (bo.getBoolean("quorum-guard.enabled")) {
        QuorumGuard.start(system, config.getString("pekko.cluster.split-brain-resolver.keep-majority.role"),
            bo.getDuration("quorum-guard.settle"));
      }
      awaitUp(system, settings.listenAfterUpWait());
      AccountsModule.awaitSessions(sessions, AccountSettings.from(config).sessionsReadWait());
      Listeners.Bound bound = Listeners.bind(system, config, settings, tls, handler);
      metrics.bindPools();
      HttpReadiness.ready(system.classicSystem());
      log.info("boxoffice listening on {}{}", bound.http().localAddress(),
          bound.https() == null ? "" : ", HTTPS on " + bound.https().localAddress());
      return new Node(system, bound.http(), bound.https(), payments, management.port(), warm, settings.stopTimeout());
    } catch (Exception e) {
      system.terminate();
      throw e;
    }
  }

  /** Waits until this node is an Up member, at most {@code wait} (see boxoffice.listen-after-up-wait). */
  private static void awaitUp(ActorSystem<Void> system, Duration wait) throws InterruptedException {
    CompletableFuture<Void> up = new CompletableFuture<>();
    org.apache.pekko.cluster.Cluster.get(system.classicSystem()).registerOnMemberUp(() -> up.complete(null));
    try {
      up.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      log.warn("not an Up member {} after joining: listening anyway, requests wait for the cluster", wait);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Joins the cluster: through Kubernetes bootstrap, the configured seed nodes, or, with none,
   * by forming a cluster of its own (the single-node default).
   */
  private static void join(ActorSystem<Void> system, Config config, NodeSettings settings) {
    Cluster cluster = Cluster.get(system);
    List<String> seeds = NodeConfig.joinSeedNodes(config);
    if (settings.kubernetesDiscovery()) {
      ClusterBootstrap.get(system.classicSystem()).start();
    } else if (seeds.isEmpty()) {
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
    } else {
      cluster.manager().tell(new JoinSeedNodes(seeds.stream().map(AddressFromURIString::parse).toList()));
    }
  }

  private static Function<HttpRequest, CompletionStage<HttpResponse>> routes(ActorSystem<Void> system, Config config,
      NodeSettings settings, Clock clock, Barcode barcodes, InventorySettings inventorySettings, Refs refs,
      QueueModule.Entities queueEntities, QueueTokenSettings queueSettings, QueueToken queueTokens,
      PaymentGateway payments, Metrics metrics, ReadSide readSide, io.boxoffice.accounts.SessionView sessions) {
    Config bo = config.getConfig("boxoffice");
    Duration askTimeout = settings.askTimeout();
    Api api = new Api(system, askTimeout, settings.maxBodyBytes());
    IdentityToken identityTokens = new IdentityToken(Hmac.fromBase64OrRandom(bo.getString("secrets.identity-key")),
        clock, Duration.ofHours(bo.getInt("accounts.session-hours")), sessions);
    EventViews views = new EventViews(refs.inventories(), system.scheduler(), api.mapper(), clock, askTimeout,
        inventorySettings.availabilityInterval());

    // The waiting room at the edge. The events this node knows are those whose manifests it heard: metrics are kept for those alone.
    long tokenMaxAge = queueSettings.tokenTtl().toSeconds();
    QueueModule.Edge line = QueueModule.edge(system, config, clock, api, refs, queueEntities, askTimeout, metrics::watch);
    Manifests manifests = line.manifests();
    // Requests refused for want of a valid sign-in take from their network's budget of such refusals.
    Identity identity = new Identity(identityTokens, api, line.fans(), line.refusals());
    // Ended sales' series go (a node's series must not grow with every event it ever sold).
    system.scheduler().scheduleWithFixedDelay(settings.metricsSweepInterval(), settings.metricsSweepInterval(),
        () -> {
          metrics.sweepEnded(manifests.all(), manifests::known, System.currentTimeMillis(), settings.endedEventRetention());
          metrics.bindPools();
        },
        system.executionContext());
    // Only events this node knows share it: made-up ids in flight never shrink a real event's share.
    Bulkhead bulkhead = new Bulkhead(bo.getInt("edge.per-event-in-flight"), bo.getInt("edge.node-in-flight"),
        eventId -> manifests.known(eventId) != null, bo.getDuration("edge.fair-wait").toMillis(),
        bo.getDuration("edge.busy-linger").toMillis(), system.executionContext());

    AccountRoutes accounts = AccountsModule.routes(system, config, api, identityTokens, identity, sessions);
    // Managers' calls are few and chain several asks to entities that may be new (shards to
    // allocate on a fresh cluster): they wait longer than a fan's before answering 503.
    Api adminApi = new Api(system, settings.adminAskTimeout(), settings.maxBodyBytes());
    AdminRoutes admin = new AdminRoutes(system, adminApi, bo.getString("secrets.admin-token"), settings.maxAdminBodyBytes(),
        line.presale(), refs.registries(), payments instanceof PaymentSimulator sim ? sim : null, manifests, readSide,
        metrics.live(), bo.getDuration("admin.live-interval"), bo.getDuration("admin.live-heartbeat"));
    metrics.gauge("boxoffice_admin_live_streams", "Managers' live dashboards streaming from this node",
        io.micrometer.core.instrument.Tags.empty(), admin::liveStreams);
    // The bulkhead sheds before a request names a known event: a made-up id's sheds are not a metric series.
    // Saturated, the node paces the events above their fair share of requests/s (FairPace).
    Config paceConfig = bo.getConfig("edge.pace");
    FairPace pace = new FairPace(eventId -> manifests.known(eventId) != null, paceConfig.getDuration("window").toMillis(),
        paceConfig.getDouble("decrease"), paceConfig.getDouble("increase"), paceConfig.getDouble("floor"),
        paceConfig.getDouble("min-share"), bo.getDuration("edge.fair-wait").toMillis());
    DispatcherLag lag = new DispatcherLag(system.executionContext(), paceConfig.getDuration("probe").toMillis(),
        pace.windowMillis(), paceConfig.getDuration("saturated-lag").toNanos() / 1e6,
        (saturated, meanLagMillis, now) -> pace.tick(saturated, now));
    system.getWhenTerminated().thenRun(lag::close);
    metrics.gauge("boxoffice_edge_dispatcher_lag_seconds", "Mean lag of the node's dispatcher in the last window",
        io.micrometer.core.instrument.Tags.empty(), () -> lag.meanLagMillis() / 1000);
    metrics.gauge("boxoffice_edge_paced_events", "Events this node paces now (requests/s above their fair share while saturated)",
        io.micrometer.core.instrument.Tags.empty(), pace::paced);
    BulkheadDirectives bulkheads = new BulkheadDirectives(bulkhead, pace, system.executionContext(), api, (eventId, priority) -> {
      if (manifests.known(eventId) != null) metrics.requestShed(eventId, priority);
    });
    QueueRoutes queue = new QueueRoutes(api, bulkheads, identity, line.fans(), manifests, queueTokens, line.pow(),
        line.presale(), refs.places(), refs.registries(), system.scheduler(), clock, tokenMaxAge,
        QueueModule.Settings.fromConfig(config).joinWait());
    ShopRoutes shop = new ShopRoutes(api, bulkheads, identity,
        new QueueAdmission(api, line.fans(), manifests, queueTokens, clock, tokenMaxAge), views, refs.inventories(),
        refs.carts(), system.scheduler(), ShopSettings.fromConfig(config), metrics);
    // Order ids name their event: a made-up one is 404 before any cart is asked (Manifests knows the events).
    TicketRoutes tickets = new TicketRoutes(api, identity, line.fans(), BotSettings.from(config).qrCost(),
        barcodes, bo.getString("secrets.gate-token"),
        new CartOrders(manifests, refs.carts(), api.askTimeout(), system.scheduler()), refs.wallets(),
        refs.inventories(), system.scheduler());
    // Stripe's webhook notices (late authorizations) reach the order's cart; only with Stripe configured.
    PaymentsModule.Settings paymentSettings = PaymentsModule.Settings.fromConfig(config);
    Route paymentWebhooks = paymentSettings.provider() == PaymentsModule.Provider.STRIPE
        ? new PaymentWebhookRoutes(api, new StripeWebhook(paymentSettings.stripe().webhookSecret(),
            paymentSettings.stripe().webhookTolerance()), refs.carts(),
            (type, outcome) -> io.micrometer.core.instrument.Counter.builder("boxoffice_payment_webhooks")
                .description("Stripe webhook notices this node received, by event type and outcome (refused, repeat, to_cart, recorded, not_ours)")
                .tags("type", type, "outcome", outcome).register(metrics.registry()).increment()).routes()
        : new AllDirectives() {}.reject();
    AllDirectives d = new AllDirectives() {};
    // The queue's paths come before the shop's: the shop checks admission for every path under an event.
    // /metrics is on the management port only (MetricsRoutes): per-event sales are not for fans.
    Route tree = api.seal(d.concat(accounts.routes(), admin.routes(), queue.routes(), shop.routes(), tickets.routes(),
        paymentWebhooks, new OpenApiRoutes().routes()));
    PageRoutes pages = new PageRoutes(manifests, clock,
        eventId -> views.seatMap(eventId).thenApply(v -> new PageRoutes.EventFacts(v.details().venueName(),
            v.details().prices(), v.details().maxSeatsPerAccount(), v.details().seats(), v.details().holdSeconds())),
        QueueModule.Settings.fromConfig(config).pageFactsWait());
    org.apache.pekko.japi.function.Function<HttpRequest, CompletionStage<HttpResponse>> treeHandler = tree.handler(system);
    // The page the whole crowd repeats skips the routing tree; everything else goes through it.
    return new BrowserGuards(api).around(request -> {
      long started = System.nanoTime();
      CompletionStage<HttpResponse> response;
      // Rendered once for the page's path and the route's name (a render per call otherwise).
      String path = ((org.apache.pekko.http.scaladsl.model.HttpRequest) request).uri().path().toString();
      Optional<CompletionStage<HttpResponse>> page = pages.handle(request, path);
      if (page.isPresent()) {
        response = page.get();
      } else {
        try {
          response = treeHandler.apply(request);
        } catch (Exception e) {
          response = CompletableFuture.failedFuture(e);
        }
      }
      String route = RouteNames.of(path, request.method());
      return response.whenComplete((r, e) -> metrics.request(route, r == null ? 500 : r.status().intValue())
          .record(System.nanoTime() - started, TimeUnit.NANOSECONDS));
    });
  }

  public void stop() {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      log.warn("actor system did not terminate in time", e);
    }
  }
}
