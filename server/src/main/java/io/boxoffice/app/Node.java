package io.boxoffice.app;

import com.typesafe.config.Config;
import io.boxoffice.accounts.Account;
import io.boxoffice.accounts.AccountRoutes;
import io.boxoffice.accounts.AccountSettings;
import io.boxoffice.accounts.HashingPool;
import io.boxoffice.accounts.PasswordHasher;
import io.boxoffice.admin.AdminRoutes;
import io.boxoffice.cart.Cart;
import io.boxoffice.cart.CartOrders;
import io.boxoffice.cart.CartSettings;
import io.boxoffice.cart.CheckoutRecovery;
import io.boxoffice.cart.EventViews;
import io.boxoffice.cart.ShopAdmission;
import io.boxoffice.cart.ShopRoutes;
import io.boxoffice.common.Hmac;
import io.boxoffice.common.ReadSide;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.BrowserGuards;
import io.boxoffice.edge.Bulkhead;
import io.boxoffice.edge.BulkheadDirectives;
import io.boxoffice.edge.ClientPrefix;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.HttpServer;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.IdentityToken;
import io.boxoffice.edge.OpenApiRoutes;
import io.boxoffice.edge.ServerTls;
import io.boxoffice.edge.TokenBuckets;
import io.boxoffice.edge.TransportSecurity;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.InventorySettings;
import io.boxoffice.payment.JdbcLedger;
import io.boxoffice.payment.PaymentGateway;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.queue.BotSettings;
import io.boxoffice.queue.EdgeLine;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.OnSaleKeeper;
import io.boxoffice.queue.PageRoutes;
import io.boxoffice.queue.PresaleCodes;
import io.boxoffice.queue.PresaleRegistry;
import io.boxoffice.queue.ProofOfWork;
import io.boxoffice.queue.QueueAdmission;
import io.boxoffice.queue.QueuePlace;
import io.boxoffice.queue.QueueRoutes;
import io.boxoffice.queue.QueueToken;
import io.boxoffice.queue.QueueTokenSettings;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.queue.WaitingRoomSettings;
import io.boxoffice.tickets.Barcode;
import io.boxoffice.tickets.TicketRoutes;
import io.boxoffice.tickets.TicketWallet;
import io.boxoffice.venue.Venue;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;
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

/** One boxoffice node: the actor system, its sharded entities, and the HTTP API. */
public final class Node {
  private static final Logger log = LoggerFactory.getLogger(Node.class);

  /** What a caller may choose besides configuration: the clock and the payment processor. */
  public record Options(Clock clock, PaymentGateway payments) {}

  private final ActorSystem<Void> system;
  private final HttpServer binding;
  private final HttpServer https; // null without TLS
  private final PaymentGateway payments;
  private final int managementPort;
  private final WarmUp.Result warmUp;

