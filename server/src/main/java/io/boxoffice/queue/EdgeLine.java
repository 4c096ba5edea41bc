package io.boxoffice.queue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
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
 * room itself, through each account's {@link QueuePlace}.) The room keeps what it was told in
 * memory, so the report goes on, unchanged, for {@code repeatFor} after the last new place: a
 * room started again on another node (its node died) learns within a report how far its line
 * may go. Told only of changes, it stayed behind its lobby's cohort while the later arrivals
 * who had their places already waited (the simulator's kill of the event's node).
 */
public final class EdgeLine {
  private static final int LEASE = 100;

  /**
   * A leased block [next, to], and the requests waiting, in arrival order, for places of the
   * block being leased when this one ran out ({@code leasing}).
   */
  private static final class Block {
    long next = 1;
    long to = 0;
    long highestGiven;
    long reported;
    /** When a report first carried {@link #reported} (epoch ms). */
    long reportedSince;
    boolean leasing;
    final ArrayDeque<CompletableFuture<Long>> waiting = new ArrayDeque<>();
  }

  private final Function<String, RecipientRef<WaitingRoom.Command>> rooms;
  private final Scheduler scheduler;
  private final Duration askTimeout;
  private final long repeatForMillis;
  private final Map<String, Block> blocks = new ConcurrentHashMap<>();

  /** Reports the highest place given only when it changed. */
  public EdgeLine(Function<String, RecipientRef<WaitingRoom.Command>> rooms, Scheduler scheduler, Duration askTimeout) {
    this(rooms, scheduler, askTimeout, Duration.ZERO);
  }

  /** Reports the highest place given at each {@link #report}, for {@code repeatFor} after it last changed. */
  public EdgeLine(Function<String, RecipientRef<WaitingRoom.Command>> rooms, Scheduler scheduler, Duration askTimeout,
                  Duration repeatFor) {
    this.rooms = rooms;
    this.scheduler = scheduler;
    this.askTimeout = askTimeout;
    this.repeatForMillis = repeatFor.toMillis();
  }

  /**
   * The next later place in arrival order on this node. When the block is used up the request
   * waits in line for the next one, which is leased once for all who wait: a crowd arriving
   * together is served from one queue, in order, without a chain of continuations per lease
   * (a stadium's joins once overflowed the stack that way).
   */
  public CompletionStage<Long> nextPlace(String eventId) {
    Block block = blocks.computeIfAbsent(eventId, id -> new Block());
    CompletableFuture<Long> mine = new CompletableFuture<>();
    boolean lease;
    synchronized (block) {
      if (block.waiting.isEmpty() && block.next <= block.to) {
        long place = block.next++;
        block.highestGiven = Math.max(block.highestGiven, place);
        return CompletableFuture.completedFuture(place);
      }
      block.waiting.add(mine);
      lease = !block.leasing;
      block.leasing = true;
    }
    if (lease) lease(eventId, block);
    return mine;
  }

  /** Leases a block and hands its places to the waiting requests in order; leases again while some still wait. */
  private void lease(String eventId, Block block) {
    AskPattern.<WaitingRoom.Command, WaitingRoom.Reply>ask(rooms.apply(eventId), r -> new WaitingRoom.LeasePlaces(LEASE, r),
            askTimeout, scheduler)
        .whenComplete((reply, error) -> {
          List<CompletableFuture<Long>> served = new ArrayList<>();
          List<Long> places = new ArrayList<>();
          List<CompletableFuture<Long>> failed = new ArrayList<>();
          boolean again;
          synchronized (block) {
            if (reply instanceof WaitingRoom.Leased leased) {
              block.next = leased.from();
              block.to = leased.to();
              while (!block.waiting.isEmpty() && block.next <= block.to) {
                served.add(block.waiting.poll());
                places.add(block.next);
                block.highestGiven = Math.max(block.highestGiven, block.next++);
              }
              again = !block.waiting.isEmpty();
            } else {
              failed.addAll(block.waiting);
              block.waiting.clear();
              again = false;
            }
            block.leasing = again;
          }
          for (int i = 0; i < served.size(); i++) served.get(i).complete(places.get(i));
          Throwable cause = error != null ? error : new IllegalStateException("no places to lease: " + reply);
          failed.forEach(f -> f.completeExceptionally(cause));
          if (again) lease(eventId, block);
        });
  }

  /** Tells each waiting room the highest place this node gave, when it changed or changed less than repeatFor ago. */
  public void report() {
    report(System.currentTimeMillis());
  }

  void report(long now) {
    blocks.forEach((eventId, block) -> {
      long highest;
      synchronized (block) {
        highest = block.highestGiven;
        if (highest == 0) return;
        if (highest != block.reported) {
          block.reported = highest;
          block.reportedSince = now;
        } else if (now - block.reportedSince >= repeatForMillis) {
          return;
        }
      }
      rooms.apply(eventId).tell(new WaitingRoom.PlacesAssigned(highest));
    });
  }
}
