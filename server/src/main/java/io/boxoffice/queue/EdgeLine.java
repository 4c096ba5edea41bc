package io.boxoffice.queue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * This edge node's part of every waiting room: it hands out later places from blocks leased
 * from the event's {@link WaitingRoom} and reports the highest given once a second, so the crowd
 * never writes through one actor per request. (Lobby entries are counted per account by the
 * room itself, through each account's {@link QueuePlace}.)
 */
public final class EdgeLine {
  private static final int LEASE = 100;

  /** A leased block [next, to]; {@code pending} is the lease being fetched when the block ran out. */
  private static final class Block {
    long next = 1;
    long to = 0;
    long highestGiven;
    long reported;
    CompletableFuture<Void> pending;
  }

  private final Function<String, RecipientRef<WaitingRoom.Command>> rooms;
  private final Scheduler scheduler;
  private final Duration askTimeout;
  private final Map<String, Block> blocks = new ConcurrentHashMap<>();

  public EdgeLine(Function<String, RecipientRef<WaitingRoom.Command>> rooms, Scheduler scheduler, Duration askTimeout) {
    this.rooms = rooms;
    this.scheduler = scheduler;
    this.askTimeout = askTimeout;
  }

  /** The next later place in arrival order on this node, leasing a new block when this one is used up. */
  public CompletionStage<Long> nextPlace(String eventId) {
    Block block = blocks.computeIfAbsent(eventId, id -> new Block());
    CompletableFuture<Void> waitFor;
    synchronized (block) {
      if (block.next <= block.to) {
        long place = block.next++;
        block.highestGiven = Math.max(block.highestGiven, place);
        return CompletableFuture.completedFuture(place);
      }
      if (block.pending == null) {
        CompletableFuture<Void> lease = AskPattern
            .<WaitingRoom.Command, WaitingRoom.Reply>ask(rooms.apply(eventId), r -> new WaitingRoom.LeasePlaces(LEASE, r),
                askTimeout, scheduler)
            .thenAccept(reply -> {
              if (!(reply instanceof WaitingRoom.Leased leased)) throw new IllegalStateException("no places to lease: " + reply);
              synchronized (block) {
                block.next = leased.from();
                block.to = leased.to();
              }
            })
            .toCompletableFuture();
        block.pending = lease;
        lease.whenComplete((ok, error) -> {
          synchronized (block) {
            block.pending = null;
          }
        });
      }
      waitFor = block.pending;
    }
    return waitFor.thenCompose(ok -> nextPlace(eventId));
  }

  /** Tells each waiting room what this node saw since the last report. */
  public void report() {
    blocks.forEach((eventId, block) -> {
      long highest;
      synchronized (block) {
        highest = block.highestGiven;
        if (highest == block.reported) return;
        block.reported = highest;
      }
      rooms.apply(eventId).tell(new WaitingRoom.PlacesAssigned(highest));
    });
  }
}
