package io.boxoffice.inventory;

import io.boxoffice.common.Refusal;
import io.boxoffice.inventory.domain.Decision;
import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.inventory.domain.SeatBook;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestConfigs;
import io.boxoffice.venue.domain.StadiumGenerator;
import io.boxoffice.venue.domain.VenueLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.testkit.JournalOperation;
import org.apache.pekko.persistence.testkit.ProcessingSuccess$;
import org.apache.pekko.persistence.testkit.WriteEvents;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.apache.pekko.persistence.testkit.javadsl.SnapshotTestKit;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The inventory entity on the persistence testkit: group commit, replies after the write, recovery, snapshots. */
class EventInventoryTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());
  static final PersistenceTestKit journal = PersistenceTestKit.create(testKit.system());
  static final Map<String, Integer> PRICES = Map.of("floor", 20_000, "lower", 12_000, "upper", 6_000);

  final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void reset() {
    journal.resetPolicy();
  }

  static EventDefinition definition(String eventId, int seats) {
    return definition(eventId, seats, 90);
  }

  static EventDefinition definition(String eventId, int seats, int holdJitterSeconds) {
    VenueLayout venue = StadiumGenerator.generate("v-" + eventId, "Stadium", seats);
    return new EventDefinition(eventId, "Show", venue, PRICES, 480, holdJitterSeconds, 8).validated();
  }

  ActorRef<EventInventory.Command> spawn(String eventId, int snapshotEvery) {
    return testKit.spawn(EventInventory.create(eventId, TestConfigs.inventory(clock, snapshotEvery)));
  }

  ActorRef<EventInventory.Command> created(String eventId, int seats, int snapshotEvery) {
    ActorRef<EventInventory.Command> inv = spawn(eventId, snapshotEvery);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.Create(definition(eventId, seats), probe.getRef()));
    probe.expectMessage(new EventInventory.Created(eventId));
    return inv;
  }

  static String newEventId() {
    return "ev-" + UUID.randomUUID();
  }

  @Test
  void anEventIsCreatedOnceAndUnknownBeforeThat() {
    String id = newEventId();
    ActorRef<EventInventory.Command> inv = spawn(id, 100);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldBest("a", 2, null, null, probe.getRef()));
    assertEquals(Refusal.NOT_FOUND, probe.expectMessageClass(EventInventory.Rejected.class).code());
    inv.tell(new EventInventory.Create(definition(id, 1000), probe.getRef()));
    probe.expectMessage(new EventInventory.Created(id));
    inv.tell(new EventInventory.Create(definition(id, 1000), probe.getRef()));
    assertEquals(Refusal.EVENT_EXISTS, probe.expectMessageClass(EventInventory.Rejected.class).code());
  }

  @Test
  void everyIncarnationOfACreatedEventReportsItsRecoveryAndAnUnknownIdNone() {
    String id = newEventId();
    List<String> recovered = java.util.Collections.synchronizedList(new ArrayList<>());
    InventoryMetrics metrics = new InventoryMetrics() {
      @Override
      public void batchWritten(String eventId, int commands, int decisions, long writeNanos) {}

      @Override
      public void recovered(String eventId, long recoveryMillis) {
        recovered.add(eventId + " in " + recoveryMillis + " ms");
      }
    };
    var settings = TestConfigs.inventory(clock, 100).withMetrics(metrics);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    // An id nobody created: it answers not found and reports nothing (no metric, no log line per probe).
    ActorRef<EventInventory.Command> unknown = testKit.spawn(EventInventory.create(newEventId(), settings));
    unknown.tell(new EventInventory.HoldBest("a", 2, null, null, probe.getRef()));
    probe.expectMessageClass(EventInventory.Rejected.class);
    ActorRef<EventInventory.Command> inv = testKit.spawn(EventInventory.create(id, settings));
    inv.tell(new EventInventory.Create(definition(id, 1000), probe.getRef()));
    probe.expectMessage(new EventInventory.Created(id));
    assertEquals(List.of(), recovered, "a new event has nothing to recover");
    testKit.stop(inv);
    ActorRef<EventInventory.Command> again = testKit.spawn(EventInventory.create(id, settings));
    again.tell(new EventInventory.GetStats(probe.getRef()));
    probe.expectMessageClass(EventInventory.Stats.class);
    // The test's clock stands still while the entity reads: 0 ms.
    assertEquals(List.of(id + " in 0 ms"), recovered);

    // An hour of selling, then a write fails: the supervisor restarts the entity, which reads the
    // event back again and reports that read alone, not the hour before it.
    clock.advance(Duration.ofHours(1));
    journal.failNextPersisted();
    again.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), probe.getRef()));
    probe.awaitAssert(Duration.ofSeconds(5), () -> {
      again.tell(new EventInventory.GetStats(probe.getRef()));
      probe.expectMessageClass(EventInventory.Stats.class);
      assertEquals(List.of(id + " in 0 ms", id + " in 0 ms"), recovered);
      return null;
    });
  }

  @Test
  void holdDeadlinesAreHoldSecondsPlusJitterWithinItsBounds() {
    ActorRef<EventInventory.Command> inv = created(newEventId(), 2000, 100);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    long now = clock.millis();
    List<Long> deadlines = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      inv.tell(new EventInventory.HoldBest("acct-" + i, 1, null, null, probe.getRef()));
      deadlines.add(probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt());
    }
    for (long d : deadlines) assertTrue(d >= now + 480_000 && d <= now + 570_000, "deadline out of bounds: " + (d - now));
    assertTrue(deadlines.stream().distinct().count() > 30, "deadlines are not jittered");
  }

  @Test
  void salesAndHoldsSurviveARestart() {
    String id = newEventId();
    ActorRef<EventInventory.Command> inv = created(id, 1000, 100);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1", "F1-A-2"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
    inv.tell(new EventInventory.Confirm("fan", "order-1", List.of("F1-A-1", "F1-A-2"), probe.getRef()));
    assertEquals("order-1", probe.expectMessageClass(EventInventory.Confirmed.class).orderId());
    inv.tell(new EventInventory.HoldSeats("other", List.of("F1-A-3"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);

    testKit.stop(inv);
    ActorRef<EventInventory.Command> again = spawn(id, 100);
    again.tell(new EventInventory.GetStats(probe.getRef()));
    assertEquals(new EventInventory.Stats(997, 1, 2, 1), probe.expectMessageClass(EventInventory.Stats.class));
    again.tell(new EventInventory.HoldSeats("third", List.of("F1-A-2", "F1-A-3"), probe.getRef()));
    assertEquals(List.of("F1-A-2", "F1-A-3"), probe.expectMessageClass(EventInventory.Rejected.class).seatIds());
    again.tell(new EventInventory.Scan("F1-A-1", "order-1", probe.getRef()));
    probe.expectMessage(new EventInventory.Admitted("F1-A-1"));
  }

  @Test
  void recoveryFromASnapshotPlusLaterBatchesGivesTheSameBook() {
    String id = newEventId();
    ActorRef<EventInventory.Command> inv = created(id, 5000, 3);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    for (int i = 0; i < 10; i++) {
      inv.tell(new EventInventory.HoldBest("fan-" + i, 2, null, null, probe.getRef()));
      probe.expectMessageClass(EventInventory.Held.class);
    }
    inv.tell(new EventInventory.GetAvailability(probe.getRef()));
    byte[] before = probe.expectMessageClass(EventInventory.Availability.class).bits();
    SnapshotTestKit snapshots = SnapshotTestKit.create(testKit.system());
    assertTrue(!snapshots.persistedInStorage("EventInventory|" + id).isEmpty(), "no snapshot was taken");

    testKit.stop(inv);
    clock.advance(Duration.ofSeconds(2));
    ActorRef<EventInventory.Command> again = spawn(id, 3);
    again.tell(new EventInventory.GetAvailability(probe.getRef()));
    assertEquals(java.util.Arrays.toString(before),
        java.util.Arrays.toString(probe.expectMessageClass(EventInventory.Availability.class).bits()));
  }

  @Test
  void commandsWaitingDuringAWriteAreDecidedTogetherInOneJournalEvent() throws Exception {
    String id = newEventId();
    ActorRef<EventInventory.Command> inv = created(id, 5000, 1000);
    testKit.stop(inv);

    // Hold the next incarnation in recovery: everything sent meanwhile waits in its stash and
    // must come out as one batch, one journal event.
    CountDownLatch release = new CountDownLatch(1);
    journal.withPolicy((String pid, JournalOperation op) -> {
      if (pid.endsWith(id) && !(op instanceof WriteEvents)) {
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return ProcessingSuccess$.MODULE$;
    });
    ActorRef<EventInventory.Command> again = spawn(id, 1000);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    int fans = 200;
    for (int i = 0; i < fans; i++) again.tell(new EventInventory.HoldBest("fan-" + i, 2, null, null, probe.getRef()));
    release.countDown();
    for (int i = 0; i < fans; i++) probe.expectMessageClass(EventInventory.Held.class, Duration.ofSeconds(10));
    journal.resetPolicy();

    List<Object> events = journal.persistedInStorage("EventInventory|" + id);
    assertEquals(2, events.size(), "expected the creation and one batch, got " + events.size() + " events");
    EventInventory.BatchDecided batch = assertInstanceOf(EventInventory.BatchDecided.class, events.get(1));
    assertEquals(fans, batch.decisions().size());
  }

  @Test
  void aFailedWriteEndsTheSpansOfItsBatchWithAnError() {
    InMemorySpanExporter exported = InMemorySpanExporter.create();
    try (OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .setSampler(Sampler.alwaysOn()).addSpanProcessor(SimpleSpanProcessor.create(exported)).build()).build()) {
      String id = newEventId();
      ActorRef<EventInventory.Command> inv = testKit.spawn(EventInventory.create(id,
          TestConfigs.inventory(clock, 1000).withTracing(io.boxoffice.common.Tracing.of(otel))));
      TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
      inv.tell(new EventInventory.Create(definition(id, 1000), probe.getRef()));
      probe.expectMessage(new EventInventory.Created(id));
      String request = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
      journal.failNextPersisted();
      inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), null, "r1", request, probe.getRef()));

      // Never answered (the write failed and the inventory restarted): both spans end anyway, as errors.
      Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        List<SpanData> spans = exported.getFinishedSpanItems();
        SpanData command = spans.stream().filter(s -> s.getName().equals("inventory HoldSeats")).findFirst().orElse(null);
        SpanData write = spans.stream().filter(s -> s.getName().equals("journal write")).findFirst().orElse(null);
        assertTrue(command != null && write != null, "the hold's and the write's spans ended: " + spans);
        assertEquals(StatusCode.ERROR, command.getStatus().getStatusCode());
        assertEquals(StatusCode.ERROR, write.getStatus().getStatusCode());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", command.getTraceId(), "the request's trace");
        assertEquals(command.getSpanId(), write.getParentSpanId());
      });
      // The next batch is traced as usual.
      inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-2"), null, "r2", request, probe.getRef()));
      probe.expectMessageClass(EventInventory.Held.class);
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> exported.getFinishedSpanItems().stream()
          .anyMatch(s -> s.getName().equals("inventory HoldSeats") && s.getStatus().getStatusCode() == StatusCode.UNSET));
    }
  }

  @Test
  void nobodyIsToldHeldWhenTheWriteFails() {
    String id = newEventId();
    ActorRef<EventInventory.Command> inv = created(id, 1000, 1000);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    journal.failNextPersisted();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), probe.getRef()));
    probe.expectNoMessage(Duration.ofMillis(500));
    // The entity restarted from the journal: the hold that could not be written does not exist.
    probe.awaitAssert(Duration.ofSeconds(5), () -> {
      inv.tell(new EventInventory.GetHolds("fan", probe.getRef()));
      assertEquals(new EventInventory.Holds(List.of(), 0), probe.expectMessageClass(EventInventory.Holds.class));
      return null;
    });
    inv.tell(new EventInventory.HoldSeats("other", List.of("F1-A-1"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
  }

  @Test
  void availabilityIsProducedAtMostOncePerInterval() {
    ActorRef<EventInventory.Command> inv = created(newEventId(), 1000, 1000);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.GetAvailability(probe.getRef()));
    EventInventory.Availability first = probe.expectMessageClass(EventInventory.Availability.class);
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
    clock.advance(Duration.ofMillis(999));
    inv.tell(new EventInventory.GetAvailability(probe.getRef()));
    assertEquals(first.version(), probe.expectMessageClass(EventInventory.Availability.class).version());
    clock.advance(Duration.ofMillis(1));
    inv.tell(new EventInventory.GetAvailability(probe.getRef()));
    EventInventory.Availability next = probe.expectMessageClass(EventInventory.Availability.class);
    assertNotEquals(first.version(), next.version());
    assertEquals(0b01, (next.bits()[0] >> 6) & 0b11, "the held seat shows as held");
  }

  @Test
  void anExpiredHoldCannotBeConfirmed() {
    ActorRef<EventInventory.Command> inv = created(newEventId(), 1000, 1000);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), probe.getRef()));
    EventInventory.Held held = probe.expectMessageClass(EventInventory.Held.class);
    clock.advance(Duration.ofMillis(held.holdExpiresAt() - clock.millis()));
    inv.tell(new EventInventory.Confirm("fan", "o1", List.of("F1-A-1"), probe.getRef()));
    assertEquals(Refusal.HOLD_EXPIRED, probe.expectMessageClass(EventInventory.Rejected.class).code());
    inv.tell(new EventInventory.HoldSeats("late", List.of("F1-A-1"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
  }

  @Test
  void abandonedSeatsAreOnSaleAgainTheMomentTheirHoldsEndWithoutAnyTimer() {
    ActorRef<EventInventory.Command> inv = created(newEventId(), 10, 1000);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    long latest = 0;
    // 10 seats: floor 1, lower 4, upper 5, so four pairs fit.
    for (int i = 0; i < 4; i++) {
      inv.tell(new EventInventory.HoldBest("walker-" + i, 2, null, null, probe.getRef()));
      latest = Math.max(latest, probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt());
    }
    inv.tell(new EventInventory.HoldBest("late", 2, null, null, probe.getRef()));
    assertEquals(Refusal.NO_SEATS, probe.expectMessageClass(EventInventory.Rejected.class).code());
    clock.advance(Duration.ofMillis(latest - clock.millis()));
    inv.tell(new EventInventory.GetAvailability(probe.getRef()));
    byte[] bits = probe.expectMessageClass(EventInventory.Availability.class).bits();
    for (byte b : bits) assertEquals(0, b, "every seat reads available at the deadline");
    inv.tell(new EventInventory.HoldBest("late", 2, null, null, probe.getRef()));
    assertEquals(2, probe.expectMessageClass(EventInventory.Held.class).seats().size());
  }

  @Test
  void onceAdmissionIsRequiredTheInventoryChecksEveryHoldsQueuePassItself() {
    byte[] key = "0123456789abcdef0123456789abcdef".getBytes();
    io.boxoffice.queue.domain.QueueToken tokens = new io.boxoffice.queue.domain.QueueToken(new io.boxoffice.queue.domain.QueueTokenSettings(
        clock, key, (byte[]) null, Duration.ofHours(24), Duration.ofMinutes(30), Duration.ofSeconds(15)));
    String id = newEventId();
    ActorRef<EventInventory.Command> inv = testKit.spawn(EventInventory.create(id, TestConfigs.inventory(clock, 100, tokens)));
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.Create(definition(id, 1000), probe.getRef()));
    probe.expectMessageClass(EventInventory.Created.class);
    // Before the on-sale is set up, holds need no pass (an open sale).
    inv.tell(new EventInventory.HoldSeats("walk-in", List.of("F1-A-1"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
    inv.tell(new EventInventory.RequireAdmission(probe.getRef()));
    probe.expectMessageClass(EventInventory.Created.class);

    long now = clock.millis() / 1000;
    var admitted = new io.boxoffice.queue.domain.QueueToken.Claims(id, "fan", 7, "203.0.113.0/24", now, now);
    var waiting = new io.boxoffice.queue.domain.QueueToken.Claims(id, "fan", 7, "203.0.113.0/24", now, 0);
    EventInventory.QueuePass good = new EventInventory.QueuePass(tokens.issue(admitted), "203.0.113.0/24");
    String[][] refused = {
        {null, null}, {tokens.issue(waiting), "203.0.113.0/24"}, {tokens.issue(admitted), "198.51.100.0/24"},
        {tokens.issue(admitted) + "x", "203.0.113.0/24"}};
    for (String[] p : refused) {
      EventInventory.QueuePass pass = p[0] == null ? null : new EventInventory.QueuePass(p[0], p[1]);
      inv.tell(new EventInventory.HoldBest("fan", 2, null, null, pass, probe.getRef()));
      assertEquals(Refusal.NOT_ADMITTED, probe.expectMessageClass(EventInventory.Rejected.class).code());
    }
    inv.tell(new EventInventory.HoldSeats("other-fan", List.of("F1-A-2"), good, probe.getRef()));
    assertEquals(Refusal.NOT_ADMITTED, probe.expectMessageClass(EventInventory.Rejected.class).code(), "a pass is bound to its account");
    inv.tell(new EventInventory.HoldBest("fan", 2, null, null, good, probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
    // The requirement survives a restart.
    testKit.stop(inv);
    ActorRef<EventInventory.Command> again = testKit.spawn(EventInventory.create(id, TestConfigs.inventory(clock, 100, tokens)));
    again.tell(new EventInventory.HoldSeats("walk-in-2", List.of("F1-A-3"), probe.getRef()));
    assertEquals(Refusal.NOT_ADMITTED, probe.expectMessageClass(EventInventory.Rejected.class).code());
  }

  @Test
  void holdsGetBackTheTimeTheEventWasDown() {
    String id = newEventId();
    var settings = TestConfigs.inventory(clock, 100, null, Duration.ofSeconds(5));
    ActorRef<EventInventory.Command> inv = createdOn(id, settings);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), probe.getRef()));
    long deadline = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();

    // The node hosting the event dies; the event comes back five minutes later.
    testKit.stop(inv);
    clock.advance(Duration.ofMinutes(5));
    ActorRef<EventInventory.Command> again = testKit.spawn(EventInventory.create(id, settings));
    probe.awaitAssert(() -> {
      again.tell(new EventInventory.GetHolds("fan", probe.getRef()));
      assertEquals(deadline + Duration.ofMinutes(5).toMillis(), probe.expectMessageClass(EventInventory.Holds.class).holdExpiresAt());
      return null;
    });
    // Past the first deadline, inside the given-back time: the fan can still buy.
    clock.advance(Duration.ofMillis(deadline - clock.millis() + 1000));
    again.tell(new EventInventory.Confirm("fan", "o1", List.of("F1-A-1"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Confirmed.class);
    // A quick restart (within two heartbeats) gives nothing back.
    again.tell(new EventInventory.HoldSeats("fan2", List.of("F1-A-2"), probe.getRef()));
    long second = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();
    testKit.stop(again);
    clock.advance(Duration.ofSeconds(3));
    ActorRef<EventInventory.Command> third = testKit.spawn(EventInventory.create(id, settings));
    third.tell(new EventInventory.GetHolds("fan2", probe.getRef()));
    assertEquals(second, probe.expectMessageClass(EventInventory.Holds.class).holdExpiresAt());
  }

  /** A new event of holds without jitter, on the given settings (heartbeat, platform fault count). */
  ActorRef<EventInventory.Command> createdOn(String id, InventorySettings settings) {
    ActorRef<EventInventory.Command> inv = testKit.spawn(EventInventory.create(id, settings));
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.Create(definition(id, 1000, 0), probe.getRef()));
    probe.expectMessageClass(EventInventory.Created.class);
    return inv;
  }

  @Test
  void holdClocksStopWhileThePlatformAroundTheEventFails() {
    String id = newEventId();
    io.boxoffice.app.FaultLedger faults = new io.boxoffice.app.FaultLedger(2_000);
    var settings = TestConfigs.inventory(clock, 100, null, Duration.ofDays(1), faults);
    ActorRef<EventInventory.Command> inv = createdOn(id, settings);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1", "F1-A-2"), probe.getRef()));
    long deadline = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();
    inv.tell(new EventInventory.HoldSeats("early", List.of("F1-B-1"), probe.getRef()));
    long earlyDeadline = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();

    // Ten seconds before the fan's deadline the node of its cart becomes unreachable (noticed
    // 4 s after it failed); it is removed a minute later, and 2 s of settling follow.
    clock.advance(Duration.ofMillis(deadline - clock.millis() - 10_000));
    faults.started("unreachable cart-node", clock.millis(), 4_000);
    // The fan's original deadline passes while the platform fails: reads still show the hold.
    clock.advance(Duration.ofSeconds(30));
    inv.tell(new EventInventory.GetHolds("fan", probe.getRef()));
    EventInventory.Holds during = probe.expectMessageClass(EventInventory.Holds.class);
    assertEquals(2, during.seats().size());
    assertTrue(during.holdExpiresAt() > clock.millis());
    // A batch in the middle of the fault: another fan cannot take the seats.
    inv.tell(new EventInventory.HoldSeats("rival", List.of("F1-A-1"), probe.getRef()));
    assertEquals(Refusal.SEATS_TAKEN, probe.expectMessageClass(EventInventory.Rejected.class).code());
    clock.advance(Duration.ofSeconds(30));
    faults.ended("unreachable cart-node", clock.millis());
    clock.advance(Duration.ofSeconds(5));

    // The fan got the 66 s back (plus at most a second ahead) and buys after the first deadline.
    inv.tell(new EventInventory.GetHolds("fan", probe.getRef()));
    long given = probe.expectMessageClass(EventInventory.Holds.class).holdExpiresAt() - deadline;
    assertTrue(given >= 66_000 && given <= 67_000, "given back " + given);
    inv.tell(new EventInventory.Confirm("fan", "o1", List.of("F1-A-1", "F1-A-2"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Confirmed.class);

    // What was given is in the journal: after a restart the other hold keeps its extra time.
    inv.tell(new EventInventory.GetHolds("early", probe.getRef()));
    long earlyNow = probe.expectMessageClass(EventInventory.Holds.class).holdExpiresAt();
    assertTrue(earlyNow - earlyDeadline >= 66_000);
    testKit.stop(inv);
    ActorRef<EventInventory.Command> again = testKit.spawn(EventInventory.create(id, settings));
    again.tell(new EventInventory.GetHolds("early", probe.getRef()));
    assertEquals(earlyNow, probe.expectMessageClass(EventInventory.Holds.class).holdExpiresAt());

    // Calm again: clocks run, and a hold made now ends at its own deadline.
    again.tell(new EventInventory.HoldSeats("later", List.of("F1-C-1"), probe.getRef()));
    long laterDeadline = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();
    clock.advance(Duration.ofMillis(laterDeadline - clock.millis() + 1));
    again.tell(new EventInventory.Confirm("later", "o2", List.of("F1-C-1"), probe.getRef()));
    assertEquals(Refusal.HOLD_EXPIRED, probe.expectMessageClass(EventInventory.Rejected.class).code());
  }

  @Test
  void withoutTrafficTheHeartbeatGivesTheFaultTimeToTheHolds() {
    String id = newEventId();
    io.boxoffice.app.FaultLedger faults = new io.boxoffice.app.FaultLedger(0);
    var settings = TestConfigs.inventory(clock, 100, null, Duration.ofDays(1), faults);
    ActorRef<EventInventory.Command> inv = createdOn(id, settings);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), probe.getRef()));
    long deadline = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();
    faults.started("leaving node-2", clock.millis(), 0);
    clock.advance(Duration.ofSeconds(20));
    faults.ended("leaving node-2", clock.millis());
    inv.tell(new EventInventory.Heartbeat());
    inv.tell(new EventInventory.GetHolds("fan", probe.getRef()));
    assertEquals(deadline + 21_000, probe.expectMessageClass(EventInventory.Holds.class).holdExpiresAt());
    testKit.stop(inv);
    // Only a persisted gift survives the restart (the restart itself is too short to give anything).
    ActorRef<EventInventory.Command> again = testKit.spawn(EventInventory.create(id, settings));
    again.tell(new EventInventory.GetHolds("fan", probe.getRef()));
    assertEquals(deadline + 21_000, probe.expectMessageClass(EventInventory.Holds.class).holdExpiresAt());
  }

  @Test
  void aHoldAskedAgainWithItsRequestIdIsAnsweredWithTheFirstHoldAlsoAfterARestartOrASnapshot() {
    String id = newEventId();
    // A snapshot after every batch: the second restart recovers the remembered request from it.
    ActorRef<EventInventory.Command> inv = created(id, 1000, 1);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldBest("fan", 2, null, null, null, "r-1", probe.getRef()));
    EventInventory.Held first = probe.expectMessageClass(EventInventory.Held.class);
    inv.tell(new EventInventory.HoldBest("fan", 2, null, null, null, "r-1", probe.getRef()));
    assertEquals(first, probe.expectMessageClass(EventInventory.Held.class));
    // Another account cannot use someone else's request id to read or take that hold.
    inv.tell(new EventInventory.HoldBest("thief", 2, null, null, null, "r-1", probe.getRef()));
    assertNotEquals(first.seats(), probe.expectMessageClass(EventInventory.Held.class).seats());

    for (int round = 0; round < 2; round++) {
      testKit.stop(inv);
      inv = spawn(id, 1);
      inv.tell(new EventInventory.HoldBest("fan", 2, null, null, null, "r-1", probe.getRef()));
      assertEquals(first, probe.expectMessageClass(EventInventory.Held.class));
      inv.tell(new EventInventory.HoldSeats("other", List.of("F1-Z-9"), null, "r-2", probe.getRef()));
      probe.expectMessageClass(EventInventory.Rejected.class);
    }
    inv.tell(new EventInventory.GetStats(probe.getRef()));
    assertEquals(4, probe.expectMessageClass(EventInventory.Stats.class).held(), "the repeats held nothing more");

    // Once the first hold is gone, the repeat says so rather than holding new seats.
    inv.tell(new EventInventory.Release("fan", null, probe.getRef()));
    probe.expectMessageClass(EventInventory.Released.class);
    inv.tell(new EventInventory.HoldBest("fan", 2, null, null, null, "r-1", probe.getRef()));
    assertEquals(Refusal.HOLD_EXPIRED, probe.expectMessageClass(EventInventory.Rejected.class).code());
  }

  @Test
  void aConfirmRepeatedAfterItsOrderWasRefusedDoesNotSellTheFansNewHoldAlsoAfterARestart() {
    String id = newEventId();
    ActorRef<EventInventory.Command> inv = created(id, 1000, 1000);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    List<String> seats = List.of("F1-A-1", "F1-A-2");
    inv.tell(new EventInventory.HoldSeats("fan", seats, probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
    clock.advance(Duration.ofSeconds(600)); // past 480 s + up to 90 s of jitter
    inv.tell(new EventInventory.Confirm("fan", "order-1", seats, probe.getRef()));
    assertEquals(Refusal.HOLD_EXPIRED, probe.expectMessageClass(EventInventory.Rejected.class).code());
    // The fan holds the same seats again; the refused order's confirm comes again, once before
    // and once after the entity restarts from its journal.
    inv.tell(new EventInventory.HoldSeats("fan", seats, probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
    for (int round = 0; round < 2; round++) {
      inv.tell(new EventInventory.Confirm("fan", "order-1", seats, probe.getRef()));
      assertEquals(Refusal.HOLD_EXPIRED, probe.expectMessageClass(EventInventory.Rejected.class).code());
      testKit.stop(inv);
      inv = spawn(id, 1000);
    }
    inv.tell(new EventInventory.GetStats(probe.getRef()));
    EventInventory.Stats stats = probe.expectMessageClass(EventInventory.Stats.class);
    assertEquals(2, stats.held(), "the new hold stands");
    assertEquals(0, stats.sold(), "nothing was sold under the refused order");
    inv.tell(new EventInventory.Confirm("fan", "order-2", seats, probe.getRef()));
    assertEquals("order-2", probe.expectMessageClass(EventInventory.Confirmed.class).orderId());
  }

  EventInventory.ExpiryChecked releaseExpired(ActorRef<EventInventory.Command> inv, String account, List<String> seats,
                                             long deadline) {
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.ReleaseExpired(account, seats, deadline, probe.getRef()));
    return probe.expectMessageClass(EventInventory.ExpiryChecked.class);
  }

  @Test
  void theCartsTimerReleasesAnExpiredHoldAsAJournaledDecision() {
    String id = newEventId();
    ActorRef<EventInventory.Command> inv = created(id, 1000, 1000);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1", "F1-A-2"), probe.getRef()));
    long deadline = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();
    List<String> seats = List.of("F1-A-1", "F1-A-2");

    // Early (another cart's clock ahead of the event's): nothing is released.
    clock.advance(Duration.ofMillis(deadline - clock.millis() - 1));
    EventInventory.ExpiryChecked early = releaseExpired(inv, "fan", seats, deadline);
    assertEquals(List.of(), early.released());
    assertEquals(seats, early.holds().seats().stream().map(EventInventory.SeatPrice::seatId).toList());

    clock.advance(Duration.ofMillis(1));
    EventInventory.ExpiryChecked due = releaseExpired(inv, "fan", seats, deadline);
    assertEquals(seats, due.released());
    assertEquals(List.of(), due.gone());
    assertEquals(List.of(), due.holds().seats());
    // A normal decision: written, so it is in the journal as a release of this fan's seats.
    List<Object> events = journal.persistedInStorage("EventInventory|" + id);
    EventInventory.BatchDecided last = (EventInventory.BatchDecided) events.get(events.size() - 1);
    Decision.Released released = assertInstanceOf(Decision.Released.class, last.decisions().get(0));
    assertEquals("fan", released.account());
    assertEquals(2, released.seats().length);
    inv.tell(new EventInventory.GetStats(probe.getRef()));
    assertEquals(new EventInventory.Stats(1000, 0, 0, 0), probe.expectMessageClass(EventInventory.Stats.class));
    // Asked again (a retry): nothing left to release, the seats are reported gone.
    EventInventory.ExpiryChecked again = releaseExpired(inv, "fan", seats, deadline);
    assertEquals(List.of(), again.released());
    assertEquals(seats, again.gone());

    // Replay gives the same book: the release and the lazy expiry agree.
    testKit.stop(inv);
    ActorRef<EventInventory.Command> back = spawn(id, 1000);
    back.tell(new EventInventory.GetStats(probe.getRef()));
    assertEquals(new EventInventory.Stats(1000, 0, 0, 0), probe.expectMessageClass(EventInventory.Stats.class));
    back.tell(new EventInventory.HoldSeats("next", seats, probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
  }

  @Test
  void theCartsTimerNeverReleasesAHoldMadeAgainAnotherFansHoldOrASoldSeat() {
    ActorRef<EventInventory.Command> inv = created(newEventId(), 1000, 1000);
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), probe.getRef()));
    long first = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-2"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);
    inv.tell(new EventInventory.Confirm("fan", "o1", List.of("F1-A-2"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Confirmed.class);
    inv.tell(new EventInventory.HoldSeats("rival", List.of("F1-A-3"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Held.class);

    // The first hold runs out and the fan holds the same seat again: a new, later deadline.
    clock.advance(Duration.ofMillis(first - clock.millis()));
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), probe.getRef()));
    long remade = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();
    clock.advance(Duration.ofSeconds(1));
    EventInventory.ExpiryChecked checked = releaseExpired(inv, "fan", List.of("F1-A-1", "F1-A-2", "F1-A-3"), first);
    assertEquals(List.of(), checked.released());
    assertEquals(List.of("F1-A-3"), checked.gone(), "the sold seat and the hold made again are the fan's");
    assertEquals(List.of("F1-A-1"), checked.holds().seats().stream().map(EventInventory.SeatPrice::seatId).toList());
    assertEquals(remade, checked.holds().holdExpiresAt());
    // Another account's timer cannot release the fan's hold, whatever deadline it names.
    assertEquals(List.of(), releaseExpired(inv, "rival", List.of("F1-A-1"), Long.MAX_VALUE).released());
    // Sold stays sold, and the seat counts stay as they were.
    clock.advance(Duration.ofDays(1));
    assertEquals(List.of(), releaseExpired(inv, "fan", List.of("F1-A-2"), Long.MAX_VALUE).released());
    inv.tell(new EventInventory.GetStats(probe.getRef()));
    assertEquals(new EventInventory.Stats(999, 0, 1, 1), probe.expectMessageClass(EventInventory.Stats.class));
  }

  @Test
  void theCartsTimerNeverReleasesAHoldExtendedByFaultTime() {
    io.boxoffice.app.FaultLedger faults = new io.boxoffice.app.FaultLedger(2_000);
    ActorRef<EventInventory.Command> inv =
        createdOn(newEventId(), TestConfigs.inventory(clock, 100, null, Duration.ofDays(1), faults));
    TestProbe<EventInventory.Reply> probe = testKit.createTestProbe();
    inv.tell(new EventInventory.HoldSeats("fan", List.of("F1-A-1"), probe.getRef()));
    long deadline = probe.expectMessageClass(EventInventory.Held.class).holdExpiresAt();
    // The platform fails from 10 s before the deadline; the timer fires 20 s after it, the fault
    // time not yet given to the holds by any write: the release must give it first, then spare the hold.
    clock.advance(Duration.ofMillis(deadline - clock.millis() - 10_000));
    faults.started("unreachable cart-node", clock.millis(), 0);
    clock.advance(Duration.ofSeconds(30));
    EventInventory.ExpiryChecked checked = releaseExpired(inv, "fan", List.of("F1-A-1"), deadline);
    assertEquals(List.of(), checked.released());
    assertEquals(1, checked.holds().seats().size());
    assertTrue(checked.holds().holdExpiresAt() > clock.millis(), "the hold runs past the fault");
    inv.tell(new EventInventory.Confirm("fan", "o1", List.of("F1-A-1"), probe.getRef()));
    probe.expectMessageClass(EventInventory.Confirmed.class);
  }

  @Test
  void everyMessageSurvivesCborSerialization() {
    var serialization = org.apache.pekko.serialization.SerializationExtension.get(testKit.system());
    String id = newEventId();
    EventDefinition d = definition(id, 200);
    SeatBook book = new SeatBook(io.boxoffice.venue.domain.SeatMap.compile(d.venue()), d.prices(), 8);
    book.apply(new Decision.Held("a", new int[] {1, 2}, 99));
    AtomicReference<Object> back = new AtomicReference<>();
    for (Object message : List.of(
        new EventInventory.EventCreated(d),
        new EventInventory.AdmissionRequired(),
        new EventInventory.Alive(5),
        new EventInventory.HoldsExtended(5, 60_000),
        new EventInventory.HoldBest("a", 2, null, null, new EventInventory.QueuePass("t", "p"), testKit.system().ignoreRef()),
        new EventInventory.ReleaseExpired("a", List.of("F1-A-1"), 99, testKit.system().ignoreRef()),
        new EventInventory.ExpiryChecked(List.of("F1-A-1"), List.of(), new EventInventory.Holds(List.of(), 0)),
        new EventInventory.BatchDecided(3, 42, List.of(new Decision.Held("a", new int[] {1, 2}, 99),
            new Decision.Released("a", new int[] {1}), new Decision.Sold("a", "o", new int[] {2}), new Decision.Scanned(2, 7)), 1_500),
        new EventInventory.Snapshot(d, 3, book.toSnapshot(), true, 42,
            List.of(new Decision.Held("a", new int[] {1, 2}, 99, "request-1"))))) {
      byte[] bytes = serialization.serialize(message).get();
      var serializer = serialization.findSerializerFor(message);
      String manifest = org.apache.pekko.serialization.Serializers.manifestFor(serializer, message);
      back.set(serialization.deserialize(bytes, serializer.identifier(), manifest).get());
      assertEquals(message.getClass(), back.get().getClass());
      assertEquals("JacksonCborSerializer", serializer.getClass().getSimpleName());
    }
    EventInventory.BatchDecided b = (EventInventory.BatchDecided) serialization.deserialize(
        serialization.serialize(new EventInventory.BatchDecided(1, 2, List.of(new Decision.Sold("a", "o", new int[] {5})))).get(),
        EventInventory.BatchDecided.class).get();
    assertEquals(5, ((Decision.Sold) b.decisions().get(0)).seats()[0]);
    EventInventory.BatchDecided withFault = (EventInventory.BatchDecided) serialization.deserialize(
        serialization.serialize(new EventInventory.BatchDecided(1, 2, List.of(), 1_500)).get(), EventInventory.BatchDecided.class).get();
    assertEquals(1_500, withFault.faultMillis());
  }
}
