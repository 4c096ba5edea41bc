package io.boxoffice.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The short on-sale under fire, as CI runs it after the jar is packaged: a 3-node cluster on this
 * machine, about a minute of fans buying while two nodes are killed and restarted, and a verdict
 * whose must-be-zero counts are all zero. The cluster is always taken down again.
 */
class OnSaleUnderFireIT {
  static final Path ROOT = Path.of("").toAbsolutePath();
  static final Path CHAOS = ROOT.resolve("chaos");

  @Test
  void aShortOnSaleUnderFireSellsWithoutLosingOrDoublingAnything() throws Exception {
    try {
      assertEquals(0, run(4, "cluster", "up"), "chaos/cluster up");
      assertEquals(0, run(10, "onsale-under-fire", "--short"), "chaos/onsale-under-fire --short exits 0 only on a clean verdict");
      Properties verdict = new Properties();
      verdict.load(new StringReader(Files.readString(CHAOS.resolve("run/verdict.properties"))));
      for (String count : List.of("seats_sold_twice", "sales_confirmed_to_a_fan_but_missing_afterwards",
          "captured_payments_without_tickets", "seats_still_held_after_every_deadline_passed")) {
        assertEquals("0", verdict.getProperty(count), count);
      }
      assertTrue(Long.parseLong(verdict.getProperty("sales")) > 0, "something was sold");
      // The drill kills only while all three nodes serve, and --short goes on (3 minutes more at
      // most) until its two kills; a restart starved of CPU on a small shared machine can still
      // hold the second back past that: at least one kill must have happened.
      assertTrue(Long.parseLong(verdict.getProperty("kills")) >= 1, "a node was killed during the sale");
    } finally {
      // The verdict is in: the nodes need not leave the cluster one by one (up to 20 s each).
      run(2, Map.of("CHAOS_STOP_GRACE", "3"), "cluster", "down");
    }
  }

  /** Runs one chaos script, its output into the test's output; its exit code (-1 after {@code minutes}). */
  static int run(long minutes, String script, String... args) throws IOException, InterruptedException {
    return run(minutes, Map.of(), script, args);
  }

  /** The same with more variables in the script's environment. */
  static int run(long minutes, Map<String, String> env, String script, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(CHAOS.resolve(script).toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true);
    // The test classpath as this JVM has it, so that the scripts need no Maven of their own.
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    if (cp.contains("test-classes")) pb.environment().put("CHAOS_CP", cp);
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    Thread pump = new Thread(() -> {
      try (var out = p.inputReader()) {
        out.lines().forEach(System.out::println);
      } catch (IOException ignored) {
        // The process is gone.
      }
    });
    pump.start();
    if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
      System.out.println(script + " did not finish in " + minutes + " minutes: stopping it");
      p.destroy();
      if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
      pump.join(5_000);
      return -1;
    }
    pump.join(5_000);
    return p.exitValue();
  }
}
