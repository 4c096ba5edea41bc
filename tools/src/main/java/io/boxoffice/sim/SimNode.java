package io.boxoffice.sim;

import io.boxoffice.load.ChildNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A node the simulator starts for itself: {@code server/target/boxoffice.jar} as a child process
 * on the embedded H2 in a fresh data directory, on free ports, with fresh tokens. Only on such a
 * node is account creation made cheap (few PBKDF2 iterations, sign-up limits raised, a deep
 * hashing queue): the crowd is signed up before the sale, and that is not what a run measures.
 * Never production defaults.
 */
final class SimNode implements AutoCloseable {
  /** The settings that make a crowd's sign-up cheap, on this node only. */
  static final List<String> CHEAP_ACCOUNTS = List.of(
      "-Dboxoffice.accounts.pbkdf2-iterations=1000",
      "-Dboxoffice.accounts.rate-limits.per-prefix.burst=1000000",
      "-Dboxoffice.accounts.rate-limits.per-email.burst=1000",
      "-Dboxoffice.accounts.rate-limits.per-email-network.burst=1000",
      "-Dboxoffice.accounts.rate-limits.known-network.burst=1000",
      "-Dboxoffice.accounts.hashing.queue=100000");

  final String baseUrl;
  /** The node's Prometheus text on its management port. */
  final String metricsUrl;
  /** Where the embedded node keeps the keys it made (queue, identity...). */
  final Path keysFile;
  final String adminToken;
  final Path log;
  private final ChildNode node;

  private SimNode(ChildNode node, Path data) {
    this.node = node;
    this.baseUrl = "http://127.0.0.1:" + node.httpPort;
    this.metricsUrl = "http://127.0.0.1:" + node.managementPort + "/metrics";
    this.keysFile = data.resolve("keys.properties");
    this.adminToken = node.adminToken;
    this.log = node.log;
  }

  /** Starts the node and returns once it answers and reaches its inventory (at most {@code startup}). */
  static SimNode start(Path jar, Path runDir, String heap, List<String> javaOptions, Duration startup)
      throws IOException, InterruptedException {
    Path data = Files.createDirectories(runDir.resolve("node-data"));
    List<String> options = new ArrayList<>(List.of("-Xmx" + heap));
    options.addAll(javaOptions);
    options.addAll(CHEAP_ACCOUNTS);
    options.add("-Dpekko.loglevel=WARNING");
    Map<String, String> env = new HashMap<>();
    env.put("BOXOFFICE_DATA_DIR", data.toAbsolutePath().toString());
    env.put("BOXOFFICE_GATE_TOKEN", token());
    env.put("BOXOFFICE_DB_URL", null);
    return new SimNode(ChildNode.start(jar, runDir.resolve("node.log"), options, env, token(), startup), data);
  }

  @Override
  public void close() {
    node.close();
  }

  private static String token() {
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    return "sim-" + HexFormat.of().formatHex(b);
  }
}
