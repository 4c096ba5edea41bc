package io.boxoffice.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import io.boxoffice.load.Storefront;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Calls are counted in the window they were sent in (before, during, after a fault), over real HTTP. */
class SimTrafficWindowsTest {
  private HttpServer server;
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final AtomicInteger busyCalls = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/ok", x -> {
      byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    server.createContext("/busy", x -> {
      busyCalls.incrementAndGet();
      byte[] body = "{\"error\":\"overloaded\"}".getBytes(StandardCharsets.UTF_8);
      x.getResponseHeaders().add("Content-Type", "application/json");
      x.sendResponseHeaders(503, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    scheduler.shutdownNow();
  }

  @Test
  void eachCallCountsInTheWindowItWasSentInAndNoneOutsideThem() throws Exception {
    Storefront store = new Storefront(new int[] {server.getAddress().getPort()});
    Traffic t = new Traffic(store, "e", 4, Duration.ofSeconds(5), Duration.ofSeconds(5), scheduler);
    t.call("hold", null, "GET", "/ok", null, Map.of()).get();
    t.window(Fault.BEFORE);
    t.call("hold", null, "GET", "/ok", null, Map.of()).get();
    t.window(Fault.DURING);
    t.call("hold", null, "GET", "/busy", null, Map.of()).get();
    t.call("checkout", null, "GET", "/ok", null, Map.of()).get();
    t.window(Fault.AFTER);
    t.call("hold", null, "GET", "/ok", null, Map.of()).get();
    t.window(null);
    t.call("hold", null, "GET", "/ok", null, Map.of()).get();

    Map<String, Map<String, Map<String, Long>>> byWindow = t.answersByWindow();
    assertEquals(Map.of("hold", Map.of("200", 1L)), byWindow.get(Fault.BEFORE));
    assertEquals(Map.of("hold", Map.of("503 overloaded", 1L), "checkout", Map.of("200", 1L)), byWindow.get(Fault.DURING));
    assertEquals(Map.of("hold", Map.of("200", 1L)), byWindow.get(Fault.AFTER));
    assertEquals(4L, t.answers().get("hold").values().stream().mapToLong(Long::longValue).sum() - 1, "5 holds in all, 1 of them a 503");
    assertEquals(2, t.latencyByWindow().get(Fault.DURING).size());
    assertEquals(3, byWindow.size(), "the calls sent in no window are in none");
  }

  @Test
  void onceTheRunEndsNothingIsSentNotEvenARetry() throws Exception {
    Storefront store = new Storefront(new int[] {server.getAddress().getPort()});
    Traffic t = new Traffic(store, "e", 4, Duration.ofSeconds(5), Duration.ofSeconds(5), scheduler);
    Tab tab = new Tab(new Account(1, -1, "fan-1@example.com", true), 0, "198.51.100.7");
    CompletableFuture<Storefront.Reply> checkout = t.retrying("checkout", tab, "GET", "/busy", null, Map.of(), 8);
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> busyCalls.get() == 1);
    t.close();
    Storefront.Reply last = checkout.get(10, TimeUnit.SECONDS);
    assertEquals(503, last.status(), "the retry waiting for its Retry-After is not sent: the last answer stands");
    assertEquals(Traffic.NOT_SENT, t.call("hold", null, "GET", "/busy", null, Map.of()).get().status());
    assertEquals(1, busyCalls.get(), "the server saw the first attempt only");
  }
}
