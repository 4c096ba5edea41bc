package io.boxoffice.cart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.boxoffice.cart.domain.Order;
import io.boxoffice.cart.domain.PricedSeat;
import io.boxoffice.cart.domain.Step;
import io.boxoffice.inventory.EventInventory.SeatPrice;
import io.boxoffice.support.TestConfigs;
import io.boxoffice.tickets.domain.Ticket;
import java.util.Base64;
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
 * The cart's journal events and snapshot as stored: the manifest (the class name jackson-cbor
 * records) and the bytes, taken from the code that wrote them. Carts in production journals
 * must read back after any refactoring, so a change that moves or renames a persisted class or
 * field fails here; one that only changes the encoding (a library upgrade) fails the byte check
 * alone, and may be re-pinned once the stored forms still read back.
 */
class CartJournalFormatTest {
  static final ActorTestKit testKit = ActorTestKit.create(TestConfigs.entityConfig());
  static final Serialization serialization = SerializationExtension.get(testKit.system());
  static final int JACKSON_CBOR = 33;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static final String ORDER_1 = "ev-1.fan.1";
  static final List<SeatPrice> SEATS = List.of(new SeatPrice("F1-A-1", 10_000), new SeatPrice("F1-A-2", 10_000));
  static final List<PricedSeat> PRICED = List.of(new PricedSeat("F1-A-1", 10_000), new PricedSeat("F1-A-2", 10_000));
  static final List<Ticket> TICKETS = List.of(
      new Ticket(ORDER_1 + ".F1-A-1", "ev-1", "F1-A-1", ORDER_1, "tk1.barcode-1"),
      new Ticket(ORDER_1 + ".F1-A-2", "ev-1", "F1-A-2", ORDER_1, "tk1.barcode-2"));

  /** One of each event, and a snapshot with an order at every step. */
  static Map<String, Object> samples() {
    Map<String, Object> samples = new LinkedHashMap<>();
    samples.put("started", new Cart.CheckoutStarted("k1", ORDER_1, SEATS, 20_000, "tok_visa", 1_796_119_200_000L));
    samples.put("authorized", new Cart.PaymentAuthorized(ORDER_1, "auth-1"));
    samples.put("declined", new Cart.PaymentDeclined("ev-1.fan.2", "card declined"));
    samples.put("sold", new Cart.SaleRecorded(ORDER_1, TICKETS));
    samples.put("captured", new Cart.PaymentCaptured(ORDER_1));
    samples.put("failed", new Cart.CheckoutFailed("ev-1.fan.3", "hold_expired"));
    samples.put("voided", new Cart.PaymentVoided("ev-1.fan.3"));
    samples.put("filed", new Cart.OrderFiled(ORDER_1));
    samples.put("snapshot", new Cart.State(List.of(
        new Order("k1", ORDER_1, PRICED, 20_000, "tok_visa", Step.CAPTURED, "auth-1", TICKETS, null, true),
        new Order("k2", "ev-1.fan.2", PRICED, 20_000, "tok_declined", Step.DECLINED, null, List.of(), "payment_declined", false),
        new Order("k3", "ev-1.fan.3", PRICED, 20_000, "tok_slow", Step.VOIDED, "auth-3", List.of(), "hold_expired", false),
        new Order("k4", "ev-1.fan.4", PRICED, 20_000, "tok_visa", Step.VOIDING, null, List.of(), "payment_unavailable", false),
        new Order("k5", "ev-1.fan.5", PRICED, 20_000, "tok_visa", Step.SOLD, "auth-5", TICKETS, null, false),
        new Order("k6", "ev-1.fan.6", PRICED, 20_000, "tok_visa", Step.AUTHORIZED, "auth-6", List.of(), null, false),
        new Order("k7", "ev-1.fan.7", PRICED, 20_000, "tok_visa", Step.STARTED, null, List.of(), null, false))));
    return samples;
  }

