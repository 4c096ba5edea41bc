package io.boxoffice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.accounts.Account;
import io.boxoffice.accounts.domain.PasswordHasher;
import io.boxoffice.support.TestConfigs;
import io.boxoffice.tickets.domain.Ticket;
import io.boxoffice.tickets.TicketWallet;
import io.boxoffice.venue.domain.StadiumGenerator;
import io.boxoffice.venue.Venue;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The small entities under the EventSourcedBehaviorTestKit, with commands, events and state serialized. */
class EntityTestKitTest {
  static final ActorTestKit testKit = ActorTestKit.create(
      EventSourcedBehaviorTestKit.config().withFallback(TestConfigs.entityConfig()).withFallback(ConfigFactory.load()));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @Test
  void anEmailIsRegisteredOnceAndRemembered() {
    var kit = EventSourcedBehaviorTestKit.<Account.Command, Account.Event, Account.State>create(testKit.system(), Account.create("a@b.co"));
    PasswordHasher.PasswordHash hash = new PasswordHasher(1000).hash("correct horse");
    assertInstanceOf(Account.Registered.class, kit.<Account.Reply>runCommand(r -> new Account.Register("acct-1", hash, r)).reply());
    assertInstanceOf(Account.Exists.class, kit.<Account.Reply>runCommand(r -> new Account.Register("acct-2", hash, r)).reply());
    kit.restart();
    Account.Registered stored = (Account.Registered) kit.<Account.Reply>runCommand(Account.Get::new).reply();
    assertEquals("acct-1", stored.accountId());
    assertEquals(true, PasswordHasher.matches("correct horse", stored.password()));
    assertEquals(false, PasswordHasher.matches("wrong horse", stored.password()));
  }

  @Test
  void aVenueIsDefinedOnce() {
    var kit = EventSourcedBehaviorTestKit.<Venue.Command, Venue.Event, Venue.State>create(testKit.system(), Venue.create("arena"));
    var layout = StadiumGenerator.generate("arena", "Arena", 1000);
    assertEquals(new Venue.Defined(layout), kit.<Venue.Reply>runCommand(r -> new Venue.Define(layout, r)).reply());
    assertInstanceOf(Venue.Exists.class, kit.<Venue.Reply>runCommand(r -> new Venue.Define(layout, r)).reply());
    kit.restart();
    assertEquals(new Venue.Defined(layout), kit.<Venue.Reply>runCommand(Venue.Get::new).reply());
  }

  @Test
  void aWalletFilesEachOrderOnce() {
    var kit = EventSourcedBehaviorTestKit.<TicketWallet.Command, TicketWallet.Event, TicketWallet.State>create(
        testKit.system(), TicketWallet.create("acct-1", new SnapshotPolicy(100, 2)));
    List<Ticket> tickets = List.of(new Ticket("t1", "ev", "A-1-1", "o1", "code1"), new Ticket("t2", "ev", "A-1-2", "o1", "code2"));
    kit.<TicketWallet.Filed>runCommand(r -> new TicketWallet.FileOrder("o1", tickets, r));
    var twice = kit.<TicketWallet.Filed>runCommand(r -> new TicketWallet.FileOrder("o1", tickets, r));
    assertEquals(List.of(), twice.events(), "filing again writes nothing");
    kit.restart();
    assertEquals(tickets, kit.<TicketWallet.Tickets>runCommand(TicketWallet.GetTickets::new).reply().tickets());
  }
}
