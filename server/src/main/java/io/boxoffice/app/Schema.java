package io.boxoffice.app;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * The database schema as Flyway migrations ({@code schema/postgres/} and {@code schema/h2/},
 * {@code V<n>__<what>.sql}): the journal, snapshot and projection offset tables and boxoffice's
 * own. {@code java -jar boxoffice.jar migrate} applies them once, as the schema's owner (a
 * Kubernetes Job: {@code k8s/migrate/job.yaml}); a node in production then only checks at start
 * that the database is at its version ({@code boxoffice.db.schema = validate}) and runs as a
 * role that may read and write rows but not change tables. The embedded default migrates at
 * start, so that one command still runs a node.
 *
 * <p>A database that the node built itself before migrations existed has the tables but no
 * history: it is baselined at version 0, below V1, and V1 (all {@code IF NOT EXISTS}) then
 * creates only what such a database lacks.
 */
public final class Schema {
  /** Where a node's settings say what to do with the schema at start: {@code migrate}, {@code validate} or {@code auto}. */
  public static final String AT_START = "boxoffice.db.schema";
  static final String BASELINE_VERSION = "0";

  private Schema() {}

  /** What {@code boxoffice.db.schema} asks for at a node's start. */
  public static void atStart(Config config) {
    switch (mode(config)) {
      case "migrate" -> migrate(config);
      case "validate" -> validate(config);
      default -> throw new IllegalStateException("unreachable");
    }
  }

  /** {@code migrate} or {@code validate}: {@code auto} validates on Kubernetes, where a Job migrates, and migrates elsewhere. */
  static String mode(Config config) {
    String mode = config.getString(AT_START).trim();
    return switch (mode) {
      case "migrate", "validate" -> mode;
      case "auto" -> config.getString("boxoffice.discovery").equals("kubernetes") ? "validate" : "migrate";
      default -> throw new IllegalArgumentException(AT_START + " must be auto, migrate or validate, not '" + mode + "'");
    };
  }

  /** Brings the database to the newest version; what {@code java -jar boxoffice.jar migrate} runs. */
  public static MigrateResult migrate(Config config) {
    return migrate(configure(config));
  }

