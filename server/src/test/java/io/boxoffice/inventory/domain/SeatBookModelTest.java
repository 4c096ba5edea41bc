package io.boxoffice.inventory.domain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.boxoffice.venue.domain.SeatMap;
import io.boxoffice.venue.domain.VenueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Thousands of random hold / best-available / release / confirm / scan commands at a clock
 * that moves forward, checked against a plain model of seats: no seat ever has two owners, an
 * expired hold is free, a sale needs a live hold of that account, best available returns
 * adjacent free seats in one row within the zone and price asked, and replaying the decisions
 * rebuilds the same book.
 */
class SeatBookModelTest {
  static final long HOLD = 60_000;
  static final int MAX = 4;
  static final Map<String, Integer> PRICES = Map.of("gold", 300, "silver", 200, "bronze", 100);

  static SeatMap venue() {
    List<VenueLayout.Section> sections = new ArrayList<>();
    String[] zones = {"gold", "silver", "bronze"};
    for (int s = 0; s < 6; s++) {
      List<VenueLayout.Row> rows = new ArrayList<>();
      for (int r = 0; r < 4; r++) rows.add(new VenueLayout.Row("R" + r, 3 + (s + r) % 6));
      sections.add(new VenueLayout.Section("S" + s, zones[s % 3], rows));
    }
    return SeatMap.compile(new VenueLayout("v", "Model venue", sections).validated());
  }

  /** The model: what each seat is, with nothing clever. */
  static final class Model {
    final byte[] state;
    final String[] owner;
    final long[] until;
    final String[] order;
    final long[] scanned;

    Model(int seats) {
      state = new byte[seats];
      owner = new String[seats];
      until = new long[seats];
      order = new String[seats];
      scanned = new long[seats];
    }

    boolean free(int s, long now) {
      return state[s] == SeatBook.AVAILABLE || (state[s] == SeatBook.HELD && until[s] <= now);
    }

    boolean liveHeldBy(int s, String account, long now) {
      return state[s] == SeatBook.HELD && until[s] > now && account.equals(owner[s]);
    }

    int seatsOf(String account, long now) {
      int n = 0;
      for (int s = 0; s < state.length; s++) {
        if (liveHeldBy(s, account, now) || (state[s] == SeatBook.SOLD && account.equals(owner[s]))) n++;
      }
      return n;
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 2026})
  void randomCommandsKeepEveryInvariant(long seed) {
    Random rnd = new Random(seed);
    SeatMap map = venue();
    SeatBook book = new SeatBook(map, PRICES, MAX);
    Model model = new Model(map.seatCount());
    List<Object[]> log = new ArrayList<>();
    String[] accounts = {"a", "b", "c", "d", "e", "f"};
    long now = 1_000_000;
    int orders = 0;
    int accepted = 0;

    for (int step = 0; step < 5_000; step++) {
      now += rnd.nextInt((int) (HOLD / 6));
      String account = accounts[rnd.nextInt(accounts.length)];
      if (rnd.nextBoolean()) book.expireUpTo(now);
      SeatBook.Outcome outcome;
      int op = rnd.nextInt(10);
      if (op < 3) {
        List<String> ids = randomSeats(rnd, map, 1 + rnd.nextInt(3));
        long deadline = now + HOLD + rnd.nextInt(1000);
        outcome = book.hold(account, ids, now, deadline);
        checkHold(model, map, account, ids, now, outcome);
      } else if (op < 6) {
        book.expireUpTo(now);
        int q = 1 + rnd.nextInt(3);
        String zone = rnd.nextInt(3) == 0 ? new String[] {"gold", "silver", "bronze"}[rnd.nextInt(3)] : null;
        Integer cap = rnd.nextInt(3) == 0 ? 100 + 100 * rnd.nextInt(3) : null;
        outcome = book.holdBest(account, q, cap, zone, now, now + HOLD);
        checkBest(model, map, account, q, cap, zone, now, outcome);
      } else if (op < 7) {
        List<String> ids = rnd.nextBoolean() ? null : randomSeats(rnd, map, 1 + rnd.nextInt(3));
        outcome = book.release(account, ids);
        checkRelease(model, map, account, ids, now, outcome);
      } else if (op < 9) {
        List<String> ids = new ArrayList<>();
        for (int s = 0; s < map.seatCount(); s++) if (model.state[s] == SeatBook.HELD && account.equals(model.owner[s])) ids.add(map.seatId(s));
        if (ids.isEmpty() || rnd.nextInt(5) == 0) ids = randomSeats(rnd, map, 1 + rnd.nextInt(2));
        String orderId = "o" + (++orders);
        outcome = book.confirm(account, orderId, ids, now);
        checkConfirm(model, map, account, ids, now, outcome);
      } else {
        int s = rnd.nextInt(map.seatCount());
        String orderId = model.order[s] != null && rnd.nextInt(4) > 0 ? model.order[s] : "o-unknown";
        outcome = book.scan(map.seatId(s), orderId, now);
        if (model.state[s] != SeatBook.SOLD || !orderId.equals(model.order[s])) assertEquals(new SeatBook.NotSold(), outcome);
        else if (model.scanned[s] != 0) assertEquals(new SeatBook.AlreadyScanned(model.scanned[s]), outcome);
        else assertInstanceOf(SeatBook.Accepted.class, outcome);
      }
      if (outcome instanceof SeatBook.Accepted a) {
        accepted++;
        book.apply(a.decision());
        applyToModel(model, a.decision());
        log.add(new Object[] {now, a.decision()});
      }
      checkSameSeats(model, book, map, now);
    }
    assertTrue(accepted > 1_000, "the run exercised too few state changes: " + accepted);

    // Replay, as recovery does: each batch expires at its instant, then applies its decisions.
    SeatBook replayed = new SeatBook(map, PRICES, MAX);
    for (Object[] entry : log) {
      replayed.expireUpTo((Long) entry[0]);
      replayed.apply((Decision) entry[1]);
    }
    assertArrayEquals(book.availabilityBits(now), replayed.availabilityBits(now));
    SeatBook restored = SeatBook.fromSnapshot(map, PRICES, MAX, book.toSnapshot());
    assertArrayEquals(book.availabilityBits(now), restored.availabilityBits(now));
    for (String a : accounts) assertEquals(book.seatsOf(a, now), restored.seatsOf(a, now));
  }

