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
        admittedUpTo, advancedAt, admissions);
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
    return again;
  }

  /** Takes a lobby index, writing the reservation when the room asks for one. */
  long join(long now) {
    Room.LobbyIndexGiven given = (Room.LobbyIndexGiven) room.takeLobbyIndex(state(), now);
    if (given.reserveUpTo() > 0) lobbyReservedUpTo = given.reserveUpTo();
    return given.index();
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
    });
    tick.admittedUpTo().ifPresent(upTo -> {
      admissions = AdmissionLog.append(admissions, new AdmissionLog.Step(now, upTo), room.admissionLogHorizon(now));
      admittedUpTo = upTo;
      advancedAt = now;
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
