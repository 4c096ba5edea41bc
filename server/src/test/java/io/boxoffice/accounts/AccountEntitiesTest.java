package io.boxoffice.accounts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.accounts.domain.PasswordHasher;
import io.boxoffice.support.TestConfigs;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The account's remembered networks and its signed-out sessions, persisted and told, under the test kit (serialized). */
class AccountEntitiesTest {
  static final ActorTestKit testKit = ActorTestKit.create(
      EventSourcedBehaviorTestKit.config().withFallback(TestConfigs.entityConfig()).withFallback(ConfigFactory.load()));
  static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @Test
  void anAccountRemembersTheNetworksItSignedInFromAcrossARestart() {
    var kit = EventSourcedBehaviorTestKit.<Account.Command, Account.Event, Account.State>create(testKit.system(), Account.create("0a1b"));
    kit.runCommand(new Account.RememberNetwork("203.0.113.0/24"));
    assertTrue(kit.getState().networks().prefixes().isEmpty(), "nothing is remembered for an email nobody registered");
    kit.<Account.Reply>runCommand(r -> new Account.Register("acct-1", new PasswordHasher(1000).hash("correct horse"), r));
    kit.runCommand(new Account.RememberNetwork("203.0.113.0/24"));
    assertEquals(List.of(), kit.runCommand(new Account.RememberNetwork("203.0.113.0/24")).events(), "a known network is written once");
    kit.restart();
    Account.Registered r = (Account.Registered) kit.<Account.Reply>runCommand(Account.Get::new).reply();
    assertTrue(r.networks().contains("203.0.113.0/24"));
    assertFalse(r.networks().contains("198.51.100.0/24"));
  }

  @Test
  void signedOutSessionsArePersistedToldAndTaggedByDay() {
    List<AccountSessions.Sessions> told = new CopyOnWriteArrayList<>();
    var kit = EventSourcedBehaviorTestKit.<AccountSessions.Command, AccountSessions.Event, AccountSessions.State>create(
        testKit.system(), AccountSessions.create("aAcct_1", Clock.fixed(NOW, ZoneOffset.UTC), told::add));
    long expires = NOW.getEpochSecond() + 3600;
    var out = kit.<AccountSessions.Sessions>runCommand(r -> new AccountSessions.SignOut("0.abc", expires, r));
    assertTrue(out.reply().revocations().isRevoked(0, "0.abc"));
    assertEquals(List.of(out.reply()), told, "every node is told after the write");
    var everywhere = kit.<AccountSessions.Sessions>runCommand(AccountSessions.SignOutEverywhere::new);
    assertEquals(1, everywhere.reply().revocations().version());
    assertEquals("sessions-2026-12-05", AccountSessions.tag(NOW.getEpochSecond()));
    kit.restart();
    var current = kit.<AccountSessions.Sessions>runCommand(AccountSessions.Get::new).reply();
    assertEquals(1, current.revocations().version(), "a restart keeps the version");
    assertTrue(current.revocations().isRevoked(0, "0.other"));
    assertFalse(current.revocations().isRevoked(1, "1.new"));
  }

  @Test
  void aViewRefusesWhatItHeardAndForgetsItOnceEveryTokenExpired() {
    Instant[] now = {NOW};
    Clock clock = new Clock() {
      public ZoneOffset getZone() { return ZoneOffset.UTC; }
      public Clock withZone(java.time.ZoneId zone) { return this; }
      public Instant instant() { return now[0]; }
    };
    SessionView view = new SessionView(clock, java.time.Duration.ofHours(12));
    long t = NOW.getEpochSecond();
    view.merge(new AccountSessions.Sessions("a1", io.boxoffice.accounts.domain.SessionRevocations.NONE.revoke("0.x", t + 3600, t)));
    view.merge(new AccountSessions.Sessions("a2", io.boxoffice.accounts.domain.SessionRevocations.NONE.signOutEverywhere(t)));
    assertTrue(view.revoked("a1", 0, "0.x"));
    assertFalse(view.revoked("a1", 0, "0.y"));
    assertTrue(view.revoked("a2", 0, "0.y"));
    assertFalse(view.revoked("a3", 0, "0.x"));
    now[0] = NOW.plusSeconds(3600 + 120);
    view.prune();
    assertFalse(view.revoked("a1", 0, "0.x"), "its token has expired by itself");
    assertTrue(view.revoked("a2", 0, "0.y"), "tokens from before the sign-out everywhere may live 12 h");
    assertEquals(1, view.size());
    now[0] = NOW.plusSeconds(12 * 3600 + 120);
    view.prune();
    assertEquals(0, view.size());
  }
}