  /** {@link #migrate(Config)} with Flyway configured by the caller (tests add locations). */
  static MigrateResult migrate(org.flywaydb.core.api.configuration.FluentConfiguration configuration) {
    forgetFailedMigrations(configuration);
    // Flyway migrates under a PostgreSQL advisory lock, but its baseline check runs before it:
    // nodes starting together on a database whose tables an older node made can find the history
    // table just created by another and still empty ("Unable to baseline ... already exists, and
    // is empty", seen in CI with four at once). Asked again a moment later, the other has finished.
    FlywayException last = null;
    for (int attempt = 1; attempt <= MIGRATE_ATTEMPTS; attempt++) {
      try {
        return configuration.load().migrate();
      } catch (FlywayException e) {
        last = e;
        try {
          Thread.sleep(250L * attempt); // at a node's start, before anything else runs on this thread
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    String url = configuration.getUrl() == null ? "?" : configuration.getUrl().replaceAll("\\?.*", "");
    throw new IllegalStateException("cannot migrate the database at " + url + ": " + last.getMessage(), last);
  }

  /**
   * Removes the history rows of failed migrations (PostgreSQL), as {@code flyway repair} would,
   * without its realigning of checksums. A migration that runs outside a transaction (a CREATE
   * INDEX CONCURRENTLY) and fails half-way is recorded as failed, and Flyway then refuses every
   * later migrate ("Detected failed migration"): the release could not be migrated without a
   * person running repair. Migrations here are written to be run again (IF NOT EXISTS), and the
   * INVALID index the failed build left is dropped first (schema/postgres/beforeMigrate.sql), so
   * the next migrate simply runs the failed one again.
   */
  static void forgetFailedMigrations(org.flywaydb.core.api.configuration.FluentConfiguration configuration) {
    if (configuration.getUrl() == null || !configuration.getUrl().startsWith("jdbc:postgresql:")) return;
    String table = configuration.getTable();
    try (java.sql.Connection c = configuration.getDataSource().getConnection(); java.sql.Statement st = c.createStatement()) {
      boolean exists;
      try (java.sql.ResultSet rs = st.executeQuery("SELECT to_regclass('" + table.replace("'", "''") + "') IS NOT NULL")) {
        exists = rs.next() && rs.getBoolean(1);
      }
      if (!exists) return;
      int forgotten = st.executeUpdate("DELETE FROM \"" + table.replace("\"", "\"\"") + "\" WHERE NOT success");
      if (forgotten > 0) {
        org.slf4j.LoggerFactory.getLogger(Schema.class).warn("{} failed migration(s) in the history will run again", forgotten);
      }
    } catch (java.sql.SQLException e) {
      // Not reachable yet: Flyway's own connect retries and errors follow.
    }
  }

  /** How often a node asks Flyway to migrate before it gives up (other nodes may be migrating at the same time). */
  static final int MIGRATE_ATTEMPTS = 5;

  /** Fails unless every migration this node knows is applied, and no other (without changing anything). */
  public static void validate(Config config) {
    try {
      flyway(config).validate();
    } catch (FlywayException e) {
      throw new IllegalStateException("the database at " + url(config) + " is not at this node's schema version"
          + " (run `java -jar boxoffice.jar migrate` as the schema's owner first): " + e.getMessage(), e);
    }
  }

  /** Same as {@link #migrate}: for callers (tests, benches) written before migrations. */
  public static void ensure(Config config) {
    migrate(config);
  }

  static Flyway flyway(Config config) {
    return configure(config).load();
  }

  /** Flyway as {@code migrate} and {@code validate} use it (tests add locations of their own). */
  static org.flywaydb.core.api.configuration.FluentConfiguration configure(Config config) {
    Config db = config.getConfig(NodeConfig.DB + ".db");
    String url = db.getString("url");
    boolean postgres = url.startsWith("jdbc:postgresql:");
    org.flywaydb.core.api.configuration.FluentConfiguration flyway = Flyway.configure(Schema.class.getClassLoader())
        .dataSource(postgres ? forMigration(url) : url, db.getString("user"), db.getString("password"))
        .locations("classpath:schema/" + (postgres ? "postgres" : "h2"))
        .baselineOnMigrate(true)
        .baselineVersion(BASELINE_VERSION)
        .baselineDescription("tables made by the node before migrations")
        // The migrating Job may start before the database accepts connections.
        .connectRetries(5)
        // schema/postgres/afterConnect.sql lifts the statement timeout that the nodes' URL sets, and
        // forMigration the socket timeout: an index built over a big journal must not be cut off.
        // schema/postgres/beforeMigrate.sql drops the INVALID index such a cut leaves behind.
        // Flyway holds its PostgreSQL lock in an open transaction by default, and CREATE INDEX
        // CONCURRENTLY waits for every open transaction to end: a migration building an index
        // concurrently waited on Flyway itself, for ever. A session-level advisory lock instead
        // (SchemaMigrationTest#aConcurrentIndexMigrationRunsToItsEnd).
        .cleanDisabled(true);
    if (postgres) {
      flyway.getConfigurationExtension(org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension.class).setTransactionalLock(false);
    }
    return flyway;
  }

  /**
   * The nodes' URL without their socket timeout ({@code socketTimeout=0}: none). The nodes' 10 s
   * (boxoffice.db.postgres-parameters) is right for a journal write and fatal for a
   * {@code CREATE INDEX CONCURRENTLY} over a grown journal: the driver closed the connection after
   * 10 s of silence and left an INVALID index. The migration Job's own deadline
   * (activeDeadlineSeconds) bounds a migration against a database that stopped answering.
   */
  static String forMigration(String url) {
    int query = url.indexOf('?');
    if (query < 0) return url + "?socketTimeout=0";
    List<String> kept = new ArrayList<>();
    for (String p : url.substring(query + 1).split("&")) {
      if (!p.isEmpty() && !p.toLowerCase(java.util.Locale.ROOT).startsWith("sockettimeout=")) kept.add(p);
    }
    kept.add("socketTimeout=0");
    return url.substring(0, query) + "?" + String.join("&", kept);
  }

  private static String url(Config config) {
    String url = config.getString(NodeConfig.DB + ".db.url");
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }
}