  /** What the code before the checkout saga moved into {@code cart.domain} wrote (jackson-cbor, serializer 33). */
  static Map<String, Stored> stored() {
    Map<String, Stored> stored = new LinkedHashMap<>();
    stored.put("started", new Stored("io.boxoffice.cart.Cart$CheckoutStarted",
        "v2NrZXliazFnb3JkZXJJZGpldi0xLmZhbi4xZXNlYXRzgr9mc2VhdElkZkYxLUEtMWpwcmljZUNlbnRzGScQ/79mc2VhdElk" +
        "ZkYxLUEtMmpwcmljZUNlbnRzGScQ/2thbW91bnRDZW50cxlOIGxwYXltZW50VG9rZW5odG9rX3Zpc2FiYXQbAAABojEMAQD/"));
    stored.put("authorized", new Stored("io.boxoffice.cart.Cart$PaymentAuthorized",
        "v2dvcmRlcklkamV2LTEuZmFuLjFvYXV0aG9yaXphdGlvbklkZmF1dGgtMf8="));
    stored.put("declined", new Stored("io.boxoffice.cart.Cart$PaymentDeclined",
        "v2dvcmRlcklkamV2LTEuZmFuLjJmcmVhc29ubWNhcmQgZGVjbGluZWT/"));
    stored.put("sold", new Stored("io.boxoffice.cart.Cart$SaleRecorded",
        "v2dvcmRlcklkamV2LTEuZmFuLjFndGlja2V0c4K/aHRpY2tldElkcWV2LTEuZmFuLjEuRjEtQS0xZ2V2ZW50SWRkZXYtMWZz" +
        "ZWF0SWRmRjEtQS0xZ29yZGVySWRqZXYtMS5mYW4uMWdiYXJjb2RlbXRrMS5iYXJjb2RlLTH/v2h0aWNrZXRJZHFldi0xLmZh" +
        "bi4xLkYxLUEtMmdldmVudElkZGV2LTFmc2VhdElkZkYxLUEtMmdvcmRlcklkamV2LTEuZmFuLjFnYmFyY29kZW10azEuYmFy" +
        "Y29kZS0y//8="));
    stored.put("captured", new Stored("io.boxoffice.cart.Cart$PaymentCaptured",
        "v2dvcmRlcklkamV2LTEuZmFuLjH/"));
    stored.put("failed", new Stored("io.boxoffice.cart.Cart$CheckoutFailed",
        "v2dvcmRlcklkamV2LTEuZmFuLjNnZmFpbHVyZWxob2xkX2V4cGlyZWT/"));
    stored.put("voided", new Stored("io.boxoffice.cart.Cart$PaymentVoided",
        "v2dvcmRlcklkamV2LTEuZmFuLjP/"));
    stored.put("filed", new Stored("io.boxoffice.cart.Cart$OrderFiled",
        "v2dvcmRlcklkamV2LTEuZmFuLjH/"));
    stored.put("snapshot", new Stored("io.boxoffice.cart.Cart$State",
        "v2ZvcmRlcnOHv2NrZXliazFnb3JkZXJJZGpldi0xLmZhbi4xZXNlYXRzgr9mc2VhdElkZkYxLUEtMWpwcmljZUNlbnRzGScQ" +
        "/79mc2VhdElkZkYxLUEtMmpwcmljZUNlbnRzGScQ/2thbW91bnRDZW50cxlOIGxwYXltZW50VG9rZW5odG9rX3Zpc2Fkc3Rl" +
        "cGhDQVBUVVJFRG9hdXRob3JpemF0aW9uSWRmYXV0aC0xZ3RpY2tldHOCv2h0aWNrZXRJZHFldi0xLmZhbi4xLkYxLUEtMWdl" +
        "dmVudElkZGV2LTFmc2VhdElkZkYxLUEtMWdvcmRlcklkamV2LTEuZmFuLjFnYmFyY29kZW10azEuYmFyY29kZS0x/79odGlj" +
        "a2V0SWRxZXYtMS5mYW4uMS5GMS1BLTJnZXZlbnRJZGRldi0xZnNlYXRJZGZGMS1BLTJnb3JkZXJJZGpldi0xLmZhbi4xZ2Jh" +
        "cmNvZGVtdGsxLmJhcmNvZGUtMv9nZmFpbHVyZfZlZmlsZWT1/79ja2V5YmsyZ29yZGVySWRqZXYtMS5mYW4uMmVzZWF0c4K/" +
        "ZnNlYXRJZGZGMS1BLTFqcHJpY2VDZW50cxknEP+/ZnNlYXRJZGZGMS1BLTJqcHJpY2VDZW50cxknEP9rYW1vdW50Q2VudHMZ" +
        "TiBscGF5bWVudFRva2VubHRva19kZWNsaW5lZGRzdGVwaERFQ0xJTkVEb2F1dGhvcml6YXRpb25JZPZndGlja2V0c4BnZmFp" +
        "bHVyZXBwYXltZW50X2RlY2xpbmVkZWZpbGVk9P+/Y2tleWJrM2dvcmRlcklkamV2LTEuZmFuLjNlc2VhdHOCv2ZzZWF0SWRm" +
        "RjEtQS0xanByaWNlQ2VudHMZJxD/v2ZzZWF0SWRmRjEtQS0yanByaWNlQ2VudHMZJxD/a2Ftb3VudENlbnRzGU4gbHBheW1l" +
        "bnRUb2tlbmh0b2tfc2xvd2RzdGVwZlZPSURFRG9hdXRob3JpemF0aW9uSWRmYXV0aC0zZ3RpY2tldHOAZ2ZhaWx1cmVsaG9s" +
        "ZF9leHBpcmVkZWZpbGVk9P+/Y2tleWJrNGdvcmRlcklkamV2LTEuZmFuLjRlc2VhdHOCv2ZzZWF0SWRmRjEtQS0xanByaWNl" +
        "Q2VudHMZJxD/v2ZzZWF0SWRmRjEtQS0yanByaWNlQ2VudHMZJxD/a2Ftb3VudENlbnRzGU4gbHBheW1lbnRUb2tlbmh0b2tf" +
        "dmlzYWRzdGVwZ1ZPSURJTkdvYXV0aG9yaXphdGlvbklk9md0aWNrZXRzgGdmYWlsdXJlc3BheW1lbnRfdW5hdmFpbGFibGVl" +
        "ZmlsZWT0/79ja2V5Yms1Z29yZGVySWRqZXYtMS5mYW4uNWVzZWF0c4K/ZnNlYXRJZGZGMS1BLTFqcHJpY2VDZW50cxknEP+/" +
        "ZnNlYXRJZGZGMS1BLTJqcHJpY2VDZW50cxknEP9rYW1vdW50Q2VudHMZTiBscGF5bWVudFRva2VuaHRva192aXNhZHN0ZXBk" +
        "U09MRG9hdXRob3JpemF0aW9uSWRmYXV0aC01Z3RpY2tldHOCv2h0aWNrZXRJZHFldi0xLmZhbi4xLkYxLUEtMWdldmVudElk" +
        "ZGV2LTFmc2VhdElkZkYxLUEtMWdvcmRlcklkamV2LTEuZmFuLjFnYmFyY29kZW10azEuYmFyY29kZS0x/79odGlja2V0SWRx" +
        "ZXYtMS5mYW4uMS5GMS1BLTJnZXZlbnRJZGRldi0xZnNlYXRJZGZGMS1BLTJnb3JkZXJJZGpldi0xLmZhbi4xZ2JhcmNvZGVt" +
        "dGsxLmJhcmNvZGUtMv9nZmFpbHVyZfZlZmlsZWT0/79ja2V5Yms2Z29yZGVySWRqZXYtMS5mYW4uNmVzZWF0c4K/ZnNlYXRJ" +
        "ZGZGMS1BLTFqcHJpY2VDZW50cxknEP+/ZnNlYXRJZGZGMS1BLTJqcHJpY2VDZW50cxknEP9rYW1vdW50Q2VudHMZTiBscGF5" +
        "bWVudFRva2VuaHRva192aXNhZHN0ZXBqQVVUSE9SSVpFRG9hdXRob3JpemF0aW9uSWRmYXV0aC02Z3RpY2tldHOAZ2ZhaWx1" +
        "cmX2ZWZpbGVk9P+/Y2tleWJrN2dvcmRlcklkamV2LTEuZmFuLjdlc2VhdHOCv2ZzZWF0SWRmRjEtQS0xanByaWNlQ2VudHMZ" +
        "JxD/v2ZzZWF0SWRmRjEtQS0yanByaWNlQ2VudHMZJxD/a2Ftb3VudENlbnRzGU4gbHBheW1lbnRUb2tlbmh0b2tfdmlzYWRz" +
        "dGVwZ1NUQVJURURvYXV0aG9yaXphdGlvbklk9md0aWNrZXRzgGdmYWlsdXJl9mVmaWxlZPT//w=="));
    return stored;
  }

  record Stored(String manifest, String base64) {
    byte[] bytes() {
      return Base64.getDecoder().decode(base64);
    }
  }

  @Test
  void theStoredEventsAndSnapshotReadBackAsTheSameValues() {
    Map<String, Object> samples = samples();
    stored().forEach((name, stored) -> {
      Object read = serialization.deserialize(stored.bytes(), JACKSON_CBOR, stored.manifest()).get();
      assertEquals(samples.get(name), read, name);
    });
  }

  @Test
  void theEventsAndSnapshotAreWrittenUnderTheSameClassNamesAndBytes() {
    Map<String, Stored> stored = stored();
    samples().forEach((name, sample) -> {
      Serializer serializer = serialization.findSerializerFor(sample);
      assertEquals(JACKSON_CBOR, serializer.identifier(), name);
      assertEquals(stored.get(name).manifest(), Serializers.manifestFor(serializer, sample), name);
      assertArrayEquals(stored.get(name).bytes(), serialization.serialize(sample).get(), name);
    });
  }
}
