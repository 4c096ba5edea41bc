package io.boxoffice.app;

import com.typesafe.config.Config;
import io.boxoffice.common.Hmac;
import io.boxoffice.common.ReadSide;
import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ClientPrefix;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.TokenBuckets;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.OnSaleKeeper;
import io.boxoffice.queue.PresaleRegistry;
import io.boxoffice.queue.QueuePlace;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.queue.WaitingRoomSettings;
import io.boxoffice.queue.domain.BotSettings;
import io.boxoffice.queue.domain.PresaleCodes;
import io.boxoffice.queue.domain.ProofOfWork;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.pubsub.Topic;

/** The waiting room's wiring: its entities, and what each edge node keeps of the line (manifests, bot defenses). */
final class QueueModule {
  private QueueModule() {}

  /** {@code boxoffice.queue} and the queue entities' snapshot policies. */
  record Settings(Duration tick, Duration shoppingWindow, Duration arrivalWindow, Duration keeperInterval,
                  SnapshotPolicy roomSnapshots, SnapshotPolicy presaleSnapshots,
                  Duration pageFactsWait, Duration joinWait) {
    static Settings fromConfig(Config config) {
      Config q = config.getConfig("boxoffice.queue");
      Config snapshots = config.getConfig("boxoffice.snapshots");
      return new Settings(q.getDuration("tick"), q.getDuration("admission-window"), q.getDuration("arrival-window"),
          q.getDuration("keeper-interval"),
          SnapshotPolicy.fromConfig(snapshots, "waiting-room"), SnapshotPolicy.fromConfig(snapshots, "presale-registry"),
          q.getDuration("page-facts-wait"), q.getDuration("join-wait"));
    }
  }

  /** The rooms publish their manifests on {@code manifestTopic}; the keeper keeps scheduled rooms running. */
  record Entities(ActorRef<Topic.Command<WaitingRoom.Manifest>> manifestTopic, ActorRef<OnSaleKeeper.Command> keeper) {}

  static Entities start(ActorSystem<Void> system, Config config, Clock clock, Node.Refs refs, ReadSide readSide,
                        Duration askTimeout) {
    Settings s = Settings.fromConfig(config);
    ActorRef<Topic.Command<WaitingRoom.Manifest>> manifestTopic = system.systemActorOf(
        Topic.create(WaitingRoom.Manifest.class, Manifests.TOPIC), Manifests.TOPIC, Props.empty());
    WaitingRoom.init(system, new WaitingRoomSettings(clock, s.tick(), s.shoppingWindow(), s.arrivalWindow(), refs.inventories(),
        m -> manifestTopic.tell(Topic.publish(m)), askTimeout, s.roomSnapshots()));
    ActorRef<OnSaleKeeper.Command> keeper = OnSaleKeeper.init(system, readSide, s.keeperInterval(), refs.rooms());
    // The place's ask of the room ends a second before the join's ask of the place (QueueRoutes).
    QueuePlace.init(system, refs.rooms(), s.joinWait().minusSeconds(1));
    PresaleRegistry.init(system, s.presaleSnapshots());
    return new Entities(manifestTopic, keeper);
  }

  /**
   * The line at one edge node: manifests heard, per-fan limits, the
   * per-network budget of requests refused at the sign-in ({@code refusals}), presale codes and
   * challenges.
   */
  record Edge(Manifests manifests, FanContext fans, TokenBuckets refusals, PresaleCodes presale,
              ProofOfWork pow) {}

  /** {@code watch} is told of each event this node hears of (its metrics follow the manifest). */
  static Edge edge(ActorSystem<Void> system, Config config, Clock clock, Api api, Node.Refs refs, Entities entities,
                   Duration askTimeout, java.util.function.BiConsumer<String, Manifests> watch) {
    Settings s = Settings.fromConfig(config);
    Config bo = config.getConfig("boxoffice");
    BotSettings bots = BotSettings.from(config);
    FanContext fans = new FanContext(ClientPrefix.fromConfig(config),
        new TokenBuckets(bots.perAccount().burst(), bots.perAccount().perSecond(), bots.maxKeys(), clock),
        new TokenBuckets(bots.perPrefix().burst(), bots.perPrefix().perSecond(), bots.maxKeys(), clock), api);
    // Junk without a valid sign-in has a per-network budget of the same size, but its own: a flood
    // of it meets 429 without spending the budget of that network's signed-in fans.
    TokenBuckets refusals = new TokenBuckets(bots.perPrefix().burst(), bots.perPrefix().perSecond(), bots.maxKeys(), clock);
    PresaleCodes presale = new PresaleCodes(Hmac.fromBase64OrRandom(bo.getString("bots.presale-key")));
    ProofOfWork pow = new ProofOfWork(Hmac.fromBase64OrRandom(bo.getString("bots.pow-key")), clock,
        bots.powChallengeTtl(), bots.powUsedMax());
    // A starting node learns from the keeper which events exist, so that it can tell a made-up
    // id (404) from an event whose room it has not heard yet (503) without asking any room.
    // A node that missed a new event's manifest reads the list again; the event's creator tells
    // the keeper of it before answering, so that list holds it.
    Manifests.Catalogue catalogue = new Manifests.Catalogue() {
      @Override
      public CompletionStage<Set<String>> eventIds() {
        return AskPattern.<OnSaleKeeper.Command, OnSaleKeeper.Events>ask(
                entities.keeper(), OnSaleKeeper.ListEvents::new, askTimeout, system.scheduler())
            .thenCompose(e -> e.complete() ? CompletableFuture.completedFuture(e.eventIds())
                : CompletableFuture.failedFuture(new IllegalStateException("the keeper is still reading the journal")));
      }

      @Override
      public CompletionStage<Set<String>> lookUp(Set<String> eventIds) {
        return AskPattern.<OnSaleKeeper.Command, OnSaleKeeper.Events>ask(
                entities.keeper(), replyTo -> new OnSaleKeeper.LookUp(eventIds, replyTo), askTimeout, system.scheduler())
            .thenCompose(e -> e.complete() ? CompletableFuture.completedFuture(e.eventIds())
                : CompletableFuture.failedFuture(new IllegalStateException("the keeper is still reading the journal")));
      }

      @Override
      public CompletionStage<Void> announce(String eventId) {
        return AskPattern.<OnSaleKeeper.Command, OnSaleKeeper.Events>ask(entities.keeper(),
            replyTo -> new OnSaleKeeper.Announce(eventId, replyTo), askTimeout, system.scheduler()).thenApply(e -> null);
      }
    };
    Manifests manifests = new Manifests(system, entities.manifestTopic(), catalogue, Manifests.Settings.fromConfig(config),
        eventId -> refs.rooms().apply(eventId).tell(new WaitingRoom.Tick()), watch);
    return new Edge(manifests, fans, refusals, presale, pow);
  }
}
