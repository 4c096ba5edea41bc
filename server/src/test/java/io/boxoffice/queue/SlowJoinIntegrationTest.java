package io.boxoffice.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A join waits for a slow place rather than answering 503: joining is idempotent per account (its
 * {@link QueuePlace} keeps the one place), so its asks wait {@code boxoffice.queue.join-wait}, not
 * the routes' ask-timeout. A lobby's first seconds (thousands of tabs at once on a node that has
 * just started the event's places) answered 83 joins 503 in the simulator's seed-section-8 run.
 * Here every ask that is not a join gives up after 20 ms, which a fresh node's first join (its
 * place's shard allocated, its first write) always takes longer than.
 */
class SlowJoinIntegrationTest {
  static Node node;
  static HttpFan admin;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments(),
        ConfigFactory.parseString("boxoffice.http.ask-timeout = 20ms"));
    admin = new HttpFan(node.httpPort());
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  @Test
  void aFansFirstJoinOnAFreshNodeIsAnsweredNot503() {
    String event = admin.newEventWithOpenLobby(100);
    HttpFan fan = new HttpFan(node.httpPort()).withCookie(TestNode.identityOf("acc-" + event, Clock.systemUTC()));
    HttpFan.Reply joined = fan.send("POST", "/api/events/" + event + "/queue", "{}");
    assertEquals(200, joined.status(), joined.body());
    assertEquals("lobby", joined.json().get("state").asText());
  }
}
