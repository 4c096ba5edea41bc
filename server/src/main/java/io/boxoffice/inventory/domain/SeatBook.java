package io.boxoffice.inventory.domain;

import io.boxoffice.common.Refusal;
import io.boxoffice.venue.domain.SeatMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Every seat of one event: available, held by an account until a deadline, or sold under an
 * order. It decides commands ({@code hold}, {@code holdBest}, {@code release}, {@code confirm},
 * {@code scan}) against a given instant and answers with a {@link Decision} to apply, or a
 * rejection; {@link #apply} evolves the state and is the only mutator besides
 * {@link #expireUpTo}. It knows nothing of actors or clocks.
 *
 * <p>Expiry is lazy: a hold whose deadline has passed counts as available to every decision.
 * {@link #expireUpTo} turns such holds back into available seats in the index, and is called
 * with the batch instant before the decisions of that batch are applied, so replay rebuilds
 * exactly the same state.
 *
 * <p>Why one file of this size: the seats are a handful of parallel primitive arrays (status,
 * owner, deadline, order) and the best-available index over them ({@link RunIndex}); every
 * command reads and writes the same arrays, so splitting the commands apart would only spread
 * the arrays' invariants over several classes.
 */
public final class SeatBook {
  public static final byte AVAILABLE = 0;
  public static final byte HELD = 1;
  public static final byte SOLD = 2;

  private final SeatMap map;
  private final int[] zonePrice;
  private final int maxPerAccount;
  private final int[] zoneRank;
  private final int[] zoneFrom;
  private final int[] zoneTo;

  private final byte[] status;
  private final long[] until;
  private final int[] owner;
  private final int[] order;
  private final long[] scannedAt;
  private final List<String> accounts = new ArrayList<>();
  private final Map<String, Integer> accountIndex = new HashMap<>();
  private final List<String> orders = new ArrayList<>();
  private final Map<String, Integer> orderIndex = new HashMap<>();
  private final Set<String> refusedOrders = new HashSet<>();
  private final Map<Integer, List<Integer>> heldByAccount = new HashMap<>();
  private int[] soldByAccount = new int[64];
  private final PriorityQueue<long[]> expiries = new PriorityQueue<>(Comparator.comparingLong(e -> e[0]));
  private final RunIndex runs;
  private long lastExpiry = Long.MIN_VALUE;

  /** A rejection or a decision, as {@code hold}, {@code confirm} and friends answer. */
  public sealed interface Outcome {}
  /** The command changes state: apply and persist this decision. */
  public record Accepted(Decision decision) implements Outcome {}
  /** A rejection: the refusal the fan is told, why in words, and the seats it is about (if any). */
  public sealed interface Refused extends Outcome {
    Refusal refusal();
    String message();
    default List<String> seatIds() {
      return List.of();
    }
  }
  /** Some requested seats are held or sold by others (or already held by this account). */
  public record SeatsTaken(List<String> seatIds) implements Refused {
    public Refusal refusal() { return Refusal.SEATS_TAKEN; }
    public String message() { return "some seats are taken"; }
  }
  /** Seat ids this venue does not have. */
  public record UnknownSeats(List<String> seatIds) implements Refused {
    public Refusal refusal() { return Refusal.UNKNOWN_SEATS; }
    public String message() { return "no such seats at this event"; }
  }
  /** No adjacent seats in one row fit the request. */
  public record NoSeats() implements Refused {
    public Refusal refusal() { return Refusal.NO_SEATS; }
    public String message() { return "no adjacent seats fit the request"; }
  }
  /** The account would have more than the per-account cap of held and bought seats. */
  public record LimitExceeded(int max) implements Refused {
    public Refusal refusal() { return Refusal.LIMIT_EXCEEDED; }
    public String message() { return "at most " + max + " seats per account"; }
  }
  /** A confirm found a seat not held by this account any more (expired, released or never held). */
  public record HoldExpired(List<String> seatIds) implements Refused {
    public Refusal refusal() { return Refusal.HOLD_EXPIRED; }
    public String message() { return "the hold has expired"; }
  }
  /** The order already bought exactly these seats: a repeated confirm, nothing to change. */
  public record AlreadySold() implements Outcome {}
  /** The ticket's seat was admitted before, at {@code at} epoch ms. */
  public record AlreadyScanned(long at) implements Outcome {}
  /** The seat is not sold under that order. */
  public record NotSold() implements Refused {
    public Refusal refusal() { return Refusal.INVALID; }
    public String message() { return "no such ticket"; }
  }
  /** Nothing to change (a release of seats the account does not hold). */
  public record Unchanged() implements Outcome {}

  public SeatBook(SeatMap map, Map<String, Integer> pricesByZone, int maxPerAccount) {
    this.map = map;
    this.maxPerAccount = maxPerAccount;
    int zones = map.zones().size();
    zonePrice = new int[zones];
    for (int z = 0; z < zones; z++) {
      Integer price = pricesByZone.get(map.zones().get(z));
      if (price == null) throw new IllegalArgumentException("no price for zone " + map.zones().get(z));
      zonePrice[z] = price;
    }
    // Better zones first: dearer zones rank higher, ties keep the layout's order.
    Integer[] byRank = IntStream.range(0, zones).boxed().toArray(Integer[]::new);
    Arrays.sort(byRank, Comparator.<Integer>comparingInt(z -> -zonePrice[z]).thenComparingInt(z -> z));
    zoneRank = new int[zones];
    for (int r = 0; r < zones; r++) zoneRank[byRank[r]] = r;
    // Rows in quality order: zone rank, then row position in its section (front rows first),
    // then the section's order in the layout.
    Integer[] rows = IntStream.range(0, map.rowCount()).boxed().toArray(Integer[]::new);
    Arrays.sort(rows, Comparator.<Integer>comparingInt(r -> zoneRank[map.rowZone(r)])
        .thenComparingInt(map::rowPositionInSection)
        .thenComparingInt(map::rowSection));
    int[] rowAtPosition = Arrays.stream(rows).mapToInt(Integer::intValue).toArray();
    zoneFrom = new int[zones];
    zoneTo = new int[zones];
    Arrays.fill(zoneFrom, -1);
    for (int p = 0; p < rowAtPosition.length; p++) {
      int z = map.rowZone(rowAtPosition[p]);
      if (zoneFrom[z] < 0) zoneFrom[z] = p;
      zoneTo[z] = p + 1;
    }
    int seats = map.seatCount();
    status = new byte[seats];
    until = new long[seats];
    owner = new int[seats];
    order = new int[seats];
    scannedAt = new long[seats];
    Arrays.fill(owner, -1);
    Arrays.fill(order, -1);
    runs = new RunIndex(map, rowAtPosition, maxPerAccount + 2);
    for (int r = 0; r < map.rowCount(); r++) runs.recompute(r, status);
  }

  public SeatMap map() { return map; }
  public int maxPerAccount() { return maxPerAccount; }
  public int priceOf(int seat) { return zonePrice[map.zoneOf(seat)]; }

  /** The seat's state as every decision at {@code now} sees it: an expired hold is available. */
  public byte effectiveStatus(int seat, long now) {
    byte s = status[seat];
    return s == HELD && until[seat] <= now ? AVAILABLE : s;
  }

  public long holdUntil(int seat) { return until[seat]; }

  public String ownerOf(int seat) { return owner[seat] < 0 ? null : accounts.get(owner[seat]); }

  public String orderOf(int seat) { return order[seat] < 0 ? null : orders.get(order[seat]); }

  public long scannedAt(int seat) { return scannedAt[seat]; }

  // ---- decisions -------------------------------------------------------------------------

  /** Hold exactly these seats for the account until {@code deadline}: all or nothing. */
  public Outcome hold(String account, List<String> seatIds, long now, long deadline) {
    List<String> unknown = new ArrayList<>();
    int[] seats = new int[seatIds.size()];
    for (int i = 0; i < seats.length; i++) {
      seats[i] = map.indexOf(seatIds.get(i));
      if (seats[i] < 0) unknown.add(seatIds.get(i));
    }
    if (!unknown.isEmpty()) return new UnknownSeats(unknown);
    seats = Arrays.stream(seats).distinct().toArray();
    List<String> taken = new ArrayList<>();
    for (int s : seats) if (effectiveStatus(s, now) != AVAILABLE) taken.add(map.seatId(s));
    if (!taken.isEmpty()) return new SeatsTaken(taken);
    if (seatsOf(account, now) + seats.length > maxPerAccount) return new LimitExceeded(maxPerAccount);
    return new Accepted(new Decision.Held(account, seats, deadline));
  }

  /**
   * Hold the best {@code quantity} adjacent seats in one row: better zones and rows first,
   * within the price cap and zone when given, and never leaving a lone empty seat beside them
   * when another choice exists. The search sees the index as of the last {@link #expireUpTo}:
   * call that with {@code now} first, or holds that expired since are not offered (never the
   * other way round).
   */
  public Outcome holdBest(String account, int quantity, Integer maxPriceCents, String zone, long now, long deadline) {
    if (quantity < 1) throw new IllegalArgumentException("quantity must be at least 1");
    if (seatsOf(account, now) + quantity > maxPerAccount) return new LimitExceeded(maxPerAccount);
    int[] seats = findBest(quantity, maxPriceCents, zone);
    return seats == null ? new NoSeats() : new Accepted(new Decision.Held(account, seats, deadline));
  }

  /** The best seats for the request as the search picks them, or null; changes nothing. */
  int[] findBest(int quantity, Integer maxPriceCents, String zone) {
    if (quantity > runs.maxRun() - 2) return null;
    int[] allowed = allowedZonesByRank(maxPriceCents, zone);
    for (int z : allowed) {
      int exact = runs.firstExactly(quantity, zoneFrom[z], zoneTo[z]);
      int roomy = runs.firstAtLeast(quantity + 2, zoneFrom[z], zoneTo[z]);
      int p = exact < 0 ? roomy : roomy < 0 ? exact : Math.min(exact, roomy);
      if (p >= 0) return place(runs.rowAt(p), quantity, false);
    }
    for (int z : allowed) {
      int p = runs.firstAtLeast(quantity, zoneFrom[z], zoneTo[z]);
      if (p >= 0) return place(runs.rowAt(p), quantity, true);
    }
    return null;
  }

  private int[] allowedZonesByRank(Integer maxPriceCents, String zone) {
    int zones = zonePrice.length;
    int[] out = new int[zones];
    int n = 0;
    for (int rank = 0; rank < zones; rank++) {
      for (int z = 0; z < zones; z++) {
        if (zoneRank[z] != rank) continue;
        if (zone != null && !zone.equals(map.zones().get(z))) continue;
        if (maxPriceCents != null && zonePrice[z] > maxPriceCents) continue;
        if (zoneFrom[z] < 0) continue;
        out[n++] = z;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /**
   * Where in the row: as close to the row's middle as possible, in a free run, without leaving
   * a single free seat on either side unless {@code loneAllowed}.
   */
  private int[] place(int row, int quantity, boolean loneAllowed) {
    int start = map.rowStart(row);
    int end = start + map.rowLength(row);
    double middle = start + (map.rowLength(row) - 1) / 2.0;
    int bestFrom = -1;
    double bestDistance = Double.MAX_VALUE;
    int runStart = -1;
    for (int s = start; s <= end; s++) {
      boolean free = s < end && status[s] == AVAILABLE;
      if (free && runStart < 0) runStart = s;
      if (!free && runStart >= 0) {
        int slack = s - runStart - quantity;
        if (slack >= 0) {
          int ideal = (int) Math.round(middle - (quantity - 1) / 2.0) - runStart;
          int offset = nearestOffset(Math.max(0, Math.min(slack, ideal)), slack, loneAllowed);
          if (offset >= 0) {
            double d = Math.abs(runStart + offset + (quantity - 1) / 2.0 - middle);
            if (d < bestDistance) {
              bestDistance = d;
              bestFrom = runStart + offset;
            }
          }
        }
        runStart = -1;
      }
    }
    if (bestFrom < 0) return null;
    int[] seats = new int[quantity];
    for (int i = 0; i < quantity; i++) seats[i] = bestFrom + i;
    return seats;
  }

  /**
   * The offset nearest {@code ideal} in [0, slack] whose gaps on both sides are 0 or at least 2;
   * -1 if none. Offsets whose gaps are both even come first: pairs, the most common request,
   * can later fill such gaps exactly, where odd gaps would each strand a seat in the end.
   */
  private static int nearestOffset(int ideal, int slack, boolean loneAllowed) {
    for (boolean evenGaps : new boolean[] {true, false}) {
      for (int delta = 0; delta <= slack; delta++) {
        for (int o : new int[] {ideal - delta, ideal + delta}) {
          if (o < 0 || o > slack) continue;
          int right = slack - o;
          if (evenGaps && (o % 2 != 0 || right % 2 != 0)) continue;
          if (loneAllowed || ((o == 0 || o >= 2) && (right == 0 || right >= 2))) return o;
        }
      }
    }
    return -1;
  }

  /**
   * Give back the account's holds among these seats (all its holds when null). A hold whose
   * deadline passed but that no batch has expired yet is given back too: it changes nothing a
   * decision sees, and brings the seat back into the best-available index at once.
   */
  public Outcome release(String account, List<String> seatIds) {
    Integer a = accountIndex.get(account);
    if (a == null) return new Unchanged();
    int[] seats;
    if (seatIds == null) {
      seats = heldByAccount.getOrDefault(a, List.of()).stream().mapToInt(Integer::intValue).sorted().toArray();
    } else {
      seats = seatIds.stream().mapToInt(map::indexOf)
          .filter(s -> s >= 0 && status[s] == HELD && owner[s] == a).distinct().toArray();
    }
    return seats.length == 0 ? new Unchanged() : new Accepted(new Decision.Released(account, seats));
  }

  /**
   * Give back the account's holds among these seats whose deadline is at or before both
   * {@code deadline} and {@code now}: what the cart's timer asks once a hold it knows of has run
   * out. A hold extended since (fault time) or made again runs past {@code deadline} and stays;
   * a sold seat is not held and stays sold. Decide it before {@link #expireUpTo} of the same
   * instant, which would otherwise have dropped the evidence that this account held the seat.
   */
  public Outcome releaseExpired(String account, List<String> seatIds, long deadline, long now) {
    Integer a = accountIndex.get(account);
    if (a == null) return new Unchanged();
    long upTo = Math.min(deadline, now);
    int[] seats = seatIds.stream().mapToInt(map::indexOf)
        .filter(s -> s >= 0 && status[s] == HELD && owner[s] == a && until[s] <= upTo).distinct().sorted().toArray();
    return seats.length == 0 ? new Unchanged() : new Accepted(new Decision.Released(account, seats));
  }

  /**
   * Of these seats, those the account neither holds (live or lapsed) nor bought: given back by
   * an earlier batch's lazy expiry or a release, or taken by someone else since.
   */
  public List<String> notHeldBy(String account, List<String> seatIds) {
    Integer a = accountIndex.get(account);
    List<String> out = new ArrayList<>();
    for (String id : seatIds) {
      int s = map.indexOf(id);
      if (s < 0) continue;
      boolean ours = a != null && owner[s] == a && (status[s] == HELD || status[s] == SOLD);
      if (!ours) out.add(id);
    }
    return out;
  }

  /**
   * Turn the account's live holds on these seats into a sale under the order: only if every
   * seat is still held by this account and its deadline has not passed at {@code now}. The
   * first confirm that finds a seat lost refuses the order for good ({@link Decision.Refused}):
   * its checkout voids the payment, and a repeat of that confirm must not find the same seats
   * held again by the same fan (a new hold, meant for a new checkout) and sell them under it.
   */
  public Outcome confirm(String account, String orderId, List<String> seatIds, long now) {
    Integer a = accountIndex.get(account);
    Integer o = orderIndex.get(orderId);
    if (o == null && refusedOrders.contains(orderId)) return new HoldExpired(List.copyOf(seatIds));
    int[] seats = new int[seatIds.size()];
    List<String> lost = new ArrayList<>();
    boolean allSoldToOrder = o != null && !seatIds.isEmpty();
    for (int i = 0; i < seats.length; i++) {
      int s = map.indexOf(seatIds.get(i));
      seats[i] = s;
      if (s < 0) {
        lost.add(seatIds.get(i));
        allSoldToOrder = false;
        continue;
      }
      boolean soldToOrder = o != null && status[s] == SOLD && order[s] == o;
      allSoldToOrder &= soldToOrder;
      boolean liveHold = a != null && effectiveStatus(s, now) == HELD && owner[s] == a;
      if (!liveHold) lost.add(seatIds.get(i));
    }
    if (allSoldToOrder) return new AlreadySold();
    if (seats.length == 0) return new HoldExpired(lost);
    if (!lost.isEmpty()) return new Accepted(new Decision.Refused(account, orderId, List.copyOf(lost)));
    return new Accepted(new Decision.Sold(account, orderId, seats));
  }

  /** Admit the ticket of a seat sold under the order, once. */
  public Outcome scan(String seatId, String orderId, long now) {
    int s = map.indexOf(seatId);
    Integer o = orderIndex.get(orderId);
    if (s < 0 || o == null || status[s] != SOLD || order[s] != o) return new NotSold();
    if (scannedAt[s] != 0) return new AlreadyScanned(scannedAt[s]);
    return new Accepted(new Decision.Scanned(s, now));
  }

  /** Seats the account holds live at {@code now}, in seat-map order. */
  public int[] liveHolds(String account, long now) {
    Integer a = accountIndex.get(account);
    if (a == null) return new int[0];
    return heldByAccount.getOrDefault(a, List.of()).stream().mapToInt(Integer::intValue)
        .filter(s -> effectiveStatus(s, now) == HELD && owner[s] == a).sorted().toArray();
  }

  /** Live holds plus seats bought: what counts against the per-account cap. */
  public int seatsOf(String account, long now) {
    Integer a = accountIndex.get(account);
    if (a == null) return 0;
    return liveHolds(account, now).length + soldByAccount[a];
  }

  /** Whether any hold is still live at {@code now}. */
  public boolean hasLiveHolds(long now) {
    for (List<Integer> seats : heldByAccount.values()) {
      for (int s : seats) if (status[s] == HELD && until[s] > now) return true;
    }
    return false;
  }

  // ---- evolution -------------------------------------------------------------------------

  /** Every hold still live at {@code liveAt} gets {@code byMillis} more (time the platform was down). */
  public void extendHolds(long liveAt, long byMillis) {
    for (List<Integer> seats : heldByAccount.values()) {
      for (int s : seats) {
        if (status[s] == HELD && until[s] > liveAt) {
          until[s] += byMillis;
          expiries.add(new long[] {until[s], s});
        }
      }
    }
  }

  /** Turn every hold whose deadline is at or before {@code now} back into an available seat. */
  public void expireUpTo(long now) {
    if (now < lastExpiry) return;
    lastExpiry = now;
    long[] next;
    while ((next = expiries.peek()) != null && next[0] <= now) {
      expiries.poll();
      int s = (int) next[1];
      if (status[s] == HELD && until[s] == next[0]) {
        dropHold(s);
        status[s] = AVAILABLE;
        runs.recompute(map.rowOf(s), status);
      }
    }
  }

  public void apply(Decision decision) {
    if (decision instanceof Decision.Held h) {
      int a = accountIndex(h.account());
      for (int s : h.seats()) {
        if (status[s] == HELD) dropHold(s);
        status[s] = HELD;
        until[s] = h.until();
        owner[s] = a;
        heldByAccount.computeIfAbsent(a, k -> new ArrayList<>()).add(s);
        expiries.add(new long[] {h.until(), s});
      }
      recomputeRows(h.seats());
    } else if (decision instanceof Decision.Released r) {
      Integer a = accountIndex.get(r.account());
      for (int s : r.seats()) {
        if (status[s] == HELD && a != null && owner[s] == a) {
          dropHold(s);
          status[s] = AVAILABLE;
        }
      }
      recomputeRows(r.seats());
    } else if (decision instanceof Decision.Sold sale) {
      int a = accountIndex(sale.account());
      int o = orders.size();
      orders.add(sale.orderId());
      orderIndex.put(sale.orderId(), o);
      for (int s : sale.seats()) {
        if (status[s] == HELD) dropHold(s);
        status[s] = SOLD;
        owner[s] = a;
        order[s] = o;
        soldByAccount[a]++;
      }
      recomputeRows(sale.seats());
    } else if (decision instanceof Decision.Scanned sc) {
      scannedAt[sc.seat()] = sc.at();
    } else if (decision instanceof Decision.Refused r) {
      refusedOrders.add(r.orderId());
    }
  }

  private void dropHold(int seat) {
    List<Integer> held = heldByAccount.get(owner[seat]);
    if (held != null) {
      held.remove(Integer.valueOf(seat));
      if (held.isEmpty()) heldByAccount.remove(owner[seat]);
    }
    owner[seat] = -1;
  }

  private void recomputeRows(int[] seats) {
    int last = -1;
    for (int s : seats) {
      int row = map.rowOf(s);
      if (row != last) runs.recompute(row, status);
      last = row;
    }
  }

  private int accountIndex(String account) {
    Integer a = accountIndex.get(account);
    if (a != null) return a;
    int i = accounts.size();
    accounts.add(account);
    accountIndex.put(account, i);
    if (i >= soldByAccount.length) soldByAccount = Arrays.copyOf(soldByAccount, soldByAccount.length * 2);
    return i;
  }

  // ---- read models -----------------------------------------------------------------------

  /** Seat counts as decisions at {@code now} see them: {available, held, sold}. */
  public int[] counts(long now) {
    int[] c = new int[3];
    for (int s = 0; s < status.length; s++) c[effectiveStatus(s, now)]++;
    return c;
  }

  /** 2 bits a seat in seat-map order, 4 seats a byte, first seat in the high bits: 0 available, 1 held, 2 sold. */
  public byte[] availabilityBits(long now) {
    byte[] out = new byte[(status.length + 3) / 4];
    for (int s = 0; s < status.length; s++) {
      out[s >> 2] |= (byte) (effectiveStatus(s, now) << (6 - 2 * (s & 3)));
    }
    return out;
  }

  /** Number of distinct orders recorded. */
  public int orderCount() { return orders.size(); }

  // ---- snapshots -------------------------------------------------------------------------

  /**
   * The whole book as plain arrays, for a journal snapshot. {@code refusedOrders} is null in
   * snapshots written before orders could be refused.
   */
  public record Snapshot(byte[] status, long[] until, int[] owner, int[] order, long[] scannedAt,
                         List<String> accounts, List<String> orders, long lastExpiry, List<String> refusedOrders) {
    public Snapshot(byte[] status, long[] until, int[] owner, int[] order, long[] scannedAt,
                    List<String> accounts, List<String> orders, long lastExpiry) {
      this(status, until, owner, order, scannedAt, accounts, orders, lastExpiry, null);
    }
  }

  public Snapshot toSnapshot() {
    return new Snapshot(status.clone(), until.clone(), owner.clone(), order.clone(), scannedAt.clone(),
        List.copyOf(accounts), List.copyOf(orders), lastExpiry, refusedOrders.stream().sorted().toList());
  }

  public static SeatBook fromSnapshot(SeatMap map, Map<String, Integer> prices, int maxPerAccount, Snapshot snap) {
    SeatBook book = new SeatBook(map, prices, maxPerAccount);
    if (snap.status().length != map.seatCount()) throw new IllegalArgumentException("snapshot does not fit the venue");
    for (String a : snap.accounts()) book.accountIndex(a);
    for (String o : snap.orders()) {
      book.orderIndex.put(o, book.orders.size());
      book.orders.add(o);
    }
    System.arraycopy(snap.status(), 0, book.status, 0, book.status.length);
    System.arraycopy(snap.until(), 0, book.until, 0, book.until.length);
    System.arraycopy(snap.owner(), 0, book.owner, 0, book.owner.length);
    System.arraycopy(snap.order(), 0, book.order, 0, book.order.length);
    System.arraycopy(snap.scannedAt(), 0, book.scannedAt, 0, book.scannedAt.length);
    book.lastExpiry = snap.lastExpiry();
    if (snap.refusedOrders() != null) book.refusedOrders.addAll(snap.refusedOrders());
    for (int s = 0; s < book.status.length; s++) {
      if (book.status[s] == HELD) {
        book.heldByAccount.computeIfAbsent(book.owner[s], k -> new ArrayList<>()).add(s);
        book.expiries.add(new long[] {book.until[s], s});
      } else if (book.status[s] == SOLD) {
        book.soldByAccount[book.owner[s]]++;
      }
    }
    for (int r = 0; r < map.rowCount(); r++) book.runs.recompute(r, book.status);
    return book;
  }
}
