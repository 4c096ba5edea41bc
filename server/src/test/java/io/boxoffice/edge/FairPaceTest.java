package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class FairPaceTest {

  private static final long WINDOW = 100_000_000L; // 100 ms in nanoseconds
  private static final Bulkhead.Priority READ = Bulkhead.Priority.READ;

  /**
   * A pace of 100-ms windows that halves a heavy event, grows 10% per calm window, floor 10/s,
   * busy from 5% of the node, a turn at most 1 s away.
   */
  private static FairPace pace() {
    return new FairPace(Set.of("hot", "quiet")::contains, 100, 0.5, 1.1, 10, 0.05, 1_000);
  }

  /** {@code n} requests of the event spread over the window that starts at {@code start}; how many were not refused. */
  private static int send(FairPace p, String eventId, Bulkhead.Priority priority, int n, long start) {
    int passed = 0;
    for (int i = 0; i < n; i++) if (p.delay(eventId, priority, start + WINDOW * i / n) != FairPace.REFUSED) passed++;
    return passed;
  }

  @Test
  void aSaturatedNodePacesTheEventAboveTheFairShareAndNeverTheQuietOne() {
    FairPace p = pace();
    long t = 0;
    // 1,000 reads/s of the hot event, 100 holds/s of the quiet one: the fair share is 550/s.
    assertEquals(100, send(p, "hot", READ, 100, t));
    assertEquals(10, send(p, "quiet", Bulkhead.Priority.HOLD, 10, t));
    t += WINDOW;
    p.tick(true, t);
    assertEquals(500, p.pace("hot"), 1e-9, "half of its rate");
    assertEquals(0, p.pace("quiet"), "below the fair share: never paced");

    // Paced, the hot event's reads go one per 2 ms (500/s), each waiting for its turn; the
    // quiet event's go at once.
    long lastWait = 0;
    for (int i = 0; i < 100; i++) {
      long at = t + i * 1_000_000L;
      long wait = p.delay("hot", READ, at);
      assertEquals(i * 1_000_000L, wait, "read " + i + " goes 2 ms after the one before");
      lastWait = wait;
      if (i % 10 == 0) assertEquals(0, p.delay("quiet", Bulkhead.Priority.HOLD, at), "the quiet event is untouched");
    }
    assertEquals(99_000_000L, lastWait);
    t += WINDOW;
    p.tick(true, t);
    assertEquals(250, p.pace("hot"), 1e-9, "still saturated: half again");
  }

  @Test
  void aPacedEventsCheckoutsAlwaysPass() {
    FairPace p = pace();
    send(p, "hot", READ, 100, 0);
    send(p, "quiet", READ, 10, 0);
    p.tick(true, WINDOW);
    for (int i = 0; i < 1_000; i++) assertEquals(0, p.delay("hot", Bulkhead.Priority.CHECKOUT, WINDOW));
    assertEquals(0, p.delay("hot", Bulkhead.Priority.HOLD, WINDOW), "the first hold goes at once");
    assertEquals(2_000_000L, p.delay("hot", Bulkhead.Priority.HOLD, WINDOW), "the next 1/500 s later");
  }

  @Test
  void anEventAloneIsNeverPacedHoweverSaturatedTheNode() {
    FairPace p = pace();
    long t = 0;
    for (int w = 0; w < 5; w++) {
      assertEquals(1_000, send(p, "hot", READ, 1_000, t));
      t += WINDOW;
      p.tick(true, t);
      assertEquals(0, p.pace("hot"));
    }
  }

  @Test
  void aCalmNodeNeverPaces() {
    FairPace p = pace();
    send(p, "hot", READ, 1_000, 0);
    send(p, "quiet", READ, 10, 0);
    p.tick(false, WINDOW);
    assertEquals(0, p.pace("hot"));
    assertEquals(0, p.paced());
  }

  @Test
  void aPaceNeverFallsBelowTheFloor() {
    FairPace p = pace();
    long t = 0;
    for (int w = 0; w < 30; w++) {
      send(p, "hot", READ, 100, t);
      send(p, "quiet", READ, 10, t);
      t += WINDOW;
      p.tick(true, t);
    }
    assertEquals(10, p.pace("hot"), 1e-9);
    assertEquals(0, p.pace("quiet"));
  }

  @Test
  void aPaceGrowsWhileTheNodeIsCalmAndGoesOnceTheEventIsAlone() {
    FairPace p = pace();
    long t = 0;
    send(p, "hot", READ, 100, t);
    send(p, "quiet", READ, 10, t);
    t += WINDOW;
    p.tick(true, t);
    assertEquals(500, p.pace("hot"), 1e-9);
    // Calm, both still busy: the pace grows 10% a window and stays.
    for (int w = 0; w < FairPace.CALM_WINDOWS + 5; w++) {
      send(p, "hot", READ, 10, t);
      send(p, "quiet", READ, 10, t);
      t += WINDOW;
      p.tick(false, t);
    }
    assertEquals(500 * Math.pow(1.1, FairPace.CALM_WINDOWS + 5), p.pace("hot"), 1e-6);
    // The quiet event's fans leave: it stops counting as busy within ACTIVE_WINDOWS, and
    // CALM_WINDOWS windows alone later the pace goes.
    int windows = 0;
    while (p.pace("hot") > 0 && windows < 100) {
      send(p, "hot", READ, 10, t);
      t += WINDOW;
      p.tick(false, t);
      windows++;
    }
    assertTrue(windows >= FairPace.CALM_WINDOWS && windows <= FairPace.CALM_WINDOWS + FairPace.ACTIVE_WINDOWS + 1,
        "the pace went after " + windows + " windows");
  }

  @Test
  void aPaceGoesOnlyAfterItsCalmWindowsAloneInARow() {
    FairPace p = pace();
    long t = 0;
    send(p, "hot", READ, 100, t);
    send(p, "quiet", READ, 10, t);
    t += WINDOW;
    p.tick(true, t);
    // Alone and calm for all but five of its calm windows (the quiet event stops counting as busy first).
    int alone = 0;
    while (alone < FairPace.CALM_WINDOWS - 5) {
      send(p, "hot", READ, 10, t);
      t += WINDOW;
      p.tick(false, t);
      if (t > WINDOW * (FairPace.ACTIVE_WINDOWS + 2)) alone++;
    }
    // The quiet event's fans come back once: busy again for a while, then gone.
    send(p, "quiet", READ, 10, t);
    for (int w = 0; w < FairPace.ACTIVE_WINDOWS + 1 + 5; w++) {
      send(p, "hot", READ, 10, t);
      t += WINDOW;
      p.tick(false, t);
    }
    assertTrue(p.pace("hot") > 0, "the calm windows before the neighbour came back do not count");
  }

  @Test
  void aQuietNeighbourIsNotPacedWhileThePacedFloodWaitsItsRetryAfter() {
    FairPace p = pace();
    long t = 0;
    send(p, "hot", READ, 300, t);
    send(p, "quiet", Bulkhead.Priority.HOLD, 150, t);
    t += WINDOW;
    p.tick(true, t);
    assertTrue(p.pace("hot") > 0);
    // The flood's refused fans wait their Retry-After: for two seconds it asks far less than the quiet event.
    for (int w = 0; w < 20; w++) {
      send(p, "hot", READ, 2, t);
      assertEquals(150, send(p, "quiet", Bulkhead.Priority.HOLD, 150, t), "window " + w);
      t += WINDOW;
      p.tick(true, t);
      assertEquals(0, p.pace("quiet"), "window " + w);
    }
  }

  @Test
  void anEventWhoseFansLeftNoLongerMakesTheOtherShare() {
    FairPace p = pace();
    long t = 0;
    send(p, "hot", READ, 300, t);
    send(p, "quiet", READ, 100, t);
    t += WINDOW;
    p.tick(false, t);
    // The quiet event's fans are gone; the hot event asks on, the node saturated.
    for (int w = 0; w < FairPace.ACTIVE_WINDOWS + 1; w++) {
      send(p, "hot", READ, 300, t);
      t += WINDOW;
      p.tick(false, t);
    }
    send(p, "hot", READ, 300, t);
    t += WINDOW;
    p.tick(true, t);
    assertEquals(0, p.pace("hot"), "alone: nothing to share");
  }

  @Test
  void madeUpIdsAreNeverPacedNorCountedAsBusy() {
    FairPace p = pace();
    send(p, "hot", READ, 100, 0);
    for (int i = 0; i < 500; i++) assertEquals(0, p.delay("made-up-" + i, READ, 0));
    p.tick(true, WINDOW);
    assertEquals(0, p.pace("hot"), "the made-up ids did not make the hot event share");
    assertEquals(1, p.events(), "nor do they get a lane");
  }

  @Test
  void idleEventsAreForgotten() {
    FairPace p = pace();
    send(p, "hot", READ, 10, 0);
    long t = 0;
    for (int w = 0; w < 25; w++) {
      t += WINDOW;
      p.tick(false, t);
    }
    assertEquals(0, p.events());
  }

  @Test
  void theLagOfABlockedDispatcherSaysSaturatedAndOfAFreeOneCalm() throws Exception {
    ExecutorService dispatcher = Executors.newSingleThreadExecutor();
    AtomicBoolean lastSaturated = new AtomicBoolean();
    AtomicInteger saturatedWindows = new AtomicInteger();
    AtomicInteger calmWindows = new AtomicInteger();
    try (DispatcherLag lag = new DispatcherLag(dispatcher, 1, 20, 5.0, (saturated, mean, now) -> {
      lastSaturated.set(saturated);
      (saturated ? saturatedWindows : calmWindows).incrementAndGet();
    })) {
      Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> calmWindows.get() >= 3);
      CountDownLatch release = new CountDownLatch(1);
      dispatcher.execute(() -> {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> saturatedWindows.get() >= 3 && lastSaturated.get());
      assertTrue(lag.meanLagMillis() > 5, "a blocked dispatcher's lag: " + lag.meanLagMillis());
      release.countDown();
      Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> !lastSaturated.get());
    } finally {
      dispatcher.shutdownNow();
    }
  }
}
