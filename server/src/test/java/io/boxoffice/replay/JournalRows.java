package io.boxoffice.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The rows of pekko-persistence-jdbc's tables (journal, tags, snapshots) as JSON lines, portable
 * between H2 and PostgreSQL: one line per row, {@code {"table":..., "row":{column: value}}},
 * binary columns in Base64. The first line may carry facts about the recording.
 */
final class JournalRows {
  static final ObjectMapper JSON = new ObjectMapper();
  /** In the order rows must be loaded: tags refer to journal rows. */
  static final List<String> TABLES = List.of("event_journal", "event_tag", "snapshot");
  private static final Map<String, String> ORDER_BY = Map.of(
      "event_journal", "\"ordering\"", "event_tag", "\"event_id\", \"tag\"", "snapshot", "\"persistence_id\", \"sequence_number\"");

  private JournalRows() {}

  static void dump(Connection c, JsonNode facts, Path file) throws SQLException, IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file)) {
      out.write(JSON.writeValueAsString(JSON.createObjectNode().set("facts", facts)));
      out.newLine();
      for (String table : TABLES) {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT * FROM \"" + table + "\" ORDER BY " + ORDER_BY.get(table))) {
          ResultSetMetaData md = rs.getMetaData();
          while (rs.next()) {
            ObjectNode row = JSON.createObjectNode();
            for (int i = 1; i <= md.getColumnCount(); i++) {
              String column = md.getColumnLabel(i).toLowerCase(java.util.Locale.ROOT);
              Object value = binary(md.getColumnType(i)) ? rs.getBytes(i) : rs.getObject(i);
              if (value == null) row.putNull(column);
              else if (value instanceof byte[] b) row.put(column, Base64.getEncoder().encodeToString(b));
              else if (value instanceof Number n) row.put(column, n.longValue());
              else if (value instanceof Boolean b) row.put(column, b);
              else row.put(column, value.toString());
            }
            ObjectNode line = JSON.createObjectNode();
            line.put("table", table);
            line.set("row", row);
            out.write(JSON.writeValueAsString(line));
            out.newLine();
          }
        }
      }
    }
  }

  /** The facts line of a dump. */
  static JsonNode facts(Path file) throws IOException {
    try (var lines = Files.lines(file)) {
      return JSON.readTree(lines.findFirst().orElseThrow()).get("facts");
    }
  }

  /** Inserts every row of the dump; the journal's ordering goes on after the highest loaded. */
  static int load(Connection c, Path file) throws SQLException, IOException {
    int rows = 0;
    long maxOrdering = 0;
    List<String> lines = Files.readAllLines(file);
    for (String text : lines.subList(1, lines.size())) {
      JsonNode line = JSON.readTree(text);
      String table = line.get("table").asText();
      JsonNode row = line.get("row");
      List<String> columns = new ArrayList<>();
      row.fieldNames().forEachRemaining(columns::add);
      String sql = "INSERT INTO \"" + table + "\" (" + String.join(", ", columns.stream().map(col -> "\"" + col + "\"").toList())
          + ") VALUES (" + String.join(", ", columns.stream().map(col -> "?").toList()) + ")";
      Map<String, Integer> types = typesOf(c, table);
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        Iterator<String> it = columns.iterator();
        for (int i = 1; it.hasNext(); i++) {
          String column = it.next();
          JsonNode value = row.get(column);
          Integer type = types.get(column);
          if (type == null) throw new IllegalArgumentException("no column " + column + " in " + table);
          if (value.isNull()) ps.setNull(i, type);
          else if (binary(type)) ps.setBytes(i, Base64.getDecoder().decode(value.asText()));
          else if (value.isBoolean()) ps.setBoolean(i, value.asBoolean());
          else if (value.isNumber()) ps.setLong(i, value.asLong());
          else ps.setString(i, value.asText());
        }
        ps.executeUpdate();
      }
      if (table.equals("event_journal")) maxOrdering = Math.max(maxOrdering, row.get("ordering").asLong());
      rows++;
    }
    try (Statement st = c.createStatement()) {
      String product = c.getMetaData().getDatabaseProductName();
      if (product.equals("H2")) {
        st.execute("ALTER TABLE \"event_journal\" ALTER COLUMN \"ordering\" RESTART WITH " + (maxOrdering + 1));
      } else {
        st.execute("SELECT setval(pg_get_serial_sequence('event_journal', 'ordering'), " + Math.max(1, maxOrdering) + ")");
      }
    }
    return rows;
  }

  /** Column name (lower case) to its JDBC type, of the table as this database has it. */
  private static Map<String, Integer> typesOf(Connection c, String table) throws SQLException {
    Map<String, Integer> types = new java.util.HashMap<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM \"" + table + "\" WHERE 1 = 0")) {
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) types.put(md.getColumnLabel(i).toLowerCase(java.util.Locale.ROOT), md.getColumnType(i));
    }
    return types;
  }

  private static boolean binary(int type) {
    return type == Types.BLOB || type == Types.BINARY || type == Types.VARBINARY || type == Types.LONGVARBINARY;
  }
}
