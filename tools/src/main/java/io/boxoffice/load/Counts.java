package io.boxoffice.load;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts by two keys (a call and its answer, a kind of fan and an outcome), incremented from
 * any thread; read as sorted copies.
 */
public final class Counts<K extends Comparable<K>> {
  private final Map<String, Map<K, LongAdder>> counts = new ConcurrentHashMap<>();

  public void increment(String what, K key) {
    counts.computeIfAbsent(what, k -> new ConcurrentHashMap<>()).computeIfAbsent(key, k -> new LongAdder()).increment();
  }

  /** what -> key -> count, sorted. */
  public Map<String, Map<K, Long>> snapshot() {
    Map<String, Map<K, Long>> out = new TreeMap<>();
    counts.forEach((what, byKey) -> {
      Map<K, Long> m = new TreeMap<>();
      byKey.forEach((k, n) -> m.put(k, n.sum()));
      out.put(what, m);
    });
    return out;
  }
}
