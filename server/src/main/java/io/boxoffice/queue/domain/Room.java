package io.boxoffice.queue.domain;

import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The rules of one event's waiting room: who may define, open, schedule, pause or re-rate it,
 * which lobby index a joining account gets, which places an edge node may lease, how far a
 * tick moves the line (at the admission rate, within the cap on active shoppers, past places
 * given up), and what counts as an active shopper. It decides against the recorded
 * {@link RoomState} and a given instant; what it keeps itself is what the room never writes
 * down (lobby joins since the last count, places given up or bought, the shopping window,
 * the seat counts), so a restart loses only that. It knows nothing of actors or clocks.
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

  /** The account's lobby index; when {@code reserveUpTo} is above 0, indices up to it must be reserved (written) first. */
  public record LobbyIndexGiven(long index, long reserveUpTo) implements Outcome {}

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
  /** The highest later place an edge node says it handed out. */
  private long highestAssigned;
  /** Lobby indices whose accounts left before the start: their places are released at the start. */
  private final Set<Long> leftLobbyIndexes = new HashSet<>();
  /** Places released by fans who left: never admitted to shop, not counted as active shoppers. */
  private final TreeSet<Long> leftPlaces = new TreeSet<>();
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
   * lottery makes arrival order irrelevant. Indices are reserved in blocks of
   * {@link #LOBBY_BLOCK}, so a write is needed once per block; after a restart the rest of the
   * block is skipped (those indices become places nobody holds), so no index is given twice.
   */
  public Outcome takeLobbyIndex(RoomState room, long now) {
    OnSaleSchedule schedule = room.schedule();
    if (schedule == null) return new Refused(Refusal.NOT_ON_SALE);
    if (room.started()) return new Refused(Refusal.STARTED);
    if (now < schedule.lobbyOpensAt()) return new Refused(Refusal.NOT_OPEN);
    if (nextLobbyIndex == 0) nextLobbyIndex = room.lobbyReservedUpTo() + 1;
    long index = nextLobbyIndex++;
    lobbyDelta++;
    long reserved = room.lobbyReservedUpTo();
    return new LobbyIndexGiven(index, index <= reserved ? 0 : reserved + LOBBY_BLOCK);
  }

  /** An account that left the lobby came back before the start with its old index. */
  public void lobbyReturned(RoomState room, long lobbyIndex) {
    if (!room.started() && leftLobbyIndexes.remove(lobbyIndex)) lobbyDelta++;
  }

  /**
   * A fan left: before the start the lobby shrinks (and the index's place is released at the
   * start); after it the place is released: never admitted to shop, and no longer counted as an
   * active shopper if the line had reached it. {@code lobbyIndex} is 0 for none.
   */
  public void left(RoomState room, long lobbyIndex, long place) {
    if (!room.started()) {
      if (lobbyIndex > 0 && leftLobbyIndexes.add(lobbyIndex)) lobbyDelta--;
      return;
    }
    long p = placeOf(room, lobbyIndex, place);
    if (p <= 0 || !leftPlaces.add(p)) return;
    // A fan who bought and then leaves stopped counting already.
    if (!boughtPlaces.contains(p)) stopCounting(room, p);
  }

  /** A fan bought: the place still admits in its window but no longer counts as an active shopper. */
  public void bought(RoomState room, long lobbyIndex, long place) {
    long p = placeOf(room, lobbyIndex, place);
    if (room.started() && p > 0 && !leftPlaces.contains(p) && boughtPlaces.add(p)) stopCounting(room, p);
  }

  /**
   * The fan of an admitted place came to shop (its first hold): the place counts as an active
   * shopper until its window ends or it stops, not only for the arrival window. Once per place.
   */
  public void arrived(RoomState room, long lobbyIndex, long place) {
    long p = placeOf(room, lobbyIndex, place);
    if (!room.started() || p <= 0 || p > room.admittedUpTo()) return;
    if (leftPlaces.contains(p) || boughtPlaces.contains(p) || !arrivedPlaces.add(p)) return;
    long at = AdmissionLog.admittedAt(room.admissions(), p);
    if (at != AdmissionLog.LONG_AGO && at != AdmissionLog.NOT_YET) shoppers.arrivedAdmittedAt(at);
  }

  /** Places behind the lottery cohort for an edge node to hand out in arrival order: 1 to {@link #MAX_LEASE} at once, after the start. */
  public Outcome lease(RoomState room, int count) {
    if (!room.started()) return new Refused(Refusal.NOT_STARTED);
    long from = room.leasedUpTo() + 1;
    long to = room.leasedUpTo() + Math.max(1, Math.min(count, MAX_LEASE));
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
    for (long index : leftLobbyIndexes) {
      if (index <= cohort) leftPlaces.add(Lottery.place(index, salt, cohort));
    }
    leftLobbyIndexes.clear();
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
    line = AdmissionControl.advance(from,
        new AdmissionControl.Limits(schedule.admissionPerMinute(), schedule.maxActiveShoppers(), shoppers.active(now),
            Math.max(room.cohortSize(), highestAssigned), room.paused(), seats.noneToHold()),
        now);
    // Places released by fans who left are passed without counting as shoppers.
    long released = leftPlaces.subSet(from.admittedUpTo(), false, line.admittedUpTo(), true).size();
    shoppers.admitted(line.admittedUpTo() - from.admittedUpTo() - released, now);
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
  }

  /** A released or bought place whose window would have ended needs no remembering: its token no longer admits anyway. */
  private void forgetEndedPlaces(RoomState room, long now) {
    long horizon = admissionLogHorizon(now);
    long over = 0;
    for (AdmissionLog.Step step : room.admissions()) {
      if (step.at() < horizon) over = step.upTo();
    }
    if (over > 0) {
      leftPlaces.headSet(over, true).clear();
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

  /** The places released by fans who left, sorted. */
  public long[] leftPlaces() {
    return leftPlaces.stream().mapToLong(Long::longValue).toArray();
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
    return nextLobbyIndex > 0 ? nextLobbyIndex - 1 : room.lobbyReservedUpTo();
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
