package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SamplerTest {
  /** The 99.9th percentile of chi-square with 9 degrees of freedom: a fair sampler exceeds it once in a thousand seeds. */
  static final double CHI2_9DF_P999 = 27.877;

  static List<Integer> range(int n) {
    return IntStream.range(0, n).boxed().toList();
  }

  static double chiSquare(Map<?, Integer> counts, int categories, double expected) {
    assertEquals(categories, counts.size(), "every category drawn");
    return counts.values().stream().mapToDouble(c -> (c - expected) * (c - expected) / expected).sum();
  }

  @Test
  void kDistinctItemsOfTheListAndTheListUnchanged() {
    List<Integer> items = new java.util.ArrayList<>(range(100));
    List<Integer> sample = Sampler.sample(items, 10, new SplittableRandom(1));
    assertEquals(10, sample.size());
    assertEquals(10, new HashSet<>(sample).size());
    assertTrue(items.containsAll(sample));
    assertEquals(range(100), items);
  }

  @Test
  void everyoneWhenThereAreFewerThanKAndNobodyForZero() {
    assertEquals(Set.copyOf(range(5)), Set.copyOf(Sampler.sample(range(5), 8, new SplittableRandom(1))));
    assertEquals(5, Sampler.sample(range(5), 8, new SplittableRandom(1)).size());
    assertEquals(List.of(), Sampler.sample(range(5), 0, new SplittableRandom(1)));
    assertEquals(List.of(), Sampler.sample(List.of(), 3, new SplittableRandom(1)));
    assertThrows(IllegalArgumentException.class, () -> Sampler.sample(range(5), -1, new SplittableRandom(1)));
  }

  @Test
  void everySubsetIsEquallyLikely() {
    // 2 of 5: 10 possible pairs, each expected 2,000 times in 20,000 draws.
    SplittableRandom random = new SplittableRandom(20261201);
    Map<Set<Integer>, Integer> counts = new HashMap<>();
    int draws = 20_000;
    for (int i = 0; i < draws; i++) {
      counts.merge(new TreeSet<>(Sampler.sample(range(5), 2, random)), 1, Integer::sum);
    }
    double chi2 = chiSquare(counts, 10, draws / 10.0);
    assertTrue(chi2 < CHI2_9DF_P999, "chi-square " + chi2);
  }

  @Test
  void everyItemIsEquallyLikelyToBeInvited() {
    // 3 of 10: each item expected 9,000 times in 30,000 draws.
    SplittableRandom random = new SplittableRandom(7);
    Map<Integer, Integer> counts = new HashMap<>();
    int draws = 30_000;
    for (int i = 0; i < draws; i++) {
      for (int item : Sampler.sample(range(10), 3, random)) counts.merge(item, 1, Integer::sum);
    }
    double chi2 = chiSquare(counts, 10, draws * 3 / 10.0);
    assertTrue(chi2 < CHI2_9DF_P999, "chi-square " + chi2);
  }
}
