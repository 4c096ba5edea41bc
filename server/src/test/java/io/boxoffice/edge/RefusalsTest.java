package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import io.boxoffice.cart.Cart;
import io.boxoffice.common.Refusal;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.queue.WaitingRoom;
import io.boxoffice.support.TestConfigs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Refusals are typed from the entity to the edge and mapped to HTTP once: each maps to the
 * contract's status and error code (API.md), and in replies between nodes each keeps the code
 * string that nodes of the build before the enum wrote and read.
 */
class RefusalsTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());
  static final Serialization serialization = SerializationExtension.get(testKit.system());

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** The contract's status and code for each refusal, as the string-keyed mapping answered before the enum. */
  static final Map<Refusal, String> CONTRACT = new LinkedHashMap<>();
  static {
    CONTRACT.put(Refusal.NOT_FOUND, "404 not_found");
    CONTRACT.put(Refusal.EVENT_EXISTS, "409 event_exists");
    CONTRACT.put(Refusal.NOT_ADMITTED, "400 bad_request");
    CONTRACT.put(Refusal.BUSY, "503 overloaded");
    CONTRACT.put(Refusal.SEATS_TAKEN, "409 seats_taken");
    CONTRACT.put(Refusal.UNKNOWN_SEATS, "400 bad_request");
    CONTRACT.put(Refusal.NO_SEATS, "409 no_seats");
    CONTRACT.put(Refusal.LIMIT_EXCEEDED, "422 limit_exceeded");
    CONTRACT.put(Refusal.HOLD_EXPIRED, "410 hold_expired");
    CONTRACT.put(Refusal.INVALID, "400 bad_request");
    CONTRACT.put(Refusal.CHECKOUT_IN_PROGRESS, "409 checkout_in_progress");
    CONTRACT.put(Refusal.CART_CHANGED, "409 cart_changed");
    CONTRACT.put(Refusal.PAYMENT_DECLINED, "402 payment_declined");
    CONTRACT.put(Refusal.UNAVAILABLE, "503 unavailable");
    // The waiting room's, as the admin routes answered them before (409, the room's own code).
    CONTRACT.put(Refusal.ALREADY_SCHEDULED, "409 already_scheduled");
    CONTRACT.put(Refusal.ALREADY_STARTED, "409 already_started");
    CONTRACT.put(Refusal.NOT_ON_SALE, "409 not_on_sale");
    CONTRACT.put(Refusal.NOT_OPEN, "409 not_open");
    CONTRACT.put(Refusal.STARTED, "409 started");
    CONTRACT.put(Refusal.NOT_STARTED, "409 not_started");
    CONTRACT.put(Refusal.PLACE_GIVEN_UP, "409 place_given_up");
    CONTRACT.put(Refusal.RATE_LIMITED, "429 rate_limited");
  }

  @Test
  void everyRefusalMapsToTheContractsStatusAndCode() {
    assertEquals(List.of(Refusal.values()), List.copyOf(CONTRACT.keySet()), "every refusal has a row here");
    for (Refusal r : Refusal.values()) {
      ApiError e = Refusals.toApiError(r, "why", List.of());
      assertEquals(CONTRACT.get(r), e.status() + " " + e.code(), r.name());
    }
  }

  @Test
  void seatRefusalsNameTheSeats() {
    for (Refusal r : List.of(Refusal.SEATS_TAKEN, Refusal.UNKNOWN_SEATS, Refusal.HOLD_EXPIRED, Refusal.CART_CHANGED)) {
      assertEquals(Map.of("seats", List.of("A-1-2")), Refusals.toApiError(r, "why", List.of("A-1-2")).extra(), r.name());
    }
    assertEquals(Map.of(), Refusals.toApiError(Refusal.NO_SEATS, "why", List.of("A-1-2")).extra());
  }

  @Test
  void theCodesAreTheStringsRepliesCarriedBeforeTheEnum() {
    assertEquals(List.of("not_found", "event_exists", "not_admitted", "busy", "seats_taken", "unknown_seats", "no_seats",
            "limit_exceeded", "hold_expired", "invalid", "checkout_in_progress", "cart_changed", "payment_declined", "unavailable",
            "already_scheduled", "already_started", "not_on_sale", "not_open", "started", "not_started", "place_given_up",
            "rate_limited"),
        List.of(Refusal.values()).stream().map(Refusal::code).toList());
  }

  /** A reply of this build reads as the old build's {@code Rejected(String code, ...)}, and the old one's reads here. */
  @Test
  void repliesBetweenNodesKeepTheCodeString() throws Exception {
    CBORMapper cbor = new CBORMapper();
    for (Object reply : List.of(new EventInventory.Rejected(Refusal.SEATS_TAKEN, "some seats are taken", List.of("A-1-2")),
        new Cart.Rejected(Refusal.SEATS_TAKEN, "some seats are taken", List.of("A-1-2")))) {
      Serializer serializer = serialization.findSerializerFor(reply);
      String manifest = Serializers.manifestFor(serializer, reply);
      byte[] bytes = serialization.serialize(reply).get();
      JsonNode wire = cbor.readTree(bytes);
      assertEquals("seats_taken", wire.get("code").asText(), reply.getClass().getName());

      Map<String, Object> oldForm = new LinkedHashMap<>();
      oldForm.put("code", "seats_taken");
      oldForm.put("message", "some seats are taken");
      oldForm.put("seatIds", List.of("A-1-2"));
      Object read = serialization.deserialize(cbor.writeValueAsBytes(oldForm), serializer.identifier(), manifest).get();
      assertEquals(reply, read, reply.getClass().getName());
    }
  }

  /**
   * The waiting room's refusal was {@code Rejected(String code, String message)} before it was
   * typed: every code the room wrote reads back as its refusal, and the typed one writes the same string.
   */
  @Test
  void theWaitingRoomsRefusalsKeepTheCodeString() throws Exception {
    CBORMapper cbor = new CBORMapper();
    for (io.boxoffice.queue.domain.Refusal room : io.boxoffice.queue.domain.Refusal.values()) {
      WaitingRoom.Rejected reply = new WaitingRoom.Rejected(room.refusal(), room.message());
      Serializer serializer = serialization.findSerializerFor(reply);
      String manifest = Serializers.manifestFor(serializer, reply);
      JsonNode wire = cbor.readTree(serialization.serialize(reply).get());
      assertEquals(room.code(), wire.get("code").asText(), room.name());

      Map<String, Object> oldForm = new LinkedHashMap<>();
      oldForm.put("code", room.code());
      oldForm.put("message", room.message());
      Object read = serialization.deserialize(cbor.writeValueAsBytes(oldForm), serializer.identifier(), manifest).get();
      assertEquals(reply, read, room.name());
    }
    assertEquals(List.of("event_exists", "already_scheduled", "already_started", "not_found", "not_on_sale", "not_open",
            "started", "not_started", "place_given_up"),
        List.of(io.boxoffice.queue.domain.Refusal.values()).stream().map(io.boxoffice.queue.domain.Refusal::code).toList(),
        "the codes the room's replies carried before they were typed");
  }
}
