package io.boxoffice.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The command-line tools the manifest and monitoring tests run: {@code kubectl} (its built-in
 * kustomize renders k8s/ exactly as {@code kubectl apply -k} will) and {@code promtool} (checks
 * and unit-tests the alert rules). .ci/run installs both when they are missing; a test that needs
 * one fails, naming it, rather than skipping, so a CI without it cannot pass unchecked.
 */
final class Tools {
  private Tools() {}

  /** What a command printed and how it ended. */
  record Run(int exit, String out) {}

  static String find(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      Path p = Path.of(dir, tool);
      if (Files.isExecutable(p)) return p.toString();
    }
    throw new AssertionError(tool + " is not installed: .ci/run installs it (kubectl >= 1.27 for kustomize v5; promtool: the Debian package prometheus)");
  }

  static Run run(Path workDir, String... command) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(command));
    cmd.set(0, find(cmd.get(0)));
    Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish in 120 s");
    }
    return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  /** {@code kubectl kustomize dir}: the YAML that {@code kubectl apply -k dir} sends. */
  static String kustomize(Path dir) throws IOException, InterruptedException {
    Run r = run(Path.of("."), "kubectl", "kustomize", dir.toString());
    if (r.exit() != 0) throw new AssertionError("kubectl kustomize " + dir + " failed:\n" + r.out());
    return r.out();
  }
}
