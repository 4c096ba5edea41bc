package io.boxoffice.queue.domain;

import java.time.Instant;

/** What a fan's request to join an event's line gets, as {@link JoinPolicy} decides it; the route maps each to HTTP once. */
public sealed interface JoinOutcome {

  /** The join is refused; nothing is asked or kept. */
  sealed interface Refused extends JoinOutcome {}

  /** The event is defined but not on sale: nobody may join. */
  record NotOnSale() implements Refused {}

  /** The lobby is not open; {@code opensAt} is null when the room said so without saying when. */
  record NotOpen(Instant opensAt) implements Refused {}

  /** The presale needs a valid code for this account, and none came. */
  record BadCode() implements Refused {}

  /** The on-sale asks for a proof of work, and this one was not accepted. */
  record BadPow(ProofOfWork.Verdict verdict) implements Refused {}

  /** The account gave its place up and the line has passed it: one account, one place, so no other. */
  record GaveUp() implements Refused {}

  /** The account's place keeper could not get an answer from the room: try again. */
  record Unavailable() implements Refused {}

  /** An open sale has no line: the fan may shop at once. */
  record OpenSale() implements JoinOutcome {}

  /** The fan's own valid token names a place: it stands, and nobody is asked. */
  record KeepTokenPlace() implements JoinOutcome {}

  /** Ask the account's place keeper for its one place (a lobby index before the start). */
  record AskForPlace() implements JoinOutcome {}

  /** The place keeper holds a place (or lobby index) for the account: that is the fan's. */
  record KeepAccountPlace() implements JoinOutcome {}
}
