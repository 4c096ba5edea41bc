package io.boxoffice.cart;

import io.boxoffice.common.ReadSide;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
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
  private enum Mark {
    STARTED("started_at = COALESCE(started_at, ?)"),
    CAPTURED("captured = TRUE"),
    FILED("filed = TRUE"),
    ENDED("ended = TRUE");

    final String set;

    Mark(String set) {
      this.set = set;
    }
  }

  private record Marked(String orderId, Mark mark) {}

  @Override
  public void process(ReadSide.Session session, List<EventEnvelope<Cart.Event>> envelopes) throws Exception {
    session.withConnection(c -> {
      for (EventEnvelope<Cart.Event> envelope : envelopes) {
        Marked marked = markOf(envelope.event());
        if (marked == null) continue;
        String pid = envelope.persistenceId();
        record(c, pid.substring(pid.indexOf('|') + 1), marked, envelope.timestamp());
      }
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

  private static void record(Connection c, String cartId, Marked marked, long at) throws SQLException {
    int updated;
    try (PreparedStatement st = c.prepareStatement("UPDATE checkout_pending SET " + marked.mark().set + " WHERE order_id = ?")) {
      int i = 1;
      if (marked.mark() == Mark.STARTED) st.setLong(i++, at);
      st.setString(i, marked.orderId());
      updated = st.executeUpdate();
    }
    if (updated == 0) {
      try (PreparedStatement st = c.prepareStatement(
          "INSERT INTO checkout_pending (order_id, cart_id, started_at, captured, filed, ended) VALUES (?, ?, ?, ?, ?, ?)")) {
        st.setString(1, marked.orderId());
        st.setString(2, cartId);
        if (marked.mark() == Mark.STARTED) st.setLong(3, at);
        else st.setNull(3, java.sql.Types.BIGINT);
        st.setBoolean(4, marked.mark() == Mark.CAPTURED);
        st.setBoolean(5, marked.mark() == Mark.FILED);
        st.setBoolean(6, marked.mark() == Mark.ENDED);
        st.executeUpdate();
      }
    }
    try (PreparedStatement st = c.prepareStatement(
        "DELETE FROM checkout_pending WHERE order_id = ? AND started_at IS NOT NULL AND (ended OR (captured AND filed))")) {
      st.setString(1, marked.orderId());
      st.executeUpdate();
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
