package io.boxoffice.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The chaos scripts' guards, run as an SRE runs them (from the repository's root): a database
 * that is not the drill's is never dropped, whatever CHAOS_DB says.
 */
class ChaosScriptsTest {
  record Run(int exit, String output) {}

  static Run run(Map<String, String> env, String... command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the script ended");
    return new Run(p.exitValue(), out);
  }

  @Test
  void aDatabaseWhoseNameIsNotTheDrillsIsRefusedBeforeAnythingRuns() throws Exception {
    for (String name : List.of("test", "boxoffice", "postgres", "boxoffice_chaos", "BOXOFFICE_CHAOS_X",
        "boxoffice_chaos_x; DROP DATABASE test", "boxoffice_chaos_$(touch /tmp/x)", "prod_boxoffice_chaos_1")) {
      // Harmless commands only: were the guard missing, none of them drops anything.
      for (String[] command : List.of(new String[] {"chaos/cluster", "status"}, new String[] {"chaos/db-outage", "--help"},
          new String[] {"chaos/abort", "--help"}, new String[] {"chaos/rolling-restart", "--help"})) {
        String script = command[0];
        Run r = run(Map.of("CHAOS_DB", name), command);
        assertEquals(2, r.exit(), script + " with CHAOS_DB=" + name + ": " + r.output());
        assertTrue(r.output().contains("must start with boxoffice_chaos_"), r.output());
      }
    }
  }

  @Test
  void theDrillsOwnDatabaseNamesPass() throws Exception {
    for (String name : List.of("boxoffice_chaos_drill", "boxoffice_chaos_ci_2")) {
      Run r = run(Map.of("CHAOS_DB", name), "chaos/cluster", "--help");
      assertEquals(0, r.exit(), r.output());
      assertTrue(r.output().contains("usage: chaos/cluster"), r.output());
    }
  }

  @Test
  void everyScriptHasHelpAndTheRunbookNamesTheAbortSwitch() throws Exception {
    for (String script : List.of("abort", "rolling-restart", "db-outage", "onsale-under-fire", "cluster", "heal")) {
      Run r = run(Map.of(), "chaos/" + script, "--help");
      assertEquals(0, r.exit(), script + ": " + r.output());
      assertTrue(r.output().startsWith("usage: chaos/" + script), script + ": " + r.output());
    }
    String runbook = Files.readString(Path.of("chaos/RUNBOOK.md"));
    assertTrue(runbook.contains("chaos/abort"));
    assertFalse(runbook.isBlank());
  }
}
