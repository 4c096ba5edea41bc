package io.boxoffice.admin;

import io.boxoffice.common.ReadSide;
import io.boxoffice.common.TypedText;
import io.boxoffice.queue.OnSaleKeeper;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.venue.Venue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.typed.ShardedDaemonProcessSettings;
import org.apache.pekko.cluster.sharding.typed.javadsl.ShardedDaemonProcess;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.projection.ProjectionBehavior;
import org.apache.pekko.projection.ProjectionId;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.eventsourced.javadsl.EventSourcedProvider;
import org.apache.pekko.projection.javadsl.GroupedProjection;
import org.apache.pekko.projection.jdbc.javadsl.JdbcHandler;
import org.apache.pekko.projection.jdbc.javadsl.JdbcProjection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What event managers list, in tables {@code event_directory} and {@code venue_directory}
 * (schema/boxoffice.sql), so that the lists are whole after any restart without waking a room or
 * a venue: a projection of the rooms' definitions (tag {@code event}) and one of the venues'
 * (tag {@code venue}), each the only writer of its table, its offset stored with its rows. Its
 * projections started from offset zero on their first run, so events created before the
 * directory existed are in it too.
 */
public final class Directory extends JdbcHandler<List<EventEnvelope<Object>>, ReadSide.Session> {
  /** Frozen: the projections' offsets are stored under this name, one key per tag. */
  static final String PROJECTION = "admin-directory";
  public static final List<String> TAGS = List.of(OnSaleKeeper.EVENT_TAG, Venue.TAG);

  /** An event as the directory has it; {@code scheduled} when its on-sale was ever scheduled. */
  public record EventRow(String eventId, String name, String venueId, boolean opened, boolean scheduled) {}

  /** A venue as the directory has it. */
  public record VenueRow(String venueId, String name, int seatCount) {}

  /** Told of each journal event whose row the directory could not write and skipped (a metric counts them; an alert reads it). */
  public interface SkippedRows {
    void skipped(String tag);
  }

  private static final Logger log = LoggerFactory.getLogger(Directory.class);

  private final String tag;
  private final SkippedRows skipped;

  Directory(String tag, SkippedRows skipped) {
    this.tag = tag;
    this.skipped = skipped;
  }

  /** Starts the projections on the inventory nodes. */
  public static void init(ActorSystem<?> system, ReadSide readSide, SkippedRows skipped) {
    ShardedDaemonProcess.get(system).init(ProjectionBehavior.Command.class, PROJECTION, TAGS.size(),
        i -> ProjectionBehavior.create(projection(system, readSide, TAGS.get(i), skipped)),
        ShardedDaemonProcessSettings.create(system)
            .withShardingSettings(ClusterShardingSettings.create(system).withRole("inventory")),
        Optional.of(ProjectionBehavior.stopMessage()));
  }

  static GroupedProjection<Offset, EventEnvelope<Object>> projection(ActorSystem<?> system, ReadSide readSide, String tag,
                                                                    SkippedRows skipped) {
    return JdbcProjection.groupedWithin(ProjectionId.of(PROJECTION, tag),
        EventSourcedProvider.<Object>eventsByTag(system, JdbcReadJournal.Identifier(), tag),
        readSide::session, () -> new Directory(tag, skipped), system);
  }

  /**
   * Writes each envelope's row, each under a savepoint of the group's transaction: a row that
   * cannot be written (a name with control characters, which PostgreSQL refuses as text; any
   * other refusal of that row's data) is rolled back alone, logged and counted, and the rest of
   * the list goes on. Before, one such row failed its group again and again, and the lists
   * stopped for every event after it. A failure that is not about the row's data (the database
   * gone) still fails the group, which the projection retries, so nothing is skipped for it.
   */
  @Override
  public void process(ReadSide.Session session, List<EventEnvelope<Object>> envelopes) throws Exception {
    session.withConnection(c -> {
      for (EventEnvelope<Object> envelope : envelopes) {
        String entityId = envelope.persistenceId().substring(envelope.persistenceId().indexOf('|') + 1);
        try {
          write(c, entityId, envelope.event());
        } catch (UnwritableRow e) {
          skip(envelope, e.getMessage());
        }
      }
      return null;
    });
  }

  /** A row whose data the database refused, or that no database should store: skipped, not retried. */
  private static final class UnwritableRow extends Exception {
    UnwritableRow(String why) {
      super(why, null, false, false);
    }
  }

