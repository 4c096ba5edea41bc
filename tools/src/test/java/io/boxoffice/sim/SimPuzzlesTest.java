package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.common.Hmac;
import io.boxoffice.queue.domain.ProofOfWork;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The crowd's answers to the join's proof of work are the ones the server's own check accepts. */
class SimPuzzlesTest {
  private final ProofOfWork server = new ProofOfWork(new Hmac(new byte[32]), Clock.systemUTC(), Duration.ofMinutes(5), 1000);

  @Test
  void aPageAndAFullCpuBotBothAnswerWhatTheServerAccepts() throws Exception {
    try (Puzzles puzzles = new Puzzles(1)) {
      String forPage = server.issue("e1", "acct-1");
      String nonce = puzzles.page(forPage, 12, false).get();
      assertEquals(ProofOfWork.Verdict.ACCEPTED, server.check("e1", "acct-1", 12, forPage, nonce));
      String forBot = server.issue("e1", "acct-2");
      String botNonce = puzzles.fullCpu(forBot, 12).get();
      assertEquals(ProofOfWork.Verdict.ACCEPTED, server.check("e1", "acct-2", 12, forBot, botNonce));
      assertEquals(1, puzzles.humans.getTotalCount());
      assertEquals(1, puzzles.humansSolving.getTotalCount());
      assertEquals(0, puzzles.bots.getTotalCount(), "no bot solved as a page");
      assertEquals(1, puzzles.fullCpuBots.getTotalCount());
      assertEquals(1, puzzles.fullCpuBotsSolving.getTotalCount());
      assertTrue(puzzles.hashes.sum() > 0);
    }
  }

  @Test
  void everyCoreTakesItsOwnNoncesAndTheFirstFoundIsTheAnswer() throws Exception {
    try (Puzzles puzzles = new Puzzles(1)) {
      for (int i = 0; i < 5; i++) {
        String challenge = server.issue("e2", "acct-" + i);
        String nonce = puzzles.fullCpu(challenge, 10).get();
        assertEquals(ProofOfWork.Verdict.ACCEPTED, server.check("e2", "acct-" + i, 10, challenge, nonce), nonce);
      }
    }
  }
}
