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
