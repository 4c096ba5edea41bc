package io.boxoffice.cart.domain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What the fan's cart knows of the fan's holds, for its timer: each seat's deadline as last
 * heard (from the edge after a hold, or from the inventory), which are due, and when the fan's
 * last hold ran out with nothing held since. Kept in memory only, never persisted: the inventory
 * is the record of holds, and a restarted cart learns them again from it. Lazy expiry at the
 * inventory stays the guarantee; this only makes it prompt.
 */
public final class HoldTimer {
  private final Map<String, Long> deadlines = new HashMap<>();
  private final long graceMillis;
  private long expiredAt;

  /** Seats fall due at their deadline. */
  public HoldTimer() {
    this(0);
  }

  /**
   * Seats fall due {@code graceMillis} after their deadline: a fault that began before the
   * deadline (a member gone, noticed only after the failure detector's pause) has been noticed
   * by then, and the inventory gives the hold that time before it judges the release. Released
   * at the deadline itself, such a hold would be gone for good although the fan lost it to us.
   */
  public HoldTimer(long graceMillis) {
    this.graceMillis = graceMillis;
  }

  /** Seats due for the inventory's check, and the latest of their deadlines (the check's bound). */
  public record Due(List<String> seats, long deadline) {}

  /** The fan holds these seats until {@code until}: a fresh hold, so nothing has run out. */
  public void held(List<String> seats, long until) {
    for (String s : seats) deadlines.put(s, until);
    expiredAt = 0;
  }

  /** The fan gave these seats back itself: nothing to watch, and nothing that ran out. */
  public void givenUp(List<String> seats) {
    seats.forEach(deadlines::remove);
  }

  /** The inventory's list of the fan's live holds (after a restart): watched from their deadline on. */
  public void live(List<String> seats, long earliestDeadline) {
    for (String s : seats) deadlines.merge(s, earliestDeadline, Math::max);
  }

  /** When the earliest seat watched falls due (its deadline plus the grace); empty when the fan holds nothing the cart knows of. */
  public OptionalLong next() {
    OptionalLong earliest = deadlines.values().stream().mapToLong(Long::longValue).min();
    return earliest.isEmpty() ? earliest : OptionalLong.of(earliest.getAsLong() + graceMillis);
  }

  /** The seats due at {@code now} (deadline plus grace passed), if any, with the latest of their deadlines. */
  public Optional<Due> due(long now) {
    List<String> seats = new ArrayList<>();
    long latest = 0;
    for (Map.Entry<String, Long> e : deadlines.entrySet()) {
      if (e.getValue() + graceMillis <= now) {
        seats.add(e.getKey());
        latest = Math.max(latest, e.getValue());
      }
    }
    seats.sort(null);
    return seats.isEmpty() ? Optional.empty() : Optional.of(new Due(List.copyOf(seats), latest));
  }

  /**
   * The inventory's word on a due check: {@code released} by it, {@code gone} before it (lapsed,
   * released, taken), and the fan's {@code live} holds now, the earliest ending at
   * {@code liveUntil}. Due seats still live were extended or held again: watched anew. When the
   * fan holds nothing now and something of this check ran out, the cart says expired at the
   * check's deadline.
   */
  public void checked(Due due, List<String> released, List<String> gone, List<String> live, long liveUntil) {
    Set<String> ended = new HashSet<>(released);
    ended.addAll(gone);
    Set<String> stillLive = new HashSet<>(live);
    for (String s : due.seats()) {
      Long known = deadlines.get(s);
      // A newer hold heard meanwhile (a later deadline) is not this check's to drop.
      if (known != null && known <= due.deadline() && !stillLive.contains(s)) deadlines.remove(s);
    }
    live(live, liveUntil);
    if (live.isEmpty() && deadlines.isEmpty() && due.seats().stream().anyMatch(ended::contains)) {
      expiredAt = due.deadline();
    }
  }

  /** The inventory did not answer; the cart stops watching (lazy expiry still frees the seats). */
  public void forget() {
    deadlines.clear();
  }

  /** When the fan's last hold ran out with nothing held since (epoch ms); 0 when that is not so. */
  public long expiredAt() {
    return expiredAt;
  }
}