  private void write(Connection c, String entityId, Object event) throws SQLException, UnwritableRow {
    if (event instanceof WaitingRoom.EventDefined d) {
      checked(d.name(), d.venueId());
      savepoint(c, () -> event(c, entityId, "UPDATE event_directory SET name = ?, venue_id = ? WHERE event_id = ?",
          "INSERT INTO event_directory (name, venue_id, event_id) VALUES (?, ?, ?)", d.name(), d.venueId()));
    } else if (event instanceof WaitingRoom.SaleOpened) {
      savepoint(c, () -> event(c, entityId, "UPDATE event_directory SET opened = TRUE WHERE event_id = ?",
          "INSERT INTO event_directory (opened, event_id) VALUES (TRUE, ?)"));
    } else if (event instanceof Venue.VenueDefined v) {
      checked(v.layout().name());
      savepoint(c, () -> venue(c, entityId, v.layout().name(), v.layout().seatCount()));
    }
  }

  /** Text the lists would show: a name with control characters (entered before they were refused) is not written on any database. */
  private static void checked(String... texts) throws UnwritableRow {
    for (String t : texts) {
      if (t != null && !TypedText.printable(t)) throw new UnwritableRow("a name with control or invisible characters");
    }
  }

  private interface Write {
    void run() throws SQLException;
  }

  /**
   * Runs {@code write} under a savepoint; a refusal of the row's data (SQL state class 22, data
   * exception, or 23, integrity constraint) rolls back to it, so the transaction can go on
   * (PostgreSQL refuses every later statement of a transaction after an error otherwise).
   */
  private static void savepoint(Connection c, Write write) throws SQLException, UnwritableRow {
    Savepoint sp = c.setSavepoint();
    try {
      write.run();
      c.releaseSavepoint(sp);
    } catch (SQLException e) {
      String state = e.getSQLState() == null ? "" : e.getSQLState();
      if (!state.startsWith("22") && !state.startsWith("23")) throw e;
      c.rollback(sp);
      throw new UnwritableRow("the database refused it: SQL state " + state + ", " + e.getMessage());
    }
  }

  private void skip(EventEnvelope<Object> envelope, String why) {
    String reason = why.length() > 300 ? why.substring(0, 300) + "..." : why;
    log.error("the managers' directory ({}) skips {} at sequence number {} ({}), which stays out of the lists while the rest"
        + " goes on: {}", tag, envelope.persistenceId(), envelope.sequenceNr(), envelope.event().getClass().getSimpleName(), reason);
    skipped.skipped(tag);
  }

  /** Runs {@code update}, or {@code insert} when no row was there: this projection is the table's only writer. */
  private static void event(Connection c, String eventId, String update, String insert, String... values) throws SQLException {
    if (execute(c, update, eventId, values) == 0) execute(c, insert, eventId, values);
  }

  private static int execute(Connection c, String sql, String eventId, String... values) throws SQLException {
    try (PreparedStatement st = c.prepareStatement(sql)) {
      int i = 1;
      for (String v : values) st.setString(i++, v);
      st.setString(i, eventId);
      return st.executeUpdate();
    }
  }

  private static void venue(Connection c, String venueId, String name, int seatCount) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("UPDATE venue_directory SET name = ?, seat_count = ? WHERE venue_id = ?")) {
      st.setString(1, name);
      st.setInt(2, seatCount);
      st.setString(3, venueId);
      if (st.executeUpdate() > 0) return;
    }
    try (PreparedStatement st = c.prepareStatement("INSERT INTO venue_directory (name, seat_count, venue_id) VALUES (?, ?, ?)")) {
      st.setString(1, name);
      st.setInt(2, seatCount);
      st.setString(3, venueId);
      st.executeUpdate();
    }
  }

  /** Every event in the directory, by id. */
  public static List<EventRow> events(Connection c) throws SQLException {
    List<EventRow> rows = new ArrayList<>();
    try (PreparedStatement st = c.prepareStatement("SELECT d.event_id, d.name, d.venue_id, d.opened, o.event_id FROM event_directory d"
        + " LEFT JOIN onsale_catalogue o ON o.tag = ? AND o.event_id = d.event_id ORDER BY d.event_id")) {
      st.setString(1, OnSaleKeeper.TAG);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) rows.add(new EventRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4), rs.getString(5) != null));
      }
    }
    return rows;
  }

  /** Every venue in the directory, by id. */
  public static List<VenueRow> venues(Connection c) throws SQLException {
    List<VenueRow> rows = new ArrayList<>();
    try (PreparedStatement st = c.prepareStatement("SELECT venue_id, name, seat_count FROM venue_directory ORDER BY venue_id");
         ResultSet rs = st.executeQuery()) {
      while (rs.next()) rows.add(new VenueRow(rs.getString(1), rs.getString(2), rs.getInt(3)));
    }
    return rows;
  }
}
