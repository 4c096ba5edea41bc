package io.boxoffice.accounts;

import io.boxoffice.accounts.domain.SessionRevocations;
import io.boxoffice.edge.RevokedSessions;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's view of every account's signed-out sessions, which every signed-in request checks
 * ({@link RevokedSessions}: one map lookup, no database read). It hears each change that any
 * node's {@link AccountSessions} persists (pub-sub), and at start reads the changes of the days
 * that can still matter (a session lifetime back, by their day tags) from the journal, so a
 * restarted or new node refuses what was signed out before it started. Entries go when every
 * token they refuse has expired by itself.
 */
public final class SessionView implements RevokedSessions {
  private static final Logger log = LoggerFactory.getLogger(SessionView.class);
  static final String TOPIC = "account-sessions";
  /** A reader for current queries that does not wait long on gaps (see persistence.conf). */
  private static final String READ_JOURNAL = "keeper-read-journal";
  /** Kept this much past the last expiry, for the clock skew tokens are allowed. */
  private static final long LEEWAY_SECONDS = 60;

  private final ConcurrentHashMap<String, SessionRevocations> byAccount = new ConcurrentHashMap<>();
  private final Clock clock;
  private final long lifetimeSeconds;

  SessionView(Clock clock, Duration sessionLifetime) {
    this.clock = clock;
    this.lifetimeSeconds = sessionLifetime.toSeconds();
  }

  @Override
  public boolean revoked(String accountId, long version, String sessionId) {
    SessionRevocations r = byAccount.get(accountId);
    return r != null && r.isRevoked(version, sessionId);
  }

  /** Takes in what {@code sessions} says (from this node's own sign-out, a peer, or the journal). */
  public void merge(AccountSessions.Sessions sessions) {
    byAccount.merge(sessions.accountId(), sessions.revocations(), SessionRevocations::merge);
  }

  /** How many accounts have something signed out in the view. */
  public int size() {
    return byAccount.size();
  }

  /** Drops what refuses no live token any more. */
  void prune() {
    long now = clock.millis() / 1000;
    byAccount.replaceAll((account, r) -> r.pruned(now - LEEWAY_SECONDS));
    byAccount.values().removeIf(r -> r.mattersUntil(lifetimeSeconds) + LEEWAY_SECONDS < now);
  }

  /**
   * Starts the entity, subscribes this node's view to every node's changes, then reads the
   * journal's changes of the days that still matter; the stage completes when that read is done.
   */
  public static Started start(ActorSystem<?> system, Clock clock, Duration sessionLifetime, Duration pruneInterval) {
    SessionView view = new SessionView(clock, sessionLifetime);
    ActorRef<Topic.Command<AccountSessions.Sessions>> topic = system.systemActorOf(
        Topic.create(AccountSessions.Sessions.class, TOPIC), TOPIC, Props.empty());
    ActorRef<AccountSessions.Sessions> listener = system.systemActorOf(
        Behaviors.receive(AccountSessions.Sessions.class).onMessage(AccountSessions.Sessions.class, s -> {
          view.merge(s);
          return Behaviors.same();
        }).build(), "account-sessions-listener", Props.empty());
    topic.tell(Topic.subscribe(listener));
    AccountSessions.init(system, clock, s -> topic.tell(Topic.publish(s)));
    system.scheduler().scheduleWithFixedDelay(pruneInterval, pruneInterval, view::prune, system.executionContext());
    return new Started(view, view.loadRetrying(system, new java.util.concurrent.CompletableFuture<>()));
  }

  /** Reads again every few seconds while the read fails (a database outage at start), completing {@code done} once it works. */
  private CompletionStage<Done> loadRetrying(ActorSystem<?> system, java.util.concurrent.CompletableFuture<Done> done) {
    load(system).whenComplete((ok, error) -> {
      if (error == null) done.complete(Done.getInstance());
      else system.scheduler().scheduleOnce(Duration.ofSeconds(5), () -> loadRetrying(system, done), system.executionContext());
    });
    return done;
  }

  /** The view, and the start's read of the journal. */
  public record Started(SessionView view, CompletionStage<Done> loaded) {}

  private CompletionStage<Done> load(ActorSystem<?> system) {
    JdbcReadJournal journal = PersistenceQuery.get(system).getReadJournalFor(JdbcReadJournal.class, READ_JOURNAL);
    long now = clock.millis() / 1000;
    LocalDate from = LocalDate.ofEpochDay((now - lifetimeSeconds - LEEWAY_SECONDS) / 86_400);
    // A change stamped by a node whose clock runs ahead may carry tomorrow's tag.
    LocalDate to = LocalDate.ofEpochDay(now / 86_400).plusDays(1);
    Source<String, ?> tags = Source.from(from.datesUntil(to.plusDays(1)).map(d -> AccountSessions.tag(
        d.atStartOfDay().toEpochSecond(ZoneOffset.UTC))).toList());
    return tags.flatMapConcat(tag -> journal.currentEventsByTag(tag, Offset.noOffset()))
        .runWith(Sink.foreach(envelope -> {
          if (envelope.event() instanceof AccountSessions.SessionSignedOut s) {
            merge(new AccountSessions.Sessions(s.accountId(), SessionRevocations.NONE.revoke(s.sessionId(), s.expires(), s.at())));
          } else if (envelope.event() instanceof AccountSessions.SignedOutEverywhere e) {
            merge(new AccountSessions.Sessions(e.accountId(), e.revocations()));
          }
        }), Materializer.matFromSystem(system))
        .whenComplete((done, error) -> {
          if (error != null) log.error("signed-out sessions not read from the journal at start: {}", error.toString());
          else log.info("signed-out sessions of {} accounts read from the journal", byAccount.size());
        });
  }
}
