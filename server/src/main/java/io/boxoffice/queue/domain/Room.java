package io.boxoffice.queue.domain;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The rules of one event's waiting room: who may define, open, schedule, pause or re-rate it,
 * which lobby index or later place a joining account gets, who gives a place up and who may
 * take it back, how far a tick moves the line (at the admission rate, within the cap on active
 * shoppers, skipping places given up), and what counts as an active shopper. It decides against
 * the recorded {@link RoomState} and a given instant; what it keeps itself is what the room
 * never writes down (lobby joins since the last count, places bought or arrived, the shopping
 * window, the seat counts), so a restart loses only that. Every index and place it gives and
 * every place given up is written before anyone hears of it, so a restart adds no place and
 * forgets no leaver: places stay dense (invariant 12). It knows nothing of actors or clocks.
 *
 * <p>Decisions that change the record answer an {@link Outcome} (or a {@link Tick}); the caller
 * persists the matching events. The other commands only change what the room keeps in memory.
 *
 * <p>Why one file of this size: every rule here reads and changes the same record and the same
 * in-memory counts; the pieces that stand alone are out already ({@link JoinPolicy},
 * {@link ShopperWindow}, {@link Phase}).
 */
public final class Room {
  /** Lobby join indices reserved per write. */
  public static final long LOBBY_BLOCK = 1_000;
  /** Places an edge node may lease at once. */
  public static final int MAX_LEASE = 100_000;
  /** The longest stretch one tick moves the line for: after an outage the line resumes at its rate, it does not pour out the time it was down. */
  static final long MAX_STEP_MS = 5_000;
  /** How long after a shopping window ends its admissions and released places are remembered. */
  static final long GRACE_MS = 60_000;

  /** What a command comes to. */
  public sealed interface Outcome {}

  /** Refused: nothing changes, the caller replies the refusal. */
  public record Refused(Refusal refusal) implements Outcome {}

  /** Allowed, and nothing to record: the command asks for what is already so. */
  public record Unchanged() implements Outcome {}

  /** Allowed: record the command's events. */
  public record Accepted() implements Outcome {}

  /** The account's lobby index: record that indices were given up to it before the account is told. */
  public record LobbyIndexGiven(long index) implements Outcome {}

  /** A later place, behind everyone before: record that places were given up to it before the account is told. */
  public record PlaceGiven(long place) implements Outcome {}

  /** A place is given up: record it (the lobby index before the start, else the place; the other is 0). */
  public record GivenUp(long lobbyIndex, long place) implements Outcome {}

  /** A place given up is taken back before the line passed it: record it (as {@link GivenUp}). */
  public record TakenBack(long lobbyIndex, long place) implements Outcome {}

  /** Later places [{@code from}, {@code to}] for an edge node: record that the lease reaches {@code to}. */
  public record PlacesLeased(long from, long to) implements Outcome {}

  /** What a tick records, in this order: the lobby's new count, the start of the sale, the line's new position. */
  public record Tick(OptionalLong lobbyCounted, Optional<Start> start, OptionalLong admittedUpTo) {
    static final Tick NOTHING = new Tick(OptionalLong.empty(), Optional.empty(), OptionalLong.empty());
  }

  /** The sale starts: the lottery's salt and the cohort (every lobby index that may have been given). */
  public record Start(String salt, long cohortSize) {}

  private static final Outcome UNCHANGED = new Unchanged();
  private static final Outcome ACCEPTED = new Accepted();

  private final Duration shoppingWindow;
  private final Supplier<String> salts;
  private final ShopperWindow shoppers;
  /** Lobby entries (joins minus leaves) counted since the last write. */
  private long lobbyDelta;
  /** The next lobby index to give; 0 until this incarnation gives its first (then it starts after the reservation). */
  private long nextLobbyIndex;
  /** The next later place to give; 0 until this incarnation gives its first (then it starts after what was recorded). */
  private long nextPlace;
  /** The highest later place an edge node of an older build says it handed out from its lease. */
  private long highestAssigned;
  /** Places whose fans bought: still admitted in their window, no longer counted as active shoppers. */
  private final TreeSet<Long> boughtPlaces = new TreeSet<>();
  /** Admitted places whose fans came to shop (held seats): they count for their whole window. */
  private final TreeSet<Long> arrivedPlaces = new TreeSet<>();
  /** Where the line stands between writes (the fraction earned and when it last moved); null until the first tick after the start. */
  private AdmissionControl.Line line;
  private Seats seats = Seats.UNKNOWN;

