package io.boxoffice.edge;

import io.boxoffice.queue.WaitingRoom;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;

/**
 * This node's copy of every event's waiting-room manifest, kept in memory: the waiting room of
 * every created event publishes one each tick on a cluster topic and this node listens. It is
 * also this node's list of the events that exist: an event it has not heard of is unknown (404)
 * and nobody is asked, so requests for made-up events start no entity and leave no trace.
 */
public final class Manifests {
  public static final String TOPIC = "onsale-manifests";

  private final Map<String, WaitingRoom.Manifest> byEvent = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<WaitingRoom.Manifest>> awaited = new ConcurrentHashMap<>();
  private final Consumer<String> onNewEvent;

  public Manifests(ActorSystem<?> system, ActorRef<Topic.Command<WaitingRoom.Manifest>> topic, Consumer<String> onNewEvent) {
    this.onNewEvent = onNewEvent;
    ActorRef<WaitingRoom.Manifest> listener = system.systemActorOf(
        Behaviors.receiveMessage(m -> {
          remember(m);
          return Behaviors.same();
        }), "manifest-listener", Props.empty());
    topic.tell(Topic.subscribe(listener));
  }

  /** Remembers a manifest heard from the topic (only created events publish one). */
  public void remember(WaitingRoom.Manifest m) {
    if (m.state().equals("unknown")) return;
    WaitingRoom.Manifest before = byEvent.putIfAbsent(m.eventId(), m);
    if (before == null) onNewEvent.accept(m.eventId());
    else byEvent.merge(m.eventId(), m, (old, next) -> next.updatedAt() >= old.updatedAt() ? next : old);
    CompletableFuture<WaitingRoom.Manifest> waiter = awaited.remove(m.eventId());
    if (waiter != null) waiter.complete(byEvent.get(m.eventId()));
  }

  /** The last manifest of the event this node heard, however old, or null for an event it does not know. */
  public WaitingRoom.Manifest known(String eventId) {
    return byEvent.get(eventId);
  }

  /** The event's manifest, or a 404 {@link ApiError} for an event this node has not heard of. */
  public CompletionStage<WaitingRoom.Manifest> current(String eventId) {
    WaitingRoom.Manifest m = byEvent.get(eventId);
    return m != null ? CompletableFuture.completedFuture(m) : CompletableFuture.failedFuture(notFound());
  }

  /** Every event this node knows. */
  public Collection<WaitingRoom.Manifest> all() {
    return List.copyOf(byEvent.values());
  }

  /** Completes when this node has heard a manifest of the event at least as new as {@code since} (epoch ms), or fails after {@code timeout}. */
  public CompletionStage<WaitingRoom.Manifest> awaitHeard(String eventId, long since, Duration timeout) {
    WaitingRoom.Manifest m = byEvent.get(eventId);
    if (m != null && m.updatedAt() >= since) return CompletableFuture.completedFuture(m);
    CompletableFuture<WaitingRoom.Manifest> f = awaited.computeIfAbsent(eventId, id -> new CompletableFuture<>());
    m = byEvent.get(eventId);
    if (m != null && m.updatedAt() >= since) return CompletableFuture.completedFuture(m);
    return f.thenCompose(heard -> heard.updatedAt() >= since ? CompletableFuture.completedFuture(heard) : awaitHeard(eventId, since, timeout))
        .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public static ApiError notFound() {
    return new ApiError(404, "not_found", "no such event");
  }
}
