package io.boxoffice.inventory.domain;

/**
 * The inventory's own check of a hold's queue pass, as the edge made it: a token of this event,
 * account and network prefix, signed by a live key, admitted and inside its window. A port of the
 * inventory: the waiting room's {@code queue.QueueToken} implements it, {@code Node} wires it.
 */
public interface QueuePassCheck {
  /** Whether {@code token} admits {@code accountId} from {@code prefix} to {@code eventId} at {@code nowEpochSecond}; never throws. */
  boolean admits(String token, String eventId, String accountId, String prefix, long nowEpochSecond);
}
