package io.boxoffice.tickets;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.common.Supervision;
import io.boxoffice.tickets.domain.Ticket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/** Every ticket one account bought, across events; filing an order twice keeps it once. Replies {@link Filed} and {@link Tickets}. */
public final class TicketWallet
    extends EventSourcedBehaviorWithEnforcedReplies<TicketWallet.Command, TicketWallet.Event, TicketWallet.State> {

  /** Frozen: it is inside every stored persistence id. */
  public static final EntityTypeKey<Command> ENTITY_TYPE_KEY = EntityTypeKey.create(Command.class, "TicketWallet");

  public sealed interface Command extends CborSerializable {}

  /** Adds an order's tickets; replies {@link Filed}, also when the order was filed before. */
  public record FileOrder(String orderId, List<Ticket> tickets, ActorRef<Filed> replyTo) implements Command {}

  /** Replies {@link Tickets}. */
  public record GetTickets(ActorRef<Tickets> replyTo) implements Command {}

  public record Filed(String orderId) implements CborSerializable {}

  public record Tickets(List<Ticket> tickets) implements CborSerializable {}

  public sealed interface Event extends CborSerializable {}

  public record OrderFiled(String orderId, List<Ticket> tickets) implements Event {}

  /** Tickets by order, in the order they were filed. */
  public record State(Map<String, List<Ticket>> orders) implements CborSerializable {
    State with(String orderId, List<Ticket> tickets) {
      Map<String, List<Ticket>> next = new LinkedHashMap<>(orders);
      next.put(orderId, List.copyOf(tickets));
      return new State(next);
    }

    List<Ticket> all() {
      List<Ticket> out = new ArrayList<>();
      orders.values().forEach(out::addAll);
      return out;
    }
  }

  public static void init(ActorSystem<?> system, SnapshotPolicy snapshots) {
    ClusterSharding.get(system).init(Entity.of(ENTITY_TYPE_KEY, ctx -> create(ctx.getEntityId(), snapshots)).withRole("inventory")
        .withAllocationStrategy(io.boxoffice.common.WarmPlacement.balanced(system)));
  }

  public static Behavior<Command> create(String accountId, SnapshotPolicy snapshots) {
    return Supervision.restarting(s -> new TicketWallet(PersistenceId.of(ENTITY_TYPE_KEY.name(), accountId), snapshots, s));
  }

  private final SnapshotPolicy snapshots;

  private TicketWallet(PersistenceId id, SnapshotPolicy snapshots, Supervision supervision) {
    super(id, supervision.backoff());
    this.snapshots = snapshots;
  }

  @Override
  public State emptyState() {
    return new State(Map.of());
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return snapshots.criteria();
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return this::onCommand;
  }

  private ReplyEffect<Event, State> onCommand(State state, Command command) {
    if (command instanceof FileOrder f) {
      if (state.orders().containsKey(f.orderId())) return Effect().reply(f.replyTo(), new Filed(f.orderId()));
      return Effect().persist(new OrderFiled(f.orderId(), f.tickets())).thenReply(f.replyTo(), s -> new Filed(f.orderId()));
    }
    GetTickets g = (GetTickets) command;
    return Effect().reply(g.replyTo(), new Tickets(state.all()));
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return (state, event) -> {
      OrderFiled f = (OrderFiled) event;
      return state.with(f.orderId(), f.tickets());
    };
  }
}
