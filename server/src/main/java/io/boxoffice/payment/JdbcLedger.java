package io.boxoffice.payment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * A {@link PaymentLedger} in the database (table {@code payment_simulator}, see {@code schema/}):
 * shared by every node and kept across restarts, as a real processor's records would be.
 * Blocking: call it off the actor threads.
 */
public final class JdbcLedger implements PaymentLedger {
  private static final String COLUMNS = "authorize_key, authorization_id, amount_cents, status";

  private final DataSource db;

  public JdbcLedger(DataSource db) {
    this.db = db;
  }

  @Override
  public Entry authorizeOnce(Entry fresh) {
    try (Connection c = db.getConnection()) {
      try (PreparedStatement st = c.prepareStatement(
          "INSERT INTO payment_simulator (" + COLUMNS + ", updated_at) VALUES (?, ?, ?, ?, ?)")) {
        st.setString(1, fresh.authorizeKey());
        st.setString(2, fresh.authorizationId());
        st.setLong(3, fresh.amountCents());
        st.setString(4, fresh.status().name());
        st.setLong(5, System.currentTimeMillis());
        st.executeUpdate();
        return fresh;
      } catch (SQLException duplicate) {
        // The key was answered before (maybe by another node): that answer stands.
        Entry stored = select(c, "authorize_key", fresh.authorizeKey());
        if (stored == null) throw duplicate;
        return stored;
      }
    } catch (SQLException e) {
      throw new PaymentGateway.PaymentUnavailable("ledger unavailable: " + e.getMessage());
    }
  }

  @Override
  public Entry byAuthorization(String authorizationId) {
    return find("authorization_id", authorizationId);
  }

  @Override
  public Entry byKey(String authorizeKey) {
    return find("authorize_key", authorizeKey);
  }

  @Override
  public Entry transition(String authorizationId, Status to) {
    try (Connection c = db.getConnection();
         PreparedStatement st = c.prepareStatement(
             "UPDATE payment_simulator SET status = ?, updated_at = ? WHERE authorization_id = ? AND status = 'AUTHORIZED'")) {
      st.setString(1, to.name());
      st.setLong(2, System.currentTimeMillis());
      st.setString(3, authorizationId);
      st.executeUpdate();
      return select(c, "authorization_id", authorizationId);
    } catch (SQLException e) {
      throw new PaymentGateway.PaymentUnavailable("ledger unavailable: " + e.getMessage());
    }
  }

  @Override
  public Map<String, Entry> entries() {
    Map<String, Entry> out = new HashMap<>();
    try (Connection c = db.getConnection();
         PreparedStatement st = c.prepareStatement("SELECT " + COLUMNS + " FROM payment_simulator");
         ResultSet rs = st.executeQuery()) {
      while (rs.next()) {
        Entry e = entry(rs);
        out.put(e.authorizeKey(), e);
      }
      return out;
    } catch (SQLException e) {
      throw new PaymentGateway.PaymentUnavailable("ledger unavailable: " + e.getMessage());
    }
  }

  private Entry find(String column, String value) {
    try (Connection c = db.getConnection()) {
      return select(c, column, value);
    } catch (SQLException e) {
      throw new PaymentGateway.PaymentUnavailable("ledger unavailable: " + e.getMessage());
    }
  }

  private static Entry select(Connection c, String column, String value) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("SELECT " + COLUMNS + " FROM payment_simulator WHERE " + column + " = ?")) {
      st.setString(1, value);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? entry(rs) : null;
      }
    }
  }

  private static Entry entry(ResultSet rs) throws SQLException {
    return new Entry(rs.getString(1), rs.getString(2), rs.getLong(3), Status.valueOf(rs.getString(4)));
  }
}
