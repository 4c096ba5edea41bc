package io.boxoffice.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The repository's CDN edge worker ({@code edge-worker/}) run here as Cloudflare runs it, under
 * its own runtime {@code workerd} ({@code npm run serve}), in front of an origin, with the nodes'
 * queue and identity keys as its secrets; for the simulator's {@code --edge local} and the edge
 * benchmark. Its packages are installed ({@code npm ci}) when missing.
 */
public final class EdgeWorker implements AutoCloseable {
  public final String url;
  private final Process process;

  private EdgeWorker(String url, Process process) {
    this.url = url;
    this.process = process;
  }

  /**
   * Starts the worker of {@code root/edge-worker} on a free loopback port in front of
   * {@code origin}; {@code queueKeys} are the nodes' active queue key and any accepted during a
   * rotation (commas), {@code identityKeys} the identity key. Returns once it answers.
   */
  public static EdgeWorker start(Path root, String origin, String queueKeys, String identityKeys, Map<String, String> vars, Path log)
      throws IOException, InterruptedException {
    Path worker = root.resolve("edge-worker");
    if (!Files.isDirectory(worker)) throw new IllegalArgumentException("no edge worker at " + worker);
    Files.createDirectories(log.toAbsolutePath().getParent());
    if (!Files.isDirectory(worker.resolve("node_modules"))) {
      Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(worker.toFile())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      if (!npm.waitFor(10, TimeUnit.MINUTES) || npm.exitValue() != 0) throw new IllegalStateException("npm ci failed (see " + log + ")");
    }
    int port = ChildNode.freePort();
    ProcessBuilder pb = new ProcessBuilder("node", "scripts/serve.js").directory(worker.toFile())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Map<String, String> env = pb.environment();
    env.putAll(vars);
    env.put("ORIGIN", origin);
    env.put("QUEUE_KEYS", queueKeys);
    env.put("IDENTITY_KEYS", identityKeys);
    env.put("PORT", Integer.toString(port));
    Process p = pb.start();
    p.getOutputStream().close();
    EdgeWorker edge = new EdgeWorker("http://127.0.0.1:" + port, p);
    Runtime.getRuntime().addShutdownHook(new Thread(edge::close));
    edge.awaitServing(Duration.ofSeconds(60), log);
    return edge;
  }

  private void awaitServing(Duration within, Path log) throws InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest probe = HttpRequest.newBuilder(URI.create(url + "/api/openapi.json")).timeout(Duration.ofSeconds(5)).GET().build();
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) throw new IllegalStateException("the edge worker exited with " + process.exitValue() + " (see " + log + ")");
      try {
        client.send(probe, HttpResponse.BodyHandlers.discarding());
        return;
      } catch (IOException e) {
        // Not listening yet.
      }
      TimeUnit.MILLISECONDS.sleep(250);
    }
    close();
    throw new IllegalStateException("the edge worker did not serve within " + within.toSeconds() + " s (see " + log + ")");
  }

  /** The CPU time of the worker's processes (workerd and the script that started it) so far. */
  public ChildNode.CpuTime cpuTime() {
    return ChildNode.cpuTimeOfTree(process.toHandle());
  }

  @Override
  public void close() {
    if (!process.isAlive()) return;
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