  /** Every admitted place counts as a shopper for its whole window, whether its fan comes or not. */
  public Room(Duration shoppingWindow, Supplier<String> salts) {
    this(shoppingWindow, shoppingWindow, salts);
  }

  /**
   * An admitted place counts as a shopper for {@code arrivalWindow}; after that only if its fan
   * arrived ({@link #arrived}). {@code salts} draws the lottery's salt at the start
   * ({@link Lottery#drawSalt} outside tests).
   */
  public Room(Duration shoppingWindow, Duration arrivalWindow, Supplier<String> salts) {
    this.shoppingWindow = shoppingWindow;
    this.salts = salts;
    this.shoppers = new ShopperWindow(shoppingWindow, arrivalWindow);
  }

  // ---- the record: define, open, schedule, rates, pause ----------------------------------

  /** An event is defined once. */
  public Outcome define(RoomState room) {
    return room.defined() ? new Refused(Refusal.EVENT_EXISTS) : ACCEPTED;
  }

  /** An open sale has no waiting room, so a scheduled event cannot become one; opening twice changes nothing. */
  public Outcome openSale(RoomState room) {
    if (room.schedule() != null) return new Refused(Refusal.ALREADY_SCHEDULED);
    return room.open() ? UNCHANGED : ACCEPTED;
  }

  /** The on-sale may be (re)scheduled until it starts. */
  public Outcome schedule(RoomState room) {
    return room.started() ? new Refused(Refusal.ALREADY_STARTED) : ACCEPTED;
  }

  /** Rates belong to a scheduled on-sale. */
  public Outcome changeRates(RoomState room) {
    return room.schedule() == null ? new Refused(Refusal.NOT_FOUND) : ACCEPTED;
  }

  /** Only a scheduled on-sale pauses or resumes; asking for the state it is in changes nothing. */
  public Outcome pause(RoomState room, boolean paused) {
    if (room.schedule() == null) return new Refused(Refusal.NOT_FOUND);
    return room.paused() == paused ? UNCHANGED : ACCEPTED;
  }

  // ---- the lobby and the line ------------------------------------------------------------

  /**
   * The next lobby index: one per account (its place keeper asks once), in arrival order; the
   * lottery makes arrival order irrelevant. The caller writes that indices were given up to it
   * before it tells the account (many in one write), so a restart goes on after the last one
   * given: the cohort at the start is exactly the accounts that joined, with no index nobody
   * holds. (Older journals reserved blocks of {@link #LOBBY_BLOCK}; a room restarted over one
   * goes on after its last reservation.)
   */
  public Outcome takeLobbyIndex(RoomState room, long now) {
    OnSaleSchedule schedule = room.schedule();
    if (schedule == null) return new Refused(Refusal.NOT_ON_SALE);
    if (room.started()) return new Refused(Refusal.STARTED);
    if (now < schedule.lobbyOpensAt()) return new Refused(Refusal.NOT_OPEN);
    if (nextLobbyIndex == 0) nextLobbyIndex = Math.max(room.lobbyReservedUpTo(), room.lobbyGivenUpTo()) + 1;
    long index = nextLobbyIndex++;
    lobbyDelta++;
    return new LobbyIndexGiven(index);
  }

  /**
   * An account's one place in the line, asked once per account: a lobby index before the start,
   * after it the next place behind everyone before, given by the room itself and written before
   * the account is told (many in one write), so no place is given that nobody holds, whatever
   * restarts.
   */
  public Outcome takePlace(RoomState room, long now) {
    if (!room.started()) return takeLobbyIndex(room, now);
    if (nextPlace == 0) nextPlace = Math.max(room.leasedUpTo(), room.givenUpTo()) + 1;
    return new PlaceGiven(nextPlace++);
  }

