package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BulkheadTest {

  @Test
  void readsAreShedFirstThenHoldsAndCheckoutsLast() {
    Bulkhead b = new Bulkhead(10);
    for (int i = 0; i < 5; i++) assertTrue(b.tryEnter("hot", Bulkhead.Priority.READ));
    assertFalse(b.tryEnter("hot", Bulkhead.Priority.READ), "reads fill half");
    for (int i = 0; i < 3; i++) assertTrue(b.tryEnter("hot", Bulkhead.Priority.HOLD));
    assertFalse(b.tryEnter("hot", Bulkhead.Priority.HOLD), "holds fill four fifths");
    assertTrue(b.tryEnter("hot", Bulkhead.Priority.CHECKOUT));
    assertTrue(b.tryEnter("hot", Bulkhead.Priority.CHECKOUT));
    assertFalse(b.tryEnter("hot", Bulkhead.Priority.CHECKOUT), "nothing beyond the capacity");
    assertEquals(10, b.inFlight("hot"));
    b.exit("hot");
    assertFalse(b.tryEnter("hot", Bulkhead.Priority.READ));
    assertTrue(b.tryEnter("hot", Bulkhead.Priority.CHECKOUT));
  }

  @Test
  void aFloodedEventLeavesOthersUntouched() {
    Bulkhead b = new Bulkhead(4);
    while (b.tryEnter("hot", Bulkhead.Priority.CHECKOUT)) { }
    assertTrue(b.tryEnter("quiet", Bulkhead.Priority.READ));
    assertEquals(1, b.inFlight("quiet"));
  }

  @Test
  void aBusyNodeTakesBackWhatAFloodedEventHoldsBeyondItsFairShareAndGivesItToTheOthers() {
    // Compartments of 100; once 20 are in flight and several events want them, they are shared.
    Bulkhead b = new Bulkhead(100, 20, id -> true, 0, 0, Runnable::run);
    while (b.tryEnter("hot", Bulkhead.Priority.HOLD)) { }
    assertEquals(80, b.inFlight("hot"), "alone, an event may fill its holds' share of its compartment");
    // Two events busy: a fair share of holds is 20 * 0.8 / 2 = 8 each.
    for (int i = 0; i < 8; i++) assertTrue(b.tryEnter("quiet", Bulkhead.Priority.HOLD), "the quiet event's hold " + i);
    assertFalse(b.tryEnter("quiet", Bulkhead.Priority.HOLD), "beyond its fair share while the node is busy");
    assertFalse(b.tryEnter("hot", Bulkhead.Priority.CHECKOUT), "the flooded event is past its share (10 of checkouts)");
    // 72 of the hot event's requests finish: below the node's 20 there is room for anyone...
    for (int i = 0; i < 72; i++) b.exit("hot");
    for (int i = 0; i < 4; i++) assertTrue(b.tryEnter("hot", Bulkhead.Priority.HOLD), "hot hold " + i);
    // ...and once the node is busy again, the hot event (12) is past its share (8) and refused.
    assertFalse(b.tryEnter("hot", Bulkhead.Priority.HOLD));
    assertEquals(20, b.inFlight());
    assertEquals(2, b.busyEvents());
  }

  @Test
  void madeUpEventsInFlightNeverShrinkARealEventsShare() {
    // A bot names 300 ids nobody created at once: the node is busy, but only real events share it.
    Bulkhead b = new Bulkhead(100, 20, id -> !id.startsWith("made-up-"), 0, 0, Runnable::run);
    for (int i = 0; i < 300; i++) assertTrue(b.tryEnter("made-up-" + i, Bulkhead.Priority.READ), "made-up " + i);
    for (int i = 0; i < 80; i++) assertTrue(b.tryEnter("real", Bulkhead.Priority.HOLD), "the real event's hold " + i);
    assertFalse(b.tryEnter("real", Bulkhead.Priority.HOLD), "its own compartment still bounds it");
    // Two real events busy share the node as before.
    for (int i = 0; i < 8; i++) assertTrue(b.tryEnter("other", Bulkhead.Priority.HOLD), "the other real event's hold " + i);
    assertFalse(b.tryEnter("other", Bulkhead.Priority.HOLD), "beyond its fair share of two");
    for (int i = 0; i < 300; i++) b.exit("made-up-" + i);
    for (int i = 0; i < 80; i++) b.exit("real");
    for (int i = 0; i < 8; i++) b.exit("other");
    assertEquals(0, b.inFlight());
    assertEquals(0, b.busyEvents());
  }

  @Test
  void aCompartmentIsForgottenWhenItsLastRequestLeaves() {
    Bulkhead b = new Bulkhead(10);
    for (int i = 0; i < 1000; i++) {
      assertTrue(b.tryEnter("made-up-" + i, Bulkhead.Priority.READ));
      b.exit("made-up-" + i);
    }
    assertEquals(0, b.busyEvents());
    assertEquals(0, b.inFlight());
    b.exit("never-entered");
    assertEquals(0, b.inFlight());
  }

  @Test
  void concurrentRequestsNeverOverfillTheCompartment() throws Exception {
    Bulkhead b = new Bulkhead(50);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger worst = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    Thread[] threads = new Thread[8];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < 20_000; i++) {
          if (b.tryEnter("e", Bulkhead.Priority.CHECKOUT)) {
            worst.accumulateAndGet(inside.incrementAndGet(), Math::max);
            inside.decrementAndGet();
            b.exit("e");
          }
        }
      });
      threads[t].start();
    }
    go.countDown();
    for (Thread t : threads) t.join();
    assertTrue(worst.get() <= 50, "in flight reached " + worst.get());
    assertEquals(0, b.inFlight("e"));
  }

  /** A clock the test moves by hand. */
  private static final class Clock implements java.util.function.LongSupplier {
    long nanos;

    @Override
    public long getAsLong() {
      return nanos;
    }

    void advanceMillis(long ms) {
      nanos += java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(ms);
    }
  }

  private static boolean in(java.util.concurrent.CompletionStage<Boolean> place) {
    java.util.concurrent.CompletableFuture<Boolean> f = place.toCompletableFuture();
    return f.isDone() && f.join();
  }

  private static boolean waiting(java.util.concurrent.CompletionStage<Boolean> place) {
    return !place.toCompletableFuture().isDone();
  }

  @Test
  void pastItsFairShareAFloodedEventWaitsInItsLineAndEachPlaceThatFreesGoesToTheEventWithFewestInFlight() {
    // The node shares 10 places (holds 8: 4 each between two events) once both are busy.
    Bulkhead b = new Bulkhead(100, 10, id -> true, 60_000, 1_000, Runnable::run, new Clock());
    for (int i = 0; i < 20; i++) assertTrue(in(b.enter("hot", Bulkhead.Priority.HOLD)), "alone, the hot event goes in: " + i);
    java.util.concurrent.CompletionStage<Boolean> quiet1 = b.enter("quiet", Bulkhead.Priority.HOLD);
    assertTrue(in(quiet1), "below its fair share, the quiet event goes in at once, however busy the node");
    java.util.List<java.util.concurrent.CompletionStage<Boolean>> hotLine = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) hotLine.add(b.enter("hot", Bulkhead.Priority.HOLD));
    assertTrue(hotLine.stream().allMatch(BulkheadTest::waiting), "the hot event, past its share on a busy node, lines up");
    assertEquals(5, b.waiting("hot"));
    // The quiet event has 4 in flight (its fair share); a fifth waits too.
    for (int i = 0; i < 3; i++) assertTrue(in(b.enter("quiet", Bulkhead.Priority.HOLD)));
    java.util.concurrent.CompletionStage<Boolean> quiet5 = b.enter("quiet", Bulkhead.Priority.HOLD);
    assertTrue(waiting(quiet5));
    // The hot event's requests leave: the node stays busy until fewer than 10 are in flight.
    for (int i = 0; i < 14; i++) b.exit("hot");
    assertTrue(hotLine.stream().allMatch(BulkheadTest::waiting), "10 in flight: nobody goes in yet");
    b.exit("hot");
    assertTrue(in(quiet5), "the freed place goes to the event with the fewest in flight (quiet 4, hot 5), not to the longer line");
    b.exit("hot");
    assertTrue(in(hotLine.get(0)), "then to the hot event's line, in order");
    assertTrue(waiting(hotLine.get(1)));
    assertEquals(5, b.inFlight("hot"));
    assertEquals(5, b.inFlight("quiet"));
    assertEquals(4, b.waiting("hot"));
  }

  @Test
  void aLineWhoseHeadMayNotGoInHoldsBackOnlyItselfNotAnotherEventsHeadThatMay() {
    // 10 places; with three events busy a read's fair share is 1, a checkout's 3.
    Bulkhead b = new Bulkhead(100, 10, id -> true, 60_000, 1_000, Runnable::run, new Clock());
    for (int i = 0; i < 6; i++) assertTrue(in(b.enter("c", Bulkhead.Priority.CHECKOUT)));
    for (int i = 0; i < 3; i++) assertTrue(in(b.enter("b", Bulkhead.Priority.CHECKOUT)));
    assertTrue(in(b.enter("a", Bulkhead.Priority.READ)));
    java.util.concurrent.CompletionStage<Boolean> read1 = b.enter("a", Bulkhead.Priority.READ);
    java.util.concurrent.CompletionStage<Boolean> read2 = b.enter("a", Bulkhead.Priority.READ);
    java.util.concurrent.CompletionStage<Boolean> checkout = b.enter("b", Bulkhead.Priority.CHECKOUT);
    assertTrue(waiting(read1) && waiting(read2) && waiting(checkout), "10 in flight, each event at its share: all wait");
    b.exit("b");
    assertTrue(in(read1), "the freed place goes to the fewest in flight (a: 1, b: 2)");
    assertTrue(waiting(read2), "a's next read is past its share (2 in flight, share 1)");
    assertTrue(in(checkout), "b's checkout is under its share (2 of 3) and goes in, not held back behind a's read");
    assertEquals(3, b.inFlight("b"));
  }

  @Test
  void aRequestWaitsAtMostTheFairWaitThenIsRefusedAndLeavesTheLine() {
    Bulkhead b = new Bulkhead(100, 4, id -> true, 50, 1_000, Runnable::run, new Clock());
    for (int i = 0; i < 4; i++) assertTrue(in(b.enter("hot", Bulkhead.Priority.CHECKOUT)));
    assertTrue(in(b.enter("quiet", Bulkhead.Priority.CHECKOUT)));
    java.util.concurrent.CompletionStage<Boolean> late = b.enter("hot", Bulkhead.Priority.CHECKOUT);
    assertFalse(late.toCompletableFuture().join(), "nothing left in 50 ms: refused");
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> b.waiting("hot") == 0);
    // A place that frees afterwards is not taken by the refused request.
    b.exit("hot");
    assertEquals(3, b.inFlight("hot"));
  }

  @Test
  void aQuietEventBetweenItsRequestsStillCountsAsBusySoTheFloodIsNotAloneAgain() {
    Clock clock = new Clock();
    Bulkhead b = new Bulkhead(100, 10, id -> true, 60_000, 1_000, Runnable::run, clock);
    for (int i = 0; i < 10; i++) assertTrue(in(b.enter("hot", Bulkhead.Priority.HOLD)));
    assertTrue(in(b.enter("quiet", Bulkhead.Priority.HOLD)));
    b.exit("quiet");
    clock.advanceMillis(999);
    java.util.concurrent.CompletionStage<Boolean> next = b.enter("hot", Bulkhead.Priority.HOLD);
    assertTrue(waiting(next), "the quiet event answered a moment ago: the hot one waits");
    clock.advanceMillis(1);
    assertEquals(1, b.busyEvents(), "after its linger the quiet event is forgotten");
    assertTrue(in(next), "alone again, the hot event's line goes in");
    assertTrue(in(b.enter("hot", Bulkhead.Priority.HOLD)), "and so do its next requests");
  }

  @Test
  void aFullCompartmentIsRefusedAtOnceEvenWithAWaitingLine() {
    // Holds fill four fifths of 10: 8 in flight or waiting, then 503 at once.
    Bulkhead b = new Bulkhead(10, 2, id -> true, 60_000, 1_000, Runnable::run, new Clock());
    assertTrue(in(b.enter("other", Bulkhead.Priority.HOLD)));
    assertTrue(in(b.enter("hot", Bulkhead.Priority.HOLD)));
    for (int i = 0; i < 7; i++) assertTrue(waiting(b.enter("hot", Bulkhead.Priority.HOLD)), "waits: " + i);
    java.util.concurrent.CompletionStage<Boolean> over = b.enter("hot", Bulkhead.Priority.HOLD);
    assertTrue(over.toCompletableFuture().isDone() && !over.toCompletableFuture().join(), "refused at once, not lined up");
  }

  @Test
  void aLongLineWhoseRequestsFinishAtOnceIsLetInWithoutGrowingTheStack() throws Exception {
    java.util.concurrent.ExecutorService dispatcher = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      Bulkhead b = new Bulkhead(40_000, 2, id -> true, 60_000, 1_000, dispatcher);
      assertTrue(in(b.enter("hot", Bulkhead.Priority.CHECKOUT)));
      assertTrue(in(b.enter("quiet", Bulkhead.Priority.CHECKOUT)));
      // Each request of the line is answered the moment it is let in (a 4xx decided without an ask),
      // and its exit lets the next one in: 20,000 deep if run on one stack.
      java.util.List<java.util.concurrent.CompletableFuture<Void>> done = new java.util.ArrayList<>();
      for (int i = 0; i < 20_000; i++) {
        done.add(b.enter("hot", Bulkhead.Priority.CHECKOUT).toCompletableFuture().thenAccept(admitted -> {
          if (admitted) b.exit("hot");
        }));
      }
      assertEquals(20_000, b.waiting("hot"));
      b.exit("hot");
      java.util.concurrent.CompletableFuture.allOf(done.toArray(java.util.concurrent.CompletableFuture[]::new))
          .get(30, java.util.concurrent.TimeUnit.SECONDS);
      assertTrue(done.stream().noneMatch(java.util.concurrent.CompletableFuture::isCompletedExceptionally));
      assertEquals(0, b.waiting("hot"));
      assertEquals(1, b.inFlight(), "only the quiet event's request is left");
    } finally {
      dispatcher.shutdownNow();
    }
  }
}
