package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import io.boxoffice.support.ScratchDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The schema's migrations on a fresh database and on one that nodes built before migrations
 * existed (the DDL they ran, kept under test resources legacy-schema/): both end at the newest
 * version with the same tables and columns, the old one keeps its rows, and a node that only
 * validates refuses a database that was never migrated.
 */
class SchemaMigrationTest {
  /** The versioned migrations each dialect has (schema/postgres and schema/h2 keep the same versions). */
  static final int MIGRATIONS = migrations("postgres");

  static int migrations(String dialect) {
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(java.nio.file.Path.of("schema", dialect))) {
      return (int) files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).count();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The history of a database every migration ran on: "1:Success", "2:Success", ... */
  static List<String> successes() {
    return java.util.stream.IntStream.rangeClosed(1, MIGRATIONS).mapToObj(v -> v + ":Success").toList();
  }

  @org.junit.jupiter.api.Test
  void bothDialectsHaveTheSameMigrations() {
    assertEquals(MIGRATIONS, migrations("h2"));
  }
  static final List<String> TABLES = List.of("event_journal", "event_tag", "snapshot", "pekko_projection_offset_store",
      "pekko_projection_management", "payment_simulator", "checkout_pending", "onsale_catalogue",
      "event_directory", "venue_directory");

  @ParameterizedTest
  @EnumSource(ScratchDatabase.Kind.class)
  void aFreshDatabaseIsMigratedToTheNewestVersionOnce(ScratchDatabase.Kind kind) throws Exception {
    try (ScratchDatabase db = ScratchDatabase.create(kind)) {
      MigrateResult first = Schema.migrate(db.config());
      assertEquals(MIGRATIONS, first.migrationsExecuted, "every migration runs on an empty database");
      assertEquals(String.valueOf(MIGRATIONS), first.targetSchemaVersion);
      MigrateResult again = Schema.migrate(db.config());
      assertEquals(0, again.migrationsExecuted, "nothing to do the second time");
      try (Connection c = db.connect()) {
        assertEquals(new TreeSet<>(TABLES), tables(c).keySet());
        assertEquals(successes(), history(c));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(ScratchDatabase.Kind.class)
  void aDatabaseMadeByTheOldNodesIsBaselinedKeepsItsRowsAndEndsLikeAFreshOne(ScratchDatabase.Kind kind) throws Exception {
    String dialect = kind == ScratchDatabase.Kind.POSTGRES ? "postgres" : "h2";
    TreeMap<String, List<String>> fresh;
    try (ScratchDatabase db = ScratchDatabase.create(kind)) {
      Schema.migrate(db.config());
      try (Connection c = db.connect()) {
        fresh = tables(c);
      }
    }
    try (ScratchDatabase db = ScratchDatabase.create(kind)) {
      try (Connection c = db.connect(); Statement st = c.createStatement()) {
        // What the node ran at start before migrations, as it ran it; without its newest table,
        // as a database of an older release would be.
        for (String file : List.of("legacy-schema/" + dialect + "/journal.sql", "legacy-schema/projection.sql", "legacy-schema/boxoffice.sql")) {
          for (String statement : resource(file).split(";")) {
            String sql = withoutComments(statement);
            if (!sql.isEmpty() && !sql.contains("onsale_catalogue")) st.execute(sql);
          }
        }
        st.execute("INSERT INTO payment_simulator (authorize_key, authorization_id, amount_cents, status, updated_at)"
            + " VALUES ('k1', 'a1', 100, 'CAPTURED', 1)");
      }
      MigrateResult result = Schema.migrate(db.config());
      assertEquals(MIGRATIONS, result.migrationsExecuted, "every migration runs over the old tables and adds what they lacked");
      try (Connection c = db.connect(); Statement st = c.createStatement()) {
        assertEquals(java.util.stream.Stream.concat(java.util.stream.Stream.of("0:Baseline"), successes().stream()).toList(), history(c));
        assertEquals(fresh, tables(c), "the same tables and columns as a fresh database");
        try (ResultSet rs = st.executeQuery("SELECT status FROM payment_simulator WHERE authorize_key = 'k1'")) {
          assertTrue(rs.next(), "the old rows are kept");
          assertEquals("CAPTURED", rs.getString(1));
        }
      }
    }
  }

  /**
   * Issue 35: the migration runs without the nodes' 10 s socket timeout (an index over a grown
   * journal takes minutes), whatever the URL says, keeping the URL's other parameters.
   */
  @org.junit.jupiter.api.Test
  void theMigrationHasNoSocketTimeout() throws Exception {
    assertEquals("jdbc:postgresql://db:5432/b?sslmode=require&connectTimeout=3&socketTimeout=0",
        Schema.forMigration("jdbc:postgresql://db:5432/b?sslmode=require&socketTimeout=10&connectTimeout=3"));
    assertEquals("jdbc:postgresql://db/b?socketTimeout=0", Schema.forMigration("jdbc:postgresql://db/b"));
    try (ScratchDatabase db = ScratchDatabase.create(ScratchDatabase.Kind.POSTGRES)) {
      Config node = NodeConfig.resolve(db.config());
      assertTrue(node.getString(NodeConfig.DB + ".db.url").contains("socketTimeout=10"), "the nodes keep theirs");
      javax.sql.DataSource migrating = Schema.flyway(node).getConfiguration().getDataSource();
      try (Connection c = migrating.getConnection()) {
        assertEquals(0, c.getNetworkTimeout(), "no socket timeout on the migration's connections");
      }
      try (Connection c = java.sql.DriverManager.getConnection(node.getString(NodeConfig.DB + ".db.url"),
          node.getString(NodeConfig.DB + ".db.user"), node.getString(NodeConfig.DB + ".db.password"))) {
        assertEquals(10_000, c.getNetworkTimeout(), "a node's connection gives up after 10 s of silence");
      }
    }
  }

  /**
   * Issue 35: a CREATE INDEX CONCURRENTLY that failed half-way left an INVALID index; V1's
   * {@code CREATE INDEX IF NOT EXISTS} would find its name and skip it for good. The migration
   * drops it first (schema/postgres/beforeMigrate.sql) and the index is built again, valid.
   */
  @org.junit.jupiter.api.Test
  void anInvalidIndexLeftByACutBuildIsBuiltAgain() throws Exception {
    try (ScratchDatabase db = ScratchDatabase.create(ScratchDatabase.Kind.POSTGRES)) {
      try (Connection c = db.connect(); Statement st = c.createStatement()) {
        for (String statement : resource("legacy-schema/projection.sql").split(";")) {
          String sql = withoutComments(statement);
          if (!sql.isEmpty() && !sql.contains("INDEX")) st.execute(sql);
        }
        st.execute("INSERT INTO pekko_projection_offset_store VALUES ('p', 'k1', '1', 'SEQ', false, 0), ('p', 'k2', '1', 'SEQ', false, 0)");
        // A concurrent build that fails half-way (here: a duplicate; in production: a cut connection).
        assertThrows(SQLException.class, () -> st.execute(
            "CREATE UNIQUE INDEX CONCURRENTLY projection_name_index ON pekko_projection_offset_store (projection_name)"));
        assertEquals(List.of(false), valid(st, "projection_name_index"), "the cut build left an INVALID index");
      }
      Schema.migrate(db.config());
      try (Connection c = db.connect(); Statement st = c.createStatement()) {
        assertEquals(List.of(true), valid(st, "projection_name_index"), "built again by V1, valid");
      }
    }
  }

  /**
   * A migration that builds an index CONCURRENTLY (outside a transaction) runs to its end
   * through the migrate command's Flyway settings: it does not wait forever on Flyway's own lock.
   */
  @org.junit.jupiter.api.Test
  void aConcurrentIndexMigrationRunsToItsEnd() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("boxoffice-cic");
    java.nio.file.Files.writeString(dir.resolve("V900__concurrent_index.sql"),
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS event_tag_probe_idx ON event_tag (tag);\n");
    try (ScratchDatabase db = ScratchDatabase.create(ScratchDatabase.Kind.POSTGRES)) {
      Config node = NodeConfig.resolve(db.config());
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> {
        Schema.configure(node).locations("classpath:schema/postgres", "filesystem:" + dir).load().migrate();
      }, "a CREATE INDEX CONCURRENTLY migration finishes");
      try (Connection c = db.connect(); Statement st = c.createStatement()) {
        assertEquals(List.of(true), valid(st, "event_tag_probe_idx"));
      }
    }
  }

  /**
   * The whole cut-build story: a migration building an index CONCURRENTLY fails half-way (here on
   * duplicates; in production a lost connection), leaving an INVALID index and a failed history
   * row. Once the cause is gone, the next migrate runs it again (no manual repair) and the index
   * ends valid, not skipped by IF NOT EXISTS.
   */
  @org.junit.jupiter.api.Test
  void aConcurrentIndexMigrationThatFailedRunsAgainAndEndsValid() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("boxoffice-cut");
    java.nio.file.Files.writeString(dir.resolve("V900__unique_status.sql"),
        "CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS payment_status_probe_idx ON payment_simulator (status);\n");
    try (ScratchDatabase db = ScratchDatabase.create(ScratchDatabase.Kind.POSTGRES)) {
      Config node = NodeConfig.resolve(db.config());
      Schema.migrate(node);
      try (Connection c = db.connect(); Statement st = c.createStatement()) {
        st.execute("INSERT INTO payment_simulator (authorize_key, authorization_id, amount_cents, status, updated_at)"
            + " VALUES ('k1', 'a1', 1, 'AUTHORIZED', 1), ('k2', 'a2', 1, 'AUTHORIZED', 1)");
      }
      assertThrows(IllegalStateException.class,
          () -> Schema.migrate(Schema.configure(node).locations("classpath:schema/postgres", "filesystem:" + dir)));
      try (Connection c = db.connect(); Statement st = c.createStatement()) {
        assertEquals(List.of(false), valid(st, "payment_status_probe_idx"), "the failed build left an INVALID index");
        st.execute("DELETE FROM payment_simulator WHERE authorize_key = 'k2'");
      }
      Schema.migrate(Schema.configure(node).locations("classpath:schema/postgres", "filesystem:" + dir));
      try (Connection c = db.connect(); Statement st = c.createStatement()) {
        assertEquals(List.of(true), valid(st, "payment_status_probe_idx"), "run again, and valid");
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE version = '900' AND success")) {
          assertTrue(rs.next() && rs.getInt(1) == 1, "recorded once, as a success");
        }
      }
    }
  }

