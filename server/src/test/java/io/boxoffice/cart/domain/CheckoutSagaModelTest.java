package io.boxoffice.cart.domain;

import io.boxoffice.common.Refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The saga against a model of the world around it: a fan who checks out again and again with a
 * few keys, a processor idempotent by key, an inventory whose hold may run out, answers that
 * arrive in any order or are lost, and crashes after which the cart resumes. Whatever happens,
 * nobody is charged without a sale, nothing sold is voided, at most one checkout runs, and once
 * the world answers again every checkout ends: paid and filed, declined, or voided.
 *
 * <p>Once a hold runs out the fan here does not hold the same seats again: a second confirm of
 * the same order still in flight would then sell the new hold under the order being voided (a
 * gap of the inventory's confirm, not of these rules).
 */
class CheckoutSagaModelTest {
  static final List<PricedSeat> SEATS = List.of(new PricedSeat("F1-A-1", 10_000), new PricedSeat("F1-A-2", 5_000));

  @Test
  void randomInterleavingsNeverChargeWithoutASaleAndEveryCheckoutEnds() {
    for (int seed = 0; seed < 400; seed++) {
      World world = new World(new Random(seed));
      for (int i = 0; i < 80; i++) world.step();
      world.settle();
      world.assertEverythingEnded("seed " + seed);
    }
  }

  static final class World {
    final Random random;
    final CheckoutSaga saga = new CheckoutSaga("ev", "fan", (e, s, o) -> "code-" + o + "-" + s);
    Checkouts checkouts = Checkouts.NONE;
    final List<Action> inFlight = new ArrayList<>();
    boolean retryDue;
    boolean unreliable = true;
    // The processor, idempotent by key: what each authorize key decided, and each authorization's fate.
    final Map<String, Boolean> authorizedByKey = new HashMap<>();
    final Set<String> captured = new HashSet<>();
    final Set<String> voided = new HashSet<>();
    // The inventory: the fan's hold, and the orders it sold.
    boolean held = true;
    final Set<String> soldAtInventory = new HashSet<>();
    final Set<String> filed = new HashSet<>();

    World(Random random) {
      this.random = random;
    }

    void step() {
      int roll = random.nextInt(100);
      if (roll < 20) decide(saga.checkout(checkouts, "k" + random.nextInt(3), "tok"));
      else if (roll < 75 && !inFlight.isEmpty()) answer(inFlight.remove(random.nextInt(inFlight.size())));
      else if (roll < 82) crash();
      else if (roll < 92 && retryDue) resume();
      else if (roll < 95) held = false;
    }

    /** The world answers every call and every retry until nothing is left to do. */
    void settle() {
      unreliable = false;
      for (int i = 0; i < 10_000 && (!inFlight.isEmpty() || retryDue); i++) {
        if (inFlight.isEmpty()) resume();
        else answer(inFlight.remove(0));
      }
      assertTrue(inFlight.isEmpty() && !retryDue, "the saga settles");
    }

    void crash() {
      inFlight.clear();
      retryDue = false;
      decide(saga.resume(checkouts));
    }

    void resume() {
      retryDue = false;
      decide(saga.resume(checkouts));
    }

    boolean lost() {
      return unreliable && random.nextInt(100) < 15;
    }

    void answer(Action action) {
      if (action instanceof Action.LookUpHolds l) {
        InventoryAnswer holds = lost() ? new InventoryAnswer.NoAnswer()
            : new InventoryAnswer.Holds(held ? SEATS : List.of());
        decide(saga.holdsFound(checkouts, l.key(), l.paymentToken(), holds, 0));
      } else if (action instanceof Action.Authorize a) {
        boolean approved = authorizedByKey.computeIfAbsent(a.idempotencyKey(), k -> random.nextInt(100) < 80);
        PaymentAnswer answer = lost() ? new PaymentAnswer.NoAnswer()
            : approved ? new PaymentAnswer.Authorized("auth-" + a.orderId()) : new PaymentAnswer.Declined("declined");
        decide(saga.authorizeAnswered(checkouts, a.orderId(), answer));
      } else if (action instanceof Action.Confirm c) {
        InventoryAnswer answer;
        if (unreliable && random.nextInt(100) < 10) {
          answer = new InventoryAnswer.Refused(Refusal.BUSY, "busy", List.of());
        } else if (soldAtInventory.contains(c.orderId()) || held) {
          soldAtInventory.add(c.orderId());
          held = false;
          answer = lost() ? new InventoryAnswer.NoAnswer() : new InventoryAnswer.Confirmed(SEATS);
        } else {
          answer = new InventoryAnswer.Refused(Refusal.HOLD_EXPIRED, "expired", c.seatIds());
        }
        decide(saga.confirmAnswered(checkouts, c.orderId(), answer));
      } else if (action instanceof Action.Capture c) {
        assertNotNull(c.authorizationId(), "a capture names its authorization");
        assertTrue(soldAtInventory.contains(c.orderId()), "captured only after the sale is recorded");
        assertFalse(voided.contains(c.orderId()), "nothing voided is captured");
        captured.add(c.orderId());
        decide(saga.captureDone(checkouts, c.orderId(), !lost()));
      } else if (action instanceof Action.VoidAuthorization v) {
        assertFalse(captured.contains(v.orderId()), "nothing captured is voided");
        assertFalse(soldAtInventory.contains(v.orderId()), "no sale is voided");
        voided.add(v.orderId());
        decide(saga.voidDone(checkouts, v.orderId(), !lost()));
      } else if (action instanceof Action.FileTickets f) {
        assertFalse(f.tickets().isEmpty(), "a filed order has tickets");
        boolean ok = !lost();
        if (ok) filed.add(f.orderId());
        decide(saga.walletFiled(checkouts, f.orderId(), ok));
      }
    }

    void decide(Decision decision) {
      for (CheckoutEvent e : decision.events()) {
        Order before = checkouts.byId(e.orderId());
        checkouts = checkouts.apply(e);
        Order after = checkouts.byId(e.orderId());
        assertTrue(allowed(before == null ? null : before.step(), after.step(), before != null && after.filed() != before.filed()),
            (before == null ? "new" : before.step()) + " -> " + after.step() + " by " + e);
      }
      assertTrue(checkouts.orders().stream().filter(Order::running).count() <= 1, "at most one checkout runs");
      for (Action a : decision.actions()) {
        if (a instanceof Action.RetryLater) retryDue = true;
        else if (a instanceof Action.LookUpHolds || a instanceof Action.Authorize || a instanceof Action.Confirm
            || a instanceof Action.Capture || a instanceof Action.VoidAuthorization || a instanceof Action.FileTickets) {
          inFlight.add(a);
        }
      }
    }

    static boolean allowed(Step from, Step to, boolean filing) {
      if (filing) return from == to && (to == Step.SOLD || to == Step.CAPTURED);
      if (from == null) return to == Step.STARTED;
      return switch (from) {
        case STARTED -> to == Step.AUTHORIZED || to == Step.DECLINED || to == Step.VOIDING;
        case AUTHORIZED -> to == Step.SOLD || to == Step.VOIDING;
        case SOLD -> to == Step.CAPTURED;
        case VOIDING -> to == Step.VOIDED;
        case CAPTURED, DECLINED, VOIDED -> false;
      };
    }

    void assertEverythingEnded(String run) {
      for (Order o : checkouts.orders()) {
        String what = run + ": " + o;
        assertTrue(o.step() == Step.CAPTURED || o.step() == Step.DECLINED || o.step() == Step.VOIDED, what);
        assertEquals(o.step() == Step.CAPTURED, captured.contains(o.orderId()), what + " is paid exactly when captured");
        assertEquals(o.step() == Step.CAPTURED, soldAtInventory.contains(o.orderId()), what + " is paid exactly when sold");
        assertEquals(o.step() == Step.CAPTURED, o.filed() && filed.contains(o.orderId()), what + " is filed when paid");
        boolean authorized = Boolean.TRUE.equals(authorizedByKey.get(o.orderId() + ":authorize"));
        if (authorized && o.step() != Step.CAPTURED) assertTrue(voided.contains(o.orderId()), what + " left money set aside");
      }
    }
  }
}