  /**
   * An account gives its place up (its place keeper asks once): before the start the lobby
   * shrinks and the index's place is skipped at the start; after it the place is skipped by the
   * line (never admitted, no admission spent on it) and no longer counts as an active shopper if
   * the line had reached it. {@code lobbyIndex} is 0 for none. Giving up what was given up
   * already changes nothing.
   */
  public Outcome giveUp(RoomState room, long lobbyIndex, long place) {
    if (!room.started()) {
      if (lobbyIndex <= 0 || room.leftLobby(lobbyIndex)) return UNCHANGED;
      lobbyDelta--;
      return new GivenUp(lobbyIndex, 0);
    }
    long p = placeOf(room, lobbyIndex, place);
    if (p <= 0 || room.hasLeft(p)) return UNCHANGED;
    // A fan who bought and then leaves stopped counting already.
    if (!boughtPlaces.contains(p)) stopCounting(room, p);
    return new GivenUp(0, p);
  }

  /**
   * An account that gave its place up comes back: it gets the same place, never another, as
   * long as the line has not passed it; once the line has, {@link Refusal#PLACE_GIVEN_UP}. A
   * place that was not given up is the account's anyway (nothing to record). Only an account
   * whose place keeper recorded that it left asks.
   */
  public Outcome takeBack(RoomState room, long lobbyIndex, long place) {
    if (!room.started()) {
      if (lobbyIndex <= 0 || !room.leftLobby(lobbyIndex)) return UNCHANGED;
      lobbyDelta++;
      return new TakenBack(lobbyIndex, 0);
    }
    long p = placeOf(room, lobbyIndex, place);
    if (p <= 0) return UNCHANGED;
    if (p <= room.admittedUpTo()) return new Refused(Refusal.PLACE_GIVEN_UP);
    return room.hasLeft(p) ? new TakenBack(0, p) : UNCHANGED;
  }

  /** A fan bought: the place still admits in its window but no longer counts as an active shopper. */
  public void bought(RoomState room, long lobbyIndex, long place) {
    long p = placeOf(room, lobbyIndex, place);
    if (room.started() && p > 0 && !room.hasLeft(p) && boughtPlaces.add(p)) stopCounting(room, p);
  }

  /**
   * The fan of an admitted place came to shop (its first hold): the place counts as an active
   * shopper until its window ends or it stops, not only for the arrival window. Once per place.
   */
  public void arrived(RoomState room, long lobbyIndex, long place) {
    long p = placeOf(room, lobbyIndex, place);
    if (!room.started() || p <= 0 || p > room.admittedUpTo()) return;
    if (room.hasLeft(p) || boughtPlaces.contains(p) || !arrivedPlaces.add(p)) return;
    long at = AdmissionLog.admittedAt(room.admissions(), p);
    if (at != AdmissionLog.LONG_AGO && at != AdmissionLog.NOT_YET) shoppers.arrivedAdmittedAt(at);
  }

  /** Places behind the lottery cohort for an edge node to hand out in arrival order: 1 to {@link #MAX_LEASE} at once, after the start. */
  public Outcome lease(RoomState room, int count) {
    if (!room.started()) return new Refused(Refusal.NOT_STARTED);
    // Leases are asked only by edge nodes of an older build: they never overlap places the room gave itself.
    long from = Math.max(room.leasedUpTo(), Math.max(room.givenUpTo(), nextPlace - 1)) + 1;
    long to = from - 1 + Math.max(1, Math.min(count, MAX_LEASE));
    if (nextPlace > 0) nextPlace = to + 1;
    return new PlacesLeased(from, to);
  }

  /** An edge node handed out later places up to {@code highest}: the line may move that far (never past what was leased). */
  public void placesAssigned(RoomState room, long highest) {
    highestAssigned = Math.max(highestAssigned, Math.min(highest, room.leasedUpTo()));
  }

  /** Fans stopped shopping before their windows ended. */
  public void shoppersLeft(int count, long now) {
    shoppers.stopped(Math.max(0, count), now);
  }

  public void seatsCounted(Seats counted) {
    seats = counted;
  }

  /**
   * What a tick at {@code now} records. Before the start: the lobby's count, and the start
   * itself once it is due (the lobby becomes the cohort, places given up in the lobby are
   * released). After it: the line moves by {@link AdmissionControl}.
   */
  public Tick tick(RoomState room, long now) {
    OnSaleSchedule schedule = room.schedule();
    if (!room.defined() || schedule == null) return Tick.NOTHING;
    return room.started() ? moveLine(room, schedule, now) : countLobby(room, schedule, now);
  }

