package io.boxoffice.cart;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.common.ReadSide;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import io.boxoffice.support.HandledEnvelopes;
import io.boxoffice.support.JournalWriter;
import io.boxoffice.support.ScratchDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.projection.ProjectionBehavior;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The checkout read side across a restart, on H2 and on PostgreSQL: its projections resume from
 * their stored offsets (the events they had handled are not handed to them again), the sweeper
 * finds every unfinished checkout from the table alone, and events written while the read side
 * was down, or under the tag carts used before slices, are read.
 */
class CheckoutRecoveryRestartTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @ParameterizedTest
  @EnumSource(ScratchDatabase.Kind.class)
  void aRestartedReadSideResumesFromItsOffsetsAndStillWakesEveryUnfinishedCheckout(ScratchDatabase.Kind kind) throws Exception {
    try (ScratchDatabase db = ScratchDatabase.create(kind)) {
      List<String> handledFirst = Collections.synchronizedList(new ArrayList<>());
      ActorTestKit first = db.start();
      try {
        write(first, "e:a1", CheckoutRecovery.tagFor("e:a1"), started("e.a1.1"));
        write(first, "e:a2", CheckoutRecovery.tagFor("e:a2"), started("e.a2.1"), new Cart.PaymentCaptured("e.a2.1"),
            new Cart.OrderFiled("e.a2.1"));
        // A journal written before slices: its events carry the one old tag.
        write(first, "e:a3", CheckoutRecovery.LEGACY_TAG, started("e.a3.1"));
        startProjections(first, db.readSide(first.system()), handledFirst);
        await().atMost(WAIT).untilAsserted(() -> assertEquals(Set.of("e.a1.1", "e.a3.1"), pending(db)));
        await().atMost(WAIT).untilAsserted(() -> assertEquals(5, handledFirst.size()));
      } finally {
        first.shutdownTestKit();
      }

      List<String> handledAgain = Collections.synchronizedList(new ArrayList<>());
      ActorTestKit again = db.start();
      try {
        // While the read side was down: a1's checkout was declined, a4 started one.
        write(again, "e:a1", CheckoutRecovery.tagFor("e:a1"), new Cart.PaymentDeclined("e.a1.1", "card_declined"));
        write(again, "e:a4", CheckoutRecovery.tagFor("e:a4"), started("e.a4.1"));

        Set<String> woken = ConcurrentHashMap.newKeySet();
        ReadSide readSide = db.readSide(again.system());
        again.spawn(CheckoutRecovery.sweeper(readSide, Clock.systemUTC(), Duration.ofMillis(200), Duration.ZERO, wakes(again, woken)));
        // The sweeper alone, from the table: the open checkouts of before the restart.
        await().atMost(WAIT).untilAsserted(() -> assertTrue(woken.containsAll(Set.of("e:a1", "e:a3")), woken.toString()));

        startProjections(again, readSide, handledAgain);
        await().atMost(WAIT).untilAsserted(() -> assertEquals(Set.of("e.a3.1", "e.a4.1"), pending(db)));
        await().atMost(WAIT).untilAsserted(() -> assertTrue(woken.contains("e:a4"), woken.toString()));
        assertEquals(List.of("Cart|e:a1#2", "Cart|e:a4#1"), handledAgain.stream().sorted().toList(),
            "after the restart only the events written while the read side was down are handled");
      } finally {
        again.shutdownTestKit();
      }
    }
  }

  private static Cart.CheckoutStarted started(String orderId) {
    return new Cart.CheckoutStarted(orderId, orderId, List.of(new SeatPrice("S-A-1", 1000)), 1000, "tok_visa", 0);
  }

  private static void write(ActorTestKit kit, String cartId, String tag, Object... events) {
    JournalWriter.write(kit, "Cart|" + cartId, event -> Set.of(tag), events);
  }

  /** Runs a projection per tag, as the node's sharded daemon process does, noting each envelope handled. */
  private static void startProjections(ActorTestKit kit, ReadSide readSide, List<String> handled) {
    for (String tag : CheckoutRecovery.TAGS) {
      kit.spawn(ProjectionBehavior.create(CheckoutRecovery.projection(kit.system(), readSide, tag)
          .withStatusObserver(new HandledEnvelopes<>(handled))));
    }
  }

  /** Each cart the sweeper wakes, by entity id. */
  private static Function<String, RecipientRef<Cart.Command>> wakes(ActorTestKit kit, Set<String> woken) {
    Map<String, RecipientRef<Cart.Command>> carts = new ConcurrentHashMap<>();
    return cartId -> carts.computeIfAbsent(cartId, id -> kit.spawn(
        org.apache.pekko.actor.typed.javadsl.Behaviors.<Cart.Command>receiveMessage(m -> {
          if (m instanceof Cart.Resume) woken.add(id);
          return org.apache.pekko.actor.typed.javadsl.Behaviors.same();
        })));
  }

  private static Set<String> pending(ScratchDatabase db) throws Exception {
    Set<String> orders = new HashSet<>();
    try (Connection c = db.connect(); Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SELECT order_id FROM checkout_pending"
             + " WHERE started_at IS NOT NULL AND NOT ended AND NOT (captured AND filed)")) {
      while (rs.next()) orders.add(rs.getString(1));
    }
    return orders;
  }
}
