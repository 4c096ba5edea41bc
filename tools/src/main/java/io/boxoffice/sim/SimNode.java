package io.boxoffice.sim;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
      "-Dboxoffice.accounts.hashing.queue=100000");

  final String baseUrl;
  final String adminToken;
  final Path log;
  private final Process process;

  private SimNode(int httpPort, String adminToken, Path log, Process process) {
    this.baseUrl = "http://127.0.0.1:" + httpPort;
    this.adminToken = adminToken;
    this.log = log;
    this.process = process;
  }

  /** Starts the node and returns once it answers and reaches its inventory (at most {@code startup}). */
  static SimNode start(Path jar, Path runDir, String heap, List<String> javaOptions, Duration startup)
      throws IOException, InterruptedException {
    if (!Files.exists(jar)) throw new IllegalStateException("no " + jar + ": build it first (mvn -B package -DskipTests)");
    Path data = Files.createDirectories(runDir.resolve("node-data"));
    Path log = runDir.resolve("node.log");
    int http = freePort();
    String adminToken = token();
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap));
    command.addAll(javaOptions);
    command.addAll(CHEAP_ACCOUNTS);
    command.add("-Dpekko.loglevel=WARNING");
    command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.put("BOXOFFICE_HTTP_PORT", Integer.toString(http));
    env.put("BOXOFFICE_MANAGEMENT_PORT", Integer.toString(freePort()));
    env.put("BOXOFFICE_CLUSTER_PORT", Integer.toString(freePort()));
    env.put("BOXOFFICE_CLUSTER_HOST", "127.0.0.1");
    env.put("BOXOFFICE_DATA_DIR", data.toAbsolutePath().toString());
    env.put("BOXOFFICE_ADMIN_TOKEN", adminToken);
    env.put("BOXOFFICE_GATE_TOKEN", token());
    env.remove("BOXOFFICE_DB_URL");
    env.remove("BOXOFFICE_SEED_NODES");
    Process p = pb.start();
    p.getOutputStream().close();
    SimNode node = new SimNode(http, adminToken, log, p);
    Runtime.getRuntime().addShutdownHook(new Thread(node::close));
    node.awaitServing(startup);
    return node;
  }

  /** 404 for the stats of an event that does not exist: HTTP serves and the inventory answers. */
  private void awaitServing(Duration startup) throws InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest probe = HttpRequest.newBuilder(URI.create(baseUrl + "/admin/events/none/stats"))
        .header("Authorization", "Bearer " + adminToken).timeout(Duration.ofSeconds(3)).GET().build();
    long deadline = System.nanoTime() + startup.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) throw new IllegalStateException("the node exited with " + process.exitValue() + " (see " + log + ")");
      try {
        if (client.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 404) return;
      } catch (IOException e) {
        // Not listening yet.
      }
      TimeUnit.MILLISECONDS.sleep(500);
    }
    close();
    throw new IllegalStateException("the node did not serve within " + startup.toSeconds() + " s (see " + log + ")");
  }

  @Override
  public void close() {
    if (!process.isAlive()) return;
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  /** A port free now, never one of the chaos drill's fixed ports (18081-18083, 18581-18583, 25521-25523). */
  static int freePort() throws IOException {
    while (true) {
      try (ServerSocket s = new ServerSocket(0)) {
        int port = s.getLocalPort();
        boolean chaos = port >= 18081 && port <= 18083 || port >= 18581 && port <= 18583 || port >= 25521 && port <= 25523;
        if (!chaos) return port;
      }
    }
  }

  private static String token() {
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    return "sim-" + HexFormat.of().formatHex(b);
  }
}
