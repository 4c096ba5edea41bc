package io.boxoffice.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.cluster.sharding.typed.HashCodeMessageExtractor;

/**
 * The local chaos cluster as {@code chaos/cluster up} left it: its settings (chaos/run/env), the
 * scripts that break it, and the log of every fault they injected (chaos/run/events.log).
 */
public final class ChaosCluster {

  /** One line of events.log: when, what ({@code kill}, {@code pause}, {@code resume}, ...), and about what. */
  record Event(long atMillis, String action, String detail) {
    /** The node an event is about ({@code node 2 ...}), or 0. */
    int node() {
      String[] words = detail.split(" ");
      return words.length >= 2 && words[0].equals("node") ? Integer.parseInt(words[1]) : 0;
    }
  }

  final Path chaosDir;
  final Path runDir;
  final Map<String, String> env;

  public ChaosCluster(Path chaosDir) throws IOException {
    this.chaosDir = chaosDir;
    this.runDir = chaosDir.resolve("run");
    Path envFile = runDir.resolve("env");
    if (!Files.exists(envFile)) throw new IllegalStateException("no " + envFile + ": run chaos/cluster up first");
    this.env = parseEnv(Files.readAllLines(envFile, StandardCharsets.UTF_8));
  }

  static Map<String, String> parseEnv(List<String> lines) {
    Map<String, String> out = new HashMap<>();
    for (String line : lines) {
      String l = line.trim();
      if (l.isEmpty() || l.startsWith("#") || !l.contains("=")) continue;
      String value = l.substring(l.indexOf('=') + 1);
      if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) value = value.substring(1, value.length() - 1);
      out.put(l.substring(0, l.indexOf('=')), value);
    }
    return out;
  }

  String adminToken() {
    return env.get("BOXOFFICE_ADMIN_TOKEN");
  }

  int[] httpPorts() {
    return Arrays.stream(env.get("CHAOS_HTTP_PORTS").split(",")).mapToInt(Integer::parseInt).toArray();
  }

  /** The database as it is, not through the proxy that chaos/db-outage cuts. */
  String directDbUrl() {
    return env.get("CHAOS_DIRECT_DB_URL");
  }

  String dbUser() {
    return env.getOrDefault("BOXOFFICE_DB_USER", "postgres");
  }

  /** Pekko Management's port of node {@code n} (1-based): CHAOS_MGMT_PORTS, or chaos/lib.sh's 1858N. */
  int managementPort(int n) {
    String ports = env.get("CHAOS_MGMT_PORTS");
    return ports == null ? 18580 + n : Integer.parseInt(ports.split(",")[n - 1].trim());
  }

  /**
   * Whether node {@code n} is an Up member by its own Pekko Management readiness check
   * ({@code GET /ready}, the cluster-membership check), asked on the management port, which the
   * fans' load does not queue behind.
   */
  boolean ready(int n) {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort(n) + "/ready"))
          .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The node (1-based) whose shard region hosts the event's inventory now, by each node's
   * Pekko Management shard listing ({@code GET /cluster/shards/EventInventory}: the shards of
   * that node's region) and the shard id Pekko's default extractor gives the event id; 0 when
   * no node answers with it (the event is between nodes, or not started yet).
   */
  public int hostOf(String eventId, int nodes) {
    String shardId = new HashCodeMessageExtractor<Object>(Shards.NUMBER).shardId(eventId);
    // Asked of every node at once: under a drill's load one listing can take seconds, and asked
    // in turn they held a kill back 14 s.
    List<CompletableFuture<HttpResponse<String>>> asked = new ArrayList<>();
    for (int n = 1; n <= nodes; n++) {
      asked.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort(n) + "/cluster/shards/EventInventory"))
          .timeout(Duration.ofSeconds(4)).GET().build(), HttpResponse.BodyHandlers.ofString()));
    }
    for (int n = 1; n <= nodes; n++) {
      try {
        HttpResponse<String> r = asked.get(n - 1).get();
        if (r.statusCode() != 200) continue;
        for (JsonNode region : JSON.readTree(r.body()).path("regions")) {
          if (region.path("shardId").asText().equals(shardId) && region.path("numEntities").asInt() > 0) return n;
        }
      } catch (ExecutionException | IOException e) {
        // That node does not answer: it hosts nothing we can reach.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 0;
      }
    }
    return 0;
  }

  /** The nodes' shards per entity type, as the server's configuration sets them (read when first needed). */
  private static final class Shards {
    static final int NUMBER = ConfigFactory.load().getInt("pekko.cluster.sharding.number-of-shards");
  }

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The pid recorded for node {@code n}, 0 when none. */
  long pid(int n) {
    try {
      return Long.parseLong(Files.readString(runDir.resolve("node-" + n + ".pid")).trim());
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }

  /** Whether node {@code n} (1-based) has a live process, by its pid file. */
  boolean running(int n) {
    try {
      Path pidFile = runDir.resolve("node-" + n + ".pid");
      if (!Files.exists(pidFile)) return false;
      long pid = Long.parseLong(Files.readString(pidFile).trim());
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    } catch (IOException | NumberFormatException e) {
      return false;
    }
  }

  /** Runs one chaos script; its output goes to ours, prefixed. Returns its exit code. */
  public int script(String name, String... args) {
    List<String> command = new ArrayList<>();
    command.add(chaosDir.resolve(name).toString());
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().close();
      try (var out = p.inputReader()) {
        out.lines().forEach(l -> System.out.println("  chaos> " + l));
      }
      if (!p.waitFor(20, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (IOException e) {
      System.out.println("  chaos> cannot run " + command + ": " + e);
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Every event logged from {@code fromMillis} on. */
  List<Event> events(long fromMillis) throws IOException {
    Path log = runDir.resolve("events.log");
    List<Event> out = new ArrayList<>();
    if (!Files.exists(log)) return out;
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      String[] f = line.split("\t", 3);
      if (f.length < 2) continue;
      try {
        long at = Long.parseLong(f[0]);
        if (at >= fromMillis) out.add(new Event(at, f[1], f.length > 2 ? f[2] : ""));
      } catch (NumberFormatException ignored) {
        // Not a line of ours.
      }
    }
    return out;
  }
}
