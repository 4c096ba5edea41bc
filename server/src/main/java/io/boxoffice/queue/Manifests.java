package io.boxoffice.queue;

import io.boxoffice.edge.ApiError;
import io.boxoffice.edge.KnownEvents;
import io.boxoffice.queue.domain.Phase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
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
public final class Manifests implements KnownEvents {
  public static final String TOPIC = "onsale-manifests";

  private final Map<String, WaitingRoom.Manifest> byEvent = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<WaitingRoom.Manifest>> awaited = new ConcurrentHashMap<>();
  /**
   * Every event created in the cluster, as the journal's record said when this node started
   * (see {@link Catalogue}); null until it has been read. An id in it that this node has not
   * heard yet is a room still starting (503, try again); an id in neither is unknown (404).
   */
  private volatile java.util.Set<String> catalogued;
  private final CompletableFuture<java.util.Set<String>> catalogueRead = new CompletableFuture<>();

  /** The ids of every event created, or a stage that fails while they cannot be told yet. */
  public interface Catalogue {
    CompletionStage<java.util.Set<String>> eventIds();

    /** Makes a new event part of what {@link #eventIds()} answers on every node from now on. */
    CompletionStage<Void> announce(String eventId);

    /** Which of {@code eventIds} exist, as the catalogue says now; fails while it cannot be told. */
    CompletionStage<java.util.Set<String>> lookUp(java.util.Set<String> eventIds);
  }

  /**
   * {@code boxoffice.queue} (conf/boxoffice.conf): how long a request waits for the room of a
   * catalogued event to be heard before it is told to try again, and how often the catalogue is
   * read again until it answers.
   */
  public record Settings(Duration roomStartWait, Duration catalogueRetry) {
    public static Settings fromConfig(com.typesafe.config.Config config) {
      com.typesafe.config.Config q = config.getConfig("boxoffice.queue");
      return new Settings(q.getDuration("room-start-wait"), q.getDuration("catalogue-retry"));
    }
  }

  private final BiConsumer<String, Manifests> onNewEvent;
  private final Consumer<String> wakeRoom;
  private final ActorSystem<?> system;
  private final Catalogue catalogue;
  private final Settings settings;

  public Manifests(ActorSystem<?> system, ActorRef<Topic.Command<WaitingRoom.Manifest>> topic, Catalogue catalogue,
                   Settings settings, Consumer<String> wakeRoom, BiConsumer<String, Manifests> onNewEvent) {
    this.settings = settings;
    this.onNewEvent = onNewEvent;
    this.wakeRoom = wakeRoom;
    this.system = system;
    this.catalogue = catalogue;
    readCatalogue(system, catalogue);
    ActorRef<WaitingRoom.Manifest> listener = system.systemActorOf(
        Behaviors.receiveMessage(m -> {
          remember(m);
          return Behaviors.same();
        }), "manifest-listener", Props.empty());
    topic.tell(Topic.subscribe(listener));
  }

  /** Remembers a manifest heard from the topic (only created events publish one). */
  public void remember(WaitingRoom.Manifest m) {
    if (m.state().equals(Phase.UNKNOWN.wire())) return;
    WaitingRoom.Manifest before = byEvent.putIfAbsent(m.eventId(), m);
    if (before == null) onNewEvent.accept(m.eventId(), this);
    else byEvent.merge(m.eventId(), m, (old, next) -> next.updatedAt() >= old.updatedAt() ? next : old);
    CompletableFuture<WaitingRoom.Manifest> waiter = awaited.remove(m.eventId());
    if (waiter != null) waiter.complete(byEvent.get(m.eventId()));
  }

  /** The last manifest of the event this node heard, however old, or null for an event it does not know. */
  public WaitingRoom.Manifest known(String eventId) {
    return byEvent.get(eventId);
  }

  /**
   * The event's manifest. An event in the catalogue that this node has not heard yet (its room
   * is starting) is waited for, at most the settings' {@code roomStartWait}; otherwise an {@link ApiError}
   * ({@link #unknown(String)}). Made-up ids never wait: the catalogue does not hold them.
   */
  public CompletionStage<WaitingRoom.Manifest> current(String eventId) {
    WaitingRoom.Manifest m = byEvent.get(eventId);
    if (m != null) return CompletableFuture.completedFuture(m);
    return catalogueAsked(eventId)
        .thenCompose(c -> {
          if (!c.contains(eventId)) return CompletableFuture.failedFuture(unknown(eventId));
          wake(eventId);
          return awaitHeard(eventId, heard -> true, settings.roomStartWait())
              .exceptionallyCompose(e -> CompletableFuture.failedFuture(unknown(eventId)));
        });
  }

  /**
   * Whether the event exists, without waking its room or waiting to hear it: one this node has
   * heard of, or one the catalogue holds. For routes that find the event in an id the client
   * sent (an order's), before they ask any entity: a made-up id fails 404 and starts nothing.
   */
  @Override
  public CompletionStage<Void> exists(String eventId) {
    if (byEvent.containsKey(eventId)) return CompletableFuture.completedFuture(null);
    return catalogueAsked(eventId).thenCompose(c -> c.contains(eventId) ? CompletableFuture.<Void>completedFuture(null)
        : CompletableFuture.failedFuture(unknown(eventId)));
  }

