package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The waiting room's rules on a fixed timeline: the record, the lobby, the start, the line, leaves, buys and leases. */
class RoomTest {
  static final long T0 = Instant.parse("2026-12-01T09:45:00Z").toEpochMilli();
  static final long LOBBY = T0 + 60_000;
  static final long START = T0 + 15 * 60_000;
  static final long MINUTE = 60_000;

  static OnSaleSchedule schedule(int perMinute, int maxActive) {
    return new OnSaleSchedule(LOBBY, START, perMinute, maxActive, false, 0);
  }

  /** A sale that started at {@link #START} with {@code lobby} accounts in its lobby. */
  static Journal startedSale(int perMinute, int maxActive, int lobby) {
    Journal j = new Journal(schedule(perMinute, maxActive));
    for (int i = 0; i < lobby; i++) j.join(LOBBY);
    j.tick(START);
    return j;
  }

  static Refusal refusal(Room.Outcome outcome) {
    return assertInstanceOf(Room.Refused.class, outcome).refusal();
  }

  // ---- the record ------------------------------------------------------------------------

  @Test
  void anEventIsDefinedOnce() {
    Journal j = new Journal(null);
    j.defined = false;
    assertInstanceOf(Room.Accepted.class, j.room.define(j.state()));
    j.defined = true;
    assertEquals(Refusal.EVENT_EXISTS, refusal(j.room.define(j.state())));
  }

  @Test
  void anOpenSaleCannotBeScheduledAndOpeningTwiceChangesNothing() {
    Journal j = new Journal(null);
    assertInstanceOf(Room.Accepted.class, j.room.openSale(j.state()));
    j.open = true;
    assertInstanceOf(Room.Unchanged.class, j.room.openSale(j.state()));
    Journal scheduled = new Journal(schedule(600, 1000));
    assertEquals(Refusal.ALREADY_SCHEDULED, refusal(scheduled.room.openSale(scheduled.state())));
  }

  @Test
  void theOnSaleIsRescheduledOnlyUntilItStarts() {
    Journal j = new Journal(schedule(600, 1000));
    assertInstanceOf(Room.Accepted.class, j.room.schedule(j.state()));
    j.tick(START);
    assertEquals(Refusal.ALREADY_STARTED, refusal(j.room.schedule(j.state())));
  }

  @Test
  void ratesAndPauseBelongToAScheduledOnSale() {
    Journal closed = new Journal(null);
    assertEquals(Refusal.NOT_FOUND, refusal(closed.room.changeRates(closed.state())));
    assertEquals(Refusal.NOT_FOUND, refusal(closed.room.pause(closed.state(), true)));
    Journal j = new Journal(schedule(600, 1000));
    assertInstanceOf(Room.Accepted.class, j.room.changeRates(j.state()));
    assertInstanceOf(Room.Accepted.class, j.room.pause(j.state(), true));
    assertInstanceOf(Room.Unchanged.class, j.room.pause(j.state(), false), "resuming a running sale changes nothing");
    j.paused = true;
    assertInstanceOf(Room.Unchanged.class, j.room.pause(j.state(), true), "pausing a paused sale changes nothing");
    assertInstanceOf(Room.Accepted.class, j.room.pause(j.state(), false));
  }

  // ---- the lobby -------------------------------------------------------------------------

  @Test
  void theLobbyGivesNoIndexWithoutAnOnSaleBeforeItOpensOrAfterTheStart() {
    Journal closed = new Journal(null);
    assertEquals(Refusal.NOT_ON_SALE, refusal(closed.room.takeLobbyIndex(closed.state(), LOBBY)));
    Journal j = new Journal(schedule(600, 1000));
    assertEquals(Refusal.NOT_OPEN, refusal(j.room.takeLobbyIndex(j.state(), LOBBY - 1)));
    assertInstanceOf(Room.LobbyIndexGiven.class, j.room.takeLobbyIndex(j.state(), LOBBY));
    j.tick(START);
    assertEquals(Refusal.STARTED, refusal(j.room.takeLobbyIndex(j.state(), START)));
  }

  @Test
  void lobbyIndicesComeInOrder() {
    Journal j = new Journal(schedule(600, 1000));
    for (long index = 1; index <= 5; index++) assertEquals(new Room.LobbyIndexGiven(index), j.room.takeLobbyIndex(j.state(), LOBBY));
  }

