package io.boxoffice.queue;

import io.boxoffice.queue.domain.OnSaleSchedule;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.common.ReadSide;
import io.boxoffice.support.HandledEnvelopes;
import io.boxoffice.support.JournalWriter;
import io.boxoffice.support.ScratchDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.projection.ProjectionBehavior;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The on-sale keeper across a restart, on H2 and on PostgreSQL: its catalogue is whole at once
 * (the table its projections keep, and the events tagged since their offsets), it pokes every
 * scheduled room, and its projections resume from their stored offsets.
 */
class OnSaleKeeperRestartTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @ParameterizedTest
  @EnumSource(ScratchDatabase.Kind.class)
  void theCatalogueIsWholeAfterARestartAndTheProjectionsResume(ScratchDatabase.Kind kind) throws Exception {
    try (ScratchDatabase db = ScratchDatabase.create(kind)) {
      List<String> handledFirst = Collections.synchronizedList(new ArrayList<>());
      ActorTestKit first = db.start();
      try {
        define(first, "k1", false);
        define(first, "k2", true);
        ReadSide readSide = db.readSide(first.system());
        startProjections(first, readSide, handledFirst);
        ActorRef<OnSaleKeeper.Command> keeper = first.spawn(OnSaleKeeper.create(readSide, Duration.ofMillis(200), rooms(first, ConcurrentHashMap.newKeySet())));
        assertCatalogue(first, keeper, Set.of("k1", "k2"));
        await().atMost(WAIT).untilAsserted(() -> assertEquals(Set.of("event:k1", "event:k2", "onsale:k2"), rows(db)));
        await().atMost(WAIT).untilAsserted(() -> assertEquals(3, handledFirst.size()));
      } finally {
        first.shutdownTestKit();
      }

      List<String> handledAgain = Collections.synchronizedList(new ArrayList<>());
      ActorTestKit again = db.start();
      try {
        define(again, "k3", true);
        ReadSide readSide = db.readSide(again.system());
        Set<String> poked = ConcurrentHashMap.newKeySet();
        // The keeper before its projections run again: the table, and what was tagged since.
        ActorRef<OnSaleKeeper.Command> keeper = again.spawn(OnSaleKeeper.create(readSide, Duration.ofMillis(200), rooms(again, poked)));
        assertCatalogue(again, keeper, Set.of("k1", "k2", "k3"));
        await().atMost(WAIT).untilAsserted(() -> assertTrue(poked.containsAll(Set.of("k2", "k3")), poked.toString()));
        assertFalse(poked.contains("k1"), "a room without a schedule is not kept running");

        startProjections(again, readSide, handledAgain);
        await().atMost(WAIT).untilAsserted(() -> assertEquals(
            Set.of("event:k1", "event:k2", "onsale:k2", "event:k3", "onsale:k3"), rows(db)));
        assertEquals(List.of("WaitingRoom|k3#1", "WaitingRoom|k3#2"), handledAgain.stream().sorted().toList(),
            "after the restart only the events written while the projections were down are handled");
      } finally {
        again.shutdownTestKit();
      }
    }
  }

  /** An event defined as its room writes it: with its schedule in the same write, or closed. */
  private static void define(ActorTestKit kit, String eventId, boolean scheduled) {
    Object defined = new WaitingRoom.EventDefined("Show " + eventId, "venue");
    Object schedule = new WaitingRoom.ScheduleSet(new OnSaleSchedule(1, 2, 100, 100, false, 0));
    // The tags WaitingRoom.tagsFor gives these two events.
    Function<Object, Set<String>> tags = e -> e instanceof WaitingRoom.ScheduleSet ? Set.of(OnSaleKeeper.TAG) : Set.of(OnSaleKeeper.EVENT_TAG);
    if (scheduled) JournalWriter.write(kit, "WaitingRoom|" + eventId, tags, defined, schedule);
    else JournalWriter.write(kit, "WaitingRoom|" + eventId, tags, defined);
  }

  private static void assertCatalogue(ActorTestKit kit, ActorRef<OnSaleKeeper.Command> keeper, Set<String> expected) {
    TestProbe<OnSaleKeeper.Events> probe = kit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      keeper.tell(new OnSaleKeeper.ListEvents(probe.ref()));
      OnSaleKeeper.Events events = probe.receiveMessage();
      assertTrue(events.complete(), "the keeper has read its catalogue");
      assertEquals(expected, events.eventIds());
      return null;
    });
  }

  private static void startProjections(ActorTestKit kit, ReadSide readSide, List<String> handled) {
    for (String tag : OnSaleKeeper.TAGS) {
      kit.spawn(ProjectionBehavior.create(OnSaleKeeper.projection(kit.system(), readSide, tag)
          .withStatusObserver(new HandledEnvelopes<>(handled))));
    }
  }

  /** Each room the keeper pokes, by event id. */
  private static Function<String, RecipientRef<WaitingRoom.Command>> rooms(ActorTestKit kit, Set<String> poked) {
    Map<String, RecipientRef<WaitingRoom.Command>> rooms = new ConcurrentHashMap<>();
    return eventId -> rooms.computeIfAbsent(eventId, id -> kit.spawn(Behaviors.<WaitingRoom.Command>receiveMessage(m -> {
      if (m instanceof WaitingRoom.Tick) poked.add(id);
      return Behaviors.same();
    })));
  }

  private static Set<String> rows(ScratchDatabase db) throws Exception {
    Set<String> rows = new HashSet<>();
    try (Connection c = db.connect(); Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SELECT tag, event_id FROM onsale_catalogue")) {
      while (rs.next()) rows.add(rs.getString(1) + ":" + rs.getString(2));
    }
    return rows;
  }
}
