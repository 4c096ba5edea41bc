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

  @Test
  void aPlaceWhoseFanNeverArrivesCountsOnlyForTheArrivalWindow() {
    ShopperWindow w = new ShopperWindow(Duration.ofMinutes(30), Duration.ofMinutes(3));
    w.admitted(10, T0);
    w.arrivedAdmittedAt(T0 + 500);
    w.arrivedAdmittedAt(T0 + 900);
    assertEquals(10, w.active(T0 + 179_999), "on their way: all ten count");
    assertEquals(2, w.active(T0 + 180_000), "the arrival window is over: only the two who came");
    assertEquals(2, w.active(T0 + 1_799_999));
    assertEquals(0, w.active(T0 + 1_800_000), "their window is over too");
  }

  @Test
  void aFanWhoArrivesLateCountsAgainAndStopsCountOutOfTheRightKind() {
    ShopperWindow w = new ShopperWindow(Duration.ofMinutes(30), Duration.ofMinutes(3));
    w.admitted(10, T0);
    w.arrivedAdmittedAt(T0);
    w.stoppedAdmittedAt(T0, false);
    assertEquals(9, w.active(T0 + 1000), "one left before coming");
    assertEquals(1, w.active(T0 + 600_000));
    w.arrivedAdmittedAt(T0 + 10);
    assertEquals(2, w.active(T0 + 600_000), "a fan who comes after the arrival window counts again");
    w.stoppedAdmittedAt(T0, true);
    assertEquals(1, w.active(T0 + 600_000), "one who came bought");
  }
}
