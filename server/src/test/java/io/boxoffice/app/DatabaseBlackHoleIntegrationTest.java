package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import io.boxoffice.support.DbProxy;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.ScratchDatabase;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The database's address goes black (a failover that left the old primary's address dead, a
 * firewall dropping packets): every open connection hangs for good and new ones are never
 * answered. Fans holding seats meanwhile get a clean 503 with Retry-After within seconds, no
 * other 5xx and no hanging request; once the address answers again (new connections only: the
 * hung ones stay hung, as a dead primary's do) sales come back without a restart, which only
 * the driver's own timeouts make possible (boxoffice.db.postgres-parameters); nothing is held
 * or sold twice and the seat counts add up.
 */
class DatabaseBlackHoleIntegrationTest {
  static final Duration ANSWER_WITHIN = Duration.ofSeconds(15);
  static final int SEATS = 600;
  /** Events writing at once: enough that every connection of the inventory's pool is busy when the address goes black. */
  static final int EVENTS = 8;
  static final int FANS = 16;

  @Test
  void aBlackHoledDatabaseGivesClean503sAndSalesComeBackWhenItAnswersAgain() throws Exception {
    String id = UUID.randomUUID().toString().substring(0, 8);
    List<String> events = new ArrayList<>();
    for (int e = 0; e < EVENTS; e++) events.add("bh" + e + "-" + id);
    int proxyPort = TestCluster.freePort();
    try (ScratchDatabase db = ScratchDatabase.create(ScratchDatabase.Kind.POSTGRES);
         DbProxy proxy = new DbProxy(new InetSocketAddress("127.0.0.1", proxyPort), new InetSocketAddress("127.0.0.1", 5432))) {
      proxy.restore();
      String proxied = "jdbc:postgresql://127.0.0.1:" + proxyPort + "/" + db.name();
      Config config = TestNode.config(proxied, db.dir().toString());
      Node node = Node.start(config, new Node.Options(Clock.systemUTC(), TestNode.payments()));
      ExecutorService crowd = Executors.newFixedThreadPool(FANS);
      try {
        HttpFan admin = new HttpFan(node.httpPort());
        for (String eventId : events) {
          TestCluster.createEvent(admin, "bhv-" + id, SEATS, eventId, "\"maxSeatsPerAccount\":50,");
        }
        AtomicLong accounts = new AtomicLong();

        // Each fan holds one seat after another, releasing nothing; every answer is kept.
        Map<String, String> holder = new ConcurrentHashMap<>();
        List<String> doubleHeld = new CopyOnWriteArrayList<>();
        List<String> unclean = new CopyOnWriteArrayList<>();
        List<Long> slow = new CopyOnWriteArrayList<>();
        AtomicLong last503 = new AtomicLong();
        AtomicLong first503 = new AtomicLong();
        AtomicLong lastOk = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        for (int i = 0; i < FANS; i++) {
          String eventId = events.get(i % EVENTS);
          crowd.submit(() -> {
            HttpFan fan = null;
            String who = null;
            while (running.get()) {
              if (fan == null) {
                // A fan whose account reached the event's cap is followed by a new one.
                who = "bh-" + accounts.incrementAndGet() + "-" + id + "@example.com";
                fan = new HttpFan(node.httpPort());
                fan.signUp(who);
              }
              long started = System.nanoTime();
              HttpFan.Reply r;
              try {
                r = fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":1}}");
              } catch (RuntimeException noAnswer) {
                unclean.add("no answer: " + noAnswer);
                continue;
              }
              long now = System.nanoTime();
              if (now - started > ANSWER_WITHIN.toNanos()) slow.add((now - started) / 1_000_000);
              if (r.status() == 200) {
                lastOk.set(now);
                for (JsonNode seat : r.json().get("seats")) {
                  String seatId = eventId + "/" + seat.get("seatId").asText();
                  String other = holder.putIfAbsent(seatId, who);
                  if (other != null && !other.equals(who)) doubleHeld.add(seatId);
                }
              } else if (r.status() == 503) {
                first503.compareAndSet(0, now);
                last503.set(now);
                if (r.headers().firstValue("Retry-After").isEmpty()) unclean.add("503 without Retry-After");
              } else if (r.status() == 422) {
                fan = null;
              } else if (r.status() >= 500 || r.status() == 0) {
                unclean.add(r.status() + " " + r.body());
              }
              // A fan's pace: four holds a second.
              Awaitility.await().pollDelay(Duration.ofMillis(250)).until(() -> true);
            }
            return null;
          });
        }
        Awaitility.await("holds before the fault").atMost(Duration.ofSeconds(60)).until(() -> holder.size() >= 4 * FANS);

        long blackHoled = System.nanoTime();
        proxy.blackHole();
        Awaitility.await("a 503 while the database is black-holed").atMost(ANSWER_WITHIN).until(() -> first503.get() > blackHoled);
        double firstRefusal = (first503.get() - blackHoled) / 1e9;
        // Longer than the driver's socket timeout: connections taken before the fault must be given up.
        Awaitility.await().atMost(Duration.ofSeconds(21)).pollDelay(Duration.ofSeconds(20)).until(() -> true);

        long healed = System.nanoTime();
        proxy.restore();
        Awaitility.await("holds succeed again once the database answers, without a restart")
            .atMost(Duration.ofSeconds(90)).until(() -> lastOk.get() > healed);
        double recovered = (lastOk.get() - healed) / 1e9;
        Awaitility.await("some more holds after the recovery").atMost(Duration.ofSeconds(30))
            .until(() -> lastOk.get() > healed && last503.get() < lastOk.get() - TimeUnit.SECONDS.toNanos(2));
        running.set(false);
        crowd.shutdown();
        assertTrue(crowd.awaitTermination(30, TimeUnit.SECONDS));
        System.out.printf("black hole: first 503 after %.1f s; holds again %.1f s after the heal; %d seats held%n",
            firstRefusal, recovered, holder.size());

        assertEquals(List.of(), unclean, "only clean 503s (with Retry-After), no other 5xx");
        assertEquals(List.of(), slow, "no request waited longer than " + ANSWER_WITHIN + " (ms)");
        assertEquals(List.of(), doubleHeld, "no seat told held to two fans");
        for (String eventId : events) {
          JsonNode seats = admin.admin("GET", "/admin/events/" + eventId + "/stats", null).json().get("seats");
          int available = seats.get("available").asInt();
          int held = seats.get("held").asInt();
          int sold = seats.get("sold").asInt();
          long told = holder.keySet().stream().filter(k -> k.startsWith(eventId + "/")).count();
          assertEquals(SEATS, available + held + sold, eventId + ": available + held + sold = capacity: " + seats);
          assertTrue(held >= told, eventId + ": every hold a fan was told of is held: told " + told + ", " + seats);
        }
      } finally {
        crowd.shutdownNow();
        node.stop();
      }
    }
  }
}
