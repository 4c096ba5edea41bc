package io.boxoffice.queue.domain;

import java.time.Duration;
import java.util.List;

/**
 * A waiting room's record for the domain tests: it writes down what its {@link Room} decides,
 * as the entity's event handler does, so a test can drive the rules through a whole sale. Its
 * fields are the record; tests set them to stand anywhere in a sale.
 */
final class Journal {
  static final Duration WINDOW = Duration.ofMinutes(10);
  static final String SALT = "a-salt-for-tests";

  final Room room;
  OnSaleSchedule schedule;
  boolean defined = true;
  boolean open;
  boolean paused;
  long lobby;
  String salt;
  long cohortSize;
  long lobbyReservedUpTo;
  long leasedUpTo;
  long admittedUpTo;
  long advancedAt;
  List<AdmissionLog.Step> admissions = List.of();
  long lobbyGivenUpTo;
  long givenUpTo;
  List<Long> leftLobby = List.of();
  List<Long> left = List.of();

  Journal(OnSaleSchedule schedule) {
    this(new Room(WINDOW, () -> SALT), schedule);
  }

  /** Another incarnation of the room over the same record, as after a restart. */
  Journal(Room room, OnSaleSchedule schedule) {
    this.room = room;
    this.schedule = schedule;
  }

  RoomState state() {
    return new RoomState(schedule, defined, open, paused, lobby, salt, cohortSize, lobbyReservedUpTo, leasedUpTo,
        admittedUpTo, advancedAt, admissions, lobbyGivenUpTo, givenUpTo, leftLobby, left);
  }

  /** The same record read by a fresh room: what the room kept in memory is gone. */
  Journal restarted() {
    return restarted(new Room(WINDOW, () -> SALT));
  }

  /** The same record read by {@code fresh}, a room as after a restart. */
  Journal restarted(Room fresh) {
    Journal again = new Journal(fresh, schedule);
    again.defined = defined;
    again.open = open;
    again.paused = paused;
    again.lobby = lobby;
    again.salt = salt;
    again.cohortSize = cohortSize;
    again.lobbyReservedUpTo = lobbyReservedUpTo;
    again.leasedUpTo = leasedUpTo;
    again.admittedUpTo = admittedUpTo;
    again.advancedAt = advancedAt;
    again.admissions = admissions;
    again.lobbyGivenUpTo = lobbyGivenUpTo;
    again.givenUpTo = givenUpTo;
    again.leftLobby = leftLobby;
    again.left = left;
    return again;
  }

  /** Takes a lobby index, writing that it was given (as the room does before it tells the account). */
  long join(long now) {
    Room.LobbyIndexGiven given = (Room.LobbyIndexGiven) room.takeLobbyIndex(state(), now);
    lobbyGivenUpTo = Math.max(lobbyGivenUpTo, given.index());
    return given.index();
  }

  /** Takes an account's place (a lobby index before the start, a later place after it) and writes it; the place or index. */
  long takePlace(long now) {
    Room.Outcome outcome = room.takePlace(state(), now);
    if (outcome instanceof Room.LobbyIndexGiven g) {
      lobbyGivenUpTo = Math.max(lobbyGivenUpTo, g.index());
      return g.index();
    }
    Room.PlaceGiven g = (Room.PlaceGiven) outcome;
    givenUpTo = Math.max(givenUpTo, g.place());
    return g.place();
  }

  /** An account gives up its lobby index or place; writes what the room decides; returns the outcome. */
  Room.Outcome leave(long lobbyIndex, long place) {
    Room.Outcome outcome = room.giveUp(state(), lobbyIndex, place);
    if (outcome instanceof Room.GivenUp g) {
      if (g.lobbyIndex() > 0) leftLobby = Room.with(leftLobby, g.lobbyIndex());
      if (g.place() > 0) left = Room.with(left, g.place());
    }
    return outcome;
  }

  /** An account that gave its place up comes back; writes what the room decides; returns the outcome. */
  Room.Outcome comeBack(long lobbyIndex, long place) {
    Room.Outcome outcome = room.takeBack(state(), lobbyIndex, place);
    if (outcome instanceof Room.TakenBack t) {
      if (t.lobbyIndex() > 0) leftLobby = Room.without(leftLobby, t.lobbyIndex());
      if (t.place() > 0) left = Room.without(left, t.place());
    }
    return outcome;
  }

  /** The places given up, as the manifest shows them. */
  long[] leftPlaces() {
    return Room.leftPlaces(state());
  }

  /** Ticks at {@code now} and writes what the tick decided; returns it. */
  Room.Tick tick(long now) {
    Room.Tick tick = room.tick(state(), now);
    tick.lobbyCounted().ifPresent(total -> lobby = total);
    tick.start().ifPresent(start -> {
      salt = start.salt();
      cohortSize = start.cohortSize();
      leasedUpTo = start.cohortSize();
      admittedUpTo = 0;
      advancedAt = now;
      admissions = List.of();
      left = Room.placesOfLeftLobby(leftLobby, salt, cohortSize);
      leftLobby = List.of();
    });
    tick.admittedUpTo().ifPresent(upTo -> {
      admissions = AdmissionLog.append(admissions, new AdmissionLog.Step(now, upTo), room.admissionLogHorizon(now));
      admittedUpTo = upTo;
      advancedAt = now;
      left = Room.forget(left, admissions);
    });
    return tick;
  }

  /** Ticks once a second for {@code seconds} seconds after {@code from}; returns the last tick's time. */
  long tickEverySecond(long from, int seconds) {
    long now = from;
    for (int i = 0; i < seconds; i++) {
      now += 1000;
      tick(now);
    }
    return now;
  }

  Room.PlacesLeased lease(int count) {
    Room.PlacesLeased lease = (Room.PlacesLeased) room.lease(state(), count);
    leasedUpTo = lease.to();
    return lease;
  }
}
