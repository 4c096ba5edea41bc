package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.boxoffice.common.Hmac;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestConfigs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sign-in door: a request without a valid {@code bo_id} is 401 while its network has budget,
 * and 429 + Retry-After once a flood of such requests from that network has spent it. Each
 * network (here /24 prefixes, from X-Forwarded-For behind the loopback proxy) has a burst of 3
 * and 1 a second of such refusals; a valid sign-in takes nothing at this door.
 */
class IdentityTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());
  static final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  static final IdentityToken tokens = new IdentityToken(Hmac.fromBase64OrRandom(""), clock, Duration.ofHours(1));
  static ServerBinding binding;

  @BeforeAll
  static void bind() throws Exception {
    Api api = new Api(testKit.system(), Duration.ofMillis(500), 65536);
    FanContext fans = new FanContext(new ClientPrefix(List.of(ClientPrefix.Cidr.parse("127.0.0.0/8"))),
        new TokenBuckets(1000, 1000, 1000, clock), new TokenBuckets(1000, 1000, 1000, clock), api);
    Identity identity = new Identity(tokens, api, fans, new TokenBuckets(3, 1, 1000, clock));
    AllDirectives d = new AllDirectives() {};
    binding = Http.get(testKit.system()).newServerAt("127.0.0.1", 0)
        .bind(api.seal(d.path("me", () -> identity.account(account -> d.complete(account)))))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static HttpFan.Reply me(String cookie, String network) {
    HttpFan fan = new HttpFan(binding.localAddress().getPort());
    if (cookie != null) fan = fan.withCookie(cookie);
    return fan.send("GET", "/me", null, ClientPrefix.FORWARDED_FOR, network);
  }

  @Test
  void aFloodOfForgedSignInsFromOneNetworkMeets429AndLeavesOtherNetworksAlone() {
    String forged = "acct-flood.forged-signature";
    for (int i = 0; i < 3; i++) assertEquals(401, me(i == 0 ? null : forged, "198.51.100.7").status());
    HttpFan.Reply limited = me(forged, "198.51.100.7");
    assertEquals(429, limited.status(), limited.body());
    assertEquals("rate_limited", limited.error());
    assertEquals("1", limited.headers().firstValue("Retry-After").orElse(null));
    // The same /24 shares the budget; so does a request with no cookie at all.
    assertEquals(429, me(forged, "198.51.100.200").status());
    assertEquals(429, me(null, "198.51.100.9").status());
    // Another network is untouched, and a valid sign-in passes this door whatever its network.
    assertEquals(401, me(forged, "203.0.113.9").status());
    HttpFan.Reply honest = me(tokens.issue("acct-honest"), "198.51.100.7");
    assertEquals(200, honest.status(), honest.body());
    assertEquals("acct-honest", honest.body());
    // A second later the network has one token again.
    clock.advance(Duration.ofSeconds(1));
    assertEquals(401, me(forged, "198.51.100.7").status());
    assertEquals(429, me(forged, "198.51.100.7").status());
  }
}