  static List<String> randomSeats(Random rnd, SeatMap map, int n) {
    Set<String> ids = new LinkedHashSet<>();
    while (ids.size() < n) ids.add(map.seatId(rnd.nextInt(map.seatCount())));
    return new ArrayList<>(ids);
  }

  static void checkHold(Model m, SeatMap map, String account, List<String> ids, long now, SeatBook.Outcome outcome) {
    boolean taken = ids.stream().anyMatch(id -> !m.free(map.indexOf(id), now));
    if (taken) {
      assertInstanceOf(SeatBook.SeatsTaken.class, outcome);
    } else if (m.seatsOf(account, now) + ids.size() > MAX) {
      assertEquals(new SeatBook.LimitExceeded(MAX), outcome);
    } else {
      assertInstanceOf(SeatBook.Accepted.class, outcome);
    }
  }

  static void checkBest(Model m, SeatMap map, String account, int q, Integer cap, String zone, long now, SeatBook.Outcome outcome) {
    if (m.seatsOf(account, now) + q > MAX) {
      assertEquals(new SeatBook.LimitExceeded(MAX), outcome);
      return;
    }
    boolean anyRun = false;
    boolean anyCleanRun = false;
    for (int r = 0; r < map.rowCount(); r++) {
      String z = map.zones().get(map.rowZone(r));
      if ((zone != null && !zone.equals(z)) || (cap != null && PRICES.get(z) > cap)) continue;
      int run = 0;
      for (int s = map.rowStart(r); s <= map.rowStart(r) + map.rowLength(r); s++) {
        if (s < map.rowStart(r) + map.rowLength(r) && m.free(s, now)) {
          run++;
        } else {
          anyRun |= run >= q;
          anyCleanRun |= run == q || run >= q + 2;
          run = 0;
        }
      }
    }
    if (!(outcome instanceof SeatBook.Accepted a)) {
      assertEquals(new SeatBook.NoSeats(), outcome);
      assertFalse(anyRun, "best available found nothing although a run of " + q + " was free");
      return;
    }
    int[] seats = ((Decision.Held) a.decision()).seats();
    assertEquals(q, seats.length);
    int row = map.rowOf(seats[0]);
    String z = map.zones().get(map.rowZone(row));
    assertTrue(zone == null || zone.equals(z));
    assertTrue(cap == null || PRICES.get(z) <= cap);
    for (int i = 0; i < q; i++) {
      assertEquals(seats[0] + i, seats[i], "not adjacent");
      assertEquals(row, map.rowOf(seats[i]), "not one row");
      assertTrue(m.free(seats[i], now), "not free");
    }
    if (anyCleanRun) {
      int left = seats[0] - 1;
      int right = seats[q - 1] + 1;
      boolean loneLeft = left >= map.rowStart(row) && m.free(left, now)
          && (left - 1 < map.rowStart(row) || !m.free(left - 1, now));
      int rowEnd = map.rowStart(row) + map.rowLength(row);
      boolean loneRight = right < rowEnd && m.free(right, now) && (right + 1 >= rowEnd || !m.free(right + 1, now));
      assertFalse(loneLeft || loneRight, "left a lone seat although a clean choice existed");
    }
  }