  private Node(ActorSystem<Void> system, HttpServer binding, HttpServer https, PaymentGateway payments, int managementPort,
               WarmUp.Result warmUp) {
    this.warmUp = warmUp;
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
    Config config = NodeSecrets.resolve(NodeConfig.resolve(base));
    // So is a node told to serve HTTPS without a certificate it can use (expired, malformed, not its key's).
    ServerTls.Settings tlsSettings = ServerTls.Settings.fromConfig(config);
    ServerTls tls = tlsSettings.enabled() ? ServerTls.load(tlsSettings, Clock.systemUTC()) : null;
    Schema.atStart(config);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "boxoffice", config);
    try {
      Config bo = config.getConfig("boxoffice");
      org.apache.pekko.http.javadsl.model.Uri management =
          PekkoManagement.get(system.classicSystem()).start().toCompletableFuture().get(30, TimeUnit.SECONDS);
      Metrics metrics = new Metrics();
      MetricsRoutes.publish(system.classicSystem(), metrics);
      Clock clock = options.clock();
      PaymentGateway payments = options.payments() != null ? options.payments() : simulator(system, config);
      Refs refs = Refs.of(ClusterSharding.get(system));
      Config db = config.getConfig(NodeConfig.DB + ".db");
      ReadSide readSide = ReadSide.start(system, db.getString("url"), db.getString("user"), db.getString("password"),
          Duration.ofMillis(db.getLong("connectionTimeout")));
      Duration askTimeout = bo.getDuration("http.ask-timeout");
      Barcode barcodes = new Barcode(Hmac.fromBase64OrRandom(secret(bo, "ticket-key", "barcodes")));

      // One verifier for the edge and the inventory's own check: the same keys.
      QueueTokenSettings queueSettings = QueueTokenSettings.fromConfig(config, clock);
      QueueToken queueTokens = queueSettings.tokens();
      // Hold clocks stop while this node sees the cluster in trouble: a fan must not lose a cart to our fault.
      FaultLedger faults = ClusterFaults.start(system, clock, bo.getDuration("inventory.fault-settle"), metrics);
      InventorySettings inventorySettings = InventorySettings.fromConfig(config, clock, queueTokens, metrics, faults);
      EventInventory.init(system, inventorySettings);
      // A fan who has bought frees its active-shopper slot for the next fan in line (its pass
      // still admits until its window ends, within the per-account cap); a fan's first hold
      // keeps its slot for the whole window (before it, the slot lapses after the arrival window).
      Cart.init(system, new CartSettings(clock, payments, barcodes, refs.inventories(), refs.wallets(), askTimeout,
          Duration.ofMillis(500), Duration.ofSeconds(5),
          (eventId, accountId) -> refs.places().apply(QueuePlace.entityId(eventId, accountId)).tell(new QueuePlace.Bought()))
          .withHoldTimer(bo.getDuration("cart.hold-recheck"), bo.getDuration("cart.hold-release-grace"), metrics)
          .withShoppingStarted((eventId, accountId) ->
              refs.places().apply(QueuePlace.entityId(eventId, accountId)).tell(new QueuePlace.Shopping())));
      // Journal write times are wall-clock times, so the sweep measures staleness on the wall clock.
      CheckoutRecovery.init(system, readSide, Clock.systemUTC(), bo.getDuration("checkout-recovery.interval"),
          bo.getDuration("checkout-recovery.stalled-after"), refs.carts());
      ActorRef<Topic.Command<WaitingRoom.Manifest>> manifestTopic = system.systemActorOf(
          Topic.create(WaitingRoom.Manifest.class, Manifests.TOPIC), Manifests.TOPIC, Props.empty());
      WaitingRoom.init(system, new WaitingRoomSettings(clock, bo.getDuration("queue.tick"), bo.getDuration("queue.admission-window"),
          bo.getDuration("queue.arrival-window"), refs.inventories(), m -> manifestTopic.tell(Topic.publish(m)), askTimeout));
      ActorRef<OnSaleKeeper.Command> keeper = OnSaleKeeper.init(system, readSide, bo.getDuration("queue.keeper-interval"),
          refs.rooms());
      QueuePlace.init(system, refs.rooms(), askTimeout);
      PresaleRegistry.init(system);
      TicketWallet.init(system);
      Account.init(system);
      Venue.init(system);
      io.boxoffice.admin.Directory.init(system, readSide);

      Function<HttpRequest, CompletionStage<HttpResponse>> handler =
          routes(system, config, clock, askTimeout, barcodes, inventorySettings, refs, manifestTopic, keeper, queueSettings,
              queueTokens, payments, metrics, readSide);
      ClusterGauges.register(system, metrics);
      // Only now a member: the start-up above (class loading, the first compilations) and the
      // warm-up run before anyone watches this node's heartbeats or places shards on it.
      WarmUp.Result warm = WarmUp.run(handler, Materializer.matFromSystem(system), bo.getInt("warm-up.requests"), bo.getDuration("warm-up.max-duration"));
      if (warm.requests() > 0) log.info("warm-up: {} requests in {} ms before joining", warm.requests(), warm.took().toMillis());
      join(system, config);
      Config probe = bo.getConfig("dead-member-probe");
      if (probe.getBoolean("enabled")) {
        DeadMemberProbe.start(system, probe.getDuration("interval"), probe.getDuration("connect-timeout"), probe.getInt("refusals"),
            config.getString("pekko.cluster.split-brain-resolver.keep-majority.role"));
      }
      // Our own bind of pekko-http's HTTP layer: it has no deadline for a request's head (HttpServer).
      Duration headTimeout = bo.getDuration("http.header-read-timeout");
      HttpServer https = null;
      Function<HttpRequest, CompletionStage<HttpResponse>> plainHandler = handler;
      if (tls != null) {
        https = HttpServer.bind(system, bo.getString("http.interface"), tls.settings().port(), headTimeout,
                Optional.of(tls::newEngine), transportSecurity(config, 443).https(handler))
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
        https.addToCoordinatedShutdown(Duration.ofSeconds(10));
        tls.watch(system);
        plainHandler = transportSecurity(config, https.localAddress().getPort()).redirectAll();
      } else if (tlsSettings.forwardedProto()) {
        plainHandler = transportSecurity(config, 443).behindProxy(handler);
      }
      HttpServer binding = HttpServer.bind(system, bo.getString("http.interface"), bo.getInt("http.port"),
              headTimeout, plainHandler)
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      binding.addToCoordinatedShutdown(Duration.ofSeconds(10));
      metrics.bindPools();
      HttpReadiness.ready(system.classicSystem());
      log.info("boxoffice listening on {}{}", binding.localAddress(), https == null ? "" : ", HTTPS on " + https.localAddress());
      return new Node(system, binding, https, payments, management.port(), warm);
    } catch (Exception e) {
      system.terminate();
      throw e;
    }
  }

  /**
   * Joins the cluster: through Kubernetes bootstrap, the configured seed nodes, or, with none,
   * by forming a cluster of its own (the single-node default).
   */
  private static void join(ActorSystem<Void> system, Config config) {
    Cluster cluster = Cluster.get(system);
    List<String> seeds = NodeConfig.joinSeedNodes(config);
    if (config.getString("boxoffice.discovery").equals("kubernetes")) {
      ClusterBootstrap.get(system.classicSystem()).start();
    } else if (seeds.isEmpty()) {
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
    } else {
      cluster.manager().tell(new JoinSeedNodes(seeds.stream().map(AddressFromURIString::parse).toList()));
    }
  }

  private static Function<HttpRequest, CompletionStage<HttpResponse>> routes(ActorSystem<Void> system, Config config, Clock clock, Duration askTimeout, Barcode barcodes,
                              InventorySettings inventorySettings, Refs refs,
                              ActorRef<Topic.Command<WaitingRoom.Manifest>> manifestTopic,
                              ActorRef<OnSaleKeeper.Command> keeper,
                              QueueTokenSettings queueSettings, QueueToken queueTokens,
                              PaymentGateway payments, Metrics metrics, ReadSide readSide) {
    Config bo = config.getConfig("boxoffice");
    Api api = new Api(system, askTimeout, bo.getBytes("http.max-body-bytes"));
    IdentityToken identityTokens = new IdentityToken(Hmac.fromBase64OrRandom(secret(bo, "identity-key", "sign-in cookies")),
        clock, Duration.ofHours(bo.getInt("accounts.session-hours")));
    Identity identity = new Identity(identityTokens, api);
    EventViews views = new EventViews(refs.inventories(), system.scheduler(), api.mapper(), clock, askTimeout,
        inventorySettings.availabilityInterval());

    // The waiting room at the edge: tokens, network prefixes, rate limits, bot defenses, manifests.
    long tokenMaxAge = queueSettings.tokenTtl().toSeconds();
    BotSettings bots = BotSettings.from(config);
    FanContext fans = new FanContext(ClientPrefix.fromConfig(config),
        new TokenBuckets(bots.perAccount().burst(), bots.perAccount().perSecond(), bots.maxKeys(), clock),
        new TokenBuckets(bots.perPrefix().burst(), bots.perPrefix().perSecond(), bots.maxKeys(), clock), api);
    PresaleCodes presale = new PresaleCodes(Hmac.fromBase64OrRandom(secret(bo, "bots.presale-key", "presale codes", "")));
    ProofOfWork pow = new ProofOfWork(Hmac.fromBase64OrRandom(secret(bo, "bots.pow-key", "proof-of-work challenges", "")), clock,
        bots.powChallengeTtl(), bots.powUsedMax());
    // The events this node knows are those whose manifests it heard: metrics are kept for those alone.
    Manifests[] manifestsHolder = new Manifests[1];
    // A starting node learns from the keeper which events exist, so that it can tell a made-up
    // id (404) from an event whose room it has not heard yet (503) without asking any room.
    Manifests.Catalogue catalogue = () -> AskPattern.<OnSaleKeeper.Command, OnSaleKeeper.Events>ask(
            keeper, OnSaleKeeper.ListEvents::new, askTimeout, system.scheduler())
        .thenCompose(e -> e.complete() ? CompletableFuture.completedFuture(e.eventIds())
            : CompletableFuture.failedFuture(new IllegalStateException("the keeper is still reading the journal")));
    Manifests manifests = new Manifests(system, manifestTopic, catalogue,
        eventId -> refs.rooms().apply(eventId).tell(new WaitingRoom.Tick()),
        eventId -> metrics.watch(eventId, manifestsHolder[0]));
    manifestsHolder[0] = manifests;
    // Ended sales' series go (a node's series must not grow with every event it ever sold).
    Duration endedRetention = bo.getDuration("metrics.ended-event-retention");
    system.scheduler().scheduleWithFixedDelay(Duration.ofSeconds(15), Duration.ofSeconds(15),
        () -> {
          metrics.sweepEnded(manifests.all(), manifests::known, System.currentTimeMillis(), endedRetention);
          metrics.bindPools();
        },
        system.executionContext());
    EdgeLine line = new EdgeLine(refs.rooms(), system.scheduler(), askTimeout);
    system.scheduler().scheduleWithFixedDelay(Duration.ofSeconds(1), Duration.ofSeconds(1), line::report, system.executionContext());
    Bulkhead bulkhead = new Bulkhead(bo.getInt("edge.per-event-in-flight"));

    AccountSettings accountSettings = AccountSettings.from(config);
    HashingPool hashing = new HashingPool(accountSettings.hashingThreads(), accountSettings.hashingQueue());
    system.getWhenTerminated().thenRun(hashing::close);
    // Attempts a second are a matter of real time, whatever clock the sale runs on.
    Clock wall = Clock.systemUTC();
    FanContext signInLimits = new FanContext(ClientPrefix.fromConfig(config),
        new TokenBuckets(accountSettings.perEmail().burst(), accountSettings.perEmail().perSecond(), accountSettings.maxKeys(), wall),
        new TokenBuckets(accountSettings.perPrefix().burst(), accountSettings.perPrefix().perSecond(), accountSettings.maxKeys(), wall),
        api);
    AccountRoutes accounts = new AccountRoutes(system, api, identityTokens,
        new PasswordHasher(accountSettings.pbkdf2Iterations()), hashing, signInLimits);
    // Managers' calls are few and chain several asks to entities that may be new (shards to
    // allocate on a fresh cluster): they wait longer than a fan's before answering 503.
    Api adminApi = new Api(system, bo.getDuration("http.admin-ask-timeout"), bo.getBytes("http.max-body-bytes"));
    AdminRoutes admin = new AdminRoutes(system, adminApi, token(bo, "admin-token", "Admin"), bo.getBytes("http.max-admin-body-bytes"),
        presale, refs.registries(), payments instanceof PaymentSimulator sim ? sim : null, manifests, readSide, metrics.live(),
        bo.getDuration("admin.live-interval"));
    metrics.gauge("boxoffice_admin_live_streams", "Managers' live dashboards streaming from this node",
        io.micrometer.core.instrument.Tags.empty(), admin::liveStreams);
    BulkheadDirectives bulkheads = new BulkheadDirectives(bulkhead, api, metrics);
    QueueRoutes queue = new QueueRoutes(api, bulkheads, identity, fans, manifests, queueTokens, line, pow, presale, refs.places(),
        refs.registries(), system.scheduler(), clock, tokenMaxAge);
    ShopRoutes shop = new ShopRoutes(api, bulkheads, identity,
        new QueueAdmission(api, fans, manifests, queueTokens, clock, tokenMaxAge), views, refs.inventories(), refs.carts(),
        system.scheduler(), bo.getDuration("http.retry-deadline"), metrics);
    TicketRoutes tickets = new TicketRoutes(api, identity, barcodes, token(bo, "gate-token", "Gate"),
        new CartOrders(refs.carts(), api.askTimeout(), system.scheduler()), refs.wallets(),
        refs.inventories(), system.scheduler());
    AllDirectives d = new AllDirectives() {};
    // The queue's paths come before the shop's: the shop checks admission for every path under an event.
    // /metrics is on the management port only (MetricsRoutes): per-event sales are not for fans.
    Route tree = api.seal(d.concat(accounts.routes(), admin.routes(), queue.routes(), shop.routes(), tickets.routes(),
        new OpenApiRoutes().routes()));
    PageRoutes pages = new PageRoutes(identityTokens, ClientPrefix.fromConfig(config), manifests, queueTokens, clock, tokenMaxAge,
        eventId -> views.seatMap(eventId).thenApply(v -> new PageRoutes.EventFacts(v.details().venueName(),
            v.details().prices(), v.details().maxSeatsPerAccount(), v.details().seats(), v.details().holdSeconds())));
    org.apache.pekko.japi.function.Function<HttpRequest, CompletionStage<HttpResponse>> treeHandler = tree.handler(system);
    // The page the whole crowd repeats skips the routing tree; everything else goes through it.
    return new BrowserGuards(api).around(request -> {
      long started = System.nanoTime();
      CompletionStage<HttpResponse> response;
      Optional<CompletionStage<HttpResponse>> page = pages.handle(request);
      if (page.isPresent()) {
        response = page.get();
      } else {
        try {
          response = treeHandler.apply(request);
        } catch (Exception e) {
          response = CompletableFuture.failedFuture(e);
        }
      }
      String route = RouteNames.of(request);
      return response.whenComplete((r, e) -> metrics.request(route, r == null ? 500 : r.status().intValue())
          .record(System.nanoTime() - started, TimeUnit.NANOSECONDS));
    });
  }

  /** HSTS, and redirects to {@code redirectPort}: the configured one, or the HTTPS listener's own when that is 0. */
  private static TransportSecurity transportSecurity(Config config, int boundHttpsPort) {
    ServerTls.Settings settings = ServerTls.Settings.fromConfig(config);
    int port = settings.redirectPort() != 0 ? settings.redirectPort() : boundHttpsPort;
    return new TransportSecurity(settings.strictTransportSecurity(), port, ClientPrefix.fromConfig(config));
  }

  /** The built-in payment simulator, its ledger in the database unless configured in memory. */
  private static PaymentSimulator simulator(ActorSystem<Void> system, Config config) {
    Config p = config.getConfig("boxoffice.payments");
    if (p.getString("ledger").equals("memory")) {
      return new PaymentSimulator(p.getDuration("slow-delay"), p.getDouble("failure-rate"));
    }
    Config db = config.getConfig(NodeConfig.DB + ".db");
    com.zaxxer.hikari.HikariConfig hikari = new com.zaxxer.hikari.HikariConfig();
    hikari.setJdbcUrl(db.getString("url"));
    hikari.setUsername(db.getString("user"));
    hikari.setPassword(db.getString("password"));
    hikari.setMaximumPoolSize(4);
    hikari.setConnectionTimeout(3000);
    hikari.setPoolName("payment-simulator");
    hikari.setRegisterMbeans(true);
    com.zaxxer.hikari.HikariDataSource source = new com.zaxxer.hikari.HikariDataSource(hikari);
    system.getWhenTerminated().thenRun(source::close);
    Executor blocking = system.dispatchers().lookup(DispatcherSelector.fromConfig("boxoffice.payment-dispatcher"));
    return new PaymentSimulator(p.getDuration("slow-delay"), p.getDouble("failure-rate"), new JdbcLedger(source), blocking);
  }

  private static String secret(Config bo, String key, String what) {
    return secret(bo, key, what, "secrets.");
  }

  /** A base64 key, configured or kept in the data dir ({@link NodeSecrets} has settled it before start). */
  private static String secret(Config bo, String key, String what, String section) {
    return bo.getString(section + key);
  }

  /** A bearer token, configured or kept in the data dir ({@link NodeSecrets} has settled it before start). */
  private static String token(Config bo, String key, String who) {
    return bo.getString("secrets." + key);
  }

  public void stop() {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      log.warn("actor system did not terminate in time", e);
    }
  }
}
