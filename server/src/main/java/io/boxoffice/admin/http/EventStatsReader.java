package io.boxoffice.admin.http;

import io.boxoffice.admin.http.AdminJson.EventStats;
import io.boxoffice.admin.http.AdminJson.Schedule;
import io.boxoffice.admin.http.AdminJson.SeatCounts;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ApiError;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.queue.domain.Phase;
import io.boxoffice.queue.domain.Seats;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;

/** An event's stats for its managers (the stats route and the live stream), from its inventory and its room. */
final class EventStatsReader {
  private final Api api;
  private final Function<String, EntityRef<WaitingRoom.Command>> rooms;
  private final Function<String, EntityRef<EventInventory.Command>> inventories;

  EventStatsReader(Api api, Function<String, EntityRef<WaitingRoom.Command>> rooms,
                   Function<String, EntityRef<EventInventory.Command>> inventories) {
    this.api = api;
    this.rooms = rooms;
    this.inventories = inventories;
  }

  /** The event's stats; fails with a 404 {@link ApiError} for an unknown event. */
  CompletionStage<EventStats> of(String eventId) {
    CompletionStage<WaitingRoom.Reply> room = rooms.apply(eventId).ask(WaitingRoom.GetManifest::new, api.askTimeout());
    return inventories.apply(eventId)
        .<EventInventory.Reply>ask(EventInventory.GetStats::new, api.askTimeout())
        .thenCombine(room, (reply, manifestReply) -> {
          if (!(reply instanceof EventInventory.Stats s)) throw new ApiError(404, "not_found", "no such event");
          WaitingRoom.Manifest m = (WaitingRoom.Manifest) manifestReply;
          // Closed until scheduled or opened; an event from before that rule is shown closed as well.
          String state = m.state().equals(Phase.UNKNOWN.wire()) ? Phase.CLOSED.wire() : m.state();
          if (new Seats(s.available(), s.held(), s.sold()).soldOut()) state = Phase.SOLD_OUT.wire();
          return new EventStats(state, m.lobby(), m.admittedUpTo(), m.activeShoppers(),
              new SeatCounts(s.available(), s.held(), s.sold()), s.orders(), m.startsAt() != 0 ? Schedule.of(m) : null);
        });
  }
}
