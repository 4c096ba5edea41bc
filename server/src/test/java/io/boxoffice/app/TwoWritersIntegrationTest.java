package io.boxoffice.app;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.inventory.EventInventory;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fence against a zombie writer. Two single-node clusters on one database, what a network
 * partition or a node waking from a long pause amounts to until the split-brain resolver has
 * stopped one side, both run the inventory of one event and sell it at the same time. The
 * journal's unique (persistence id, sequence number) refuses whichever write comes second; the
 * refused writer restarts from the journal and decides on top of the other's sales. So no seat
 * is in two confirmed sales, and every sale either side confirmed is there when a third node
 * recovers the event afterwards. Other events of a writer, which share its journal plugin, lose
 * no answer to the refused writes.
 */
class TwoWritersIntegrationTest {
  private static final Duration ASK = Duration.ofSeconds(5);
  private final List<Node> nodes = new ArrayList<>();

  @AfterEach
  void stopAll() {
    for (Node n : nodes) {
      if (!n.system().whenTerminated().isCompleted()) n.stop();
    }
  }

  /** One sale confirmed to a fan: which writer confirmed it, when, the order and its seats. */
  record Sale(String writer, long confirmedAt, String orderId, List<String> seatIds) {}

  @Test
  void twoLiveWritersOfOneEventNeverSellASeatTwiceAndLoseNoConfirmedSale() throws Exception {
    String id = UUID.randomUUID().toString().substring(0, 8);
    String eventId = "tw-" + id;
    Node a = start();
    HttpFan admin = new HttpFan(a.httpPort());
    TestCluster.createEvent(admin, "twv-" + id, 4000, eventId, "\"maxSeatsPerAccount\":50,");
    List<String> bystanders = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      bystanders.add("twb-" + i + "-" + id);
      TestCluster.createEvent(admin, "twv-" + id, 4000, bystanders.get(i), "\"maxSeatsPerAccount\":50,");
    }
    // A second cluster that knows nothing of the first: its copy of the event recovers from the
    // same journal, and from now on both copies take commands.
    Node b = start();
    for (Node n : List.of(a, b)) {
      assertTrue(ask(n, eventId, EventInventory.GetStats::new) instanceof EventInventory.Stats, "the event runs on both writers");
    }

    ConcurrentLinkedQueue<Sale> sales = new ConcurrentLinkedQueue<>();
    LongAdder bystanderAsks = new LongAdder();
    ConcurrentLinkedQueue<String> bystandersUnanswered = new ConcurrentLinkedQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger accounts = new AtomicInteger();
    // Fans of each writer buy a few times a second: a writer that was refused gets its turn again
    // (against a writer that never pauses, its replay would always come too late).
    ScheduledExecutorService fans = Executors.newScheduledThreadPool(6);
    for (int i = 0; i < 3; i++) {
      for (Map.Entry<String, Node> writer : Map.of("a", a, "b", b).entrySet()) {
        fans.scheduleWithFixedDelay(() -> buyTwoSeats(writer.getValue(), writer.getKey(), eventId,
            writer.getKey() + accounts.incrementAndGet(), sales), i * 100L, 300, TimeUnit.MILLISECONDS);
      }
    }
    // Sixteen other events of writer a keep its journal plugin busy: with more writes waiting than
    // its parallelism (8), the plugin would merge rows of several events into one insert.
    ExecutorService pool = Executors.newFixedThreadPool(16);
    List<Future<?>> running = new ArrayList<>();
    for (String bystander : bystanders) {
      running.add(pool.submit(() -> {
        int n = 0;
        while (!stop.get()) {
          String account = "by" + (n++ % 20);
          Object reply = askOnce(a, bystander, ref -> new EventInventory.HoldBest(account, 1, null, null, null, UUID.randomUUID().toString(), ref),
              Duration.ofSeconds(10));
          bystanderAsks.increment();
          if (reply == null) bystandersUnanswered.add(bystander);
          if (reply instanceof EventInventory.Held h) {
            askOnce(a, bystander, ref -> new EventInventory.Release(account, null, ref), Duration.ofSeconds(10));
          }
        }
      }));
    }

