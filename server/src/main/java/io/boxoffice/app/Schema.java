package io.boxoffice.app;

import com.typesafe.config.Config;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** Creates the journal, snapshot, projection offset and boxoffice's own tables when they are missing (the SQL under {@code schema/}). */
public final class Schema {
  private Schema() {}

  public static void ensure(Config config) {
    Config db = config.getConfig(NodeConfig.DB + ".db");
    String url = db.getString("url");
    String dialect = url.startsWith("jdbc:postgresql:") ? "postgres" : "h2";
    String sql = resource("schema/" + dialect + "/journal.sql") + ";\n" + resource("schema/projection.sql") + ";\n"
        + resource("schema/boxoffice.sql");
    SQLException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try (Connection c = DriverManager.getConnection(url, db.getString("user"), db.getString("password"));
           Statement st = c.createStatement()) {
        for (String statement : sql.split(";")) {
          String trimmed = stripComments(statement);
          if (!trimmed.isEmpty()) st.execute(trimmed);
        }
        return;
      } catch (SQLException e) {
        // Nodes starting together may race on CREATE ... IF NOT EXISTS; the next attempt sees the tables.
        last = e;
      }
    }
    throw new IllegalStateException("cannot create the journal tables at " + url, last);
  }

  private static String stripComments(String statement) {
    StringBuilder sb = new StringBuilder();
    for (String line : statement.split("\n")) {
      if (!line.trim().startsWith("--")) sb.append(line).append('\n');
    }
    return sb.toString().trim();
  }

  private static String resource(String name) {
    try (InputStream in = Schema.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) throw new IllegalStateException("missing resource " + name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + name, e);
    }
  }
}
