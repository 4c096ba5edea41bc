package io.boxoffice.queue.domain;

/**
 * How far the line moves: {@code admittedUpTo} rises at the admission rate, never so far that
 * active shoppers would exceed the cap (Little's law: active = rate x time spent shopping),
 * never past the last place anyone holds, and not at all while paused or while no seat is
 * left to hold. Pure: the caller keeps the state and brings the time.
 */
public final class AdmissionControl {
  private AdmissionControl() {}

  /** The line's position: the last place admitted and the fraction of a place earned but not yet given. */
  public record Line(long admittedUpTo, double carry, long at) {}

  /** What limits the next step. */
  public record Limits(int admissionPerMinute, int maxActiveShoppers, long activeShoppers, long highestPlace,
                       boolean paused, boolean noSeatsLeft) {}

  public static Line advance(Line line, Limits limits, long now) {
    long elapsed = Math.max(0, now - line.at());
    if (limits.paused() || limits.noSeatsLeft()) return new Line(line.admittedUpTo(), 0, now);
    double earned = line.carry() + limits.admissionPerMinute() * (elapsed / 60_000.0);
    long room = Math.max(0, limits.maxActiveShoppers() - limits.activeShoppers());
    long waiting = Math.max(0, limits.highestPlace() - line.admittedUpTo());
    long step = Math.min((long) Math.floor(earned), Math.min(room, waiting));
    // What could not be given (no room, nobody waiting) is not saved up for a burst later.
    double carry = step == (long) Math.floor(earned) ? earned - step : 0;
    return new Line(line.admittedUpTo() + step, Math.min(carry, 1.0), now);
  }
}
