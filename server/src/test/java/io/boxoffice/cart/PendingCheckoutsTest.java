package io.boxoffice.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.boxoffice.common.ReadSide;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import io.boxoffice.support.ScratchDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pending checkouts table, on H2 and PostgreSQL: whatever order and grouping the events of
 * an order come in (twice, ended before started as when the legacy tag's projection lags a
 * slice's), an order is pending exactly while it has started and reached no end.
 */
class PendingCheckoutsTest {
  private final AtomicLong ordering = new AtomicLong();
  private ScratchDatabase db;
  private ActorTestKit kit;
  private ReadSide readSide;

  private void open(ScratchDatabase.Kind kind) throws Exception {
    db = ScratchDatabase.create(kind);
    kit = db.start();
    readSide = db.readSide(kit.system());
  }

  @AfterEach
  void close() throws Exception {
    if (kit != null) kit.shutdownTestKit();
    if (db != null) db.close();
  }

  @ParameterizedTest
  @EnumSource(ScratchDatabase.Kind.class)
  void anOrderIsPendingWhileStartedAndNotEndedWhateverTheOrderOfItsEvents(ScratchDatabase.Kind kind) throws Exception {
    open(kind);
    // Ended before started (two projections), then the start: nothing pending.
    handle(new Cart.PaymentDeclined("o1", "card_declined"));
    assertEquals(List.of(), stalled());
    assertEquals(List.of("o1"), rows(), "the end waits in the table for its start");
    handle(new Cart.CheckoutStarted("k", "o1", List.of(new SeatPrice("S-A-1", 1000)), 1000, "tok", 0));
    assertEquals(List.of(), stalled());
    assertEquals(List.of(), rows(), "a finished checkout leaves no row: the table holds open ones only");

    // Started, handed in twice: pending once, since its first start.
    handle(started("o2", 10));
    handle(started("o2", 20));
    assertEquals(List.of("o2@10"), stalled());

    // Captured but not yet filed: still pending; filed in a later group: done.
    handle(new Cart.PaymentCaptured("o2"));
    assertEquals(List.of("o2@10"), stalled());
    handle(new Cart.OrderFiled("o2"));
    assertEquals(List.of(), stalled());
    assertEquals(List.of(), rows());

    // A whole checkout in one group leaves nothing; one voided in the same group as another's start.
    handle(started("o3", 30), new Cart.PaymentCaptured("o3"), new Cart.OrderFiled("o3"), started("o4", 40),
        new Cart.CheckoutFailed("o4", "hold_expired"));
    assertEquals(List.of("o4@40"), stalled());
    assertEquals(List.of("o4"), rows());
    handle(new Cart.PaymentVoided("o4"));
    assertEquals(List.of(), stalled());
    assertEquals(List.of(), rows());
  }

  private static Cart.CheckoutStarted started(String orderId, long at) {
    return new Cart.CheckoutStarted(orderId, orderId, List.of(new SeatPrice("S-A-1", 1000)), 1000, "tok", at);
  }

  /** Hands the events to the handler as one group, in one transaction, as the projection does. */
  private void handle(Cart.Event... events) throws Exception {
    List<EventEnvelope<Cart.Event>> group = new ArrayList<>();
    for (Cart.Event event : events) {
      long at = event instanceof Cart.CheckoutStarted s ? s.at() : 0;
      long n = ordering.incrementAndGet();
      group.add(EventEnvelope.create(Offset.sequence(n), "Cart|e:a", n, event, at));
    }
    try (ReadSide.Session session = readSide.session()) {
      new PendingCheckouts().process(session, group);
      session.commit();
    }
  }

  private List<String> rows() throws Exception {
    return readSide.transact(c -> {
      List<String> orders = new ArrayList<>();
      try (var st = c.createStatement(); var rs = st.executeQuery("SELECT order_id FROM checkout_pending ORDER BY order_id")) {
        while (rs.next()) orders.add(rs.getString(1));
      }
      return orders;
    }).toCompletableFuture().get();
  }

  private List<String> stalled() throws Exception {
    return readSide.transact(c -> PendingCheckouts.stalled(c, Long.MAX_VALUE)).toCompletableFuture().get()
        .stream().map(s -> s.orderId() + "@" + s.startedAt()).toList();
  }
}
