package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.edge.TokenBuckets.Decision;
import io.boxoffice.support.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

class TokenBucketsTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));

  static int takeAll(TokenBuckets buckets, String key, int attempts) {
    int allowed = 0;
    for (int i = 0; i < attempts; i++) {
      if (buckets.tryTake(key).allowed()) allowed++;
    }
    return allowed;
  }

  @Test
  void aBurstUpToCapacityThenRefused() {
    TokenBuckets buckets = new TokenBuckets(20, 5, 100, clock);
    assertEquals(20, takeAll(buckets, "acct:a", 20));
    Decision refused = buckets.tryTake("acct:a");
    assertFalse(refused.allowed());
    assertEquals(1, refused.retryAfterSeconds());
  }

  @Test
  void tokensComeBackAtTheRefillRateUpToCapacity() {
    TokenBuckets buckets = new TokenBuckets(20, 5, 100, clock);
    assertEquals(20, takeAll(buckets, "a", 25));
    clock.advance(Duration.ofMillis(199));
    assertEquals(0, takeAll(buckets, "a", 5));
    clock.advance(Duration.ofMillis(1));
    assertEquals(1, takeAll(buckets, "a", 5));
    clock.advance(Duration.ofSeconds(1));
    assertEquals(5, takeAll(buckets, "a", 50));
    clock.advance(Duration.ofHours(1));
    assertEquals(20, takeAll(buckets, "a", 50));
  }

  @Test
  void aCostlyRequestTakesSeveralTokensAtOnceOrNone() {
    TokenBuckets buckets = new TokenBuckets(20, 5, 100, clock);
    for (int i = 0; i < 6; i++) assertTrue(buckets.tryTake("a", 3).allowed(), "take " + i);
    // Two tokens left: a request of three is refused and takes nothing, two requests of one still go.
    Decision refused = buckets.tryTake("a", 3);
    assertFalse(refused.allowed());
    assertEquals(1, refused.retryAfterSeconds());
    assertEquals(2, takeAll(buckets, "a", 5));
    // Three tokens come back in 600 ms, not before.
    clock.advance(Duration.ofMillis(599));
    assertFalse(buckets.tryTake("a", 3).allowed());
    clock.advance(Duration.ofMillis(1));
    assertTrue(buckets.tryTake("a", 3).allowed());
    // A cost above the capacity takes a full bucket (it is not refused for ever).
    clock.advance(Duration.ofHours(1));
    assertTrue(buckets.tryTake("a", 50).allowed());
    assertFalse(buckets.tryTake("a").allowed());
  }

  @Test
  void retryAfterIsTheWholeSecondsUntilTheNextToken() {
    TokenBuckets buckets = new TokenBuckets(1, 0.25, 100, clock);
    assertTrue(buckets.tryTake("a").allowed());
    assertEquals(new Decision(false, 4), buckets.tryTake("a"));
    clock.advance(Duration.ofMillis(1500));
    assertEquals(new Decision(false, 3), buckets.tryTake("a"));
    clock.advance(Duration.ofMillis(2499));
    assertEquals(new Decision(false, 1), buckets.tryTake("a"));
    clock.advance(Duration.ofMillis(1));
    assertTrue(buckets.tryTake("a").allowed());
  }

  @Test
  void refusedRequestsDoNotPushTheNextTokenFurtherAway() {
    TokenBuckets buckets = new TokenBuckets(1, 1, 100, clock);
    assertTrue(buckets.tryTake("a").allowed());
    assertEquals(0, takeAll(buckets, "a", 1000));
    clock.advance(Duration.ofSeconds(1));
    assertTrue(buckets.tryTake("a").allowed());
  }

  @Test
  void keysHaveTheirOwnBuckets() {
    TokenBuckets buckets = new TokenBuckets(20, 5, 100, clock);
    assertEquals(20, takeAll(buckets, "acct:a", 30));
    assertEquals(20, takeAll(buckets, "acct:b", 30));
    assertEquals(20, takeAll(buckets, "net:10.0.0.0/24", 30));
  }

  @Test
  void theNumberOfKeysStaysWithinTheBound() {
    TokenBuckets buckets = new TokenBuckets(20, 5, 1000, clock);
    for (int i = 0; i < 50_000; i++) {
      assertTrue(buckets.tryTake("k" + i).allowed());
      assertTrue(buckets.size() <= 1000, "size " + buckets.size() + " after " + i);
      if (i % 7 == 0) clock.advance(Duration.ofMillis(1));
    }
  }

  @Test
  void bucketsThatFilledUpAgainAreDroppedFirst() {
    TokenBuckets buckets = new TokenBuckets(2, 1, 10, clock);
    for (int i = 0; i < 5; i++) buckets.tryTake("idle" + i);
    clock.advance(Duration.ofSeconds(10));
    for (int i = 0; i < 5; i++) assertEquals(2, takeAll(buckets, "busy" + i, 2));
    assertEquals(10, buckets.size());

    assertTrue(buckets.tryTake("new").allowed());
    assertEquals(6, buckets.size());
    for (int i = 0; i < 5; i++) assertFalse(buckets.tryTake("busy" + i).allowed(), "busy" + i + " kept its empty bucket");
  }

  @Test
  void emptyBucketsAreKeptLongerThanOnesWithTokensLeft() {
    TokenBuckets buckets = new TokenBuckets(3, 1, 100, clock);
    for (int i = 0; i < 10; i++) assertEquals(1, takeAll(buckets, "light" + i, 1));
    for (int i = 0; i < 90; i++) assertEquals(3, takeAll(buckets, "heavy" + i, 3));

    // 101 keys: down to 90, which the ten light ones and the new one make room for.
    buckets.tryTake("new");
    assertEquals(90, buckets.size());
    for (int i = 0; i < 90; i++) assertFalse(buckets.tryTake("heavy" + i).allowed(), "heavy" + i + " kept its empty bucket");
  }

  @Test
  void concurrentRequestsNeverGetMoreThanCapacityPlusRefill() throws Exception {
    TokenBuckets buckets = new TokenBuckets(100, 10, 1000, clock);
    assertEquals(100, hammer(8, t -> "shared", 2000, buckets));
    clock.advance(Duration.ofSeconds(2));
    assertEquals(20, hammer(8, t -> "shared", 2000, buckets));
  }

  @Test
  void concurrentNewKeysKeepTheBound() throws Exception {
    TokenBuckets buckets = new TokenBuckets(5, 1, 500, clock);
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 20_000; i++) buckets.tryTake("t" + thread + "-" + (i % 3000));
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) f.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    assertTrue(buckets.size() <= 500 + threads, "size " + buckets.size());
  }

  /** {@code threads} threads each trying {@code attempts} takes on the key {@code keyOf(thread)}, started together; how many were allowed. */
  static int hammer(int threads, IntFunction<String> keyOf, int attempts, TokenBuckets buckets) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> counts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String key = keyOf.apply(t);
        counts.add(pool.submit(() -> {
          start.await();
          return takeAll(buckets, key, attempts);
        }));
      }
      start.countDown();
      int total = 0;
      for (Future<Integer> c : counts) total += c.get(60, TimeUnit.SECONDS);
      return total;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aCostlyRequestTakesManyTokensAtOnceOrNone() {
    TokenBuckets buckets = new TokenBuckets(20, 5, 100, clock);
    assertTrue(buckets.tryTake("a", 8).allowed());
    assertTrue(buckets.tryTake("a", 8).allowed());
    Decision refused = buckets.tryTake("a", 8);
    assertFalse(refused.allowed(), "4 tokens left, 8 asked");
    assertEquals(1, refused.retryAfterSeconds(), "4 more tokens come back in 0.8 s");
    assertEquals(4, takeAll(buckets, "a", 10), "a refused costly request took nothing");
    clock.advance(Duration.ofMillis(1600));
    assertTrue(buckets.tryTake("a", 8).allowed(), "8 tokens back after 1.6 s");
    assertFalse(buckets.tryTake("a").allowed());
  }

  @Test
  void aRequestCostingMoreThanABurstTakesAFullBucketAndLeavesItEmpty() {
    TokenBuckets buckets = new TokenBuckets(20, 5, 100, clock);
    assertTrue(buckets.tryTake("a").allowed());
    assertFalse(buckets.tryTake("a", 500).allowed(), "only a full bucket pays for it");
    clock.advance(Duration.ofMillis(200));
    assertTrue(buckets.tryTake("a", 500).allowed());
    assertEquals(0, takeAll(buckets, "a", 5));
    assertEquals(new Decision(false, 4), buckets.tryTake("a", 20), "a full bucket again in 4 s");
  }
}
