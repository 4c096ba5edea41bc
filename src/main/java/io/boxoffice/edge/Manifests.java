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
import java.util.function.Predicate;
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
  /**
   * How long after start an unheard event is "try again" (503) rather than unknown (404): every
   * running room publishes each second, but after a whole-cluster restart the rooms first have
   * to be started again by the keeper. Warm until a few seconds after the first manifest heard,
   * at most {@link #WARM_UP_MAX_MILLIS}.
   */
  private static final long WARM_UP_MAX_MILLIS = 15_000;
  private static final long WARM_UP_AFTER_FIRST_MILLIS = 3_000;

  private final Consumer<String> onNewEvent;
  private final long startedAt = System.currentTimeMillis();
  private volatile long firstHeardAt;

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
    if (firstHeardAt == 0) firstHeardAt = System.currentTimeMillis();
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

  /** The event's manifest, or an {@link ApiError} for an event this node has not heard of ({@link #unknown}). */
  public CompletionStage<WaitingRoom.Manifest> current(String eventId) {
    WaitingRoom.Manifest m = byEvent.get(eventId);
    return m != null ? CompletableFuture.completedFuture(m) : CompletableFuture.failedFuture(unknown());
  }

  /** 404 for an event this node has not heard of; 503 in the first seconds after start, while the rooms are still being heard. */
  public ApiError unknown() {
    long now = System.currentTimeMillis();
    long first = firstHeardAt;
    boolean warming = now - startedAt < WARM_UP_MAX_MILLIS && (first == 0 || now - first < WARM_UP_AFTER_FIRST_MILLIS);
    if (warming) {
      return new ApiError(503, "unavailable", "this node is starting, try again");
    }
    return notFound();
  }

  /** Every event this node knows. */
  public Collection<WaitingRoom.Manifest> all() {
    return List.copyOf(byEvent.values());
  }

  /** Completes when this node has heard a manifest of the event that passes {@code test}, or fails after {@code timeout}. */
  public CompletionStage<WaitingRoom.Manifest> awaitHeard(String eventId, Predicate<WaitingRoom.Manifest> test, Duration timeout) {
    return heard(eventId, test).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  private CompletableFuture<WaitingRoom.Manifest> heard(String eventId, Predicate<WaitingRoom.Manifest> test) {
    WaitingRoom.Manifest m = byEvent.get(eventId);
    if (m != null && test.test(m)) return CompletableFuture.completedFuture(m);
    CompletableFuture<WaitingRoom.Manifest> f = awaited.computeIfAbsent(eventId, id -> new CompletableFuture<>());
    m = byEvent.get(eventId);
    if (m != null && test.test(m)) return CompletableFuture.completedFuture(m);
    return f.thenCompose(next -> heard(eventId, test));
  }

  public static ApiError notFound() {
    return new ApiError(404, "not_found", "no such event");
  }
}
