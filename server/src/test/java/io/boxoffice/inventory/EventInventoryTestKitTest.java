package io.boxoffice.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.common.Refusal;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestConfigs;
import java.time.Instant;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit.SerializationSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The inventory under Pekko's EventSourcedBehaviorTestKit: every command and event goes through
 * CBOR serialization, and {@code restart()} recovers the book. State serialization is not
 * checked here: the live state is a mutable book that reaches the journal only through the
 * snapshot adapter, whose {@link EventInventory.Snapshot} EventInventoryTest serializes.
 */
class EventInventoryTestKitTest {
  static final ActorTestKit testKit = ActorTestKit.create(
      EventSourcedBehaviorTestKit.config().withFallback(TestConfigs.entityConfig()).withFallback(ConfigFactory.load()));
  final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  final EventSourcedBehaviorTestKit<EventInventory.Command, EventInventory.Event, EventInventory.State> kit =
      EventSourcedBehaviorTestKit.create(testKit.system(), EventInventory.create("tk-event", TestConfigs.inventory(clock, 100)),
          new SerializationSettings(true, false, true, true, false));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @Test
  void holdsAndSalesAreEventsThatRecoveryReplays() {
    kit.<EventInventory.Reply>runCommand(r -> new EventInventory.Create(EventInventoryTest.definition("tk-event", 500), r));
    var held = kit.<EventInventory.Reply>runCommand(r -> new EventInventory.HoldSeats("fan", List.of("F1-A-1", "F1-A-2"), r));
    assertInstanceOf(EventInventory.Held.class, held.reply());
    var sold = kit.<EventInventory.Reply>runCommand(r -> new EventInventory.Confirm("fan", "o1", List.of("F1-A-1", "F1-A-2"), r));
    assertInstanceOf(EventInventory.Confirmed.class, sold.reply());
    var scanned = kit.<EventInventory.Reply>runCommand(r -> new EventInventory.Scan("F1-A-1", "o1", r));
    assertEquals(new EventInventory.Admitted("F1-A-1"), scanned.reply());

    kit.restart();
    var stats = kit.<EventInventory.Reply>runCommand(EventInventory.GetStats::new);
    assertEquals(new EventInventory.Stats(498, 0, 2, 1), stats.reply());
    var again = kit.<EventInventory.Reply>runCommand(r -> new EventInventory.Scan("F1-A-1", "o1", r));
    assertInstanceOf(EventInventory.AlreadyScanned.class, again.reply());
    var taken = kit.<EventInventory.Reply>runCommand(r -> new EventInventory.HoldSeats("other", List.of("F1-A-2"), r));
    assertEquals(Refusal.SEATS_TAKEN, ((EventInventory.Rejected) taken.reply()).code());
  }
}