  @Test
  void aRestartGoesOnRightAfterTheLastLobbyIndexGivenNeverTwiceNorWithAGap() {
    Journal j = new Journal(schedule(600, 1000));
    for (int i = 0; i < 3; i++) j.join(LOBBY);
    assertEquals(4, j.restarted().join(LOBBY), "every index given was written: the next one follows it (finding 8)");
    Journal old = new Journal(schedule(600, 1000));
    old.lobbyReservedUpTo = Room.LOBBY_BLOCK;
    assertEquals(Room.LOBBY_BLOCK + 1, old.restarted().join(LOBBY), "an older journal's reservation is never given twice");
  }

  @Test
  void theLobbyCountsAccountsThatJoinedLeftAndCameBack() {
    Journal j = new Journal(schedule(600, 1000));
    for (int i = 0; i < 3; i++) j.join(LOBBY);
    j.leave(2, 0);
    j.leave(2, 0);
    assertEquals(2, j.room.lobby(j.state()), "shown before it is written; a second leave of one index counts once");
    assertEquals(OptionalLong.of(2), j.tick(LOBBY + 1000).lobbyCounted());
    assertEquals(OptionalLong.empty(), j.tick(LOBBY + 2000).lobbyCounted(), "nothing changed, nothing to write");
    j.comeBack(2, 0);
    assertEquals(OptionalLong.of(3), j.tick(LOBBY + 3000).lobbyCounted());
  }

  // ---- the start -------------------------------------------------------------------------

  @Test
  void theSaleStartsOnTimeWithTheLobbyAsCohortAndReleasesThePlacesOfLobbyLeavers() {
    Journal j = new Journal(schedule(600, 1000));
    for (int i = 0; i < 5; i++) j.join(LOBBY);
    j.leave(2, 0);
    Room.Tick before = j.tick(START - 1);
    assertEquals(Optional.empty(), before.start());
    assertEquals(OptionalLong.of(4), before.lobbyCounted());
    assertEquals(Optional.of(new Room.Start(Journal.SALT, 5)), j.tick(START).start());
    assertArrayEquals(new long[] {Lottery.place(2, Journal.SALT, 5)}, j.leftPlaces());
  }

  @Test
  void theCohortIsExactlyTheIndicesGivenEvenAfterARestart() {
    Journal empty = new Journal(schedule(600, 1000));
    assertEquals(1, empty.tick(START).start().orElseThrow().cohortSize(), "a cohort has at least one place");
    Journal j = new Journal(schedule(600, 1000));
    for (int i = 0; i < 3; i++) j.join(LOBBY);
    assertEquals(3, j.restarted().tick(START).start().orElseThrow().cohortSize(),
        "a restart in the lobby adds no place nobody holds (finding 8: it was the whole block of 1,000)");
  }

  // ---- the line --------------------------------------------------------------------------

  @Test
  void theLineMovesAtTheAdmissionRate() {
    Journal j = startedSale(600, 100_000, 10_000);
    j.tickEverySecond(START, 60);
    assertEquals(600, j.admittedUpTo);
  }

  @Test
  void activeShoppersNeverExceedTheCapAndShoppersWhoLeaveMakeRoom() {
    Journal j = startedSale(6000, 150, 10_000);
    long now = j.tickEverySecond(START, 20);
    assertEquals(150, j.admittedUpTo, "100 a second, but only 150 may shop at once");
    assertEquals(150, j.room.activeShoppers(now));
    j.room.shoppersLeft(40, now);
    now = j.tickEverySecond(now, 3);
    assertEquals(190, j.admittedUpTo);
    j.room.shoppersLeft(-5, now);
    assertEquals(150, j.room.activeShoppers(now), "a negative count changes nothing");
  }

  @Test
  void admittedPlacesWhoseFansNeverComeLapseAfterTheArrivalWindowAndThoseWhoCameKeepCounting() {
    Journal j = new Journal(new Room(Journal.WINDOW, Duration.ofMinutes(2), () -> Journal.SALT), schedule(6000, 150));
    for (int i = 0; i < 10_000; i++) j.join(LOBBY);
    j.tick(START);
    long now = j.tickEverySecond(START, 20);
    assertEquals(150, j.admittedUpTo, "100 a second, but only 150 may shop at once");
    for (long place = 1; place <= 30; place++) j.room.arrived(j.state(), 0, place);
    j.room.arrived(j.state(), 0, 1);
    now = j.tickEverySecond(now + 95_000, 3);
    assertEquals(150, j.admittedUpTo, "inside the arrival window every admitted place counts");
    now = j.tickEverySecond(now + 30_000, 1);
    assertEquals(270, j.admittedUpTo, "the 120 who never came gave their slots to the next fans");
    assertEquals(150, j.room.activeShoppers(now), "the 30 who came and the 120 admitted now");
  }

