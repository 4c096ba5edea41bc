package io.boxoffice.queue;

import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.queue.domain.Lottery;
import io.boxoffice.queue.domain.OnSaleSchedule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestConfigs;
import io.boxoffice.venue.domain.StadiumGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The waiting room on an injected clock: schedule, lobby, lottery start, admission rate and cap, pause, places given and given up, restarts. */
class WaitingRoomTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());
  static final Instant T0 = Instant.parse("2026-12-01T09:45:00Z");

  final MutableClock clock = new MutableClock(T0);
  final String eventId = "wr-" + UUID.randomUUID();
  final AtomicReference<WaitingRoom.Manifest> published = new AtomicReference<>();
  final ActorRef<EventInventory.Command> inventory;
  final WaitingRoomSettings settings;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  WaitingRoomTest() {
    inventory = testKit.spawn(EventInventory.create(eventId, TestConfigs.inventory(clock, 100)));
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inventory.tell(new EventInventory.Create(new EventDefinition(eventId, "Show", StadiumGenerator.generate("v", "S", 1000),
        Map.of("floor", 100, "lower", 50, "upper", 20), 480, 0, 8), probe.getRef()));
    probe.expectMessageClass(EventInventory.Created.class);
    // Ticks come only from the test: the timer's period is far beyond any test.
    settings = new WaitingRoomSettings(clock, Duration.ofDays(1), Duration.ofMinutes(10), id -> inventory, published::set,
        Duration.ofSeconds(3), new SnapshotPolicy(500, 2));
  }

  ActorRef<WaitingRoom.Command> room() {
    return testKit.spawn(WaitingRoom.create(eventId, settings));
  }

  WaitingRoom.Manifest ask(ActorRef<WaitingRoom.Command> room, java.util.function.Function<ActorRef<WaitingRoom.Reply>, WaitingRoom.Command> f) {
    TestProbe<WaitingRoom.Reply> probe = testKit.createTestProbe();
    room.tell(f.apply(probe.getRef()));
    return probe.expectMessageClass(WaitingRoom.Manifest.class);
  }

  /** Moves the clock a second at a time and ticks, each tick handled before the clock moves on. */
  void tickFor(ActorRef<WaitingRoom.Command> room, int seconds) {
    for (int i = 0; i < seconds; i++) {
      clock.advance(Duration.ofSeconds(1));
      room.tell(new WaitingRoom.Tick());
      manifest(room);
    }
  }

  WaitingRoom.Manifest manifest(ActorRef<WaitingRoom.Command> room) {
    return ask(room, WaitingRoom.GetManifest::new);
  }

  /** {@code accounts} accounts join the lobby (opening it first if needed), each getting the next join index. */
  void lobby(ActorRef<WaitingRoom.Command> room, int accounts) {
    Instant opens = T0.plusSeconds(60);
    if (clock.instant().isBefore(opens)) clock.advance(Duration.between(clock.instant(), opens));
    TestProbe<WaitingRoom.Reply> probe = testKit.createTestProbe();
    // In rounds: asks that arrive while a reservation is written wait in the entity's bounded stash.
    for (int done = 0; done < accounts; done += 500) {
      int round = Math.min(500, accounts - done);
      for (int i = 0; i < round; i++) room.tell(new WaitingRoom.TakeLobbyIndex(probe.getRef()));
      for (int i = 0; i < round; i++) probe.expectMessageClass(WaitingRoom.LobbyIndex.class);
    }
  }

  OnSaleSchedule schedule(int perMinute, int maxActive) {
    long lobby = T0.plusSeconds(60).toEpochMilli();
    long start = T0.plusSeconds(15 * 60).toEpochMilli();
    return new OnSaleSchedule(lobby, start, perMinute, maxActive, false, 0);
  }

  void startSale(ActorRef<WaitingRoom.Command> room) {
    clock.advance(Duration.ofMinutes(15));
    room.tell(new WaitingRoom.Tick());
    TestProbe<Object> p = testKit.createTestProbe();
    p.awaitAssert(() -> {
      assertNotNull(manifest(room).salt());
      return null;
    });
  }

  @Test
  void theLobbyOpensAndTheSaleStartsByTheScheduleWithAFreshSaltAndTheLobbyAsCohort() {
    ActorRef<WaitingRoom.Command> room = room();
    WaitingRoom.Manifest m = ask(room, r -> new WaitingRoom.SetSchedule(schedule(600, 10_000), r));
    assertEquals("scheduled", m.state());
    clock.advance(Duration.ofMinutes(2));
    assertEquals("lobby", manifest(room).state());
    lobby(room, 700);
    lobby(room, 300);
    room.tell(new WaitingRoom.Tick());
    assertEquals(1000, manifest(room).lobby());
    TestProbe<Object> await = testKit.createTestProbe();
    await.awaitAssert(() -> {
      assertEquals(1000, manifest(room).seatsRemaining(), "the lobby is told how many seats there are");
      return null;
    });
    assertNull(manifest(room).salt(), "no salt before the start");
    clock.advance(Duration.ofMinutes(13));
    room.tell(new WaitingRoom.Tick());
    WaitingRoom.Manifest started = manifest(room);
    assertEquals("waiting", started.state());
    assertEquals(64, started.salt().length());
    assertEquals(1000, started.cohortSize());
    assertEquals(0, started.admittedUpTo());
  }

  @Test
  void theLineMovesAtTheRateWithinTenPercentOverThirtySeconds() {
    ActorRef<WaitingRoom.Command> room = room();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(1200, 100_000), r));
    lobby(room, 5_000);
    startSale(room);
    tickFor(room, 30);
    long admitted = manifest(room).admittedUpTo();
    assertTrue(Math.abs(admitted - 600) <= 60, "admitted " + admitted + " in 30 s at 1200/min");
    assertEquals(admitted, published.get().admittedUpTo(), "edges are told");
  }

  @Test
  void theCapOnActiveShoppersHoldsAndFreesAsShoppersLeave() {
    ActorRef<WaitingRoom.Command> room = room();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(6000, 150), r));
    lobby(room, 10_000);
    startSale(room);
    tickFor(room, 20);
    assertEquals(150, manifest(room).admittedUpTo(), "100/s, but only 150 may shop at once");
    room.tell(new WaitingRoom.ShoppersLeft(40));
    tickFor(room, 3);
    assertEquals(190, manifest(room).admittedUpTo());
    clock.advance(Duration.ofMinutes(10));
    tickFor(room, 2);
    assertTrue(manifest(room).admittedUpTo() > 190, "windows that ended free their places");
  }

  @Test
  void pauseStopsAdmissionAndResumeGoesOnWithoutABurst() {
    ActorRef<WaitingRoom.Command> room = room();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(600, 100_000), r));
    lobby(room, 10_000);
    startSale(room);
    tickFor(room, 10);
    long before = manifest(room).admittedUpTo();
    assertEquals("paused", ask(room, r -> new WaitingRoom.SetPaused(true, r)).state());
    tickFor(room, 60);
    assertEquals(before, manifest(room).admittedUpTo());
    ask(room, r -> new WaitingRoom.SetPaused(false, r));
    tickFor(room, 1);
    assertTrue(manifest(room).admittedUpTo() - before <= 11, "no catching up on the paused minute");
    assertEquals(2400, ask(room, r -> new WaitingRoom.ChangeRates(2400, null, r)).admissionPerMinute());
  }

  @Test
  void laterArrivalsGetLeasedPlacesBehindTheCohort() {
    ActorRef<WaitingRoom.Command> room = room();
    TestProbe<WaitingRoom.Reply> probe = testKit.createTestProbe();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(600, 100_000), r));
    room.tell(new WaitingRoom.LeasePlaces(100, probe.getRef()));
    assertEquals("not_started", probe.expectMessageClass(WaitingRoom.Rejected.class).code().code());
    lobby(room, 500);
    startSale(room);
    room.tell(new WaitingRoom.LeasePlaces(100, probe.getRef()));
    assertEquals(new WaitingRoom.Leased(501, 600), probe.expectMessageClass(WaitingRoom.Leased.class));
    room.tell(new WaitingRoom.LeasePlaces(100, probe.getRef()));
    assertEquals(new WaitingRoom.Leased(601, 700), probe.expectMessageClass(WaitingRoom.Leased.class));
  }

  @Test
  void scheduleSaltAndLineSurviveARestart() {
    ActorRef<WaitingRoom.Command> room = room();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(600, 100_000), r));
    lobby(room, 5000);
    startSale(room);
    tickFor(room, 10);
    WaitingRoom.Manifest before = manifest(room);
    testKit.stop(room);
    ActorRef<WaitingRoom.Command> again = room();
    WaitingRoom.Manifest after = manifest(again);
    assertEquals(before.salt(), after.salt());
    assertEquals(before.cohortSize(), after.cohortSize());
    assertEquals(before.admittedUpTo(), after.admittedUpTo());
    assertEquals(before.startsAt(), after.startsAt());
    TestProbe<WaitingRoom.Reply> probe = testKit.createTestProbe();
    again.tell(new WaitingRoom.SetSchedule(schedule(600, 100_000), probe.getRef()));
    assertInstanceOf(WaitingRoom.Rejected.class, probe.receiveMessage(), "a started sale cannot be rescheduled");
  }

  @Test
  void lobbyIndicesAreOnePerAskInOrderAndARestartNeverGivesOneTwice() {
    ActorRef<WaitingRoom.Command> room = room();
    TestProbe<WaitingRoom.Reply> probe = testKit.createTestProbe();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(600, 100_000), r));
    room.tell(new WaitingRoom.TakeLobbyIndex(probe.getRef()));
    assertEquals("not_open", probe.expectMessageClass(WaitingRoom.Rejected.class).code().code());
    lobby(room, 3);
    testKit.stop(room);
    ActorRef<WaitingRoom.Command> again = room();
    again.tell(new WaitingRoom.TakeLobbyIndex(probe.getRef()));
    assertTrue(probe.expectMessageClass(WaitingRoom.LobbyIndex.class).index() > 3, "an index given before the restart is never given again");
    again.tell(new WaitingRoom.Left(2, 0));
    again.tell(new WaitingRoom.Tick());
    assertTrue(manifest(again).lobby() >= 0);
    startSale(again);
    again.tell(new WaitingRoom.TakeLobbyIndex(probe.getRef()));
    assertEquals("started", probe.expectMessageClass(WaitingRoom.Rejected.class).code().code());
  }

  @Test
  void aPlaceGivenUpIsReleasedAndNotCountedAsAShopper() {
    ActorRef<WaitingRoom.Command> room = room();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(6000, 150), r));
    lobby(room, 1000);
    startSale(room);
    WaitingRoom.Manifest started = manifest(room);
    // Ten lobby accounts give up before the line reaches them: their places are released.
    for (long index = 1; index <= 10; index++) room.tell(new WaitingRoom.Left(index, 0));
    long[] left = manifest(room).left();
    assertEquals(10, left.length);
    for (long index = 1; index <= 10; index++) {
      assertTrue(java.util.Arrays.binarySearch(left, Lottery.place(index, started.salt(), started.cohortSize())) >= 0);
    }
    tickFor(room, 20);
    WaitingRoom.Manifest m = manifest(room);
    long releasedPassed = java.util.Arrays.stream(left).filter(p -> p <= m.admittedUpTo()).count();
    assertEquals(150 + releasedPassed, m.admittedUpTo(), "released places do not use up the cap");
    assertEquals(150, m.activeShoppers());
  }

  // ---- issue 31: places stay dense across restarts, and who left is written down ---------

  <T extends WaitingRoom.Reply> T reply(ActorRef<WaitingRoom.Command> room,
                                        java.util.function.Function<ActorRef<WaitingRoom.Reply>, WaitingRoom.Command> f, Class<T> type) {
    TestProbe<WaitingRoom.Reply> probe = testKit.createTestProbe();
    room.tell(f.apply(probe.getRef()));
    return probe.expectMessageClass(type);
  }

  @Test
  void aRestartInTheLobbyAddsNoPlaceNobodyHolds() {
    ActorRef<WaitingRoom.Command> room = room();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(600, 100_000), r));
    lobby(room, 3);
    testKit.stop(room);
    ActorRef<WaitingRoom.Command> again = room();
    assertEquals(new WaitingRoom.LobbyIndex(4), reply(again, WaitingRoom.TakePlace::new, WaitingRoom.LobbyIndex.class),
        "the next index follows the last given, however the room restarted");
    testKit.stop(again);
    ActorRef<WaitingRoom.Command> third = room();
    startSale(third);
    assertEquals(4, manifest(third).cohortSize(), "four accounts, four places: no block of places nobody holds (finding 8)");
  }

  @Test
  void laterPlacesFollowTheLastGivenAcrossARestart() {
    ActorRef<WaitingRoom.Command> room = room();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(600, 100_000), r));
    lobby(room, 3);
    startSale(room);
    assertEquals(new WaitingRoom.LaterPlace(4), reply(room, WaitingRoom.TakePlace::new, WaitingRoom.LaterPlace.class));
    assertEquals(new WaitingRoom.LaterPlace(5), reply(room, WaitingRoom.TakePlace::new, WaitingRoom.LaterPlace.class));
    testKit.stop(room);
    ActorRef<WaitingRoom.Command> again = room();
    assertEquals(new WaitingRoom.LaterPlace(6), reply(again, WaitingRoom.TakePlace::new, WaitingRoom.LaterPlace.class),
        "no lease lost with a node: the next fan is sixth (finding 8)");
    tickFor(again, 60);
    assertEquals(6, manifest(again).admittedUpTo(), "the line runs to the last place given, over no phantom");
  }

  @Test
  void whoLeftIsWrittenDownAndSurvivesARestart() {
    ActorRef<WaitingRoom.Command> room = room();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(1, 100_000), r));
    lobby(room, 5);
    reply(room, r -> new WaitingRoom.GiveUp(2, 0, r), WaitingRoom.Recorded.class);
    testKit.stop(room);
    ActorRef<WaitingRoom.Command> again = room();
    startSale(again);
    WaitingRoom.Manifest started = manifest(again);
    long drawn = Lottery.place(2, started.salt(), started.cohortSize());
    assertTrue(java.util.Arrays.binarySearch(started.left(), drawn) >= 0, "the lobby leaver's place is skipped after a restart (finding 3)");
    long later = reply(again, WaitingRoom.TakePlace::new, WaitingRoom.LaterPlace.class).place();
    reply(again, r -> new WaitingRoom.GiveUp(0, later, r), WaitingRoom.Recorded.class);
    testKit.stop(again);
    ActorRef<WaitingRoom.Command> third = room();
    assertTrue(java.util.Arrays.binarySearch(manifest(third).left(), later) >= 0, "a later place given up is still given up");
    reply(third, r -> new WaitingRoom.TakeBack(0, later, r), WaitingRoom.Recorded.class);
    assertTrue(java.util.Arrays.binarySearch(manifest(third).left(), later) < 0, "taken back before the line reached it");
  }

  @Test
  void theNewEventsAndTheStateWithWhoLeftReadBackAsWritten() {
    org.apache.pekko.serialization.Serialization serialization =
        org.apache.pekko.serialization.SerializationExtension.get(testKit.system());
    WaitingRoom.State state = WaitingRoom.State.empty().withLobbyGiven(7).withGiven(12).withLeft(3, 0, true).withLeft(0, 11, true)
        .withLeft(0, 9, true);
    for (Object written : java.util.List.of(state, new WaitingRoom.LobbyIndexesGiven(7), new WaitingRoom.PlacesGiven(12),
        new WaitingRoom.PlaceGivenUp(0, 11), new WaitingRoom.PlaceTakenBack(3, 0))) {
      org.apache.pekko.serialization.Serializer serializer = serialization.findSerializerFor(written);
      assertTrue(serializer.getClass().getSimpleName().contains("Jackson"), serializer.toString());
      byte[] bytes = serialization.serialize(written).get();
      Object read = serialization.deserialize(bytes, serializer.identifier(),
          org.apache.pekko.serialization.Serializers.manifestFor(serializer, written)).get();
      assertEquals(written, read);
    }
    assertEquals(java.util.List.of(9L, 11L), state.left(), "kept sorted");
  }

  @Test
  void nobodyIsAdmittedOnceNoSeatIsLeft() {
    ActorRef<WaitingRoom.Command> room = room();
    ask(room, r -> new WaitingRoom.SetSchedule(schedule(6000, 100_000), r));
    lobby(room, 10_000);
    startSale(room);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    for (int i = 0; i < 1000; i++) {
      inventory.tell(new EventInventory.HoldBest("fan-" + i, 1, null, null, probe.getRef()));
      probe.expectMessageClass(EventInventory.Held.class);
    }
    tickFor(room, 2);
    long stopped = manifest(room).admittedUpTo();
    tickFor(room, 5);
    assertEquals(stopped, manifest(room).admittedUpTo());
    assertEquals(0, manifest(room).seatsRemaining());
  }
}
