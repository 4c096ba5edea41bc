package io.boxoffice.edge;

import io.boxoffice.queue.WaitingRoom;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;

/**
 * This node's copy of every event's waiting-room manifest, kept in memory: the waiting rooms
 * publish one each tick on a cluster topic and this node listens, so the edge answers manifest
 * and admission questions without asking anyone. An event it has not heard of for a while is
 * asked once, and the answer is kept for the refresh interval, so a flood never reaches the
 * waiting room either way.
 */
public final class Manifests {
  public static final String TOPIC = "onsale-manifests";

  private record Entry(WaitingRoom.Manifest manifest, long seenAt) {}

  private final Map<String, Entry> byEvent = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<WaitingRoom.Manifest>> asking = new ConcurrentHashMap<>();
  private final Function<String, RecipientRef<WaitingRoom.Command>> rooms;
  private final ActorSystem<?> system;
  private final Clock clock;
  private final Duration refresh;
  private final Duration askTimeout;

  public Manifests(ActorSystem<?> system, ActorRef<Topic.Command<WaitingRoom.Manifest>> topic,
                   Function<String, RecipientRef<WaitingRoom.Command>> rooms, Clock clock, Duration refresh, Duration askTimeout,
                   java.util.function.Consumer<String> onNewEvent) {
    this.system = system;
    this.onNewEvent = onNewEvent;
    this.rooms = rooms;
    this.clock = clock;
    this.refresh = refresh;
    this.askTimeout = askTimeout;
    ActorRef<WaitingRoom.Manifest> listener = system.systemActorOf(
        Behaviors.receiveMessage(m -> {
          remember(m);
          return Behaviors.same();
        }), "manifest-listener", Props.empty());
    topic.tell(Topic.subscribe(listener));
  }

  private final java.util.function.Consumer<String> onNewEvent;

  private void remember(WaitingRoom.Manifest m) {
    if (!byEvent.containsKey(m.eventId())) onNewEvent.accept(m.eventId());
    byEvent.merge(m.eventId(), new Entry(m, clock.millis()),
        (old, next) -> next.manifest().updatedAt() >= old.manifest().updatedAt() ? next : old);
  }

  /** The last manifest of the event this node heard, however old, or null. */
  public WaitingRoom.Manifest known(String eventId) {
    Entry e = byEvent.get(eventId);
    return e == null ? null : e.manifest();
  }

  /** The event's manifest if this node heard it recently; nothing is asked. */
  public WaitingRoom.Manifest cached(String eventId) {
    Entry e = byEvent.get(eventId);
    return e != null && clock.millis() - e.seenAt() < refresh.toMillis() ? e.manifest() : null;
  }

  /** The event's manifest as this node knows it, asking its waiting room only when nothing recent is known. */
  public CompletionStage<WaitingRoom.Manifest> current(String eventId) {
    Entry e = byEvent.get(eventId);
    if (e != null && clock.millis() - e.seenAt() < refresh.toMillis()) return CompletableFuture.completedFuture(e.manifest());
    CompletableFuture<WaitingRoom.Manifest> f = asking.computeIfAbsent(eventId, id -> AskPattern
        .<WaitingRoom.Command, WaitingRoom.Reply>ask(rooms.apply(id), WaitingRoom.GetManifest::new, askTimeout, system.scheduler())
        .thenApply(reply -> {
          WaitingRoom.Manifest m = (WaitingRoom.Manifest) reply;
          remember(m);
          return m;
        })
        .toCompletableFuture());
    f.whenComplete((m, error) -> asking.remove(eventId, f));
    // With a stale copy at hand, a slow waiting room does not hold anyone up.
    return e != null ? CompletableFuture.completedFuture(e.manifest()) : f;
  }
}
