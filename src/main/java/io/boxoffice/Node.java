package io.boxoffice;

import com.typesafe.config.Config;
import io.boxoffice.accounts.Account;
import io.boxoffice.accounts.AccountRoutes;
import io.boxoffice.accounts.IdentityToken;
import io.boxoffice.accounts.PasswordHasher;
import io.boxoffice.admin.AdminRoutes;
import io.boxoffice.cart.Cart;
import io.boxoffice.cart.CartSettings;
import io.boxoffice.cart.CheckoutRecovery;
import io.boxoffice.cart.ShopRoutes;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.Bulkhead;
import io.boxoffice.edge.BulkheadDirectives;
import io.boxoffice.edge.EventViews;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.ShopAdmission;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.inventory.InventorySettings;
import io.boxoffice.edge.Manifests;
import io.boxoffice.ops.Hmac;
import io.boxoffice.queue.OnSaleKeeper;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.queue.WaitingRoomSettings;
import io.boxoffice.ops.NodeConfig;
import io.boxoffice.ops.Schema;
import io.boxoffice.payment.PaymentGateway;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.tickets.Barcode;
import io.boxoffice.tickets.TicketRoutes;
import io.boxoffice.tickets.TicketWallet;
import io.boxoffice.venue.Venue;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.pubsub.Topic;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One boxoffice node: the actor system, its sharded entities, and the HTTP API. */
public final class Node {
  private static final Logger log = LoggerFactory.getLogger(Node.class);

  /** What a caller may choose besides configuration: the clock and the payment processor. */
  public record Options(Clock clock, PaymentGateway payments) {}

  private final ActorSystem<Void> system;
  private final ServerBinding binding;
  private final PaymentGateway payments;

  private Node(ActorSystem<Void> system, ServerBinding binding, PaymentGateway payments) {
    this.system = system;
    this.binding = binding;
    this.payments = payments;
  }

  public ActorSystem<Void> system() { return system; }
  public int httpPort() { return binding.localAddress().getPort(); }
  public PaymentGateway payments() { return payments; }

