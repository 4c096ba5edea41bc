package io.boxoffice.queue;

import io.boxoffice.queue.domain.AdmissionLog;
import io.boxoffice.queue.domain.Lottery;
import io.boxoffice.queue.domain.Phase;
import io.boxoffice.queue.domain.QueueToken;
import java.util.Arrays;

/**
 * Where one fan stands in an event's line, worked out at the edge from the fan's token and the
 * event's manifest without asking anyone. A token's place is a later place, or a lobby join
 * index (marked by {@link #LOBBY_INDEX}) that the lottery maps to a place once the salt exists. A place
 * the line has reached is admitted from the moment the line reached it (the manifest's
 * admission log), however late its token shows up: the token is then re-issued with that
 * admission time, and once the window from it is over the place never shops again.
 */
public record Standing(String state, long position, QueueToken.Claims claims, boolean reissue) {

  /** An explicitly opened event: an open sale, everyone signed in may shop. */
  public static boolean openSale(WaitingRoom.Manifest m) {
    return m.open();
  }

  /** A defined event without an on-sale and not opened: nobody may join or shop. */
  public static boolean closed(WaitingRoom.Manifest m) {
    return Phase.fromWire(m.state()) == Phase.CLOSED;
  }

  /** Marks a token place that is a lobby join index (tokens carry no negative numbers; later places never get near it). */
  static final long LOBBY_INDEX = 1L << 62;

  /** The token place of a lobby account with join index {@code lobbyIndex}. */
  public static long lobbyToken(long lobbyIndex) {
    return LOBBY_INDEX | lobbyIndex;
  }

  public static Standing of(QueueToken.Claims claims, WaitingRoom.Manifest m, QueueToken tokens, long nowMillis) {
    long nowSec = Math.floorDiv(nowMillis, 1000);
    QueueToken.Claims c = claims;
    boolean reissue = false;
    if (c.place() <= 0 || c.place() >= LOBBY_INDEX) {
      // A lobby token (or, with place 0, one from before join indices: its account joins again).
      if (m.salt() == null || c.place() == 0) return new Standing(nowMillis < m.lobbyOpensAt() ? "scheduled" : "lobby", 0, c, false);
      long index = c.place() & ~LOBBY_INDEX;
      if (index > m.cohortSize()) return new Standing("lobby", 0, c, false);
      c = new QueueToken.Claims(c.eventId(), c.accountId(), Lottery.place(index, m.salt(), m.cohortSize()), c.prefix(),
          c.issuedAt(), 0);
      reissue = true;
    }
    if (m.left() != null && Arrays.binarySearch(m.left(), c.place()) >= 0) return new Standing("left", c.place(), c, false);
    if (c.admittedAt() != 0) {
      return new Standing(tokens.admittedAndInWindow(c, nowSec) ? "admitted" : "closed", c.place(), c, reissue);
    }
    if (c.place() <= m.admittedUpTo()) {
      long at = AdmissionLog.admittedAt(m.admissions() == null ? new long[0] : m.admissions(), c.place());
      // Admitted before the log's horizon (or in a sale older than the log): its window is over.
      if (at == AdmissionLog.LONG_AGO || at == AdmissionLog.NOT_YET) return new Standing("closed", c.place(), c, false);
      long admittedSec = Math.max(1, Math.floorDiv(at, 1000));
      QueueToken.Claims admitted = c.admitted(admittedSec);
      return new Standing(tokens.admittedAndInWindow(admitted, nowSec) ? "admitted" : "closed", c.place(), admitted, true);
    }
    String state = switch (Phase.fromWire(m.state())) {
      case PAUSED -> "paused";
      case SOLD_OUT -> "sold_out";
      default -> "waiting";
    };
    return new Standing(state, c.place(), c, reissue);
  }

  /** Places between the line and this fan. */
  public long aheadOf(WaitingRoom.Manifest m) {
    return position == 0 ? 0 : Math.max(0, position - m.admittedUpTo() - 1);
  }

  /** At the current admission rate, roughly how long until the line reaches this fan. */
  public long estimatedWaitSeconds(WaitingRoom.Manifest m) {
    if (m.admissionPerMinute() <= 0) return 0;
    return (long) Math.ceil(aheadOf(m) * 60.0 / m.admissionPerMinute());
  }
}