    // Both writers sell, each in turn refused by the other, until each has sold a while after the other.
    try {
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertTrue(
          interleaved(sales) && countByWriter(sales).size() == 2 && countByWriter(sales).values().stream().allMatch(n -> n >= 5),
          "both writers sell at the same time: sales by writer " + countByWriter(sales)));
    } finally {
      stop.set(true);
      fans.shutdown();
      assertTrue(fans.awaitTermination(60, TimeUnit.SECONDS));
      for (Future<?> f : running) f.get(60, TimeUnit.SECONDS);
      pool.shutdown();
    }
    Map<String, List<String>> soldTwice = seatsInTwoSales(sales);
    Map<Long, List<String>> rowsTwice = sequenceNumbersWrittenTwice("EventInventory|" + eventId);

    // A fresh node recovers the event from the journal: each ticket sold to a fan is admitted there.
    a.stop();
    b.stop();
    Node c = start();
    EventInventory.Stats stats = (EventInventory.Stats) ask(c, eventId, EventInventory.GetStats::new);
    int seatsConfirmed = sales.stream().mapToInt(s -> s.seatIds().size()).sum();
    List<String> missing = new ArrayList<>();
    for (Sale s : sales) {
      for (String seat : s.seatIds()) {
        Object scanned = ask(c, eventId, ref -> new EventInventory.Scan(seat, s.orderId(), ref));
        if (!(scanned instanceof EventInventory.Admitted)) missing.add(s.orderId() + " " + seat + ": " + scanned);
      }
    }
    System.out.printf("two writers: sales by writer %s, %d seats confirmed, %s after recovery; other events: %d asks%n",
        countByWriter(sales), seatsConfirmed, stats, bystanderAsks.sum());
    assertAll(
        () -> assertEquals(Map.of(), soldTwice, "seats in two sales confirmed to fans"),
        () -> assertEquals(Map.of(), rowsTwice, "sequence numbers with two journal rows (writers)"),
        () -> assertEquals(List.of(), missing, "sales confirmed to fans but missing after recovery"),
        () -> assertTrue(stats.sold() >= seatsConfirmed, stats + " after " + seatsConfirmed + " seats confirmed"),
        () -> assertEquals(List.of(), List.copyOf(bystandersUnanswered), "asks to other events of a writer left unanswered ("
            + bystanderAsks.sum() + " asks): a refused write must fail only its own event"));
  }

  /** Seats that are in more than one confirmed sale, with those sales' orders. */
  private static Map<String, List<String>> seatsInTwoSales(ConcurrentLinkedQueue<Sale> sales) {
    Map<String, List<String>> ordersBySeat = new TreeMap<>();
    for (Sale s : sales) {
      for (String seat : s.seatIds()) ordersBySeat.computeIfAbsent(seat, k -> new ArrayList<>()).add(s.orderId());
    }
    Map<String, List<String>> twice = new TreeMap<>();
    ordersBySeat.forEach((seat, orders) -> {
      if (orders.size() > 1) twice.put(seat, orders);
    });
    return twice;
  }

  /** A fan of this writer holds the best two seats and buys them; a confirmed sale is recorded. */
  private static void buyTwoSeats(Node writer, String name, String eventId, String account, ConcurrentLinkedQueue<Sale> sales) {
    String requestId = UUID.randomUUID().toString();
    Object held = askAgain(writer, eventId, ref -> new EventInventory.HoldBest(account, 2, null, null, null, requestId, ref));
    if (!(held instanceof EventInventory.Held h)) return;
    List<String> seats = h.seats().stream().map(EventInventory.SeatPrice::seatId).toList();
    String orderId = eventId + "." + account + ".1";
    Object sold = askAgain(writer, eventId, ref -> new EventInventory.Confirm(account, orderId, seats, ref));
    if (sold instanceof EventInventory.Confirmed c) {
      sales.add(new Sale(name, System.nanoTime(), orderId, c.seats().stream().map(EventInventory.SeatPrice::seatId).toList()));
    }
  }

  /** Asked again while unanswered (a refused writer restarting drops its batch's asks); null if never answered. */
  private static Object askAgain(Node node, String eventId, Function<ActorRef<EventInventory.Reply>, EventInventory.Command> message) {
    for (int attempt = 0; attempt < 4; attempt++) {
      Object reply = askOnce(node, eventId, message, ASK);
      if (reply != null) return reply;
    }
    return null;
  }

  private static Object askOnce(Node node, String eventId, Function<ActorRef<EventInventory.Reply>, EventInventory.Command> message,
                                Duration timeout) {
    try {
      return AskPattern.<EventInventory.Command, EventInventory.Reply>ask(
              ClusterSharding.get(node.system()).entityRefFor(EventInventory.ENTITY_TYPE_KEY, eventId), message::apply, timeout,
              node.system().scheduler())
          .toCompletableFuture().join();
    } catch (CompletionException e) {
      return null;
    }
  }

  private static Object ask(Node node, String eventId, Function<ActorRef<EventInventory.Reply>, EventInventory.Command> message) {
    Object reply = askAgain(node, eventId, message);
    if (reply == null) throw new AssertionError("no answer from " + eventId);
    return reply;
  }

  /** Each writer confirmed a sale after one of the other's: the two were selling at the same time. */
  private static boolean interleaved(ConcurrentLinkedQueue<Sale> sales) {
    List<Sale> inOrder = new ArrayList<>(sales);
    inOrder.sort((x, y) -> Long.compare(x.confirmedAt(), y.confirmedAt()));
    Set<String> soldAfterTheOther = new java.util.HashSet<>();
    for (int i = 1; i < inOrder.size(); i++) {
      if (!inOrder.get(i).writer().equals(inOrder.get(i - 1).writer())) soldAfterTheOther.add(inOrder.get(i).writer());
    }
    return soldAfterTheOther.size() == 2;
  }

  private static Map<String, Integer> countByWriter(ConcurrentLinkedQueue<Sale> sales) {
    Map<String, Integer> counts = new HashMap<>();
    for (Sale s : sales) counts.merge(s.writer(), 1, Integer::sum);
    return counts;
  }

  /** Sequence numbers of the persistence id that have more than one journal row, with their writers. */
  private static Map<Long, List<String>> sequenceNumbersWrittenTwice(String persistenceId) throws Exception {
    Map<Long, List<String>> out = new TreeMap<>();
    try (Connection c = DriverManager.getConnection(TestNode.PG_URL, "postgres", "");
         PreparedStatement st = c.prepareStatement("SELECT sequence_number, writer FROM event_journal WHERE persistence_id = ?"
             + " AND sequence_number IN (SELECT sequence_number FROM event_journal WHERE persistence_id = ?"
             + " GROUP BY sequence_number HAVING count(*) > 1)")) {
      st.setString(1, persistenceId);
      st.setString(2, persistenceId);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) out.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(rs.getString(2));
      }
    }
    return out;
  }

  /** A node that forms a cluster of its own. */
  private Node start() throws Exception {
    Node node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    nodes.add(node);
    TestCluster.awaitUp(node, 1);
    return node;
  }
}
