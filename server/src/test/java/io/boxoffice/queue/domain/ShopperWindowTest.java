package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Active shoppers: admitted places count until their window ends or they stop. */
class ShopperWindowTest {
  static final long T0 = 1_800_000_000_000L;

  @Test
  void anAdmittedPlaceCountsForItsWholeWindowAndNotAfter() {
    ShopperWindow w = new ShopperWindow(Duration.ofMinutes(10));
    w.admitted(10, T0);
    w.admitted(5, T0 + 1000);
    assertEquals(15, w.active(T0 + 599_999));
    assertEquals(5, w.active(T0 + 600_000), "the first second's window is over");
    assertEquals(0, w.active(T0 + 601_000));
  }

  @Test
  void shoppersWhoStopCountOutAndTheCountNeverGoesBelowNobody() {
    ShopperWindow w = new ShopperWindow(Duration.ofMinutes(10));
    w.admitted(10, T0);
    w.stopped(4, T0 + 2000);
    assertEquals(6, w.active(T0 + 3000));
    w.stopped(50, T0 + 3000);
    assertEquals(0, w.active(T0 + 3000));
  }

  @Test
  void aPlaceThatStopsIsCountedOutOfItsOwnSecondWhileThatSecondCounts() {
    ShopperWindow w = new ShopperWindow(Duration.ofMinutes(10));
    w.admitted(10, T0);
    w.admitted(10, T0 + 5000);
    w.stoppedAdmittedAt(T0 + 5400);
    assertEquals(19, w.active(T0 + 6000));
    assertEquals(9, w.active(T0 + 600_000), "its second gave it back, the other second's window ended");
    w.stoppedAdmittedAt(T0 + 100);
    assertEquals(9, w.active(T0 + 600_000), "a place whose second left the window has nothing to give back");
  }
}