  /** Starts a node from already loaded configuration (see {@link NodeConfig#resolve}). */
  public static Node start(Config base, Options options) throws Exception {
    Config config = NodeConfig.resolve(base);
    Schema.ensure(config);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "boxoffice", config);
    try {
      if (!NodeConfig.hasSeedNodes(config)) {
        Cluster cluster = Cluster.get(system);
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
      }
      Config bo = config.getConfig("boxoffice");
      Clock clock = options.clock();
      PaymentGateway payments = options.payments() != null ? options.payments()
          : new PaymentSimulator(bo.getDuration("payments.slow-delay"), bo.getDouble("payments.failure-rate"));

      ClusterSharding sharding = ClusterSharding.get(system);
      Function<String, RecipientRef<EventInventory.Command>> inventories =
          id -> sharding.entityRefFor(EventInventory.ENTITY_TYPE_KEY, id);
      Function<String, RecipientRef<TicketWallet.Command>> wallets =
          id -> sharding.entityRefFor(TicketWallet.ENTITY_TYPE_KEY, id);
      Function<String, RecipientRef<Cart.Command>> carts = id -> sharding.entityRefFor(Cart.ENTITY_TYPE_KEY, id);

      Duration askTimeout = bo.getDuration("http.ask-timeout");
      Barcode barcodes = new Barcode(Hmac.fromBase64OrRandom(secret(bo, "ticket-key", "barcodes")));
      InventorySettings inventorySettings = InventorySettings.fromConfig(config, clock);
      EventInventory.init(system, inventorySettings);
      Cart.init(system, new CartSettings(clock, payments, barcodes, inventories, wallets, askTimeout,
          Duration.ofMillis(500), Duration.ofSeconds(30)));
      // Journal write times are wall-clock times, so the sweep measures staleness on the wall clock.
      CheckoutRecovery.init(system, Clock.systemUTC(), bo.getDuration("checkout-recovery.interval"),
          bo.getDuration("checkout-recovery.stalled-after"));
      ActorRef<Topic.Command<WaitingRoom.Manifest>> manifestTopic = system.systemActorOf(
          Topic.create(WaitingRoom.Manifest.class, Manifests.TOPIC), Manifests.TOPIC, Props.empty());
      WaitingRoom.init(system, new WaitingRoomSettings(clock, bo.getDuration("queue.tick"), bo.getDuration("queue.admission-window"),
          inventories, m -> manifestTopic.tell(Topic.publish(m)), askTimeout));
      OnSaleKeeper.init(system, bo.getDuration("queue.keeper-interval"));
      TicketWallet.init(system);
      Account.init(system);
      Venue.init(system);

      Route routes = routes(system, bo, clock, askTimeout, barcodes, inventorySettings, inventories, wallets, carts);
      ServerBinding binding = Http.get(system)
          .newServerAt(bo.getString("http.interface"), bo.getInt("http.port"))
          .bind(routes)
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      binding.addToCoordinatedShutdown(Duration.ofSeconds(10), system);
      log.info("boxoffice listening on {}", binding.localAddress());
      return new Node(system, binding, payments);
    } catch (Exception e) {
      system.terminate();
      throw e;
    }
  }

  private static Route routes(ActorSystem<Void> system, Config bo, Clock clock, Duration askTimeout, Barcode barcodes,
                              InventorySettings inventorySettings,
                              Function<String, RecipientRef<EventInventory.Command>> inventories,
                              Function<String, RecipientRef<TicketWallet.Command>> wallets,
                              Function<String, RecipientRef<Cart.Command>> carts) {
    Api api = new Api(system, askTimeout, bo.getBytes("http.max-body-bytes"));
    IdentityToken identityTokens = new IdentityToken(Hmac.fromBase64OrRandom(secret(bo, "identity-key", "sign-in cookies")),
        clock, Duration.ofHours(bo.getInt("accounts.session-hours")));
    Identity identity = new Identity(identityTokens, api);
    Executor blocking = system.dispatchers().lookup(DispatcherSelector.fromConfig("boxoffice.blocking-dispatcher"));
    EventViews views = new EventViews(inventories, system.scheduler(), api.mapper(), clock, askTimeout,
        inventorySettings.availabilityInterval());

    AccountRoutes accounts = new AccountRoutes(system, api, identityTokens,
        new PasswordHasher(bo.getInt("accounts.pbkdf2-iterations")), blocking);
    AdminRoutes admin = new AdminRoutes(system, api, token(bo, "admin-token", "Admin"), bo.getBytes("http.max-admin-body-bytes"));
    ShopRoutes shop = new ShopRoutes(api, new BulkheadDirectives(new Bulkhead(bo.getInt("edge.per-event-in-flight")), api), identity,
        ShopAdmission.everyone(), views, inventories, carts, system.scheduler());
    TicketRoutes tickets = new TicketRoutes(api, identity, barcodes, token(bo, "gate-token", "Gate"), carts, wallets,
        inventories, system.scheduler());
    AllDirectives d = new AllDirectives() {};
    return api.seal(d.concat(accounts.routes(), admin.routes(), shop.routes(), tickets.routes()));
  }

  private static String secret(Config bo, String key, String what) {
    String value = bo.getString("secrets." + key);
    if (value.isBlank()) {
      log.warn("boxoffice.secrets.{} is not set: {} are signed with a random key and do not survive a restart", key, what);
    }
    return value;
  }

  /** A configured bearer token, or one made up now and printed once (never a fixed default). */
  private static String token(Config bo, String key, String who) {
    String value = bo.getString("secrets." + key);
    if (!value.isBlank()) return value;
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    String made = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    System.out.println(who + " token (generated because BOXOFFICE_" + key.toUpperCase().replace('-', '_') + " is not set): " + made);
    return made;
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
