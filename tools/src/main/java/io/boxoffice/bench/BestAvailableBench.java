package io.boxoffice.bench;

import io.boxoffice.inventory.domain.SeatBook;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of one best-available search for 2 seats on the 80%-sold stadium of
 * {@link SoldShape}, as the inventory runs it for a {@code HoldBest}: {@link SeatBook#holdBest}
 * for an account the book has never seen. holdBest only returns a decision and this benchmark
 * never applies it, so every call searches the same book.
 *
 * <p>The peer, the seed's SKIP LOCKED statement on the same shape, is {@link BestAvailableSqlPeer}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BestAvailableBench {
  private static final long NOW = 1_750_000_000_000L;
  private static final long DEADLINE = NOW + 600_000;

  private SeatBook book;
  private final String[] accounts = new String[4096];
  private int next;

  @Setup(Level.Trial)
  public void sellEightyPercent() {
    book = SoldShape.soldBook();
    for (int i = 0; i < accounts.length; i++) accounts[i] = "fan-" + i;
    if (!(book.holdBest(accounts[0], 2, null, null, NOW, DEADLINE) instanceof SeatBook.Accepted)) {
      throw new IllegalStateException("the 80%-sold stadium has no 2 adjacent seats left");
    }
  }

  @Benchmark
  public SeatBook.Outcome holdBestTwo() {
    String account = accounts[next++ & (accounts.length - 1)];
    return book.holdBest(account, 2, null, null, NOW, DEADLINE);
  }
}
