package io.boxoffice.queue.domain;

import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Decides what a request to join an event's line gets, in two steps: {@link #decide} from the
 * request and the event's manifest, then, when that says {@link JoinOutcome.AskForPlace},
 * {@link #afterAsking} from the account's place keeper's answer. The checks that cost or burn
 * something (a proof of work is single-use) are asked lazily, only when every rule before them
 * let the request through, so a fan who already holds a place never spends a challenge.
 */
public final class JoinPolicy {
  private JoinPolicy() {}

  /**
   * The facts of one join: the event's {@code phase}, whether it is an open sale, when its lobby
   * opens (epoch ms), whether the fan's own valid token names a place, whether the on-sale needs
   * a presale code (and the request brought one), and the proof-of-work difficulty (0 = none;
   * and whether the request brought an answer).
   */
  public record Facts(Phase phase, boolean openSale, long lobbyOpensAt, boolean tokenHoldsPlace, boolean presale,
                      boolean codeGiven, int powBits, boolean powGiven) {}

  /**
   * In order: a closed event refuses, an open sale admits, a lobby not yet open refuses, a
   * token's place stands, then the presale code and the proof of work must pass before the
   * account's place is asked for.
   */
  public static JoinOutcome decide(Facts f, long now, BooleanSupplier codeValid, Supplier<ProofOfWork.Verdict> proofOfWork) {
    if (f.phase() == Phase.CLOSED) return new JoinOutcome.NotOnSale();
    if (f.openSale()) return new JoinOutcome.OpenSale();
    if (now < f.lobbyOpensAt()) return new JoinOutcome.NotOpen(Instant.ofEpochMilli(f.lobbyOpensAt()));
    if (f.tokenHoldsPlace()) return new JoinOutcome.KeepTokenPlace();
    if (f.presale() && (!f.codeGiven() || !codeValid.getAsBoolean())) return new JoinOutcome.BadCode();
    if (f.powBits() > 0) {
      ProofOfWork.Verdict verdict = f.powGiven() ? proofOfWork.get() : ProofOfWork.Verdict.MALFORMED;
      if (verdict != ProofOfWork.Verdict.ACCEPTED) return new JoinOutcome.BadPow(verdict);
    }
    return new JoinOutcome.AskForPlace();
  }

  /**
   * After asking the place keeper: a place it holds is the fan's; a place the account gave up
   * and the line has passed is never replaced ({@link JoinOutcome.GaveUp}); a refusal of the
   * room ends the join; anything else (the room did not answer) is worth a retry.
   */
  public static JoinOutcome afterAsking(boolean holdsPlace, String refusal) {
    if (holdsPlace) return new JoinOutcome.KeepAccountPlace();
    Refusal r = Refusal.fromCode(refusal).orElse(null);
    if (r == Refusal.PLACE_GIVEN_UP) return new JoinOutcome.GaveUp();
    if (r == Refusal.NOT_OPEN) return new JoinOutcome.NotOpen(null);
    if (r == Refusal.NOT_ON_SALE) return new JoinOutcome.NotOnSale();
    return new JoinOutcome.Unavailable();
  }
}
