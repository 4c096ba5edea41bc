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
    Bulkhead b = new Bulkhead(100, 20, id -> true);
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
    Bulkhead b = new Bulkhead(100, 20, id -> !id.startsWith("made-up-"));
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
}
