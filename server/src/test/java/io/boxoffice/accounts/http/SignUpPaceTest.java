package io.boxoffice.accounts.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A 409 account_exists is answered no sooner than creating an account lately took (issue 31, finding 13a). */
class SignUpPaceTest {
  static final long MS = 1_000_000L;

  @Test
  void aConflictWaitsForTheMeanWriteLessWhatItsOwnLookUpTook() {
    SignUpPace pace = new SignUpPace();
    assertEquals(0, pace.paddingNanos(5 * MS), "nothing measured yet");
    pace.created(100 * MS);
    assertEquals(90 * MS, pace.paddingNanos(10 * MS));
    assertEquals(0, pace.paddingNanos(150 * MS), "a slow look-up waits no more");
    pace.created(200 * MS);
    assertEquals(120 * MS, pace.paddingNanos(0), "a moving mean: 100 + 0.2 x (200 - 100)");
  }

  @Test
  void aStalledWriteDoesNotSlowEveryConflictDownWithoutBound() {
    SignUpPace pace = new SignUpPace();
    pace.created(60_000 * MS);
    assertEquals(SignUpPace.MAX_NANOS, pace.paddingNanos(0));
  }
}