  @Test
  void aPlaceStopsShoppingWhenItsWindowEnds() {
    Journal j = startedSale(6000, 150, 10_000);
    long now = j.tickEverySecond(START, 20);
    now = j.tickEverySecond(now + Journal.WINDOW.toMillis() - 25_000, 3);
    assertEquals(150, j.admittedUpTo, "still inside the window");
    j.tickEverySecond(now + 5_000, 3);
    assertTrue(j.admittedUpTo > 150, "windows that ended free their places: " + j.admittedUpTo);
  }

  @Test
  void theLineNeverPassesTheLastPlaceLeasedAndHandedOut() {
    Journal j = startedSale(6000, 100_000, 20);
    long now = j.tickEverySecond(START, 3);
    assertEquals(20, j.admittedUpTo, "the cohort is everyone there is");
    j.lease(100);
    j.room.placesAssigned(j.state(), 60);
    now = j.tickEverySecond(now, 3);
    assertEquals(60, j.admittedUpTo);
    j.room.placesAssigned(j.state(), 500);
    j.tickEverySecond(now, 3);
    assertEquals(120, j.admittedUpTo, "never past what was leased");
  }

  @Test
  void pauseStopsTheLineAndResumeBringsNoBurst() {
    Journal j = startedSale(600, 100_000, 10_000);
    long now = j.tickEverySecond(START, 10);
    assertEquals(100, j.admittedUpTo);
    j.paused = true;
    for (int i = 0; i < 60; i++) {
      now += 1000;
      assertEquals(OptionalLong.empty(), j.tick(now).admittedUpTo());
    }
    j.paused = false;
    j.tickEverySecond(now, 1);
    assertEquals(110, j.admittedUpTo, "one second's worth, not the paused minute's");
  }

  @Test
  void anOutageDoesNotPourOutTheTimeItWasDown() {
    Journal j = startedSale(600, 100_000, 10_000);
    long now = j.tickEverySecond(START, 1);
    j.tick(now + 60 * MINUTE);
    assertEquals(10 + Room.MAX_STEP_MS / 100, j.admittedUpTo, "at most one step's worth at the rate");
  }

  @Test
  void nobodyIsAdmittedWhileNoSeatIsFreeToHold() {
    Journal j = startedSale(600, 100_000, 10_000);
    j.room.seatsCounted(new Seats(0, 5, 95));
    long now = j.tickEverySecond(START, 10);
    assertEquals(0, j.admittedUpTo);
    j.room.seatsCounted(new Seats(3, 2, 95));
    j.tickEverySecond(now, 1);
    assertEquals(10, j.admittedUpTo, "a hold that lapsed lets the line go on");
  }

  @Test
  void afterARestartTheLastWindowStillCountsAsShopping() {
    Journal j = startedSale(600, 400, 10_000);
    long now = j.tickEverySecond(START, 50);
    assertEquals(400, j.admittedUpTo);
    Journal again = j.restarted();
    assertEquals(OptionalLong.empty(), again.tick(now + 1000).admittedUpTo(), "the cap still holds");
    assertEquals(400, again.room.activeShoppers(now + 1000));
  }

  @Test
  void afterARestartAPurchaseStopsCountingAtItsPlacesOwnSecond() {
    Journal j = startedSale(600, 400, 10_000);
    long now = j.tickEverySecond(START, 50);
    Journal again = j.restarted();
    again.tick(now + 1000);
    for (long place = 1; place <= 30; place++) again.room.bought(again.state(), 0, place);
    assertEquals(370, again.room.activeShoppers(now + 1000), "the 30 who bought no longer count");
    again.tick(now + 2000);
    assertEquals(410, again.admittedUpTo, "the line goes on, as far as the rate allows in a second");
  }