  private Tick countLobby(RoomState room, OnSaleSchedule schedule, long now) {
    OptionalLong counted = lobbyDelta == 0 ? OptionalLong.empty() : OptionalLong.of(lobby(room));
    lobbyDelta = 0;
    if (now < schedule.startsAt()) return new Tick(counted, Optional.empty(), OptionalLong.empty());
    long cohort = Math.max(1, highestLobbyIndex(room));
    String salt = salts.get();
    line = new AdmissionControl.Line(0, 0, now);
    return new Tick(counted, Optional.of(new Start(salt, cohort)), OptionalLong.empty());
  }

  private Tick moveLine(RoomState room, OnSaleSchedule schedule, long now) {
    if (line == null) {
      line = new AdmissionControl.Line(room.admittedUpTo(), 0, room.advancedAt());
      countAdmissionsAfterRestart(room);
    }
    AdmissionControl.Line from = new AdmissionControl.Line(line.admittedUpTo(), line.carry(),
        Math.max(line.at(), now - MAX_STEP_MS));
    long highest = highestPlace(room);
    line = AdmissionControl.advance(from,
        new AdmissionControl.Limits(schedule.admissionPerMinute(), schedule.maxActiveShoppers(), shoppers.active(now),
            highest, room.paused(), seats.noneToHold()),
        now);
    // Places given up are skipped: the step admits that many live places, and the left ones in
    // its way are passed for free (they spend no admission and count as no shopper), so a fan
    // who leaves pushes nobody back.
    List<Long> left = room.left();
    int next = firstAbove(left, from.admittedUpTo());
    long upTo = line.admittedUpTo();
    while (next < left.size() && left.get(next) <= upTo && upTo < highest) {
      upTo++;
      next++;
    }
    line = new AdmissionControl.Line(upTo, line.carry(), line.at());
    long released = firstAbove(left, upTo) - firstAbove(left, from.admittedUpTo());
    shoppers.admitted(upTo - from.admittedUpTo() - released, now);
    forgetEndedPlaces(room, now);
    return new Tick(OptionalLong.empty(), Optional.empty(),
        line.admittedUpTo() == room.admittedUpTo() ? OptionalLong.empty() : OptionalLong.of(line.admittedUpTo()));
  }

  /**
   * Back from a restart (the room's node died, or the room moved): who arrived, bought or left
   * was kept in memory and is gone, but the admission log says when each place of the last
   * window was admitted. Each counts from its own second as a place whose fan has not come yet:
   * for the arrival window, less those who buy or leave from now on (they stop counting at their
   * own second). Counting every place of the window as shopping, as this did before, held the
   * line shut for the whole admission window (30 minutes) once the cap had been reached, however
   * many fans had bought meanwhile: the simulator's kill of the event's node stopped admissions
   * with 2,199 fans waiting and seats coming back. The cost is the other way and bounded: fans
   * admitted longer than the arrival window ago who are still shopping are no longer counted, so
   * the line may run that many past the cap while they finish.
   */
  private void countAdmissionsAfterRestart(RoomState room) {
    long previous = 0;
    for (AdmissionLog.Step step : room.admissions()) {
      if (step.at() != AdmissionLog.LONG_AGO && step.upTo() > previous) shoppers.admitted(step.upTo() - previous, step.at());
      previous = Math.max(previous, step.upTo());
    }
    // Places given up after the line reached them stopped counting (the record says which).
    for (long p : room.left()) {
      if (p > room.admittedUpTo()) break;
      long at = AdmissionLog.admittedAt(room.admissions(), p);
      if (at != AdmissionLog.LONG_AGO && at != AdmissionLog.NOT_YET) shoppers.stoppedAdmittedAt(at, false);
    }
  }

  /**
   * A bought place whose window would have ended needs no remembering: its token no longer admits
   * anyway. (Places given up are forgotten as the record's admission log forgets them, {@link #forget}.)
   */
  private void forgetEndedPlaces(RoomState room, long now) {
    long horizon = admissionLogHorizon(now);
    long over = 0;
    for (AdmissionLog.Step step : room.admissions()) {
      if (step.at() < horizon) over = step.upTo();
    }
    if (over > 0) {
      boughtPlaces.headSet(over, true).clear();
      arrivedPlaces.headSet(over, true).clear();
    }
  }

  // ---- what the manifest shows -----------------------------------------------------------

