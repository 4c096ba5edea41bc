package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BotSettingsTest {
  @Test
  void theShippedConfigurationReads() {
    BotSettings s = BotSettings.from(ConfigFactory.parseResources("boxoffice.conf").resolve());
    assertEquals(Duration.ofMinutes(5), s.powChallengeTtl());
    assertEquals(new BotSettings.Limit(20, 5), s.perAccount());
    assertEquals(new BotSettings.Limit(200, 50), s.perPrefix());
    assertEquals(1_000_000, s.maxKeys());
    assertEquals(2, s.qrCost());
  }

  @Test
  void keysStayOutOfTheLogs() {
    BotSettings s = new BotSettings("c2VjcmV0LXByZXNhbGU=", "c2VjcmV0LXBvdw==", Duration.ofMinutes(5), 10,
        new BotSettings.Limit(1, 1), new BotSettings.Limit(1, 1), 10, 2);
    assertFalse(s.toString().contains("c2VjcmV0"), s.toString());
  }
}
