package io.boxoffice.cart;

import io.boxoffice.common.ReadSide;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.jdbc.javadsl.JdbcHandler;

/**
 * The checkouts that were started and have not reached an end, in table {@code checkout_pending}
 * (schema/boxoffice.sql): a projection handler folds the carts' events into it, one transaction
 * per group of events with the projection's offset, and {@link #stalled} lists those open for
 * long. Each event sets one mark of its order, so a group handed in twice, or the events of
 * one order handed in out of order by two projections, leave the same row.
 */
final class PendingCheckouts extends JdbcHandler<List<EventEnvelope<Cart.Event>>, ReadSide.Session> {

  /** A checkout open since {@code startedAt} (journal write time, epoch ms). */
  record Stalled(String cartId, String orderId, long startedAt) {}

  /** What one event tells of its order. */
  private enum Mark { STARTED, CAPTURED, FILED, ENDED }

  private record Marked(String orderId, Mark mark) {}

  /** The marks one group of events gives one order. */
  private static final class Marks {
    final String cartId;
    Long startedAt;
    boolean captured;
    boolean filed;
    boolean ended;

    Marks(String cartId) {
      this.cartId = cartId;
    }

    void add(Mark mark, long at) {
      switch (mark) {
        case STARTED -> startedAt = startedAt == null ? at : startedAt;
        case CAPTURED -> captured = true;
        case FILED -> filed = true;
        case ENDED -> ended = true;
      }
    }

    boolean finished() {
      return startedAt != null && (ended || (captured && filed));
    }
  }

  @Override
  public void process(ReadSide.Session session, List<EventEnvelope<Cart.Event>> envelopes) throws Exception {
    Map<String, Marks> byOrder = new LinkedHashMap<>();
    for (EventEnvelope<Cart.Event> envelope : envelopes) {
      Marked marked = markOf(envelope.event());
      if (marked == null) continue;
      String pid = envelope.persistenceId();
      byOrder.computeIfAbsent(marked.orderId(), id -> new Marks(pid.substring(pid.indexOf('|') + 1)))
          .add(marked.mark(), envelope.timestamp());
    }
    if (byOrder.isEmpty()) return;
    session.withConnection(c -> {
      record(c, byOrder);
      return null;
    });
  }

  /** The events that open or end a checkout; the steps between change nothing here. */
  private static Marked markOf(Cart.Event event) {
    if (event instanceof Cart.CheckoutStarted e) return new Marked(e.orderId(), Mark.STARTED);
    if (event instanceof Cart.PaymentCaptured e) return new Marked(e.orderId(), Mark.CAPTURED);
    if (event instanceof Cart.OrderFiled e) return new Marked(e.orderId(), Mark.FILED);
    if (event instanceof Cart.PaymentDeclined e) return new Marked(e.orderId(), Mark.ENDED);
    if (event instanceof Cart.PaymentVoided e) return new Marked(e.orderId(), Mark.ENDED);
    return null;
  }

  /**
   * Adds a group's marks to the table, a batch of statements per step: most checkouts start and
   * end within a few seconds, so most orders of a group leave no row at all.
   */
  private static void record(Connection c, Map<String, Marks> byOrder) throws SQLException {
    List<String> finishedHere = new ArrayList<>();
    List<String> open = new ArrayList<>();
    byOrder.forEach((orderId, marks) -> (marks.finished() ? finishedHere : open).add(orderId));
    try (PreparedStatement st = c.prepareStatement("DELETE FROM checkout_pending WHERE order_id = ?")) {
      for (String orderId : finishedHere) {
        st.setString(1, orderId);
        st.addBatch();
      }
      if (!finishedHere.isEmpty()) st.executeBatch();
    }
    if (open.isEmpty()) return;
    int[] updated;
    try (PreparedStatement st = c.prepareStatement("UPDATE checkout_pending SET started_at = COALESCE(started_at, ?),"
        + " captured = captured OR ?, filed = filed OR ?, ended = ended OR ? WHERE order_id = ?")) {
      for (String orderId : open) {
        Marks marks = byOrder.get(orderId);
        if (marks.startedAt == null) st.setNull(1, Types.BIGINT);
        else st.setLong(1, marks.startedAt);
        st.setBoolean(2, marks.captured);
        st.setBoolean(3, marks.filed);
        st.setBoolean(4, marks.ended);
        st.setString(5, orderId);
        st.addBatch();
      }
      updated = st.executeBatch();
    }
    try (PreparedStatement st = c.prepareStatement(
        "INSERT INTO checkout_pending (order_id, cart_id, started_at, captured, filed, ended) VALUES (?, ?, ?, ?, ?, ?)")) {
      boolean any = false;
      for (int i = 0; i < open.size(); i++) {
        if (updated[i] != 0) continue;
        Marks marks = byOrder.get(open.get(i));
        st.setString(1, open.get(i));
        st.setString(2, marks.cartId);
        if (marks.startedAt == null) st.setNull(3, Types.BIGINT);
        else st.setLong(3, marks.startedAt);
        st.setBoolean(4, marks.captured);
        st.setBoolean(5, marks.filed);
        st.setBoolean(6, marks.ended);
        st.addBatch();
        any = true;
      }
      if (any) st.executeBatch();
    }
    // The marks of this group may finish a row that earlier groups (or another projection) began.
    try (PreparedStatement st = c.prepareStatement(
        "DELETE FROM checkout_pending WHERE order_id = ? AND started_at IS NOT NULL AND (ended OR (captured AND filed))")) {
      for (String orderId : open) {
        st.setString(1, orderId);
        st.addBatch();
      }
      st.executeBatch();
    }
  }

  /** The checkouts started at or before {@code startedBefore} (epoch ms) that have not reached an end. */
  static List<Stalled> stalled(Connection c, long startedBefore) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("SELECT cart_id, order_id, started_at FROM checkout_pending"
        + " WHERE started_at <= ? AND NOT ended AND NOT (captured AND filed) ORDER BY started_at")) {
      st.setLong(1, startedBefore);
      List<Stalled> stalled = new ArrayList<>();
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) stalled.add(new Stalled(rs.getString(1), rs.getString(2), rs.getLong(3)));
      }
      return stalled;
    }
  }
}
