package io.boxoffice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The PostgreSQL the benchmarks share with their SQL peers, and the seed's baseline scripts.
 * System properties: {@code db.url}, {@code db.user}, {@code db.password}, and
 * {@code baselines} (the folder of the seed's SQL, relative to the working directory).
 */
final class BenchDb {
  static final String URL = System.getProperty("db.url", "jdbc:postgresql://127.0.0.1:5432/boxoffice_bench");
  static final String USER = System.getProperty("db.user", "postgres");
  static final String PASSWORD = System.getProperty("db.password", "");

  private BenchDb() {}

  static Connection connect() throws SQLException {
    return DriverManager.getConnection(URL, USER, PASSWORD);
  }

  /** A file of the seed's baselines, e.g. {@code skiplocked_hold.sql}. */
  static String baseline(String file) throws IOException {
    Path dir = Path.of(System.getProperty("baselines", "../shared/baselines")).toAbsolutePath().normalize();
    Path path = dir.resolve(file);
    if (!Files.isRegularFile(path)) {
      throw new IOException(path + " not found; pass -Dbaselines=<folder of the seed's SQL>");
    }
    return Files.readString(path);
  }

  /**
   * The statements of a script, comment lines dropped, split at semicolons (the baseline
   * scripts have none inside literals). Run one by one: VACUUM refuses to run inside the
   * implicit transaction of a multi-statement string.
   */
  static List<String> statements(String script) {
    StringBuilder sb = new StringBuilder();
    for (String line : script.split("\n")) {
      if (!line.trim().startsWith("--")) sb.append(line).append('\n');
    }
    List<String> out = new ArrayList<>();
    for (String s : sb.toString().split(";")) {
      if (!s.isBlank()) out.add(s.trim());
    }
    return out;
  }

  static void runScript(Connection c, String script) throws SQLException {
    c.setAutoCommit(true);
    try (Statement st = c.createStatement()) {
      for (String s : statements(script)) st.execute(s);
    }
  }

  /** The single statement of a script such as the hold statement, without its trailing semicolon. */
  static String single(String script) {
    List<String> s = statements(script);
    if (s.size() != 1) throw new IllegalArgumentException("expected one statement, found " + s.size());
    return s.get(0);
  }

  static void dropSeats() {
    try (Connection c = connect(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS seats");
    } catch (SQLException e) {
      System.err.println("could not drop the baseline seats table: " + e.getMessage());
    }
  }

  /** The machine's 1-minute load average, or "?" where /proc is missing. */
  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }

  /** "p50 123 µs, p99 456 µs, ..." of a histogram recorded in microseconds. */
  static String latencies(Histogram h) {
    return String.format("p50 %,d µs  p99 %,d µs  p99.9 %,d µs  max %,d µs  (n=%,d)",
        h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue(),
        h.getTotalCount());
  }
}
