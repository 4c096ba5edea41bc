package io.boxoffice.queue.domain;

import java.util.List;

/**
 * What the waiting room has recorded, as its rules read it: the journal's state with the
 * defaults of older journals already filled in. {@code schedule} is null until an on-sale is
 * scheduled, {@code salt} until the sale starts; times are epoch ms.
 */
public record RoomState(OnSaleSchedule schedule, boolean defined, boolean open, boolean paused, long lobby, String salt,
                        long cohortSize, long lobbyReservedUpTo, long leasedUpTo, long admittedUpTo, long advancedAt,
                        List<AdmissionLog.Step> admissions) {

  public RoomState {
    admissions = admissions == null ? List.of() : admissions;
  }

  public boolean started() {
    return salt != null;
  }
}
