package io.boxoffice.queue.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.random.RandomGenerator;

/** Picks a uniformly random sample of k items, for example the registrants invited to a presale. */
public final class Sampler {
  private Sampler() {}

  /**
   * {@code k} distinct positions of {@code items} chosen uniformly at random (every subset of
   * size k equally likely), in random order; all of them, shuffled, when there are no more than
   * k. The list itself is not changed.
   */
  public static <T> List<T> sample(List<T> items, int k, RandomGenerator random) {
    if (k < 0) throw new IllegalArgumentException("k must not be negative: " + k);
    List<T> pool = new ArrayList<>(items);
    int n = pool.size();
    int take = Math.min(k, n);
    // The first `take` steps of a Fisher-Yates shuffle: position i gets a uniform pick of what is left.
    for (int i = 0; i < take; i++) {
      Collections.swap(pool, i, i + random.nextInt(n - i));
    }
    return new ArrayList<>(pool.subList(0, take));
  }
}
