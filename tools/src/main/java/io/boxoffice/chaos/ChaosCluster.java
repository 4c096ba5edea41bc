package io.boxoffice.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The local chaos cluster as {@code chaos/cluster up} left it: its settings (chaos/run/env), the
 * scripts that break it, and the log of every fault they injected (chaos/run/events.log).
 */
final class ChaosCluster {

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

  ChaosCluster(Path chaosDir) throws IOException {
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
  int script(String name, String... args) {
    List<String> command = new ArrayList<>();
    command.add(chaosDir.resolve(name).toString());
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().close();
      try (var out = p.inputReader()) {
        out.lines().forEach(l -> System.out.println("  chaos> " + l));
      }
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
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
