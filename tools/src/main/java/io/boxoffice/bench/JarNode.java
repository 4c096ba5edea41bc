package io.boxoffice.bench;

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
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
  private final Process process;

  private JarNode(int httpPort, String adminToken, Path log, Process process) {
    this.httpPort = httpPort;
    this.adminToken = adminToken;
    this.log = log;
    this.process = process;
  }

  /** Starts the jar and returns once it answers and reaches its inventory (at most {@code startup}). */
  static JarNode start(Path jar, Path log, List<String> javaOptions, Duration startup) throws IOException, InterruptedException {
    if (!Files.exists(jar)) throw new IllegalStateException("no " + jar + ": build it first (mvn -B package -DskipTests)");
    Files.createDirectories(log.toAbsolutePath().getParent());
    int http = freePort();
    String adminToken = "bench-admin-" + key();
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(javaOptions);
    command.addAll(List.of(
        "-Dpekko.loglevel=WARNING",
        "-Dboxoffice.accounts.pbkdf2-iterations=1000",
        "-Dboxoffice.accounts.rate-limits.per-prefix.burst=1000000",
        "-Dboxoffice.accounts.rate-limits.per-email.burst=1000",
        "-Dboxoffice.accounts.hashing.queue=100000",
        "-Dboxoffice.bots.rate-limits.per-account.burst=1000000000",
        "-Dboxoffice.bots.rate-limits.per-account.per-second=1000000000",
        "-Dboxoffice.bots.rate-limits.per-prefix.burst=1000000000",
        "-Dboxoffice.bots.rate-limits.per-prefix.per-second=1000000000",
        "-jar", jar.toAbsolutePath().toString()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.put("BOXOFFICE_HTTP_PORT", Integer.toString(http));
    env.put("BOXOFFICE_MANAGEMENT_PORT", Integer.toString(freePort()));
    env.put("BOXOFFICE_CLUSTER_PORT", Integer.toString(freePort()));
    env.put("BOXOFFICE_CLUSTER_HOST", "127.0.0.1");
    env.put("BOXOFFICE_FORM_CLUSTER", "true");
    env.remove("BOXOFFICE_SEED_NODES");
    env.put("BOXOFFICE_DB_URL", BenchDb.URL);
    env.put("BOXOFFICE_DB_USER", BenchDb.USER);
    env.put("BOXOFFICE_DB_PASSWORD", BenchDb.PASSWORD);
    env.put("BOXOFFICE_ADMIN_TOKEN", adminToken);
    env.put("BOXOFFICE_GATE_TOKEN", "bench-gate-" + key());
    for (String k : List.of("IDENTITY", "TICKET", "QUEUE", "PRESALE", "POW")) env.put("BOXOFFICE_" + k + "_KEY", key());
    Process p = pb.start();
    p.getOutputStream().close();
    JarNode node = new JarNode(http, adminToken, log, p);
    Runtime.getRuntime().addShutdownHook(new Thread(node::close));
    node.awaitServing(startup);
    return node;
  }

  /** 404 for the stats of an event that does not exist: HTTP serves and the inventory answers. */
  private void awaitServing(Duration startup) throws InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest probe = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/admin/events/none/stats"))
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

  private static String key() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return Base64.getEncoder().encodeToString(b);
  }
}
