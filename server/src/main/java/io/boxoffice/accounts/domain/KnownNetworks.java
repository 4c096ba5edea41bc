package io.boxoffice.accounts.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * The client network prefixes an account has signed in from, newest last, at most {@link #MAX}:
 * a sign-in from one of them has a budget of wrong guesses of its own, which guesses from other
 * networks cannot spend (so strangers cannot lock the owner out from home).
 */
public record KnownNetworks(List<String> prefixes) {
  public static final int MAX = 8;
  public static final KnownNetworks NONE = new KnownNetworks(List.of());

  public KnownNetworks {
    prefixes = prefixes == null ? List.of() : List.copyOf(prefixes);
  }

  public boolean contains(String prefix) {
    return prefixes.contains(prefix);
  }

  /** With {@code prefix} remembered; the oldest is forgotten when there would be more than {@link #MAX}. */
  public KnownNetworks remember(String prefix) {
    if (contains(prefix)) return this;
    List<String> next = new ArrayList<>(prefixes);
    next.add(prefix);
    while (next.size() > MAX) next.remove(0);
    return new KnownNetworks(next);
  }
}