  public Phase phase(RoomState room, long now) {
    return Phase.of(room, seats.soldOut(), now);
  }

  /** Accounts in the lobby, counting joins and leaves not yet written. */
  public long lobby(RoomState room) {
    return Math.max(0, room.lobby() + lobbyDelta);
  }

  /** Places admitted within the arrival window, or arrived within the shopping window, that have not left or bought. */
  public long activeShoppers(long now) {
    return shoppers.active(now);
  }

  /** The places given up, sorted, as the manifest carries them. */
  public static long[] leftPlaces(RoomState room) {
    return room.left().stream().mapToLong(Long::longValue).toArray();
  }

  // ---- how the record changes (the entity's event handler and the tests' journal apply these) --

  /** The sorted list with {@code value} in it. */
  public static List<Long> with(List<Long> sorted, long value) {
    int at = Collections.binarySearch(sorted, value);
    if (at >= 0) return sorted;
    List<Long> out = new ArrayList<>(sorted.size() + 1);
    out.addAll(sorted);
    out.add(-at - 1, value);
    return List.copyOf(out);
  }

  /** The sorted list without {@code value}. */
  public static List<Long> without(List<Long> sorted, long value) {
    int at = Collections.binarySearch(sorted, value);
    if (at < 0) return sorted;
    List<Long> out = new ArrayList<>(sorted);
    out.remove(at);
    return List.copyOf(out);
  }

  /** At the start: the places of the lobby indices given up (within the cohort), sorted. */
  public static List<Long> placesOfLeftLobby(List<Long> leftLobby, String salt, long cohortSize) {
    List<Long> places = new ArrayList<>();
    for (long index : leftLobby) {
      if (index >= 1 && index <= cohortSize) places.add(Lottery.place(index, salt, cohortSize));
    }
    Collections.sort(places);
    return List.copyOf(places);
  }

  /**
   * The places given up that still matter once the line's log has moved on: those the log no
   * longer covers (admitted before its horizon: their windows are over, their tokens no longer
   * admit) are forgotten, so the record and the manifest do not grow with the sale.
   */
  public static List<Long> forget(List<Long> left, List<AdmissionLog.Step> log) {
    if (left.isEmpty() || log.isEmpty() || log.get(0).at() != AdmissionLog.LONG_AGO) return left;
    int from = firstAbove(left, log.get(0).upTo());
    return from == 0 ? left : List.copyOf(left.subList(from, left.size()));
  }

  public Seats seats() {
    return seats;
  }

  /** Admission steps taken before this time (epoch ms) at {@code at} no longer matter: their windows ended. */
  public long admissionLogHorizon(long at) {
    return at - shoppingWindow.toMillis() - GRACE_MS;
  }

  // ---- helpers ---------------------------------------------------------------------------

  /** The highest lobby index that may have been given. */
  private long highestLobbyIndex(RoomState room) {
    return nextLobbyIndex > 0 ? nextLobbyIndex - 1 : Math.max(room.lobbyReservedUpTo(), room.lobbyGivenUpTo());
  }

  /** The last place anyone holds: the cohort's, a later place the room gave, or one an older edge node gave from its lease. */
  private long highestPlace(RoomState room) {
    return Math.max(room.cohortSize(), Math.max(highestAssigned, room.givenUpTo()));
  }

  /** The index of the first value above {@code value} in the sorted list. */
  private static int firstAbove(List<Long> sorted, long value) {
    int at = Collections.binarySearch(sorted, value);
    return at >= 0 ? at + 1 : -at - 1;
  }

  /** The place of a lobby index (drawn at the start) or a later place as it is. */
  private static long placeOf(RoomState room, long lobbyIndex, long place) {
    return lobbyIndex > 0 && lobbyIndex <= room.cohortSize() ? Lottery.place(lobbyIndex, room.salt(), room.cohortSize()) : place;
  }

  /** The place no longer counts as an active shopper (it counted from its admission, if the line reached it). */
  private void stopCounting(RoomState room, long place) {
    if (place > room.admittedUpTo()) return;
    long at = AdmissionLog.admittedAt(room.admissions(), place);
    if (at != AdmissionLog.LONG_AGO && at != AdmissionLog.NOT_YET) shoppers.stoppedAdmittedAt(at, arrivedPlaces.contains(place));
  }
}
