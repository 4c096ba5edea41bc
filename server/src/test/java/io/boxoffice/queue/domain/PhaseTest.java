package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which phase a room is in, and the strings manifests carry for them. */
class PhaseTest {
  static final long LOBBY = 1_000_000;
  static final long START = 2_000_000;

  static Journal scheduled() {
    return new Journal(new OnSaleSchedule(LOBBY, START, 600, 1000, false, 0));
  }

  @Test
  void theWireStringsNeverChange() {
    Map<String, String> wire = new LinkedHashMap<>();
    Arrays.stream(Phase.values()).forEach(p -> wire.put(p.name(), p.wire()));
    assertEquals(Map.of("UNKNOWN", "unknown", "CLOSED", "closed", "OPEN", "open", "SCHEDULED", "scheduled",
        "LOBBY", "lobby", "WAITING", "waiting", "PAUSED", "paused", "SOLD_OUT", "sold_out"), wire);
  }

  @Test
  void aManifestsStringReadsBackAsItsPhaseAndAStrangeOneAsUnknown() {
    for (Phase p : Phase.values()) assertEquals(p, Phase.fromWire(p.wire()));
    assertEquals(Phase.UNKNOWN, Phase.fromWire("something_newer"));
    assertEquals(Phase.UNKNOWN, Phase.fromWire(null));
  }

  @Test
  void anEventNeverDefinedIsUnknownAndOneNeitherScheduledNorOpenedIsClosed() {
    Journal j = new Journal(null);
    j.defined = false;
    assertEquals(Phase.UNKNOWN, Phase.of(j.state(), false, LOBBY));
    j.defined = true;
    assertEquals(Phase.CLOSED, Phase.of(j.state(), false, LOBBY));
    assertEquals(Phase.CLOSED, Phase.of(j.state(), true, LOBBY), "a closed event is not sold out");
  }

  @Test
  void anOpenSaleIsOpenUntilSoldOut() {
    Journal j = new Journal(null);
    j.open = true;
    assertEquals(Phase.OPEN, Phase.of(j.state(), false, LOBBY));
    assertEquals(Phase.SOLD_OUT, Phase.of(j.state(), true, LOBBY));
  }

  @Test
  void aScheduledSaleIsScheduledThenLobbyUntilItStarts() {
    Journal j = scheduled();
    assertEquals(Phase.SCHEDULED, Phase.of(j.state(), false, LOBBY - 1));
    assertEquals(Phase.LOBBY, Phase.of(j.state(), false, LOBBY));
    assertEquals(Phase.LOBBY, Phase.of(j.state(), true, START - 1), "nobody shops before the start, so nothing shows sold out");
  }

  @Test
  void aStartedSaleWaitsPausesAndSellsOutWhilePaused() {
    Journal j = scheduled();
    j.tick(START);
    assertEquals(Phase.WAITING, Phase.of(j.state(), false, START));
    j.paused = true;
    assertEquals(Phase.PAUSED, Phase.of(j.state(), false, START));
    assertEquals(Phase.SOLD_OUT, Phase.of(j.state(), true, START));
  }
}