  @Test
  void afterARestartPlacesAdmittedBeforeTheArrivalWindowNoLongerHoldTheLine() {
    Duration window = Duration.ofMinutes(30);
    Duration arrival = Duration.ofMinutes(3);
    Journal j = new Journal(new Room(window, arrival, () -> Journal.SALT), schedule(600, 400));
    for (int i = 0; i < 10_000; i++) j.join(LOBBY);
    j.tick(START);
    long now = j.tickEverySecond(START, 50);
    assertEquals(400, j.admittedUpTo, "the cap is reached");
    for (long place = 1; place <= 400; place++) j.room.arrived(j.state(), 0, place);
    long later = now + arrival.toMillis() + 5_000;
    j.tickEverySecond(now, (int) ((later - now) / 1000));
    assertEquals(400, j.admittedUpTo, "fans who came still count: nobody told this room they bought");
    Journal again = j.restarted(new Room(window, arrival, () -> Journal.SALT));
    again.tick(later + 1000);
    assertTrue(again.admittedUpTo > 400, "the line moves again at once, not after the 30-minute window");
    assertEquals(again.admittedUpTo - 400, again.room.activeShoppers(later + 1000),
        "only the places admitted since count: those from before the arrival window are not guessed to shop");
  }

  // ---- leaving and buying ----------------------------------------------------------------

  @Test
  void aPlaceGivenUpBeforeTheLineReachesItIsPassedWithoutCountingAsAShopper() {
    Journal j = startedSale(6000, 150, 1000);
    for (long place = 101; place <= 110; place++) j.leave(0, place);
    long now = j.tickEverySecond(START, 20);
    assertArrayEquals(LongStream.rangeClosed(101, 110).toArray(), j.leftPlaces());
    assertEquals(160, j.admittedUpTo, "released places do not use up the cap");
    assertEquals(150, j.room.activeShoppers(now));
  }

  @Test
  void aLobbyAccountThatLeavesAfterTheStartReleasesItsDrawnPlace() {
    Journal j = startedSale(600, 1000, 1000);
    j.leave(3, 0);
    assertArrayEquals(new long[] {Lottery.place(3, Journal.SALT, 1000)}, j.leftPlaces());
  }

  @Test
  void anAdmittedShopperWhoLeavesStopsCountingOnce() {
    Journal j = startedSale(6000, 100_000, 1000);
    long now = j.tickEverySecond(START, 1);
    assertEquals(100, j.room.activeShoppers(now));
    j.leave(0, 5);
    assertEquals(99, j.room.activeShoppers(now));
    j.leave(0, 5);
    assertEquals(99, j.room.activeShoppers(now));
  }

  @Test
  void aShopperWhoBoughtStopsCountingButKeepsThePlace() {
    Journal j = startedSale(6000, 100_000, 1000);
    long now = j.tickEverySecond(START, 1);
    j.room.bought(j.state(), 0, 7);
    j.room.bought(j.state(), 0, 7);
    assertEquals(99, j.room.activeShoppers(now), "one buyer, counted out once");
    assertArrayEquals(new long[0], j.leftPlaces(), "a buyer's place still admits");
    j.leave(0, 7);
    assertEquals(99, j.room.activeShoppers(now), "a buyer who then leaves stopped counting already");
  }

  @Test
  void releasedPlacesAreForgottenOnceTheirWindowIsLongOver() {
    Journal j = startedSale(6000, 100_000, 1000);
    long now = j.tickEverySecond(START, 1);
    j.leave(0, 5);
    now = j.tickEverySecond(now + Journal.WINDOW.toMillis(), 1);
    assertArrayEquals(new long[] {5}, j.leftPlaces(), "within the window and its grace");
    j.tickEverySecond(now + Room.GRACE_MS, 1);
    assertArrayEquals(new long[0], j.leftPlaces());
  }

  @Test
  void theAdmissionLogKeepsOneWindowAndItsGrace() {
    Room room = new Room(Duration.ofMinutes(10), () -> Journal.SALT);
    assertEquals(T0 - 10 * MINUTE - Room.GRACE_MS, room.admissionLogHorizon(T0));
  }

  // ---- one place per account, dense across restarts (issue 31, findings 2, 3 and 8) --------

  @Test
  void laterPlacesAreGivenByTheRoomInArrivalOrderAndARestartGoesOnRightAfterTheLast() {
    Journal j = startedSale(600, 1000, 3);
    assertEquals(4, j.takePlace(START));
    assertEquals(5, j.takePlace(START));
    Journal again = j.restarted();
    assertEquals(6, again.takePlace(START), "every place given was written: a restart leaves no gap (finding 8)");
    long now = again.tickEverySecond(START, 60);
    assertEquals(6, again.admittedUpTo, "the line runs to the last place given, no further");
    assertEquals(7, again.takePlace(now));
  }

