package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.queue.WaitingRoom;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.junit.jupiter.api.Test;

/** Issue 10: request metrics carry a status class, bounded labels, and ended sales' series go. */
class MetricsLabelsTest {
  final Metrics metrics = new Metrics();

  long requestSeries() {
    return metrics.registry().getMeters().stream().filter(m -> m.getId().getName().equals("boxoffice_http_request")).count();
  }

  @Test
  void aThousandRandomPathsCreateNoNewSeries() {
    for (String route : RouteNames.ALL) metrics.request(route, 404);
    long before = requestSeries();
    SplittableRandom random = new SplittableRandom(10);
    String[] prefixes = {"/", "/api/", "/api/events/", "/api/events/e1/", "/api/events/e1/queue/", "/api/events/e1/cart/",
        "/events/", "/admin/", "/api/events/e1/presale/", "/api/me/", "/gate/"};
    for (int i = 0; i < 1000; i++) {
      StringBuilder path = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
      int length = 1 + random.nextInt(40);
      for (int c = 0; c < length; c++) {
        int kind = random.nextInt(10);
        if (kind == 0) path.append('/');
        else if (kind == 1) path.append('%').append(String.format("%02X", random.nextInt(256)));
        else path.append((char) ('a' + random.nextInt(26)));
      }
      HttpRequest request = HttpRequest.create(path.toString())
          .withMethod(random.nextBoolean() ? HttpMethods.GET : HttpMethods.DELETE);
      String route = RouteNames.of(request);
      assertTrue(RouteNames.ALL.contains(route), path + " named " + route);
      metrics.request(route, 404).record(Duration.ofMillis(1));
    }
    assertEquals(before, requestSeries(), "no series beyond the fixed route names");
    metrics.request("made-up", 404);
    assertEquals(before, requestSeries(), "a name outside the fixed set counts as other");
  }

  @Test
  void theRequestTimerCarriesTheStatusClass() {
    metrics.request("hold", 200).record(Duration.ofMillis(3));
    metrics.request("hold", 409).record(Duration.ofMillis(3));
    metrics.request("hold", 503).record(Duration.ofMillis(3));
    metrics.request("hold", 0).record(Duration.ofMillis(3));
    String text = metrics.scrape();
    assertTrue(text.contains("boxoffice_http_request_seconds_count{route=\"hold\",status=\"2xx\"} 1"), text);
    assertTrue(text.contains("boxoffice_http_request_seconds_count{route=\"hold\",status=\"4xx\"} 1"));
    assertTrue(text.contains("boxoffice_http_request_seconds_count{route=\"hold\",status=\"5xx\"} 2"),
        "a request that failed without a response is a 5xx");
  }

  @Test
  void anEndedSalesSeriesGoAfterTheRetentionAndComeBackIfItSellsAgain() {
    Map<String, WaitingRoom.Manifest> known = new HashMap<>();
    known.put("ended-1", manifest("ended-1", "admitted"));
    known.put("selling-1", manifest("selling-1", "admitted"));
    for (String id : known.keySet()) {
      metrics.watch(id, known::get);
      metrics.holds(id).increment(2);
      metrics.sales(id).increment();
      metrics.requestShed(id, "read");
      metrics.batchWritten(id, 3, 3, 1_000_000);
    }
    Duration retention = Duration.ofMinutes(2);
    metrics.sweepEnded(known.values(), known::get, 0, retention);
    assertTrue(metrics.scrape().contains("event=\"ended-1\""), "a selling event keeps its series");

    known.put("ended-1", manifest("ended-1", "sold_out"));
    metrics.sweepEnded(known.values(), known::get, 1_000, retention);
    assertTrue(metrics.scrape().contains("event=\"ended-1\""), "kept for a last scrape");
    metrics.sweepEnded(known.values(), known::get, 1_000 + retention.toMillis(), retention);
    String text = metrics.scrape();
    assertFalse(text.contains("event=\"ended-1\""), "every series of the ended sale is gone");
    for (String name : List.of("boxoffice_lobby", "boxoffice_seats_sold", "boxoffice_holds_total", "boxoffice_sales_total",
        "boxoffice_requests_shed_total", "boxoffice_journal_write_seconds_count")) {
      assertTrue(text.contains(name + "{") && text.contains("event=\"selling-1\""), name + " of the other event stays");
    }

    // A late sale after the removal is swept again; seats back on sale bring the gauges back.
    metrics.sales("ended-1").increment();
    metrics.sweepEnded(known.values(), known::get, 2_000 + retention.toMillis(), retention);
    assertFalse(metrics.scrape().contains("event=\"ended-1\""));
    known.put("ended-1", manifest("ended-1", "admitted"));
    metrics.sweepEnded(known.values(), known::get, 3_000 + retention.toMillis(), retention);
    assertTrue(metrics.scrape().contains("boxoffice_seats_sold{event=\"ended-1\"}"));
  }

  @Test
  void everyHikariPoolInJmxGetsGaugesByName() throws Exception {
    String name = "metrics-test-" + System.nanoTime();
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setJdbcUrl("jdbc:h2:mem:" + name);
    config.setPoolName(name);
    config.setMaximumPoolSize(3);
    config.setMinimumIdle(1);
    config.setRegisterMbeans(true);
    try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config);
         java.sql.Connection held = pool.getConnection()) {
      metrics.bindPools();
      metrics.bindPools(); // bound once
      String text = metrics.scrape();
      assertTrue(text.contains("boxoffice_db_pool_active{pool=\"" + name + "\"} 1.0"), text);
      assertTrue(text.contains("boxoffice_db_pool_pending{pool=\"" + name + "\"} 0.0"));
      assertTrue(text.contains("boxoffice_db_pool_open{pool=\"" + name + "\"}"));
    }
  }

  static WaitingRoom.Manifest manifest(String eventId, String state) {
    return new WaitingRoom.Manifest(eventId, state, 10, 600, 100, 5, 20, 50, 3, 7, 0, 0, 0, "", 0, false, 0, false,
        "Show", "v", false, new long[0], new long[0]);
  }
}
