package io.boxoffice.cart.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The cart timer's rules, without actors: what is due, what ran out, when the cart says expired. */
class HoldTimerTest {

  @Test
  void aHoldIsDueAtItsDeadlineAndExpiresWhenTheInventoryReleasesIt() {
    HoldTimer timer = new HoldTimer();
    timer.held(List.of("A-2", "A-1"), 1_000);
    assertEquals(1_000, timer.next().getAsLong());
    assertEquals(Optional.empty(), timer.due(999));
    HoldTimer.Due due = timer.due(1_000).orElseThrow();
    assertEquals(new HoldTimer.Due(List.of("A-1", "A-2"), 1_000), due);
    timer.checked(due, List.of("A-1", "A-2"), List.of(), List.of(), 0);
    assertEquals(1_000, timer.expiredAt());
    assertTrue(timer.next().isEmpty());
    timer.held(List.of("B-1"), 5_000);
    assertEquals(0, timer.expiredAt(), "holding again: nothing has run out");
  }

  @Test
  void withAGraceASeatFallsDueThatLongAfterItsDeadlineAndIsCheckedAgainstTheDeadlineItself() {
    HoldTimer timer = new HoldTimer(10_000);
    timer.held(List.of("A-1"), 1_000);
    assertEquals(11_000, timer.next().getAsLong());
    assertEquals(Optional.empty(), timer.due(1_000), "not at the deadline: a fault may not be noticed yet");
    assertEquals(Optional.empty(), timer.due(10_999));
    assertEquals(new HoldTimer.Due(List.of("A-1"), 1_000), timer.due(11_000).orElseThrow());
  }

  @Test
  void aHoldExtendedOrMadeAgainIsWatchedAnewAndNothingExpires() {
    HoldTimer timer = new HoldTimer();
    timer.held(List.of("A-1"), 1_000);
    HoldTimer.Due due = timer.due(1_000).orElseThrow();
    timer.checked(due, List.of(), List.of(), List.of("A-1"), 61_000);
    assertEquals(0, timer.expiredAt());
    assertEquals(61_000, timer.next().getAsLong());
  }

  @Test
  void seatsTheFanGaveBackOrStillHoldsElsewhereAreNotAnExpiry() {
    HoldTimer timer = new HoldTimer();
    timer.held(List.of("A-1"), 1_000);
    timer.givenUp(List.of("A-1"));
    assertTrue(timer.next().isEmpty());
    timer.held(List.of("A-2"), 1_000);
    timer.checked(timer.due(1_000).orElseThrow(), List.of("A-2"), List.of(), List.of("C-9"), 9_000);
    assertEquals(0, timer.expiredAt(), "the fan still holds C-9");
    assertEquals(9_000, timer.next().getAsLong());
  }

  @Test
  void aNewerHoldHeardDuringTheCheckIsKept() {
    HoldTimer timer = new HoldTimer();
    timer.held(List.of("A-1"), 1_000);
    HoldTimer.Due due = timer.due(1_000).orElseThrow();
    timer.held(List.of("A-1"), 90_000);
    timer.checked(due, List.of(), List.of("A-1"), List.of(), 0);
    assertEquals(90_000, timer.next().getAsLong());
    assertEquals(0, timer.expiredAt());
  }
}
