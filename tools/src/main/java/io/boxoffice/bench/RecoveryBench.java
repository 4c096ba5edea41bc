package io.boxoffice.bench;

import io.boxoffice.app.Node;
import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.support.TestNode;
import io.boxoffice.venue.domain.StadiumGenerator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;

/**
 * How long a 70,000-seat event that is 80% sold takes to come back after its node restarts, on
 * PostgreSQL: the first answer from the event on a fresh node, with its snapshot, and, as the
 * peer measured in the same run, with the snapshots removed so the whole journal is replayed.
 * Run with {@code bench/run recovery}.
 */
public final class RecoveryBench {
  private static final Duration ASK = Duration.ofSeconds(30);

  public static void main(String[] args) throws Exception {
    String eventId = "recovery-" + UUID.randomUUID().toString().substring(0, 8);
    int seats = 70_000;
    Node node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    try {
      EntityRef<EventInventory.Command> inv = ClusterSharding.get(node.system()).entityRefFor(EventInventory.ENTITY_TYPE_KEY, eventId);
      EventDefinition d = new EventDefinition(eventId, "Recovery", StadiumGenerator.generate("v-" + eventId, "Stadium", seats),
          Map.of("floor", 20_000, "lower", 12_000, "upper", 6_000), 3600, 0, 2);
      inv.<EventInventory.Reply>ask(r -> new EventInventory.Create(d, r), ASK).toCompletableFuture().join();
      long t0 = System.nanoTime();
      int orders = sell(inv, seats * 8 / 10 / 2);
      System.out.printf("sold %d orders (%d seats) in %.1f s%n", orders, orders * 2, (System.nanoTime() - t0) / 1e9);
    } finally {
      node.stop();
    }

    List<Long> withSnapshot = new ArrayList<>();
    for (int i = 0; i < 3; i++) withSnapshot.add(firstAnswerMillis(eventId));
    deleteSnapshots("EventInventory|" + eventId);
    List<Long> fullReplay = new ArrayList<>();
    for (int i = 0; i < 3; i++) fullReplay.add(firstAnswerMillis(eventId));

    long snap = median(withSnapshot);
    long replay = median(fullReplay);
    System.out.println();
    System.out.println("=== recovery of a 70,000-seat event, 80% sold, PostgreSQL ===");
    System.out.printf("with snapshot (boxoffice)     : median %d ms  runs %s%n", snap, withSnapshot);
    System.out.printf("full journal replay (peer)    : median %d ms  runs %s%n", replay, fullReplay);
    System.out.printf("ratio replay / snapshot       : %.1fx%n", (double) replay / Math.max(1, snap));
  }

  /** Holds and confirms pairs from distinct accounts, 256 in flight, until {@code pairs} are sold. */
  private static int sell(EntityRef<EventInventory.Command> inv, int pairs) throws InterruptedException {
    Semaphore inFlight = new Semaphore(256);
    List<CompletableFuture<Boolean>> all = new ArrayList<>();
    for (int i = 0; i < pairs; i++) {
      String account = "fan-" + i;
      inFlight.acquire();
      CompletionStage<Boolean> sale = inv.<EventInventory.Reply>ask(r -> new EventInventory.HoldBest(account, 2, null, null, r), ASK)
          .thenCompose(reply -> {
            if (!(reply instanceof EventInventory.Held h)) return CompletableFuture.completedFuture(false);
            List<String> ids = h.seats().stream().map(EventInventory.SeatPrice::seatId).toList();
            return inv.<EventInventory.Reply>ask(r -> new EventInventory.Confirm(account, "order-" + account, ids, r), ASK)
                .thenApply(c -> c instanceof EventInventory.Confirmed);
          });
      all.add(sale.toCompletableFuture().whenComplete((ok, e) -> inFlight.release()));
    }
    return (int) all.stream().map(CompletableFuture::join).filter(b -> b).count();
  }

  /** Starts a node and times the first answer of the event: shard allocation plus recovery. */
  private static long firstAnswerMillis(String eventId) throws Exception {
    Node node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    try {
      EntityRef<EventInventory.Command> inv = ClusterSharding.get(node.system()).entityRefFor(EventInventory.ENTITY_TYPE_KEY, eventId);
      long t0 = System.nanoTime();
      EventInventory.Stats stats = (EventInventory.Stats) inv.<EventInventory.Reply>ask(EventInventory.GetStats::new, ASK)
          .toCompletableFuture().join();
      long ms = (System.nanoTime() - t0) / 1_000_000;
      if (stats.sold() == 0) throw new IllegalStateException("recovered nothing");
      return ms;
    } finally {
      node.stop();
    }
  }

  private static void deleteSnapshots(String persistenceId) throws Exception {
    try (Connection c = DriverManager.getConnection(TestNode.PG_URL, "postgres", "");
         PreparedStatement st = c.prepareStatement("DELETE FROM snapshot WHERE persistence_id = ?")) {
      st.setString(1, persistenceId);
      System.out.println("deleted " + st.executeUpdate() + " snapshots for the full-replay runs");
    }
  }

  private static long median(List<Long> xs) {
    List<Long> sorted = new ArrayList<>(xs);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
