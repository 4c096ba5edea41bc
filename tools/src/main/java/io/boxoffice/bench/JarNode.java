package io.boxoffice.bench;

import io.boxoffice.load.ChildNode;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One node as an operator runs it: the packaged {@code server/target/boxoffice.jar} as a child
 * process on the bench's PostgreSQL database, on free ports, with fresh keys and tokens, so that
 * the node's JVM, heap and threads are its own and the load generator's are not counted in them.
 * Only sign-up is made cheap and the per-prefix limits raised (every fan of a bench shares one
 * client address): that is not what a bench measures.
 */
final class JarNode implements AutoCloseable {
  final int httpPort;
  final String adminToken;
  final Path log;
  /** The node's management port ({@code /metrics}). */
  final int managementPort;
  /** The node's queue and identity keys (base64), for an edge worker in front of it. */
  final String queueKey;
  final String identityKey;
  private final ChildNode node;

  private JarNode(ChildNode node, Map<String, String> env) {
    this.node = node;
    this.managementPort = node.managementPort;
    this.queueKey = env.get("BOXOFFICE_QUEUE_KEY");
    this.identityKey = env.get("BOXOFFICE_IDENTITY_KEY");
    this.httpPort = node.httpPort;
    this.adminToken = node.adminToken;
    this.log = node.log;
  }

  /** Starts the jar and returns once it answers and reaches its inventory (at most {@code startup}). */
  static JarNode start(Path jar, Path log, List<String> javaOptions, Duration startup) throws IOException, InterruptedException {
    List<String> options = new ArrayList<>(javaOptions);
    options.addAll(List.of(
        "-Dpekko.loglevel=WARNING",
        "-Dboxoffice.accounts.pbkdf2-iterations=1000",
        "-Dboxoffice.accounts.rate-limits.per-prefix.burst=1000000",
        "-Dboxoffice.accounts.rate-limits.per-email.burst=1000",
        "-Dboxoffice.accounts.rate-limits.per-email-network.burst=1000",
        "-Dboxoffice.accounts.rate-limits.known-network.burst=1000",
        "-Dboxoffice.accounts.hashing.queue=100000",
        "-Dboxoffice.bots.rate-limits.per-account.burst=1000000000",
        "-Dboxoffice.bots.rate-limits.per-account.per-second=1000000000",
        "-Dboxoffice.bots.rate-limits.per-prefix.burst=1000000000",
        "-Dboxoffice.bots.rate-limits.per-prefix.per-second=1000000000"));
    Map<String, String> env = new HashMap<>();
    env.put("BOXOFFICE_FORM_CLUSTER", "true");
    env.put("BOXOFFICE_DB_URL", BenchDb.URL);
    env.put("BOXOFFICE_DB_USER", BenchDb.USER);
    env.put("BOXOFFICE_DB_PASSWORD", BenchDb.PASSWORD);
    env.put("BOXOFFICE_GATE_TOKEN", "bench-gate-" + key());
    for (String k : List.of("IDENTITY", "TICKET", "QUEUE", "PRESALE", "POW")) env.put("BOXOFFICE_" + k + "_KEY", key());
    return new JarNode(ChildNode.start(jar, log, options, env, "bench-admin-" + key(), startup), env);
  }

  /** CPU seconds the node's JVM has used so far (see {@link ChildNode#cpuSeconds()}). */
  double cpuSeconds() {
    return node.cpuSeconds();
  }

  /** The node JVM's CPU time so far, user and kernel apart. */
  io.boxoffice.load.ChildNode.CpuTime cpuTime() {
    return node.cpuTime();
  }

  @Override
  public void close() {
    node.close();
  }

  private static String key() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return Base64.getEncoder().encodeToString(b);
  }
}
