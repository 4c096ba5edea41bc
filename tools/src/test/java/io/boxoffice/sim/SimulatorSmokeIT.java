package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The short on-sale simulation, as {@code mvn -B verify} runs it after the server's jar is
 * packaged: {@code sim/scenarios/smoke.conf} against a node of that jar started for it, every
 * fairness and safety threshold of the gate checked, and the report written. A run that breaks a
 * threshold fails the build and names it (the report is under target/sim/).
 */
class SimulatorSmokeIT {

  @Test
  void theSmokeScenarioKeepsEveryFairnessAndSafetyThreshold() throws Exception {
    Simulator.Result result = Simulator.run(Simulator.Options.parse(new String[] {"smoke"}));
    assertTrue(Files.exists(result.dir().resolve("report.html")), "report.html in " + result.dir());
    assertTrue(Files.exists(result.dir().resolve("report.json")), "report.json in " + result.dir());
    assertAll(result.checks().stream().map(c -> (Executable) () -> assertTrue(c.passed(),
        c.name() + ": " + c.value() + " (report: " + result.dir().resolve("report.html") + ")")));
  }
}
