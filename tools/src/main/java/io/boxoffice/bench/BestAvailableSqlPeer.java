package io.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * The peer of {@link BestAvailableBench}: the latency of one call of the seed's SKIP LOCKED
 * hold statement on the same 80%-sold shape ({@link SoldShape}: seat index i sold means
 * {@code seat_id = i + 1} sold). Each call runs in a transaction that is rolled back, so the
 * table stays 80% sold; only the statement is timed (no commit), which favours the SQL.
 *
 * <p>With the path of JMH's JSON result of {@link BestAvailableBench} as argument, it prints
 * both side by side with the ratios. System properties: {@code peer.warmup} (1,000 calls),
 * {@code peer.calls} (5,000), {@code baselines}, {@code db.*} (see {@link BenchDb}).
 */
public final class BestAvailableSqlPeer {
  private BestAvailableSqlPeer() {}

  public static void main(String[] args) throws Exception {
    int warmup = Integer.getInteger("peer.warmup", 1_000);
    int calls = Integer.getInteger("peer.calls", 5_000);
    String hold = BenchDb.single(BenchDb.baseline("skiplocked_hold.sql"));
    Histogram sql = new Histogram(3_600_000_000_000L, 3); // ns
    try (Connection c = BenchDb.connect()) {
      BenchDb.runScript(c, BenchDb.baseline("skiplocked_setup.sql"));
      sellEightyPercent(c);
      System.out.println("plan of the hold statement on the 80%-sold table:");
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN " + hold)) {
        while (rs.next()) System.out.println("  " + rs.getString(1));
      }
      c.setAutoCommit(false);
      try (PreparedStatement st = c.prepareStatement(hold)) {
        for (int i = 0; i < warmup + calls; i++) {
          long t0 = System.nanoTime();
          int rows = 0;
          try (ResultSet rs = st.executeQuery()) {
            while (rs.next()) rows++;
          }
          long took = System.nanoTime() - t0;
          c.rollback();
          if (rows != 2) throw new IllegalStateException("the hold statement found " + rows + " seats");
          if (i >= warmup) sql.recordValue(took);
        }
      }
    } finally {
      BenchDb.dropSeats();
    }

    System.out.println();
    System.out.println("==== Best-available 2 seats, one call, 70,000-seat stadium 80% sold ====");
    System.out.printf("SQL SKIP LOCKED (statement only, rolled back)  p50 %8.1f µs  p99 %8.1f µs  p99.9 %8.1f µs  (n=%,d)%n",
        sql.getValueAtPercentile(50) / 1e3, sql.getValueAtPercentile(99) / 1e3, sql.getValueAtPercentile(99.9) / 1e3,
        sql.getTotalCount());
    if (args.length == 0) return;
    JsonNode p = jmhPercentiles(Path.of(args[0]));
    double b50 = p.get("50.0").asDouble();
    double b99 = p.get("99.0").asDouble();
    double b999 = p.get("99.9").asDouble();
    System.out.printf("boxoffice SeatBook.holdBest (JMH SampleTime)    p50 %8.3f µs  p99 %8.3f µs  p99.9 %8.3f µs%n",
        b50, b99, b999);
    System.out.printf("ratio SQL/boxoffice                             p50 %7.0fx    p99 %7.0fx    p99.9 %7.0fx%n",
        sql.getValueAtPercentile(50) / 1e3 / b50, sql.getValueAtPercentile(99) / 1e3 / b99,
        sql.getValueAtPercentile(99.9) / 1e3 / b999);
    System.out.printf("target p99 < 50 µs: %s%n", b99 < 50 ? "met" : "NOT met");
  }

  /** Marks the shape's sold seats sold, then refreshes the planner's statistics. */
  private static void sellEightyPercent(Connection c) throws Exception {
    Long[] ids = Arrays.stream(SoldShape.soldSeats()).mapToObj(i -> (long) i + 1).toArray(Long[]::new);
    try (PreparedStatement st = c.prepareStatement("UPDATE seats SET status = 'sold' WHERE seat_id = ANY (?)")) {
      Array array = c.createArrayOf("bigint", ids);
      st.setArray(1, array);
      int n = st.executeUpdate();
      if (n != SoldShape.SOLD) throw new IllegalStateException("sold " + n + " seats, expected " + SoldShape.SOLD);
    }
    try (Statement st = c.createStatement()) {
      st.execute("VACUUM ANALYZE seats");
    }
  }

  /** The percentiles (in the benchmark's unit, µs) of the first benchmark in a JMH JSON result. */
  private static JsonNode jmhPercentiles(Path json) throws Exception {
    JsonNode root = new ObjectMapper().readTree(Files.readString(json));
    JsonNode metric = root.get(0).get("primaryMetric");
    if (!"us/op".equals(metric.get("scoreUnit").asText())) {
      throw new IllegalStateException("expected µs/op, found " + metric.get("scoreUnit"));
    }
    return metric.get("scorePercentiles");
  }
}