  /** Every live hold asked for is given back; a hold already past its deadline may be given back or not, as nothing sees it. */
  static void checkRelease(Model m, SeatMap map, String account, List<String> ids, long now, SeatBook.Outcome outcome) {
    Set<Integer> mustGo = new java.util.HashSet<>();
    Set<Integer> mayGo = new java.util.HashSet<>();
    for (int s = 0; s < map.seatCount(); s++) {
      boolean asked = ids == null || ids.contains(map.seatId(s));
      if (asked && m.state[s] == SeatBook.HELD && account.equals(m.owner[s])) {
        mayGo.add(s);
        if (m.until[s] > now) mustGo.add(s);
      }
    }
    if (outcome instanceof SeatBook.Unchanged) {
      assertTrue(mustGo.isEmpty(), "live holds were not released");
      return;
    }
    Set<Integer> got = new java.util.HashSet<>();
    for (int s : ((Decision.Released) ((SeatBook.Accepted) outcome).decision()).seats()) got.add(s);
    assertTrue(got.containsAll(mustGo), "a live hold was not released");
    assertTrue(mayGo.containsAll(got), "released a seat the account did not hold");
  }

  static void checkConfirm(Model m, SeatMap map, String account, List<String> ids, long now, SeatBook.Outcome outcome) {
    boolean allLive = ids.stream().allMatch(id -> m.liveHeldBy(map.indexOf(id), account, now));
    if (allLive) {
      assertInstanceOf(Decision.Sold.class, assertInstanceOf(SeatBook.Accepted.class, outcome).decision());
    } else if (!(outcome instanceof SeatBook.HoldExpired)
        && !(outcome instanceof SeatBook.Accepted a && a.decision() instanceof Decision.Refused)) {
      fail("a sale without a live hold of that account: " + outcome);
    }
  }

  static void applyToModel(Model m, Decision d) {
    if (d instanceof Decision.Held h) {
      for (int s : h.seats()) {
        assertTrue(m.state[s] != SeatBook.SOLD, "a sold seat was held");
        m.state[s] = SeatBook.HELD;
        m.owner[s] = h.account();
        m.until[s] = h.until();
      }
    } else if (d instanceof Decision.Released r) {
      for (int s : r.seats()) {
        m.state[s] = SeatBook.AVAILABLE;
        m.owner[s] = null;
      }
    } else if (d instanceof Decision.Sold sale) {
      for (int s : sale.seats()) {
        assertTrue(m.state[s] == SeatBook.HELD && sale.account().equals(m.owner[s]), "sold without that account's hold");
        m.state[s] = SeatBook.SOLD;
        m.order[s] = sale.orderId();
      }
    } else if (d instanceof Decision.Scanned sc) {
      m.scanned[sc.seat()] = sc.at();
    }
  }

  static void checkSameSeats(Model m, SeatBook book, SeatMap map, long now) {
    for (int s = 0; s < map.seatCount(); s++) {
      byte expected = m.free(s, now) ? SeatBook.AVAILABLE : m.state[s];
      assertEquals(expected, book.effectiveStatus(s, now), "seat " + map.seatId(s));
      if (expected == SeatBook.SOLD) {
        assertEquals(m.owner[s], book.ownerOf(s));
        assertEquals(m.order[s], book.orderOf(s));
      }
    }
  }
}
