package io.boxoffice.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.queue.domain.OnSaleSchedule;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestConfigs;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * One account's place against a real waiting room (issue 31, findings 2 and 3): one place per
 * account, ever; leaving and coming back gives the same place while the line has not passed
 * it, and {@code place_given_up} after; concurrent joins of one account get one place.
 */
class QueuePlaceTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());
  static final Instant T0 = Instant.parse("2026-12-01T09:45:00Z");

  final MutableClock clock = new MutableClock(T0);
  final String eventId = "qp-" + UUID.randomUUID();
  final ActorRef<WaitingRoom.Command> room;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  QueuePlaceTest() {
    // No inventory answers: the room keeps its seat counts unknown, which stops nothing.
    ActorRef<EventInventory.Command> inventory = testKit.spawn(Behaviors.ignore());
    WaitingRoomSettings settings = new WaitingRoomSettings(clock, Duration.ofDays(1), Duration.ofMinutes(10), id -> inventory,
        m -> {}, Duration.ofSeconds(3), new SnapshotPolicy(500, 2));
    room = testKit.spawn(WaitingRoom.create(eventId, settings));
    long lobby = T0.plusSeconds(60).toEpochMilli();
    TestProbe<WaitingRoom.Reply> probe = testKit.createTestProbe();
    room.tell(new WaitingRoom.SetSchedule(new OnSaleSchedule(lobby, T0.plusSeconds(900).toEpochMilli(), 60, 100_000, false, 0),
        probe.getRef()));
    probe.expectMessageClass(WaitingRoom.Manifest.class);
  }

  ActorRef<QueuePlace.Command> place(String account) {
    return testKit.spawn(QueuePlace.create(QueuePlace.entityId(eventId, account), id -> room, Duration.ofSeconds(3)));
  }

  QueuePlace.Place ask(ActorRef<QueuePlace.Command> place, java.util.function.Function<ActorRef<QueuePlace.Place>, QueuePlace.Command> f) {
    TestProbe<QueuePlace.Place> probe = testKit.createTestProbe();
    place.tell(f.apply(probe.getRef()));
    return probe.expectMessageClass(QueuePlace.Place.class, Duration.ofSeconds(5));
  }

  WaitingRoom.Manifest manifest() {
    TestProbe<WaitingRoom.Reply> probe = testKit.createTestProbe();
    room.tell(new WaitingRoom.GetManifest(probe.getRef()));
    return probe.expectMessageClass(WaitingRoom.Manifest.class);
  }

  void started(int lobbyAccounts) {
    clock.advance(Duration.ofSeconds(60));
    for (int i = 0; i < lobbyAccounts; i++) ask(place("lobby-" + i), QueuePlace.Join::new);
    clock.advance(Duration.ofMinutes(15));
    room.tell(new WaitingRoom.Tick());
    testKit.createTestProbe().awaitAssert(() -> {
      assertTrue(manifest().salt() != null);
      return null;
    });
  }

  @Test
  void leavingAndRejoiningAfterTheStartGivesTheSamePlaceAndPushesNobodyBack() {
    started(3);
    ActorRef<QueuePlace.Command> bot = place("bot");
    long first = ask(bot, QueuePlace.Join::new).place();
    assertEquals(4, first);
    for (int i = 0; i < 11; i++) {
      assertEquals(first, ask(bot, QueuePlace.Leave::new).place());
      QueuePlace.Place back = ask(bot, QueuePlace.Join::new);
      assertTrue(back.holds(), back.toString());
      assertEquals(first, back.place(), "the same place back, not a new one (finding 2)");
    }
    assertEquals(first + 1, ask(place("next-fan"), QueuePlace.Join::new).place(), "the next fan is fifth, not fifteenth");
    assertEquals(0, manifest().left().length, "the loop leaves nothing behind");
  }

  @Test
  void aPlaceGivenUpAndPassedIsNeverReplaced() {
    started(3);
    ActorRef<QueuePlace.Command> fan = place("fan");
    long mine = ask(fan, QueuePlace.Join::new).place();
    ask(fan, QueuePlace.Leave::new);
    // The line moves a minute on: at 60 a minute it passes place 4, skipping the given-up place for free.
    for (int s = 0; s < 60; s++) {
      clock.advance(Duration.ofSeconds(1));
      room.tell(new WaitingRoom.Tick());
    }
    testKit.createTestProbe().awaitAssert(() -> {
      assertTrue(manifest().admittedUpTo() >= mine);
      return null;
    });
    QueuePlace.Place again = ask(fan, QueuePlace.Join::new);
    assertFalse(again.holds());
    assertEquals("place_given_up", again.refusal());
    assertEquals(mine + 1, ask(place("later"), QueuePlace.Join::new).place(), "no place was made for the leaver");
  }

  @Test
  void concurrentJoinsOfOneAccountGetOnePlace() {
    started(2);
    ActorRef<QueuePlace.Command> fan = place("many-tabs");
    TestProbe<QueuePlace.Place> probe = testKit.createTestProbe();
    for (int i = 0; i < 30; i++) fan.tell(new QueuePlace.Join(probe.getRef()));
    Set<Long> places = new HashSet<>();
    for (int i = 0; i < 30; i++) places.add(probe.expectMessageClass(QueuePlace.Place.class).place());
    assertEquals(Set.of(3L), places);
    assertEquals(4, ask(place("other"), QueuePlace.Join::new).place());
  }
}
