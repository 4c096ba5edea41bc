package io.boxoffice.queue;

/**
 * Where one fan stands in an event's line, worked out at the edge from the fan's token and the
 * event's manifest without asking anyone: lobby tokens get their lottery place once the salt
 * exists, a place the line has reached becomes an admission (the token is then re-issued with
 * its admission time, which starts the fan's shopping window).
 */
public record Standing(String state, long position, QueueToken.Claims claims, boolean reissue) {

  /** An event without an on-sale schedule: an open sale, everyone signed in may shop. */
  public static boolean openSale(WaitingRoom.Manifest m) {
    return m.startsAt() == 0;
  }

  public static Standing of(QueueToken.Claims claims, WaitingRoom.Manifest m, QueueToken tokens, long nowMillis) {
    long nowSec = nowMillis / 1000;
    QueueToken.Claims c = claims;
    boolean reissue = false;
    if (c.place() == 0) {
      if (m.salt() == null) return new Standing(nowMillis < m.lobbyOpensAt() ? "scheduled" : "lobby", 0, c, false);
      // A lobby token: its place follows from the lottery drawn at the start.
      c = new QueueToken.Claims(c.eventId(), c.accountId(), Lottery.place(c.accountId(), m.salt(), m.cohortSize()), c.prefix(),
          c.issuedAt(), 0);
      reissue = true;
    }
    if (c.admittedAt() != 0) {
      return new Standing(tokens.admittedAndInWindow(c, nowSec) ? "admitted" : "closed", c.place(), c, reissue);
    }
    if (c.place() <= m.admittedUpTo()) return new Standing("admitted", c.place(), c.admitted(nowSec), true);
    String state = switch (m.state()) {
      case "paused" -> "paused";
      case "sold_out" -> "sold_out";
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
