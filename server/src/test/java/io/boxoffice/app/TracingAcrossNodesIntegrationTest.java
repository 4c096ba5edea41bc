package io.boxoffice.app;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.common.Tracing;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two nodes, each exporting its spans to its own collector: a fan's hold, release and checkout
 * sent to the node that does not host the event are each one trace, whose edge span is in the
 * entry node's collector and whose inventory and journal spans are in the host's, children of
 * the request across the sharding hop; the checkout's cart span, its payment calls and the
 * inventory's confirm are in the same trace.
 */
class TracingAcrossNodesIntegrationTest {
  static final InMemorySpanExporter spansOfA = InMemorySpanExporter.create();
  static final InMemorySpanExporter spansOfB = InMemorySpanExporter.create();
  static final List<OpenTelemetrySdk> sdks = new ArrayList<>();
  static Node a;
  static Node b;

  static Tracing tracingTo(InMemorySpanExporter exporter) {
    OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .setSampler(Sampler.parentBased(Sampler.alwaysOn()))
        .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
    sdks.add(otel);
    return Tracing.of(otel);
  }

  static Node start(int port, int seedPort, InMemorySpanExporter exporter) throws Exception {
    return Node.start(ConfigFactory.parseString("pekko.remote.artery.canonical.port = " + port + "\n"
            + "boxoffice.seed-nodes = \"127.0.0.1:" + seedPort + "\"\n")
            .withFallback(TestNode.config(TestNode.PG_URL, "target/unused")),
        new Node.Options(Clock.systemUTC(), TestNode.payments(), tracingTo(exporter)));
  }

  @BeforeAll
  static void startTwo() throws Exception {
    int seed = TestCluster.freePort();
    a = start(seed, seed, spansOfA);
    TestCluster.awaitUp(a, 1);
    b = start(TestCluster.freePort(), seed, spansOfB);
    TestCluster.awaitUp(a, 2);
    TestCluster.awaitUp(b, 2);
  }

  @AfterAll
  static void stop() {
    if (b != null) b.stop();
    if (a != null) a.stop();
    sdks.forEach(OpenTelemetrySdk::close);
  }

  static Optional<SpanData> span(InMemorySpanExporter exporter, String traceId, String name) {
    return exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getTraceId().equals(traceId) && s.getName().equals(name)).findFirst();
  }

  /** The span named {@code name} of the trace in {@code exporter}, once it has ended. */
  static SpanData awaitSpan(InMemorySpanExporter exporter, String traceId, String name) {
    return await(name + " in trace " + traceId).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
        .until(() -> span(exporter, traceId, name), Optional::isPresent).get();
  }

  @Test
  void holdReleaseAndCheckoutThroughTheOtherNodeAreEachOneTraceAcrossBoth() {
    String id = UUID.randomUUID().toString().substring(0, 8);
    String eventId = "e-" + id;
    HttpFan admin = new HttpFan(a.httpPort());
    TestCluster.createEvent(admin, "v-" + id, 200, eventId, "");
    HttpFan first = new HttpFan(a.httpPort());
    first.signUp("trace-2n-" + id + "@example.com");
    // The first hold starts the event's inventory somewhere; the fan then goes through the other node.
    assertEquals(200, first.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":1}}").status());
    await().atMost(Duration.ofSeconds(10)).until(() -> TestCluster.hosts(a, eventId) || TestCluster.hosts(b, eventId));
    boolean aHosts = TestCluster.hosts(a, eventId);
    Node entry = aHosts ? b : a;
    InMemorySpanExporter atEntry = aHosts ? spansOfB : spansOfA;
    InMemorySpanExporter atHost = aHosts ? spansOfA : spansOfB;
    HttpFan fan = new HttpFan(entry.httpPort()).withCookie(first.cookie());

    String holdTrace = "11111111111111111111111111111111";
    HttpFan.Reply held = fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}",
        "traceparent", "00-" + holdTrace + "-2222222222222222-01");
    assertEquals(200, held.status(), held.body());
    SpanData holdEdge = awaitSpan(atEntry, holdTrace, "POST /api/events/{eventId}/cart/holds");
    SpanData holdInventory = awaitSpan(atHost, holdTrace, "inventory HoldBest");
    SpanData holdWrite = awaitSpan(atHost, holdTrace, "journal write");
    assertEquals(holdEdge.getSpanId(), holdInventory.getParentSpanId(), "the inventory's span is the request's child, on the other node");
    assertEquals(holdInventory.getSpanId(), holdWrite.getParentSpanId());
    assertFalse(span(atEntry, holdTrace, "inventory HoldBest").isPresent(), "the hold ran on the host, not at the entry");

    String seat = held.json().get("seats").get(1).get("seatId").asText();
    String releaseTrace = "33333333333333333333333333333333";
    assertEquals(204, fan.send("DELETE", "/api/events/" + eventId + "/cart/holds/" + seat, null,
        "traceparent", "00-" + releaseTrace + "-4444444444444444-01").status());
    SpanData releaseEdge = awaitSpan(atEntry, releaseTrace, "DELETE /api/events/{eventId}/cart/holds/{seatId}");
    SpanData release = awaitSpan(atHost, releaseTrace, "inventory Release");
    assertEquals(releaseEdge.getSpanId(), release.getParentSpanId());
    assertEquals("Released", release.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("boxoffice.reply")));

    String checkoutTrace = "55555555555555555555555555555555";
    HttpFan.Reply bought = fan.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", "trace-" + id, "traceparent", "00-" + checkoutTrace + "-6666666666666666-01");
    assertEquals(200, bought.status(), bought.body());
    SpanData checkoutEdge = awaitSpan(atEntry, checkoutTrace, "POST /api/events/{eventId}/cart/checkout");
    // The cart lives on either node: its spans are in one collector or the other.
    SpanData cart = awaitEither(checkoutTrace, "cart Checkout");
    SpanData authorize = awaitEither(checkoutTrace, "payment authorize");
    SpanData capture = awaitEither(checkoutTrace, "payment capture");
    SpanData confirm = awaitSpan(atHost, checkoutTrace, "inventory Confirm");
    SpanData confirmWrite = awaitSpan(atHost, checkoutTrace, "journal write");
    assertEquals(checkoutEdge.getSpanId(), cart.getParentSpanId(), "the cart's span is the request's child");
    assertEquals(cart.getSpanId(), authorize.getParentSpanId());
    assertEquals(cart.getSpanId(), confirm.getParentSpanId(), "the confirm continues the cart's span at the event's node");
    assertEquals(cart.getSpanId(), capture.getParentSpanId());
    assertEquals(confirm.getSpanId(), confirmWrite.getParentSpanId());
    assertEquals("Confirmed", confirm.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("boxoffice.reply")));
    assertEquals("paid", cart.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("boxoffice.reply")));
    assertTrue(authorize.getEndEpochNanos() <= confirm.getStartEpochNanos(), "authorized before the seats are sold");
  }

  static SpanData awaitEither(String traceId, String name) {
    return await(name + " in trace " + traceId).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
        .until(() -> span(spansOfA, traceId, name).or(() -> span(spansOfB, traceId, name)), Optional::isPresent).get();
  }
}
