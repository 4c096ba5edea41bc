package io.boxoffice.app;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns the {@code boxoffice.*} settings (and their environment variables) into the Pekko
 * settings they imply: the database (H2 files under the data dir, or PostgreSQL for a
 * {@code jdbc:postgresql:} URL) of the journal and of the projections, the node's roles and its
 * seed nodes.
 */
public final class NodeConfig {
  public static final String DB = "pekko-persistence-jdbc.shared-databases.boxoffice";
  /** The inventory's journal and snapshots: the same database as {@link #DB}, a pool of its own (conf/persistence.conf). */
  public static final String INVENTORY_DB = "pekko-persistence-jdbc.shared-databases.inventory";
  static final String POSTGRES_PARAMETERS = "boxoffice.db.postgres-parameters";
  static final String PROJECTION_DIALECT = "pekko.projection.jdbc.dialect";

  private NodeConfig() {}

  /** The full configuration of a node: {@code base} with the derived settings on top. */
  public static Config resolve(Config base) {
    Map<String, Object> derived = new HashMap<>();
    String url = jdbcUrl(base);
    String profile;
    String driver;
    if (url.startsWith("jdbc:postgresql:")) {
      url = withParameters(url, base.getConfig(POSTGRES_PARAMETERS));
      profile = "slick.jdbc.PostgresProfile$";
      driver = "org.postgresql.Driver";
      derived.put(PROJECTION_DIALECT, "postgres-dialect");
    } else if (url.startsWith("jdbc:h2:")) {
      profile = "slick.jdbc.H2Profile$";
      driver = "org.h2.Driver";
      derived.put(PROJECTION_DIALECT, "h2-dialect");
    } else {
      throw new IllegalArgumentException("BOXOFFICE_DB_URL must be a jdbc:postgresql: or jdbc:h2: URL");
    }
    for (String db : List.of(DB, INVENTORY_DB)) {
      derived.put(db + ".db.url", url);
      derived.put(db + ".profile", profile);
      derived.put(db + ".db.driver", driver);
      // One set of credentials for both pools, wherever it was configured.
      derived.put(db + ".db.user", base.getString(DB + ".db.user"));
      derived.put(db + ".db.password", base.getString(DB + ".db.password"));
    }
    String roles = base.getString("boxoffice.roles").trim();
    if (!roles.isEmpty()) {
      derived.put("pekko.cluster.roles", ConfigValueFactory.fromIterable(
          Arrays.stream(roles.split(",")).map(String::trim).filter(r -> !r.isEmpty()).toList()));
    }
    derived.putAll(RemoteTls.derived(base));
    // The journal's pool in JMX, where Metrics#bindPools finds it (Slick creates it out of our reach).
    derived.put(DB + ".db.registerMbeans", true);
    derived.put(INVENTORY_DB + ".db.registerMbeans", true);
    // Not pekko.cluster.seed-nodes: with them the actor system joins as it starts, and the node
    // would be a member (its heartbeats watched, shards placed on it) through the whole start-up
    // of a cold JVM. Node joins them itself once it is ready and warm (Node#join).
    List<String> seeds = seedNodes(base);
    if (seeds.isEmpty()) seeds = base.getStringList("pekko.cluster.seed-nodes");
    derived.put(JOIN_SEED_NODES, ConfigValueFactory.fromIterable(seeds));
    derived.put("pekko.cluster.seed-nodes", ConfigValueFactory.fromIterable(List.of()));
    return ConfigFactory.parseMap(derived).withFallback(base).resolve();
  }

  /** Where {@link #resolve} leaves the seed nodes for {@code Node} to join. */
  static final String JOIN_SEED_NODES = "boxoffice.join-seed-nodes";

  /**
   * The seed nodes as Pekko addresses, in the configured order when this node may form the
   * cluster, else with its own address (canonical host and port, as written) moved last: only
   * the first seed of a node's own list ever joins itself.
   */
  static List<String> seedNodes(Config base) {
    List<String> seeds = new ArrayList<>();
    for (String hostPort : base.getString("boxoffice.seed-nodes").split(",")) {
      if (!hostPort.isBlank()) seeds.add(hostPort.trim());
    }
    if (!base.getBoolean("boxoffice.form-cluster")) {
      String self = base.getString("pekko.remote.artery.canonical.hostname") + ":" + base.getInt("pekko.remote.artery.canonical.port");
      if (seeds.remove(self)) seeds.add(self);
    }
    return seeds.stream().map(hostPort -> "pekko://boxoffice@" + hostPort).toList();
  }

  /**
   * {@code url} with each of {@code parameters} that it does not set itself (the URL wins: an
   * operator may tune one database's URL), URL-encoded.
   */
  static String withParameters(String url, Config parameters) {
    StringBuilder sb = new StringBuilder(url);
    String query = url.contains("?") ? url.substring(url.indexOf('?') + 1) : "";
    Set<String> present = new HashSet<>();
    for (String pair : query.split("&")) {
      if (!pair.isEmpty()) present.add(pair.split("=", 2)[0]);
    }
    char separator = url.contains("?") ? '&' : '?';
    for (String name : new TreeSet<>(parameters.root().keySet())) {
      if (present.contains(name)) continue;
      sb.append(separator).append(name).append('=')
          .append(URLEncoder.encode(parameters.getString(name), StandardCharsets.UTF_8).replace("+", "%20"));
      separator = '&';
    }
    return sb.toString();
  }

  /** The JDBC URL: BOXOFFICE_DB_URL, or an H2 file database under the data dir. */
  public static String jdbcUrl(Config base) {
    String url = base.getString("boxoffice.db.url").trim();
    if (!url.isEmpty()) return url;
    Path dir = Path.of(base.getString("boxoffice.data-dir")).toAbsolutePath().normalize();
    return "jdbc:h2:file:" + dir.resolve("boxoffice") + ";DB_CLOSE_ON_EXIT=FALSE";
  }

  /** The seed nodes this node joins once started (Pekko addresses, in order; empty: it joins itself). */
  public static List<String> joinSeedNodes(Config config) {
    return config.getStringList(JOIN_SEED_NODES);
  }
}
