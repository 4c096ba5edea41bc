package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestNode;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, finding 10: behind a trusted proxy that appends its own X-Forwarded-For line, the
 * client's own first line does not choose its prefix: the per-prefix sign-in limit still bites.
 */
class ForwardedForTest {
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(new MutableClock(Instant.parse("2026-12-01T10:00:00Z")), TestNode.payments(), ConfigFactory.parseString(
        "boxoffice.accounts.rate-limits.per-prefix { burst = 5, per-second = 0.01 }"));
  }

  @AfterAll
  static void stop() {
    if (node != null) node.stop();
  }

  @Test
  void aSpoofedFirstLineDoesNotDodgeThePerPrefixLimit() {
    int limited = 0;
    for (int i = 0; i < 15; i++) {
      String body = Hostile.credentials("xff-" + UUID.randomUUID() + "@example.com", "wrong password");
      // The client's made-up line first, the proxy's line (the client's real address) last.
      HttpFan.Reply r = new HttpFan(node.httpPort()).send("POST", "/api/session", body,
          "X-Forwarded-For", "10.99." + i + ".1", "X-Forwarded-For", "198.18.7.7");
      Hostile.refusedCleanly(r);
      if (r.status() == 429) {
        Hostile.refused(r, 429, "rate_limited");
        limited++;
      }
    }
    assertTrue(limited >= 10, "all 15 come from 198.18.7.0/24, 5 allowed: " + limited + " limited");
  }
}
