package io.boxoffice.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.boxoffice.support.TestConfigs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The edge's share of the line: later places from leased blocks, in arrival order, however many arrive at once. */
class EdgeLineTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  /** A room that leases consecutive blocks from place 1 on, as the waiting room does. */
  static Behavior<WaitingRoom.Command> room() {
    return room(null);
  }

  /** The same, passing what the edge reports of the places it gave to {@code told} (when not null). */
  static Behavior<WaitingRoom.Command> room(ActorRef<WaitingRoom.PlacesAssigned> told) {
    long[] leased = {0};
    return Behaviors.receiveMessage(m -> {
      if (m instanceof WaitingRoom.LeasePlaces l) {
        l.replyTo().tell(new WaitingRoom.Leased(leased[0] + 1, leased[0] + l.count()));
        leased[0] += l.count();
      } else if (m instanceof WaitingRoom.PlacesAssigned a && told != null) {
        told.tell(a);
      }
      return Behaviors.same();
    });
  }

  @Test
  void aStadiumCrowdArrivingAtOnceGetsEveryPlaceOnceInArrivalOrder() {
    ActorRef<WaitingRoom.Command> room = testKit.spawn(room());
    EdgeLine line = new EdgeLine(id -> room, testKit.system().scheduler(), Duration.ofSeconds(10));
    int crowd = 50_000;
    List<CompletableFuture<Long>> places = new ArrayList<>(crowd);
    for (int i = 0; i < crowd; i++) places.add(line.nextPlace("stadium").toCompletableFuture());
    for (int i = 0; i < crowd; i++) assertEquals(i + 1, places.get(i).join(), "the place of arrival " + (i + 1));
    assertEquals(crowd + 1, line.nextPlace("stadium").toCompletableFuture().join(), "the next arrival after the crowd");
  }

  @Test
  void theHighestPlaceGivenIsToldAgainSoThatARoomStartedElsewhereLearnsIt() {
    TestProbe<WaitingRoom.PlacesAssigned> told = testKit.createTestProbe();
    ActorRef<WaitingRoom.Command> room = testKit.spawn(room(told.ref()));
    EdgeLine line = new EdgeLine(id -> room, testKit.system().scheduler(), Duration.ofSeconds(10), Duration.ofMinutes(30));
    for (int i = 0; i < 3; i++) line.nextPlace("hot").toCompletableFuture().join();
    long t0 = 1_000_000;
    line.report(t0);
    assertEquals(3, told.receiveMessage().highest());
    line.report(t0 + 1_000);
    assertEquals(3, told.receiveMessage().highest(), "unchanged, and told again: the room may have lost it");
    line.report(t0 + Duration.ofMinutes(30).toMillis());
    told.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void aRoomThatDoesNotLeaseFailsEveryWaitingRequest() {
    ActorRef<WaitingRoom.Command> silent = testKit.spawn(Behaviors.ignore());
    EdgeLine line = new EdgeLine(id -> silent, testKit.system().scheduler(), Duration.ofMillis(200));
    List<CompletableFuture<Long>> places = new ArrayList<>();
    for (int i = 0; i < 10; i++) places.add(line.nextPlace("quiet").toCompletableFuture());
    for (CompletableFuture<Long> p : places) {
      assertEquals(true, p.handle((v, e) -> e != null).join(), "a place with no lease fails (503 at the route)");
    }
  }
}
