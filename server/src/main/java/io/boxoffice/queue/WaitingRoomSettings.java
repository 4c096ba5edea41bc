package io.boxoffice.queue;

import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.inventory.EventInventory;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;

/**
 * What a {@link WaitingRoom} needs around it: its clock and tick, the shopping window, the
 * arrival window (how long an admitted place counts as a shopper before its fan holds
 * anything), where inventories are, and where to publish manifests.
 */
public record WaitingRoomSettings(
    Clock clock,
    Duration tick,
    Duration shoppingWindow,
    Duration arrivalWindow,
    Function<String, RecipientRef<EventInventory.Command>> inventories,
    Consumer<WaitingRoom.Manifest> publish,
    Duration askTimeout,
    SnapshotPolicy snapshots) {

  /** Every admitted place counts as a shopper for its whole window. */
  public WaitingRoomSettings(Clock clock, Duration tick, Duration shoppingWindow,
                             Function<String, RecipientRef<EventInventory.Command>> inventories,
                             Consumer<WaitingRoom.Manifest> publish, Duration askTimeout, SnapshotPolicy snapshots) {
    this(clock, tick, shoppingWindow, shoppingWindow, inventories, publish, askTimeout, snapshots);
  }
}