  @Test
  void aLeaveAndRejoinLoopGetsTheSamePlaceBackAndPushesNobodyBack() {
    Journal j = startedSale(1, 1000, 3);
    long bot = j.takePlace(START);
    for (int i = 0; i < 11; i++) {
      assertEquals(new Room.GivenUp(0, bot), j.leave(0, bot));
      assertEquals(new Room.TakenBack(0, bot), j.comeBack(0, bot), "the same place, not a new one (finding 2)");
    }
    assertEquals(bot + 1, j.takePlace(START), "the next fan comes right after the bot");
    assertArrayEquals(new long[0], j.leftPlaces(), "nothing is left behind by the loop");
  }

  @Test
  void aPlaceGivenUpAndPassedIsNeverReplaced() {
    Journal j = startedSale(6000, 100_000, 10);
    long lobbyIndex = 3;
    long place = Lottery.place(lobbyIndex, Journal.SALT, 10);
    assertEquals(new Room.GivenUp(0, place), j.leave(lobbyIndex, 0));
    j.tickEverySecond(START, 1);
    assertEquals(10, j.admittedUpTo);
    assertEquals(Refusal.PLACE_GIVEN_UP, refusal(j.comeBack(lobbyIndex, 0)));
    assertArrayEquals(new long[] {place}, j.leftPlaces(), "still given up: its tokens do not admit");
  }

  @Test
  void placesGivenUpAreSkippedWithoutSpendingAdmission() {
    Journal j = startedSale(600, 100_000, 1000);
    for (long place = 1; place <= 10; place++) j.leave(0, place);
    long now = j.tickEverySecond(START, 1);
    assertEquals(20, j.admittedUpTo, "ten a second of live places: the ten given up are passed for free");
    assertEquals(10, j.room.activeShoppers(now));
  }

  @Test
  void whoLeftSurvivesARestartInTheLobbyAndAfterTheStart() {
    Journal j = new Journal(schedule(600, 1000));
    for (int i = 0; i < 5; i++) j.join(LOBBY);
    j.leave(2, 0);
    Journal again = j.restarted();
    assertEquals(Optional.of(new Room.Start(Journal.SALT, 5)), again.tick(START).start());
    assertArrayEquals(new long[] {Lottery.place(2, Journal.SALT, 5)}, again.leftPlaces(),
        "the lobby leaver's place is skipped after a restart too (finding 3)");
    long later = again.takePlace(START);
    again.leave(0, later);
    Journal third = again.restarted();
    assertTrue(third.state().hasLeft(later));
    assertEquals(new Room.TakenBack(0, Lottery.place(2, Journal.SALT, 5)), third.comeBack(2, 0),
        "a lobby leaver who comes back before the line passed its drawn place gets that place");
  }

  // ---- leases ----------------------------------------------------------------------------

  @Test
  void placesAreLeasedAfterTheStartBehindTheCohortInBoundedBlocks() {
    Journal j = new Journal(schedule(600, 1000));
    assertEquals(Refusal.NOT_STARTED, refusal(j.room.lease(j.state(), 100)));
    for (int i = 0; i < 500; i++) j.join(LOBBY);
    j.tick(START);
    assertEquals(new Room.PlacesLeased(501, 600), j.lease(100));
    assertEquals(new Room.PlacesLeased(601, 700), j.lease(100));
    assertEquals(new Room.PlacesLeased(701, 701), j.lease(0), "at least one place");
    assertEquals(new Room.PlacesLeased(702, 701 + Room.MAX_LEASE), j.lease(Integer.MAX_VALUE));
  }

  @Test
  void aLeaseOfAnOlderEdgeNodeNeverOverlapsPlacesTheRoomGave() {
    Journal j = startedSale(600, 1000, 10);
    assertEquals(11, j.takePlace(START));
    assertEquals(new Room.PlacesLeased(12, 111), j.lease(100));
    assertEquals(112, j.takePlace(START), "and the room goes on after the lease");
  }

  // ---- seats -----------------------------------------------------------------------------

  @Test
  void soldOutMeansNothingFreeAndNothingHeld() {
    assertTrue(new Seats(0, 0, 100).soldOut());
    assertTrue(!new Seats(0, 1, 99).soldOut(), "a hold may lapse");
    assertTrue(new Seats(0, 1, 99).noneToHold());
    assertTrue(!Seats.UNKNOWN.soldOut() && !Seats.UNKNOWN.noneToHold(), "an inventory that has not answered stops nothing");
    Journal j = startedSale(600, 1000, 10);
    j.room.seatsCounted(new Seats(0, 0, 100));
    assertEquals(Phase.SOLD_OUT, j.room.phase(j.state(), START));
  }
}