  /**
   * The catalogue as this node knows it once it could tell whether it holds {@code eventId}
   * (asking the keeper on a miss), or a failed stage ({@link #unknown}) while it cannot tell.
   */
  private CompletionStage<java.util.Set<String>> catalogueAsked(String eventId) {
    // Before the catalogue is read, and for a catalogued room not heard yet, the wait is bounded
    // and shared: a flood of made-up ids waits on the same catalogue and then costs nothing.
    return catalogueRead.copy().orTimeout(settings.roomStartWait().toMillis(), TimeUnit.MILLISECONDS)
        .thenCompose(c -> c.contains(eventId) ? CompletableFuture.completedFuture(c)
            : lookUp(eventId).exceptionallyCompose(e -> CompletableFuture.failedFuture(tryAgain())))
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(
            e instanceof ApiError || e.getCause() instanceof ApiError ? e : unknown(eventId)));
  }

  /**
   * Starts the room of a catalogued event that this node has not heard (rooms without a
   * schedule are not kept running), at most once a second per event, whatever the traffic.
   */
  private void wake(String eventId) {
    long now = System.nanoTime();
    Long before = wokenAt.get(eventId);
    if (before != null && now - before < 1_000_000_000L) return;
    if (before == null ? wokenAt.putIfAbsent(eventId, now) == null : wokenAt.replace(eventId, before, now)) {
      wakeRoom.accept(eventId);
    }
  }

  private final Map<String, Long> wokenAt = new ConcurrentHashMap<>();

  /**
   * 404 for an event that does not exist; 503 (try again) while this node cannot tell yet: the
   * catalogue is not read, or the event is in it but its room has not been heard.
   */
  public ApiError unknown(String eventId) {
    java.util.Set<String> c = catalogued;
    if (c == null || c.contains(eventId)) return tryAgain();
    return notFound();
  }

  private static ApiError tryAgain() {
    return new ApiError(503, "unavailable", "this event is starting on this node, try again");
  }

  /**
   * Makes a just-created event known to every node before its creator is answered: the keeper
   * lists it from now on, so a node that missed its manifest on the topic (it joined a moment
   * ago, or the message was lost) finds it when it reads the catalogue again on a miss.
   */
  public CompletionStage<Void> announce(String eventId) {
    return catalogue.announce(eventId);
  }

  /**
   * Asks the catalogue whether an id this node has not heard of exists, for a request that found
   * it missing: one question at a time from this node, which carries every id missed while the
   * one before was out, so a flood of made-up ids costs a small ask of the keeper per round trip
   * and a lone miss is answered at once. A miss never takes the answer of a question asked
   * before it: an event announced just before the miss is in the answer it waits for. Ids found
   * join this node's catalogue; the stage answers the catalogue as this node then knows it.
   */
  private CompletionStage<java.util.Set<String>> lookUp(String eventId) {
    CompletableFuture<java.util.Set<String>> answer = new CompletableFuture<>();
    boolean ask;
    synchronized (this) {
      missed.computeIfAbsent(eventId, id -> new ArrayList<>()).add(answer);
      ask = !asking;
      asking = true;
    }
    if (ask) askNext();
    return answer;
  }

  private void askNext() {
    Map<String, List<CompletableFuture<java.util.Set<String>>>> batch;
    synchronized (this) {
      if (missed.isEmpty()) {
        asking = false;
        return;
      }
      // At most LOOK_UP_BATCH ids a question, so that a flood of made-up ids from many
      // networks never makes a message too large for remoting; the rest wait for the next one.
      if (missed.size() <= LOOK_UP_BATCH) {
        batch = missed;
        missed = new LinkedHashMap<>();
      } else {
        batch = new LinkedHashMap<>();
        var it = missed.entrySet().iterator();
        while (batch.size() < LOOK_UP_BATCH) {
          var e = it.next();
          batch.put(e.getKey(), e.getValue());
          it.remove();
        }
      }
    }
    catalogue.lookUp(java.util.Set.copyOf(batch.keySet())).whenComplete((found, error) -> {
      if (found != null && !found.isEmpty()) {
        java.util.Set<String> known = new java.util.HashSet<>(catalogued == null ? java.util.Set.of() : catalogued);
        known.addAll(found);
        catalogued = java.util.Set.copyOf(known);
      }
      java.util.Set<String> now = catalogued == null ? java.util.Set.of() : catalogued;
      batch.values().forEach(waiters -> waiters.forEach(w -> {
        if (found != null) w.complete(now);
        else w.completeExceptionally(error);
      }));
      askNext();
    });
  }

  /** Ids missed while a question was out, with the requests waiting for them. Guarded by {@code this}. */
  private Map<String, List<CompletableFuture<java.util.Set<String>>>> missed = new LinkedHashMap<>();
  /** Ids in one question to the keeper at most (64 characters each: well under remoting's frame). */
  static final int LOOK_UP_BATCH = 1_000;
  private boolean asking;

  /** Reads the catalogue until it answers, once a {@code catalogueRetry}; then the topic alone keeps this node up to date. */
  private void readCatalogue(ActorSystem<?> system, Catalogue catalogue) {
    catalogue.eventIds().whenComplete((ids, error) -> {
      if (ids != null) {
        catalogued = java.util.Set.copyOf(ids);
        catalogueRead.complete(catalogued);
      } else if (!system.whenTerminated().isCompleted()) {
        system.scheduler().scheduleOnce(settings.catalogueRetry(), () -> readCatalogue(system, catalogue), system.executionContext());
      }
    });
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
