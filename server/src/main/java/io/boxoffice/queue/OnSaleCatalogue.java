package io.boxoffice.queue;

import io.boxoffice.common.ReadSide;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.jdbc.javadsl.JdbcHandler;

/**
 * The events read of each of {@link OnSaleKeeper}'s tags, in table {@code onsale_catalogue}
 * (schema/boxoffice.sql): a projection handler per tag adds the rooms whose events it reads,
 * one transaction per group of events with the projection's offset, and {@link #read} gives
 * the rows with the offsets they are whole up to. Adding an id twice changes nothing.
 */
final class OnSaleCatalogue extends JdbcHandler<List<EventEnvelope<Object>>, ReadSide.Session> {
  private final String tag;

  OnSaleCatalogue(String tag) {
    this.tag = tag;
  }

  /**
   * The event ids of each tag, and the offset of each tag's projection: the rows hold every
   * event of the tag up to it ({@code 0} when it has stored none).
   */
  record Read(Map<String, Set<String>> eventIds, Map<String, Long> offsets) {
    Set<String> eventIds(String tag) {
      return eventIds.getOrDefault(tag, Set.of());
    }

    long offset(String tag) {
      return offsets.getOrDefault(tag, 0L);
    }
  }

  @Override
  public void process(ReadSide.Session session, List<EventEnvelope<Object>> envelopes) throws Exception {
    Set<String> eventIds = new LinkedHashSet<>();
    for (EventEnvelope<Object> envelope : envelopes) eventIds.add(eventId(envelope.persistenceId()));
    session.withConnection(c -> {
      for (String eventId : eventIds) add(c, eventId);
      return null;
    });
  }

  /** The room's event id in its persistence id ({@code WaitingRoom|<eventId>}). */
  static String eventId(String persistenceId) {
    return persistenceId.substring(persistenceId.indexOf('|') + 1);
  }

  private void add(Connection c, String eventId) throws SQLException {
    // Only this tag's projection writes this tag's rows: nothing can insert between the two.
    try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM onsale_catalogue WHERE tag = ? AND event_id = ?")) {
      st.setString(1, tag);
      st.setString(2, eventId);
      try (ResultSet rs = st.executeQuery()) {
        if (rs.next()) return;
      }
    }
    try (PreparedStatement st = c.prepareStatement("INSERT INTO onsale_catalogue (tag, event_id) VALUES (?, ?)")) {
      st.setString(1, tag);
      st.setString(2, eventId);
      st.executeUpdate();
    }
  }

  /**
   * The catalogue and the offsets of {@code projection}'s tags. The offsets are read first: a
   * group committed in between then adds rows past them, never an offset past the rows read.
   */
  static Read read(Connection c, String projection) throws SQLException {
    Map<String, Long> offsets = new HashMap<>();
    try (PreparedStatement st = c.prepareStatement("SELECT \"projection_key\", \"current_offset\" FROM"
        + " \"pekko_projection_offset_store\" WHERE \"projection_name\" = ? AND \"manifest\" = 'SEQ'")) {
      st.setString(1, projection);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) offsets.put(rs.getString(1), Long.parseLong(rs.getString(2)));
      }
    }
    Map<String, Set<String>> eventIds = new HashMap<>();
    try (PreparedStatement st = c.prepareStatement("SELECT tag, event_id FROM onsale_catalogue");
         ResultSet rs = st.executeQuery()) {
      while (rs.next()) eventIds.computeIfAbsent(rs.getString(1), t -> new HashSet<>()).add(rs.getString(2));
    }
    return new Read(eventIds, offsets);
  }
}
