package io.boxoffice.support;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.NodeConfig;
import io.boxoffice.app.Schema;
import io.boxoffice.common.ReadSide;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * A database of one test's own with the node's tables: H2 files in a new directory, or a new
 * database on the test PostgreSQL (dropped on close). Actor systems started on it are local
 * (no cluster), so a test runs a read side's parts itself and restarts them by starting a new
 * system on the same database.
 */
public final class ScratchDatabase implements AutoCloseable {
  public enum Kind { H2, POSTGRES }

  private final String url;
  private final Path dir;
  private final String postgresName;

  private ScratchDatabase(String url, Path dir, String postgresName) {
    this.url = url;
    this.dir = dir;
    this.postgresName = postgresName;
  }

  public static ScratchDatabase create(Kind kind) throws Exception {
    Path dir = Files.createTempDirectory("boxoffice-scratch");
    if (kind == Kind.H2) return new ScratchDatabase("", dir, null);
    String name = "scratch_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = DriverManager.getConnection(TestNode.PG_URL, "postgres", "");
         Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name);
    }
    return new ScratchDatabase(TestNode.PG_URL.substring(0, TestNode.PG_URL.lastIndexOf('/') + 1) + name, dir, name);
  }

  /** Its JDBC URL ({@code ""} for H2: the node's files under {@link #dir()}). */
  public String url() { return url; }

  public Path dir() { return dir; }

  /** Its name on the test PostgreSQL (null for H2). */
  public String name() { return postgresName; }

  /** A node's configuration on this database, on a local actor system. */
  public Config config() {
    return ConfigFactory.parseString("pekko.actor.provider = local")
        .withFallback(NodeConfig.resolve(TestNode.config(url, dir.toString())));
  }

  /** Creates the tables (as a node does) and starts an actor system on this database. */
  public ActorTestKit start() {
    Config config = config();
    Schema.ensure(config);
    return ActorTestKit.create("scratch", config);
  }

  /** The read side's pool on this database for {@code system}, as a node opens it. */
  public ReadSide readSide(ActorSystem<?> system) {
    Config db = config().getConfig(NodeConfig.DB + ".db");
    return ReadSide.start(system, db.getString("url"), db.getString("user"), db.getString("password"), Duration.ofSeconds(3));
  }

  /** A connection of the test's own, for looking at the tables. */
  public Connection connect() throws SQLException {
    Config db = config().getConfig(NodeConfig.DB + ".db");
    return DriverManager.getConnection(db.getString("url"), db.getString("user"), db.getString("password"));
  }

  @Override
  public void close() throws Exception {
    if (postgresName == null) return;
    try (Connection c = DriverManager.getConnection(TestNode.PG_URL, "postgres", "");
         Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + postgresName + " WITH (FORCE)");
    }
  }
}
