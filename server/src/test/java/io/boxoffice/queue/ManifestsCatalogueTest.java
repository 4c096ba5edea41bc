package io.boxoffice.queue;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.edge.ApiError;
import io.boxoffice.support.TestConfigs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.pubsub.Topic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How an edge node tells an event it has not heard of yet (503, try again) from one that does
 * not exist (404) once its first read of the catalogue is done: it reads the catalogue again on
 * a miss, at most once a second however many misses there are.
 */
class ManifestsCatalogueTest {
  /** One per test: a node has one manifest listener. */
  ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());

  @AfterEach
  void stop() {
    testKit.shutdownTestKit();
  }

  /** The keeper's list, in memory: what it answers and how often it was asked. */
  static final class KeeperList implements Manifests.Catalogue {
    final Set<String> ids = ConcurrentHashMap.newKeySet();
    final AtomicInteger reads = new AtomicInteger();

    @Override
    public CompletionStage<Set<String>> eventIds() {
      reads.incrementAndGet();
      return CompletableFuture.completedFuture(Set.copyOf(ids));
    }

    final AtomicInteger lookUps = new AtomicInteger();

    final AtomicInteger largestQuestion = new AtomicInteger();

    @Override
    public CompletionStage<Set<String>> lookUp(Set<String> eventIds) {
      lookUps.incrementAndGet();
      largestQuestion.accumulateAndGet(eventIds.size(), Math::max);
      // Answered a moment later, as an ask of the keeper on another node is.
      return CompletableFuture.supplyAsync(() -> {
        Set<String> found = new java.util.HashSet<>(eventIds);
        found.retainAll(ids);
        return found;
      }, CompletableFuture.delayedExecutor(5, java.util.concurrent.TimeUnit.MILLISECONDS));
    }

    @Override
    public CompletionStage<Void> announce(String eventId) {
      ids.add(eventId);
      return CompletableFuture.completedFuture(null);
    }
  }

  Manifests manifests(KeeperList keeper, List<String> woken) {
    var topic = testKit.spawn(Topic.create(WaitingRoom.Manifest.class, "t-" + System.nanoTime()));
    Manifests m = new Manifests(testKit.system(), topic, keeper,
        Manifests.Settings.fromConfig(testKit.system().settings().config()), woken::add, (id, self) -> {});
    // The first read is done: an id nobody created is a plain 404.
    await().atMost(Duration.ofSeconds(10)).until(() -> status(m, "nobody-made-this") == 404);
    return m;
  }

  static int status(Manifests m, String eventId) {
    try {
      m.current(eventId).toCompletableFuture().join();
      return 200;
    } catch (CompletionException e) {
      return ((ApiError) e.getCause()).status();
    }
  }

  @Test
  void anEventAnnouncedAfterTheFirstReadIsStartingNotUnknownAndIsServedOnceHeard() {
    KeeperList keeper = new KeeperList();
    List<String> woken = new CopyOnWriteArrayList<>();
    Manifests m = manifests(keeper, woken);

    m.announce("brand-new").toCompletableFuture().join();
    CompletableFuture<WaitingRoom.Manifest> asked = m.current("brand-new").toCompletableFuture();
    await().atMost(Duration.ofSeconds(5)).until(() -> woken.contains("brand-new"));
    m.remember(manifest("brand-new"));
    assertEquals("brand-new", asked.join().eventId(), "served once its room is heard");
    assertEquals(404, status(m, "still-nobody"), "made-up ids stay unknown");
  }

  @Test
  void aFloodOfMadeUpIdsAsksTheKeeperInBatchesNotOncePerId() {
    KeeperList keeper = new KeeperList();
    Manifests m = manifests(keeper, new ArrayList<>());
    int before = keeper.lookUps.get();
    List<CompletableFuture<WaitingRoom.Manifest>> flood = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) flood.add(m.current("junk-" + i).toCompletableFuture());
    for (CompletableFuture<WaitingRoom.Manifest> f : flood) {
      try {
        f.join();
      } catch (CompletionException e) {
        assertEquals(404, ((ApiError) e.getCause()).status());
      }
    }
    int asks = keeper.lookUps.get() - before;
    assertTrue(asks <= 20, asks + " questions to the keeper for 2,000 misses");
    assertTrue(keeper.largestQuestion.get() <= Manifests.LOOK_UP_BATCH,
        "a question of " + keeper.largestQuestion.get() + " ids: too large a message for remoting");
  }

  @Test
  void aLoneMissIsAnsweredWithoutWaiting() {
    KeeperList keeper = new KeeperList();
    Manifests m = manifests(keeper, new ArrayList<>());
    long started = System.nanoTime();
    for (int i = 0; i < 50; i++) assertEquals(404, status(m, "typo-" + i));
    long millis = (System.nanoTime() - started) / 1_000_000;
    assertTrue(millis < 5_000, "50 misses one after another took " + millis + " ms");
  }

  /** What {@link Manifests#exists} answers: 200 for an event that exists, else the error's status. */
  static int exists(Manifests m, String eventId) {
    try {
      m.exists(eventId).toCompletableFuture().join();
      return 200;
    } catch (CompletionException e) {
      return ((ApiError) e.getCause()).status();
    }
  }

  @Test
  void existsTellsCreatedEventsFromMadeUpOnesWithoutWakingAnyRoom() {
    KeeperList keeper = new KeeperList();
    keeper.ids.add("read-at-start");
    List<String> woken = new CopyOnWriteArrayList<>();
    Manifests m = manifests(keeper, woken);
    m.announce("announced-later").toCompletableFuture().join();
    m.remember(manifest("heard"));

    assertEquals(200, exists(m, "heard"));
    assertEquals(200, exists(m, "read-at-start"));
    assertEquals(200, exists(m, "announced-later"), "a miss asks the keeper");
    assertEquals(404, exists(m, "made-up"));
    assertEquals(List.of(), woken, "an order's look-up wakes no room");
  }

  static WaitingRoom.Manifest manifest(String eventId) {
    return new WaitingRoom.Manifest(eventId, "scheduled", 0, 600, 100, 0, 0, 50, 0, 0, System.currentTimeMillis(), 0, 0, "", 0,
        false, 0, false, "Show", "v", false, new long[0], new long[0]);
  }
}
