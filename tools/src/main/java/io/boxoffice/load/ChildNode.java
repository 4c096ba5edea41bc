package io.boxoffice.load;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged {@code boxoffice.jar} as a child process, as an operator runs it, for the
 * simulator and the benches: its own JVM, heap and threads (the load generator's are not counted
 * in them), on free ports, its output in a log file. Callers give the JVM options and the
 * environment (database, tokens, keys); this starts it, waits until it serves, and stops it.
 */
public final class ChildNode implements AutoCloseable {
  public final int httpPort;
  /** The management port: {@code /metrics}, {@code /ready}. */
  public final int managementPort;
  public final String adminToken;
  public final Path log;
  private final Process process;

  private ChildNode(int httpPort, int managementPort, String adminToken, Path log, Process process) {
    this.httpPort = httpPort;
    this.managementPort = managementPort;
    this.adminToken = adminToken;
    this.log = log;
    this.process = process;
  }

  /**
   * Starts {@code jar} with {@code javaOptions} and {@code env} (a null value removes the
   * variable), on free HTTP, management and cluster ports with {@code adminToken}, and returns once
   * it answers and reaches its inventory (at most {@code startup}).
   */
  public static ChildNode start(Path jar, Path log, List<String> javaOptions, Map<String, String> env, String adminToken,
                                Duration startup) throws IOException, InterruptedException {
    if (!Files.exists(jar)) throw new IllegalStateException("no " + jar + ": build it first (mvn -B package -DskipTests)");
    Files.createDirectories(log.toAbsolutePath().getParent());
    int http = freePort();
    int management = freePort();
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(javaOptions);
    command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> environment = pb.environment();
    environment.put("BOXOFFICE_HTTP_PORT", Integer.toString(http));
    environment.put("BOXOFFICE_MANAGEMENT_PORT", Integer.toString(management));
    environment.put("BOXOFFICE_CLUSTER_PORT", Integer.toString(freePort()));
    environment.put("BOXOFFICE_CLUSTER_HOST", "127.0.0.1");
    environment.remove("BOXOFFICE_SEED_NODES");
    environment.put("BOXOFFICE_ADMIN_TOKEN", adminToken);
    env.forEach((k, v) -> {
      if (v == null) environment.remove(k);
      else environment.put(k, v);
    });
    Process p = pb.start();
    p.getOutputStream().close();
    ChildNode node = new ChildNode(http, management, adminToken, log, p);
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

  /**
   * CPU time the node's process has used so far (user + system, from {@code /proc}), in seconds;
   * NaN where there is no {@code /proc}.
   */
  public double cpuSeconds() {
    return cpuSeconds(process.pid());
  }

  /** The node's CPU time so far, split into user and kernel time. */
  public CpuTime cpuTime() {
    return cpuTime(process.pid());
  }

  /** The same for any process of this machine. */
  public static double cpuSeconds(long pid) {
    return cpuTime(pid).total();
  }

  /**
   * CPU time a process has used so far, split into time in its own code (user) and in the
   * kernel on its behalf (system calls, wake-ups of its threads); NaN where there is no {@code /proc}.
   */
  public record CpuTime(double user, double kernel) {
    public double total() {
      return user + kernel;
    }

    public CpuTime minus(CpuTime before) {
      return new CpuTime(user - before.user, kernel - before.kernel);
    }

    public CpuTime plus(CpuTime other) {
      return new CpuTime(user + other.user, kernel + other.kernel);
    }

    /** The kernel's share of the total, 0-1. */
    public double kernelShare() {
      return kernel / total();
    }
  }

  /** The CPU time of one process of this machine. */
  public static CpuTime cpuTime(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return new CpuTime(Long.parseLong(f[11]) / (double) CLOCK_TICKS, Long.parseLong(f[12]) / (double) CLOCK_TICKS);
    } catch (IOException | RuntimeException e) {
      return new CpuTime(Double.NaN, Double.NaN);
    }
  }

  /** The CPU time of a process and all its descendants alive now (nginx's master and its workers). */
  public static CpuTime cpuTimeOfTree(ProcessHandle root) {
    CpuTime sum = cpuTime(root.pid());
    for (ProcessHandle child : (Iterable<ProcessHandle>) root.descendants()::iterator) {
      sum = sum.plus(cpuTime(child.pid()));
    }
    return sum;
  }

  /** USER_HZ: the unit of /proc's CPU times, 100 on every Linux we run on. */
  private static final int CLOCK_TICKS = 100;

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
  public static int freePort() throws IOException {
    while (true) {
      try (ServerSocket s = new ServerSocket(0)) {
        int port = s.getLocalPort();
        boolean chaos = port >= 18081 && port <= 18083 || port >= 18581 && port <= 18583 || port >= 25521 && port <= 25523;
        if (!chaos) return port;
      }
    }
  }
}
