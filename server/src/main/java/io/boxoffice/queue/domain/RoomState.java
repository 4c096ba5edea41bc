package io.boxoffice.queue.domain;

import java.util.Collections;
import java.util.List;

/**
 * What the waiting room has recorded, as its rules read it: the journal's state with the
 * defaults of older journals already filled in. {@code schedule} is null until an on-sale is
 * scheduled, {@code salt} until the sale starts; times are epoch ms. {@code lobbyGivenUpTo} and
 * {@code givenUpTo} are the highest lobby index and later place the room has given (each written
 * before any account is told of it); {@code leftLobby} the lobby indices given up before the start
 * and {@code left} the places given up after it, both sorted.
 */
public record RoomState(OnSaleSchedule schedule, boolean defined, boolean open, boolean paused, long lobby, String salt,
                        long cohortSize, long lobbyReservedUpTo, long leasedUpTo, long admittedUpTo, long advancedAt,
                        List<AdmissionLog.Step> admissions, long lobbyGivenUpTo, long givenUpTo, List<Long> leftLobby,
                        List<Long> left) {

  public RoomState {
    admissions = admissions == null ? List.of() : admissions;
    leftLobby = leftLobby == null ? List.of() : leftLobby;
    left = left == null ? List.of() : left;
  }

  /** A record from before the room gave places itself and remembered who left. */
  public RoomState(OnSaleSchedule schedule, boolean defined, boolean open, boolean paused, long lobby, String salt,
                   long cohortSize, long lobbyReservedUpTo, long leasedUpTo, long admittedUpTo, long advancedAt,
                   List<AdmissionLog.Step> admissions) {
    this(schedule, defined, open, paused, lobby, salt, cohortSize, lobbyReservedUpTo, leasedUpTo, admittedUpTo, advancedAt,
        admissions, 0, 0, List.of(), List.of());
  }

  public boolean started() {
    return salt != null;
  }

  /** Whether the place was given up (and the line has not forgotten it). */
  public boolean hasLeft(long place) {
    return Collections.binarySearch(left, place) >= 0;
  }

  /** Whether the lobby index was given up before the start. */
  public boolean leftLobby(long lobbyIndex) {
    return Collections.binarySearch(leftLobby, lobbyIndex) >= 0;
  }
}
