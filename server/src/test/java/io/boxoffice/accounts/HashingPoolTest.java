package io.boxoffice.accounts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.edge.ApiError;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The hashing pool's bounds: its queue for everyone, and each client network's share of it. */
class HashingPoolTest {

  static int statusOf(CompletableFuture<?> f) {
    try {
      f.join();
      return 200;
    } catch (CompletionException e) {
      return ((ApiError) e.getCause()).status();
    }
  }

  @Test
  void oneNetworkGetsItsShareOfThePoolAndOtherNetworksStillGetIn() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (HashingPool pool = new HashingPool(1, 10, 3)) {
      CompletableFuture<?>[] flood = new CompletableFuture<?>[5];
      for (int i = 0; i < flood.length; i++) {
        flood[i] = pool.run("198.51.100.0/24", () -> await(release)).toCompletableFuture();
      }
      // Three queued or running; the fourth and fifth of the same network are refused at once.
      assertEquals(429, statusOf(flood[3]));
      assertEquals(429, statusOf(flood[4]));
      assertEquals(3, pool.inFlight("198.51.100.0/24"));
      CompletableFuture<?> other = pool.run("203.0.113.0/24", () -> true).toCompletableFuture();
      release.countDown();
      assertEquals(200, statusOf(other), "another network's fan still signs in");
      for (int i = 0; i < 3; i++) assertEquals(200, statusOf(flood[i]));
      // Its share comes back as its runs end.
      org.awaitility.Awaitility.await().atMost(5, TimeUnit.SECONDS).until(() -> pool.inFlight("198.51.100.0/24") == 0);
      assertEquals(200, statusOf(pool.run("198.51.100.0/24", () -> true).toCompletableFuture()));
    }
  }

  @Test
  void aFullQueueIsStill503ForEveryone() {
    CountDownLatch release = new CountDownLatch(1);
    try (HashingPool pool = new HashingPool(1, 1, 100)) {
      pool.run("a", () -> await(release));
      org.awaitility.Awaitility.await().atMost(5, TimeUnit.SECONDS).until(() -> pool.inFlight("a") == 1);
      pool.run("b", () -> await(release));
      CompletableFuture<?> third = pool.run("c", () -> true).toCompletableFuture();
      assertEquals(503, statusOf(third));
      assertTrue(pool.inFlight("c") == 0, "a refused run holds no share");
      release.countDown();
    }
  }

  private static boolean await(CountDownLatch latch) {
    try {
      return latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
