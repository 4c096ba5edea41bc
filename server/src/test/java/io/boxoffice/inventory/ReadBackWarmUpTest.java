package io.boxoffice.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.support.TestConfigs;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The read-back warm-up writes a made-up event's snapshot and batch with the node's own
 * serializer and reads them back as recovery does: the book it rebuilds shows the batch's holds
 * and sale.
 */
class ReadBackWarmUpTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void aMadeUpEventGoesThroughTheSerializerAndIsRebuiltWithItsBatch() {
    ReadBackWarmUp.Result result = ReadBackWarmUp.run(testKit.system());
    assertEquals(300, result.seats());
    // Four fans held two seats each; the first bought theirs.
    assertEquals(6, result.held());
    assertEquals(2, result.sold());
    assertTrue(result.bytes() > 1000, "the snapshot and the batch went through the serializer: " + result.bytes() + " bytes");
  }
}
