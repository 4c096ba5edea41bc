package io.boxoffice.queue;

import io.boxoffice.inventory.EventInventory;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;

/** What a {@link WaitingRoom} needs around it: its clock and tick, the shopping window, where inventories are, and where to publish manifests. */
public record WaitingRoomSettings(
    Clock clock,
    Duration tick,
    Duration shoppingWindow,
    Function<String, RecipientRef<EventInventory.Command>> inventories,
    Consumer<WaitingRoom.Manifest> publish,
    Duration askTimeout) {}
