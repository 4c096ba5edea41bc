package io.boxoffice.accounts.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.accounts.domain.SignInBudget.Bucket;
import io.boxoffice.accounts.domain.SignInBudget.Kind;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which guesses share a budget: strangers' guesses never spend the owner's network's budget. */
class SignInBudgetTest {
  static final String EMAIL = "5f0c";
  static final String HOME = "203.0.113.0/24";
  static final String STRANGER = "198.51.100.0/24";

  @Test
  void aNetworkTheAccountSignedInFromHasABudgetOfItsOwnAndNoCeiling() {
    KnownNetworks known = KnownNetworks.NONE.remember(HOME);
    assertEquals(List.of(new Bucket(Kind.KNOWN_NETWORK, EMAIL + "|" + HOME)), SignInBudget.buckets(EMAIL, HOME, known));
  }

  @Test
  void anyOtherNetworkSpendsItsOwnBudgetForTheEmailThenTheEmailsCeiling() {
    KnownNetworks known = KnownNetworks.NONE.remember(HOME);
    List<Bucket> stranger = SignInBudget.buckets(EMAIL, STRANGER, known);
    assertEquals(List.of(new Bucket(Kind.EMAIL_NETWORK, EMAIL + "|" + STRANGER), new Bucket(Kind.EMAIL, EMAIL)), stranger);
    List<Bucket> home = SignInBudget.buckets(EMAIL, HOME, known);
    assertTrue(home.stream().noneMatch(stranger::contains), "no bucket the stranger spends is one the owner at home needs");
    assertNotEquals(SignInBudget.buckets(EMAIL, "192.0.2.0/24", known).get(0), stranger.get(0),
        "a new network of the owner's does not share the stranger's per-network budget");
  }

  @Test
  void knownNetworksKeepTheNewestEightWithoutRepeats() {
    KnownNetworks k = KnownNetworks.NONE;
    for (int i = 0; i < 10; i++) k = k.remember("10.0." + i + ".0/24");
    assertEquals(KnownNetworks.MAX, k.prefixes().size());
    assertFalse(k.contains("10.0.0.0/24"), "the oldest are forgotten");
    assertTrue(k.contains("10.0.9.0/24"));
    assertEquals(k, k.remember("10.0.5.0/24"), "remembering a known network changes nothing");
    assertEquals(IntStream.range(2, 10).mapToObj(i -> "10.0." + i + ".0/24").toList(), k.prefixes());
  }
}