  static List<Boolean> valid(Statement st, String index) throws SQLException {
    List<Boolean> out = new ArrayList<>();
    try (ResultSet rs = st.executeQuery("SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = '" + index + "'")) {
      while (rs.next()) out.add(rs.getBoolean(1));
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(ScratchDatabase.Kind.class)
  void aNodeThatOnlyValidatesRefusesADatabaseThatWasNotMigrated(ScratchDatabase.Kind kind) throws Exception {
    try (ScratchDatabase db = ScratchDatabase.create(kind)) {
      Config validate = com.typesafe.config.ConfigFactory.parseString(Schema.AT_START + " = validate").withFallback(db.config());
      IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Schema.atStart(validate));
      assertTrue(refused.getMessage().contains("boxoffice.jar migrate"), refused.getMessage());
      try (Connection c = db.connect()) {
        assertTrue(tables(c).isEmpty(), "validating created nothing: " + tables(c).keySet());
      }
      Schema.migrate(db.config());
      Schema.atStart(validate);
    }
  }

  @ParameterizedTest
  @EnumSource(ScratchDatabase.Kind.class)
  void anUnknownSchemaModeIsRefused(ScratchDatabase.Kind kind) throws Exception {
    try (ScratchDatabase db = ScratchDatabase.create(kind)) {
      Config wrong = com.typesafe.config.ConfigFactory.parseString(Schema.AT_START + " = drop-everything").withFallback(db.config());
      assertThrows(IllegalArgumentException.class, () -> Schema.atStart(wrong));
      try (Connection c = db.connect()) {
        assertFalse(tables(c).containsKey("event_journal"));
      }
    }
  }

  @org.junit.jupiter.api.Test
  void onKubernetesANodeOnlyValidatesUnlessToldOtherwiseAndMigratesElsewhere() {
    Config base = com.typesafe.config.ConfigFactory.load();
    assertEquals("auto", base.getString(Schema.AT_START), "the shipped default");
    assertEquals("migrate", Schema.mode(base), "embedded default, tests, chaos cluster");
    Config kubernetes = com.typesafe.config.ConfigFactory.parseString("boxoffice.discovery = kubernetes").withFallback(base);
    assertEquals("validate", Schema.mode(kubernetes), "the migration Job migrates, the pods only validate");
    assertEquals("migrate", Schema.mode(com.typesafe.config.ConfigFactory.parseString(Schema.AT_START + " = migrate").withFallback(kubernetes)));
    assertEquals("validate", Schema.mode(com.typesafe.config.ConfigFactory.parseString(Schema.AT_START + " = validate").withFallback(base)));
  }

  @org.junit.jupiter.api.Test
  void theMigrateCommandMigratesTheConfiguredDatabase() throws Exception {
    try (ScratchDatabase db = ScratchDatabase.create(ScratchDatabase.Kind.POSTGRES)) {
      // What `java -jar boxoffice.jar migrate` reads: the node's configuration (here from system properties).
      Map<String, String> settings = Map.of("boxoffice.db.url", db.url(), NodeConfig.DB + ".db.user", "postgres");
      settings.forEach(System::setProperty);
      com.typesafe.config.ConfigFactory.invalidateCaches();
      try {
        assertEquals(0, Main.migrate());
        try (Connection c = db.connect()) {
          assertEquals(new TreeSet<>(TABLES), tables(c).keySet());
          assertEquals(successes(), history(c));
        }
        assertEquals(0, Main.migrate(), "again: nothing to do, still success");
      } finally {
        settings.keySet().forEach(System::clearProperty);
        com.typesafe.config.ConfigFactory.invalidateCaches();
      }
    }
  }

  @org.junit.jupiter.api.Test
  void nodesStartingTogetherOnANewDatabaseMigrateItOnce() throws Exception {
    try (ScratchDatabase db = ScratchDatabase.create(ScratchDatabase.Kind.POSTGRES)) {
      Config config = db.config();
      var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
      try {
        List<java.util.concurrent.Future<MigrateResult>> runs = new ArrayList<>();
        for (int i = 0; i < 4; i++) runs.add(pool.submit(() -> Schema.migrate(config)));
        int executed = 0;
        for (var run : runs) executed += run.get(2, java.util.concurrent.TimeUnit.MINUTES).migrationsExecuted;
        assertEquals(MIGRATIONS, executed, "each migration ran once among them");
      } finally {
        pool.shutdownNow();
      }
      try (Connection c = db.connect()) {
        assertEquals(successes(), history(c));
      }
    }
  }

  /** Each table of ours (not Flyway's) with its columns as name:type:nullable:default, in order. */
  static TreeMap<String, List<String>> tables(Connection c) throws SQLException {
    TreeMap<String, List<String>> tables = new TreeMap<>();
    String sql = "SELECT lower(table_name), lower(column_name), lower(data_type), is_nullable, column_default"
        + " FROM information_schema.columns WHERE lower(table_schema) = 'public' AND lower(table_name) <> 'flyway_schema_history'"
        + " ORDER BY lower(table_name), ordinal_position";
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        tables.computeIfAbsent(rs.getString(1), t -> new ArrayList<>())
            .add(rs.getString(2) + ":" + rs.getString(3) + ":" + rs.getString(4) + ":" + rs.getString(5));
      }
    }
    return tables;
  }

  /** Flyway's history of migrations, version:what (without the row H2 gets for its schema). */
  static List<String> history(Connection c) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SELECT \"version\", \"type\", \"success\" FROM \"flyway_schema_history\""
             + " WHERE \"version\" IS NOT NULL ORDER BY \"installed_rank\"")) {
      while (rs.next()) {
        rows.add(rs.getString(1) + ":" + (rs.getString(2).startsWith("BASELINE") ? "Baseline" : rs.getBoolean(3) ? "Success" : "Failed"));
      }
    }
    return rows;
  }

  static String resource(String name) throws IOException {
    try (InputStream in = SchemaMigrationTest.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) throw new IllegalStateException("missing " + name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static String withoutComments(String statement) {
    StringBuilder sb = new StringBuilder();
    for (String line : statement.split("\n")) {
      if (!line.trim().startsWith("--")) sb.append(line).append('\n');
    }
    return sb.toString().trim();
  }
}
