package io.boxoffice.support;

import java.time.Duration;
import java.util.Set;
import java.util.function.Function;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;

/**
 * Writes events to the journal under one persistence id, tagged as given, as the entity that
 * owns the id would: the read side under test reads what an entity's events look like in the
 * journal, without the entity's rules deciding which events happen.
 */
public final class JournalWriter extends EventSourcedBehavior<JournalWriter.Write, Object, Long> {

  /** Persists {@code event}; replies {@link Done} once it is written. */
  public record Write(Object event, ActorRef<Done> replyTo) {}

  private final Function<Object, Set<String>> tags;

  private JournalWriter(String persistenceId, Function<Object, Set<String>> tags) {
    super(PersistenceId.ofUniqueId(persistenceId));
    this.tags = tags;
  }

  /** Writes {@code events} in order under {@code persistenceId} and returns once all are written. */
  public static void write(ActorTestKit kit, String persistenceId, Function<Object, Set<String>> tags, Object... events) {
    ActorRef<Write> writer = kit.spawn(new JournalWriter(persistenceId, tags));
    TestProbe<Done> written = kit.createTestProbe();
    for (Object event : events) {
      writer.tell(new Write(event, written.ref()));
      written.expectMessage(Duration.ofSeconds(15), Done.getInstance());
    }
    kit.stop(writer);
  }

  @Override
  public Long emptyState() {
    return 0L;
  }

  @Override
  public CommandHandler<Write, Object, Long> commandHandler() {
    return newCommandHandlerBuilder().forAnyState()
        .onCommand(Write.class, (state, w) -> Effect().persist(w.event()).thenRun(s -> w.replyTo().tell(Done.getInstance())))
        .build();
  }

  @Override
  public EventHandler<Long, Object> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent((count, event) -> count + 1);
  }

  @Override
  public Set<String> tagsFor(Object event) {
    return tags.apply(event);
  }
}
