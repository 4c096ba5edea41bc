package io.boxoffice.app;

import static io.boxoffice.support.TestCluster.hosts;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A rolling restart's step: the node hosting a busy event is stopped as SIGTERM stops it
 * (coordinated shutdown: it leaves the cluster and hands its shards over). Fans buying through
 * another node meanwhile get no error at all, and a hold made before the hand-over is bought after it.
 */
class RollingRestartIntegrationTest {
  /** Answers (holds and checkouts, whatever their status) awaited before the host leaves, and after it has gone. */
  static final int ANSWERS_BEFORE = 60;
  static final int ANSWERS_AFTER = 120;

  final TestCluster cluster = new TestCluster(Clock.systemUTC());

  @AfterEach
  void stopAll() {
    cluster.close();
  }

  @Test
  void aLeavingNodeHandsItsEventOverWithoutAnErrorReachingFans() throws Exception {
    List<Node> nodes = cluster.startThree("");
    String id = UUID.randomUUID().toString().substring(0, 8);
    String eventId = "rr-" + id;
    TestCluster.createEvent(new HttpFan(nodes.get(0).httpPort()), "rv-" + id, 5000, eventId, "\"maxSeatsPerAccount\":50,");
    Node host = nodes.stream().filter(n -> hosts(n, eventId)).findFirst().orElseThrow();
    Node front = nodes.stream().filter(n -> n != host).findFirst().orElseThrow();

    // The admin's "open" answers once its own node has heard the event's room; the front node
    // hears it from the topic a moment later (until then it answers an unknown event 404).
    Eventually.reply("the front node knows the event", Duration.ofSeconds(20), Duration.ofMillis(100),
        () -> new HttpFan(front.httpPort()).send("GET", "/api/events/" + eventId + "/summary", null), r -> r.status() == 200);
    HttpFan holder = new HttpFan(front.httpPort());
    holder.signUp("rr-holder-" + id + "@example.com");
    assertEquals(200, holder.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}").status());
    // Six buyers, each with four accounts that it changes when one has nearly its 50 seats.
    List<List<HttpFan>> buyers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      List<HttpFan> accounts = new ArrayList<>();
      for (int j = 0; j < 4; j++) {
        HttpFan fan = new HttpFan(front.httpPort());
        fan.signUp("rr-" + i + "-" + j + "-" + id + "@example.com");
        accounts.add(fan);
      }
      buyers.add(accounts);
    }

    // Fans hold and buy, one seat at a time, before, during and after the host leaves.
    Map<String, LongAdder> answers = new ConcurrentHashMap<>();
    AtomicBoolean leaving = new AtomicBoolean();
    AtomicInteger salesAfterLeave = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(buyers.size());
    List<Future<?>> running = new ArrayList<>();
    for (List<HttpFan> accounts : buyers) {
      running.add(pool.submit(() -> {
        int n = 0;
        while (!stop.get() && n < 45 * accounts.size()) {
          HttpFan fan = accounts.get(n / 45);
          HttpFan.Reply hold = fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":1}}");
          answers.computeIfAbsent("hold " + hold.status() + (hold.status() == 200 ? "" : " " + hold.body()),
              k -> new LongAdder()).increment();
          if (hold.status() != 200) continue;
          HttpFan.Reply order = fan.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
              "Idempotency-Key", "k" + n++);
          answers.computeIfAbsent("checkout " + order.status() + (order.status() == 200 ? "" : " " + order.body()),
              k -> new LongAdder()).increment();
          if (order.status() == 200 && leaving.get()) salesAfterLeave.incrementAndGet();
        }
        return null;
      }));
    }
    // The host leaves under load, and the fans go on until they have had answers after it is gone.
    await("the fans' first " + ANSWERS_BEFORE + " answers").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
        .failFast("a buyer stopped", () -> running.stream().anyMatch(Future::isDone))
        .until(() -> answered(answers), n -> n >= ANSWERS_BEFORE);
    leaving.set(true);
    host.system().terminate();
    host.system().getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
    long whenGone = answered(answers);
    await("the fans' next " + ANSWERS_AFTER + " answers, once the host had gone").atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .failFast("a buyer stopped", () -> running.stream().anyMatch(Future::isDone))
        .until(() -> answered(answers), n -> n >= whenGone + ANSWERS_AFTER);
    stop.set(true);
    for (Future<?> f : running) f.get(60, TimeUnit.SECONDS);
    pool.shutdown();

    Map<String, Long> seen = new java.util.TreeMap<>();
    answers.forEach((k, v) -> seen.put(k, v.sum()));
    System.out.println("answers during the hand-over: " + seen);
    assertTrue(seen.keySet().stream().allMatch(k -> k.equals("hold 200") || k.equals("checkout 200")),
        "every answer was a success: " + seen);
    assertTrue(salesAfterLeave.get() > 0, "sales went on once the host had left");
    assertTrue(nodes.stream().filter(n -> n != host).anyMatch(n -> hosts(n, eventId)), "the event lives on a survivor");

    HttpFan.Reply order = holder.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", "before");
    assertEquals(200, order.status(), "the hold made before the hand-over is bought after it: " + order.body());
  }

  static Set<String> shardIds(Node node) {
    return TestCluster.inventoryShards(node).stream().map(ShardRegion.ShardState::shardId).collect(Collectors.toSet());
  }

  static long answered(Map<String, LongAdder> answers) {
    return answers.values().stream().mapToLong(LongAdder::sum).sum();
  }

  @Test
  void nodesJoiningAgainDoNotPullEventsOver() throws Exception {
    // Rebalancing looks every second here (10 s by default): the default strategy would move
    // some of the first node's shards to the newcomers within a round or two.
    String fast = "pekko.cluster.sharding.rebalance-interval = 1s\n";
    Node first = cluster.startFirst(fast);
    String id = UUID.randomUUID().toString().substring(0, 8);
    List<String> events = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String eventId = "rj-" + i + "-" + id;
      TestCluster.createEvent(new HttpFan(first.httpPort()), "rj-" + id, 200, eventId, "");
      events.add(eventId);
    }
    // Alone, the first node has lost no shard yet. Other tests' events share the database and
    // may run here too: a round moves a few shards of many, so every shard is watched, not only ours.
    Set<String> alone = shardIds(first);
    Node second = cluster.startNext(fast);
    Node third = cluster.startNext(fast);
    for (Node n : List.of(first, second, third)) TestCluster.awaitUp(n, 3);
    // Nothing to wait for: the check is that, through five rebalance rounds, nothing moves.
    await("every event staying on the first node through five rebalance rounds").during(Duration.ofSeconds(5))
        .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(500))
        .untilAsserted(() -> {
          Set<String> moved = new TreeSet<>(alone);
          moved.removeAll(shardIds(first));
          assertTrue(moved.isEmpty(), "shards pulled off the first node: " + moved);
          for (String eventId : events) {
            assertTrue(hosts(first, eventId) && !hosts(second, eventId) && !hosts(third, eventId), eventId + " stays where it runs");
          }
        });
  }
}
