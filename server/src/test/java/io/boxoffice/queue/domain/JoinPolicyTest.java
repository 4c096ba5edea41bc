package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** What a join gets, rule by rule, and which checks it spends on the way. */
class JoinPolicyTest {
  static final long LOBBY = Instant.parse("2026-12-01T09:46:00Z").toEpochMilli();
  static final long NOW = LOBBY + 1000;

  /** A lobby with neither presale nor proof of work, and a fan without a token. */
  static JoinPolicy.Facts lobby() {
    return new JoinPolicy.Facts(Phase.LOBBY, false, LOBBY, false, false, false, 0, false);
  }

  static JoinPolicy.Facts with(Phase phase, boolean openSale, boolean tokenHoldsPlace, boolean presale, boolean codeGiven,
                               int powBits, boolean powGiven) {
    return new JoinPolicy.Facts(phase, openSale, LOBBY, tokenHoldsPlace, presale, codeGiven, powBits, powGiven);
  }

  static final BooleanSupplier CODE_NOT_ASKED = () -> fail("the presale code was checked");
  static final Supplier<ProofOfWork.Verdict> POW_NOT_ASKED = () -> fail("the proof of work was checked");

  static JoinOutcome decide(JoinPolicy.Facts facts) {
    return JoinPolicy.decide(facts, NOW, CODE_NOT_ASKED, POW_NOT_ASKED);
  }

  @Test
  void aClosedEventRefusesEveryJoin() {
    assertInstanceOf(JoinOutcome.NotOnSale.class, decide(with(Phase.CLOSED, false, true, true, true, 20, true)));
  }

  @Test
  void anOpenSaleAdmitsAtOnce() {
    assertInstanceOf(JoinOutcome.OpenSale.class, decide(with(Phase.OPEN, true, false, true, false, 20, false)));
    assertInstanceOf(JoinOutcome.OpenSale.class, decide(with(Phase.SOLD_OUT, true, false, false, false, 0, false)),
        "an open sale that sold out still lets fans in to see it");
  }

  @Test
  void beforeTheLobbyOpensTheJoinIsToldWhen() {
    JoinOutcome outcome = JoinPolicy.decide(with(Phase.SCHEDULED, false, true, false, false, 0, false), LOBBY - 1,
        CODE_NOT_ASKED, POW_NOT_ASKED);
    assertEquals(new JoinOutcome.NotOpen(Instant.ofEpochMilli(LOBBY)), outcome);
    assertInstanceOf(JoinOutcome.AskForPlace.class,
        JoinPolicy.decide(with(Phase.LOBBY, false, false, false, false, 0, false), LOBBY, CODE_NOT_ASKED, POW_NOT_ASKED),
        "the lobby is open from the instant it opens");
  }

  @Test
  void aTokenThatNamesAPlaceKeepsItWithoutSpendingAnyCheck() {
    assertInstanceOf(JoinOutcome.KeepTokenPlace.class, decide(with(Phase.WAITING, false, true, true, false, 20, false)));
  }

  @Test
  void aPresaleNeedsAValidCodeForTheAccount() {
    assertInstanceOf(JoinOutcome.BadCode.class, decide(with(Phase.LOBBY, false, false, true, false, 0, false)),
        "no code: nothing to check");
    assertInstanceOf(JoinOutcome.BadCode.class,
        JoinPolicy.decide(with(Phase.LOBBY, false, false, true, true, 20, true), NOW, () -> false, POW_NOT_ASKED),
        "a bad code: the proof of work is not spent");
    assertInstanceOf(JoinOutcome.AskForPlace.class,
        JoinPolicy.decide(with(Phase.LOBBY, false, false, true, true, 0, false), NOW, () -> true, POW_NOT_ASKED));
  }

  @Test
  void aProofOfWorkIsNeededOnlyWhenTheOnSaleAsksForOne() {
    assertEquals(new JoinOutcome.BadPow(ProofOfWork.Verdict.MALFORMED), decide(with(Phase.LOBBY, false, false, false, false, 20, false)),
        "none given");
    assertEquals(new JoinOutcome.BadPow(ProofOfWork.Verdict.EXPIRED),
        JoinPolicy.decide(with(Phase.LOBBY, false, false, false, false, 20, true), NOW, CODE_NOT_ASKED,
            () -> ProofOfWork.Verdict.EXPIRED));
    assertInstanceOf(JoinOutcome.AskForPlace.class,
        JoinPolicy.decide(with(Phase.LOBBY, false, false, false, false, 20, true), NOW, CODE_NOT_ASKED,
            () -> ProofOfWork.Verdict.ACCEPTED));
    assertInstanceOf(JoinOutcome.AskForPlace.class, decide(with(Phase.LOBBY, false, false, false, false, 0, true)),
        "no difficulty, nothing checked");
  }

  @Test
  void aFanWithoutATokenAsksForTheAccountsPlace() {
    assertInstanceOf(JoinOutcome.AskForPlace.class, decide(lobby()));
    assertInstanceOf(JoinOutcome.AskForPlace.class, decide(with(Phase.WAITING, false, false, false, false, 0, false)));
  }

  @Test
  void thePlaceKeepersAnswerDecidesTheRest() {
    assertInstanceOf(JoinOutcome.KeepAccountPlace.class, JoinPolicy.afterAsking(true, null));
    assertInstanceOf(JoinOutcome.KeepAccountPlace.class, JoinPolicy.afterAsking(true, "started"));
    assertInstanceOf(JoinOutcome.GaveUp.class, JoinPolicy.afterAsking(false, Refusal.PLACE_GIVEN_UP.code()),
        "a place given up and passed is never replaced by another");
    assertInstanceOf(JoinOutcome.Unavailable.class, JoinPolicy.afterAsking(false, null), "no place and no reason: try again");
    assertInstanceOf(JoinOutcome.Unavailable.class, JoinPolicy.afterAsking(false, Refusal.STARTED.code()),
        "the place keeper asks for a later place itself: the room never answers it this");
    assertEquals(new JoinOutcome.NotOpen(null), JoinPolicy.afterAsking(false, Refusal.NOT_OPEN.code()));
    assertInstanceOf(JoinOutcome.NotOnSale.class, JoinPolicy.afterAsking(false, Refusal.NOT_ON_SALE.code()));
    assertInstanceOf(JoinOutcome.Unavailable.class, JoinPolicy.afterAsking(false, "unavailable"), "the room did not answer");
    assertInstanceOf(JoinOutcome.Unavailable.class, JoinPolicy.afterAsking(false, Refusal.NOT_STARTED.code()));
  }
}
