package io.boxoffice.accounts.domain;

import java.util.List;

/**
 * Which budgets of password guesses a sign-in (or sign-up) attempt takes from, besides its
 * network's own budget for every email. Each is a token bucket keyed as named here; the attempt
 * is refused (429) when any of them is empty.
 *
 * <ul>
 *   <li>From a network the account has signed in from before: that network's budget for the
 *       email ({@link Kind#KNOWN_NETWORK}) and nothing else, so neither guesses from elsewhere
 *       nor a crowd of networks can lock the owner out there.
 *   <li>From any other network: that network's budget for the email ({@link Kind#EMAIL_NETWORK}),
 *       which one attacker spends alone, then the email's ceiling over all such networks
 *       ({@link Kind#EMAIL}), set high enough that only a distributed attack meets it.
 * </ul>
 */
public final class SignInBudget {
  private SignInBudget() {}

  public enum Kind { KNOWN_NETWORK, EMAIL_NETWORK, EMAIL }

  /** One bucket to take a token from. */
  public record Bucket(Kind kind, String key) {}

  /** The buckets, in the order to take them, for an attempt at {@code emailKey} from {@code prefix}. */
  public static List<Bucket> buckets(String emailKey, String prefix, KnownNetworks known) {
    if (known.contains(prefix)) return List.of(new Bucket(Kind.KNOWN_NETWORK, emailKey + "|" + prefix));
    return List.of(new Bucket(Kind.EMAIL_NETWORK, emailKey + "|" + prefix), new Bucket(Kind.EMAIL, emailKey));
  }
}
