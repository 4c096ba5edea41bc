package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.accounts.domain.EmailAddress;
import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, findings 1 and 2, against a real node on PostgreSQL (the database that refuses a NUL):
 * poisoned emails are 400 and reach no entity; sign-in floods are 429 per prefix and per email;
 * honest fans on other networks keep signing in, and buying, during each attack.
 */
class AccountAttacksIntegrationTest {
  static final String PASSWORD = "correct horse battery";
  static Node node;
  static final AtomicInteger networks = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(new MutableClock(Instant.parse("2026-12-01T10:00:00Z")), TestNode.payments(), ConfigFactory.parseString("""
        boxoffice.accounts.rate-limits.per-prefix { burst = 20, per-second = 0.5 }
        boxoffice.accounts.rate-limits.per-email { burst = 5, per-second = 0.05 }
        """));
  }

  @AfterAll
  static void stop() {
    if (node != null) node.stop();
  }

  /** A fresh client network: X-Forwarded-For from 127.0.0.1, a trusted proxy by default. */
  static String network() {
    int n = networks.incrementAndGet();
    return "10." + (n / 256) + "." + (n % 256) + ".7";
  }

  static HttpFan.Reply post(String path, String body, String network) {
    return new HttpFan(node.httpPort()).send("POST", path, body, "X-Forwarded-For", network);
  }

  /** Honest fans, each on a network of its own, signing up then in while {@code attack} runs; returns their latencies. */
  static List<Long> honestFansDuring(Runnable attack, int fans) {
    ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
    List<CompletableFuture<Void>> honest = new ArrayList<>();
    CompletableFuture<Void> attacking = CompletableFuture.runAsync(attack);
    for (int i = 0; i < fans; i++) {
      honest.add(CompletableFuture.runAsync(() -> {
        String network = network();
        String body = Hostile.credentials("fan-" + UUID.randomUUID() + "@example.com", PASSWORD);
        long started = System.nanoTime();
        HttpFan.Reply up = post("/api/accounts", body, network);
        latencies.add((System.nanoTime() - started) / 1_000_000);
        assertEquals(201, up.status(), up.body());
        started = System.nanoTime();
        HttpFan.Reply in = post("/api/session", body, network);
        latencies.add((System.nanoTime() - started) / 1_000_000);
        assertEquals(200, in.status(), in.body());
      }));
    }
    attacking.join();
    honest.forEach(CompletableFuture::join);
    return new ArrayList<>(latencies);
  }

  static int journalRows(String persistenceId) throws Exception {
    try (Connection c = DriverManager.getConnection(TestNode.PG_URL, "postgres", "");
         PreparedStatement s = c.prepareStatement("SELECT count(*) FROM event_journal WHERE persistence_id = ?")) {
      s.setString(1, persistenceId);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    }
  }

  @Test
  void poisonedEmailsAre400AndHonestFansKeepSigningIn() throws Exception {
    String attacker = network();
    List<String> poisoned = List.of("z\u0000@x.io", "", " ", "a b@x.io", "tab\t@x.io", "line\n@x.io", "two@@x.io", "no-at.x.io",
        "a@b@x.io", "\u200bzero-width@x.io", "x".repeat(300) + "@x.io", "a@x", "a@.x.io");
    ConcurrentLinkedQueue<HttpFan.Reply> refusals = new ConcurrentLinkedQueue<>();
    List<Long> latencies = honestFansDuring(() -> {
      List<CompletableFuture<HttpFan.Reply>> attempts = new ArrayList<>();
      for (int round = 0; round < 40; round++) {
        for (String email : poisoned) {
          String body = Hostile.credentials(email, "p");
          HttpFan client = new HttpFan(node.httpPort());
          attempts.add(client.sendAsync("POST", "/api/session", body, "X-Forwarded-For", attacker));
          if (round % 10 == 0) attempts.add(client.sendAsync("POST", "/api/accounts", Hostile.credentials(email, PASSWORD),
              "X-Forwarded-For", attacker));
        }
      }
      attempts.forEach(a -> refusals.add(a.join()));
    }, 20);

    assertTrue(refusals.size() > 500);
    for (HttpFan.Reply r : refusals) Hostile.refused(r, 400, "bad_request");
    assertEquals(0, journalRows("Account|" + EmailAddress.parse("z@x.io").orElseThrow().key()));
    System.out.printf("NUL flood: %d refusals, honest sign-ups and sign-ins %d/%d ok, p99 %d ms%n",
        refusals.size(), latencies.size(), latencies.size(), Hostile.p99(latencies));

    // A pipe is a character like any other now: the email is hashed into the key, so it is simply unknown.
    HttpFan.Reply pipe = post("/api/session", Hostile.credentials("a|b@x.io", PASSWORD), network());
    Hostile.refused(pipe, 401, "unauthenticated");
    String email = "pipe|" + UUID.randomUUID() + "@example.com";
    String network = network();
    assertEquals(201, post("/api/accounts", Hostile.credentials(email, PASSWORD), network).status());
    assertEquals(200, post("/api/session", Hostile.credentials(email.toUpperCase() + " ", PASSWORD), network).status());
  }

  @Test
  void signUpRefusesShortPasswordsAndCreatesNothing() throws Exception {
    String email = "short-" + UUID.randomUUID() + "@example.com";
    Hostile.refused(post("/api/accounts", Hostile.credentials(email, "123456789"), network()), 400, "bad_request");
    assertEquals(0, journalRows("Account|" + EmailAddress.parse(email).orElseThrow().key()));
    Hostile.refused(post("/api/session", Hostile.credentials(email, "123456789"), network()), 401, "unauthenticated");
  }

  @Test
  void aSignInFloodFromOneNetworkIs429AndHonestFansCarryOn() {
    String attacker = network();
    String victim = "victim-" + UUID.randomUUID() + "@example.com";
    String victimNetwork = network();
    assertEquals(201, post("/api/accounts", Hostile.credentials(victim, PASSWORD), victimNetwork).status());
    ConcurrentLinkedQueue<HttpFan.Reply> replies = new ConcurrentLinkedQueue<>();
    List<Long> latencies = honestFansDuring(() -> {
      List<CompletableFuture<HttpFan.Reply>> attempts = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        String body = Hostile.credentials("guess-" + i + "-" + UUID.randomUUID() + "@example.com", "wrong password " + i);
        attempts.add(new HttpFan(node.httpPort()).sendAsync("POST", "/api/session", body, "X-Forwarded-For", attacker));
      }
      attempts.forEach(a -> replies.add(a.join()));
    }, 20);

    int limited = 0;
    for (HttpFan.Reply r : replies) {
      Hostile.refusedCleanly(r);
      if (r.status() == 429) {
        Hostile.refused(r, 429, "rate_limited");
        assertTrue(Integer.parseInt(r.headers().firstValue("Retry-After").orElseThrow()) >= 1);
        limited++;
      } else {
        Hostile.refused(r, 401, "unauthenticated");
      }
    }
    assertTrue(limited >= 200 - 21, "at most the burst gets through: " + limited + " limited");
    System.out.printf("sign-in flood: %d of 200 limited, honest sign-ups and sign-ins %d/%d ok, p99 %d ms%n",
        limited, latencies.size(), latencies.size(), Hostile.p99(latencies));
    // The flood spent its own network's budget only: the victim still signs in from home.
    assertEquals(200, post("/api/session", Hostile.credentials(victim, PASSWORD), victimNetwork).status());
  }

  @Test
  void oneEmailIsLimitedFromEveryNetwork() {
    String victim = "target-" + UUID.randomUUID() + "@example.com";
    assertEquals(201, post("/api/accounts", Hostile.credentials(victim, PASSWORD), network()).status());
    List<HttpFan.Reply> guesses = new ArrayList<>();
    for (int i = 0; i < 12; i++) guesses.add(post("/api/session", Hostile.credentials(victim, "guess number " + i), network()));
    long limited = guesses.stream().filter(r -> r.status() == 429).count();
    guesses.stream().filter(r -> r.status() != 429).forEach(r -> Hostile.refused(r, 401, "unauthenticated"));
    guesses.stream().filter(r -> r.status() == 429).forEach(r -> Hostile.refused(r, 429, "rate_limited"));
    assertTrue(limited >= 12 - 4, "the email's burst of 5 (one spent on sign-up) then 429: " + limited);
  }
}
