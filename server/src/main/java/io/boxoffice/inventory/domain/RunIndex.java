package io.boxoffice.inventory.domain;

import io.boxoffice.venue.domain.SeatMap;
import java.util.BitSet;

/**
 * For each row, which lengths of free runs (adjacent available seats) it has, kept as bit sets
 * over rows in quality order: {@code atLeast[k]} has the rows with a run of k or more seats and
 * {@code exactly[k]} the rows with a run of exactly k. A best-available search is then a
 * {@code nextSetBit} per zone instead of a scan of every seat. A row's entry is recomputed
 * (one pass over its seats) whenever one of its seats changes.
 */
final class RunIndex {
  private final SeatMap map;
  private final int maxRun;
  private final int[] rowAtPosition;
  private final int[] positionOfRow;
  private final BitSet[] atLeast;
  private final BitSet[] exactly;

  RunIndex(SeatMap map, int[] rowAtPosition, int maxRun) {
    this.map = map;
    this.maxRun = maxRun;
    this.rowAtPosition = rowAtPosition;
    this.positionOfRow = new int[rowAtPosition.length];
    for (int p = 0; p < rowAtPosition.length; p++) positionOfRow[rowAtPosition[p]] = p;
    atLeast = new BitSet[maxRun + 1];
    exactly = new BitSet[maxRun + 1];
    for (int k = 0; k <= maxRun; k++) {
      atLeast[k] = new BitSet(rowAtPosition.length);
      exactly[k] = new BitSet(rowAtPosition.length);
    }
  }

  int maxRun() { return maxRun; }
  int rowAt(int position) { return rowAtPosition[position]; }

  /** First position in [from, to) whose row has a free run of at least k seats, or -1. */
  int firstAtLeast(int k, int from, int to) {
    int p = atLeast[Math.min(k, maxRun)].nextSetBit(from);
    return p >= 0 && p < to ? p : -1;
  }

  /** First position in [from, to) whose row has a free run of exactly k seats, or -1 (k below maxRun). */
  int firstExactly(int k, int from, int to) {
    int p = exactly[k].nextSetBit(from);
    return p >= 0 && p < to ? p : -1;
  }

  void recompute(int row, byte[] status) {
    int p = positionOfRow[row];
    for (int k = 1; k <= maxRun; k++) {
      atLeast[k].clear(p);
      exactly[k].clear(p);
    }
    int start = map.rowStart(row);
    int end = start + map.rowLength(row);
    int run = 0;
    for (int s = start; s <= end; s++) {
      if (s < end && status[s] == SeatBook.AVAILABLE) {
        run++;
      } else if (run > 0) {
        mark(p, run);
        run = 0;
      }
    }
  }

  private void mark(int position, int run) {
    if (run < maxRun) exactly[run].set(position);
    for (int k = Math.min(run, maxRun); k >= 1 && !atLeast[k].get(position); k--) atLeast[k].set(position);
  }
}
