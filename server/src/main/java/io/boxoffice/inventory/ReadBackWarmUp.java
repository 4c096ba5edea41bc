package io.boxoffice.inventory;

import io.boxoffice.inventory.domain.Decision;
import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.inventory.domain.SeatBook;
import io.boxoffice.venue.domain.SeatMap;
import io.boxoffice.venue.domain.StadiumGenerator;
import io.boxoffice.venue.domain.VenueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;

/**
 * What a node does once, before it joins, so that the first event it takes over reads back
 * fast: a small made-up event's snapshot and batch go through the node's own serializer and are
 * read back as recovery reads them (the seat map compiled, the book rebuilt, the batch's
 * decisions applied). The first read of a 70,000-seat snapshot in a fresh JVM took 400 ms to
 * decode against 20-40 ms for the next ones (Jackson builds its readers of these types once,
 * classes load, the code runs interpreted); after this warm-up it took 90-120 ms. A failover
 * lands on a survivor that has usually never read an event back, on a machine busy with the
 * failover itself. Nothing here touches an entity, the journal or another node.
 */
public final class ReadBackWarmUp {

  /**
   * What was read back: the bytes the node's serializer wrote of the made-up event's snapshot and
   * batch, its seats, those the batch left held and sold, and how long it all took.
   */
  public record Result(int bytes, int seats, int held, int sold, Duration took) {}

  private static final String EVENT = "warm-up";
  private static final int SEATS = 300;

  private ReadBackWarmUp() {}

  public static Result run(ActorSystem<?> system) {
    long started = System.nanoTime();
    VenueLayout venue = StadiumGenerator.generate(EVENT, "Warm-up", SEATS);
    Map<String, Integer> prices = new LinkedHashMap<>();
    venue.sections().forEach(section -> prices.put(section.zone(), 100));
    EventDefinition definition = new EventDefinition(EVENT, "Warm-up", venue, prices, 480, 0, 8).validated();
    long now = System.currentTimeMillis();
    SeatBook book = new SeatBook(SeatMap.compile(venue), prices, definition.maxSeatsPerAccount());
    EventInventory.Snapshot snapshot = new EventInventory.Snapshot(definition, 1, book.toSnapshot(), false, now, List.of());
    // A batch after the snapshot: holds of a few fans, one of them bought.
    // (As the inventory does, each decision is applied before the next one is made.)
    List<Decision> decisions = new ArrayList<>();
    for (int fan = 0; fan < 4; fan++) {
      if (book.holdBest("fan-" + fan, 2, null, null, now, now + 480_000) instanceof SeatBook.Accepted a) {
        book.apply(a.decision());
        decisions.add(a.decision());
      }
    }
    if (!decisions.isEmpty() && decisions.get(0) instanceof Decision.Held h) {
      List<String> seats = java.util.Arrays.stream(h.seats()).mapToObj(book.map()::seatId).toList();
      if (book.confirm(h.account(), "warm-up-order", seats, now) instanceof SeatBook.Accepted a) {
        book.apply(a.decision());
        decisions.add(a.decision());
      }
    }
    EventInventory.BatchDecided batch = new EventInventory.BatchDecided(2, now, decisions);

    Serialization serialization = SerializationExtension.get(system);
    int[] bytes = new int[1];
    EventInventory.Snapshot readSnapshot = roundTrip(serialization, snapshot, bytes);
    EventInventory.BatchDecided readBatch = roundTrip(serialization, batch, bytes);
    EventDefinition read = readSnapshot.definition();
    SeatBook back = SeatBook.fromSnapshot(SeatMap.compile(read.venue()), read.prices(), read.maxSeatsPerAccount(), readSnapshot.book());
    back.expireUpTo(readBatch.at());
    readBatch.decisions().forEach(back::apply);
    int[] counts = back.counts(now);
    return new Result(bytes[0], back.map().seatCount(), counts[1], counts[2], Duration.ofNanos(System.nanoTime() - started));
  }

  @SuppressWarnings("unchecked")
  private static <T> T roundTrip(Serialization serialization, T value, int[] written) {
    Serializer serializer = serialization.findSerializerFor(value);
    byte[] bytes = serialization.serialize(value).get();
    written[0] += bytes.length;
    return (T) serialization.deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, value)).get();
  }
}
