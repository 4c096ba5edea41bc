package io.boxoffice.app;

import io.boxoffice.cart.ShopMetrics;
import io.boxoffice.edge.EdgeMetrics;
import io.boxoffice.inventory.InventoryMetrics;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.WaitingRoom;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * This node's metrics in Prometheus format (Micrometer): per event the waiting room's lobby,
 * admissions, active shoppers and seats, holds and sales, requests shed by class; latency per
 * route; the inventory's journal write time and batch sizes; cluster members and shards; the JVM.
 */
public final class Metrics implements InventoryMetrics, EdgeMetrics, ShopMetrics {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<String, Timer> routes = new ConcurrentHashMap<>();
  private final Set<String> watchedEvents = ConcurrentHashMap.newKeySet();

  public Metrics() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** The Prometheus text of every metric. */
  public String scrape() {
    return registry.scrape();
  }

  /** How long requests to one kind of route take, with percentiles. */
  public Timer route(String name) {
    return routes.computeIfAbsent(name, n -> Timer.builder("boxoffice_http_request")
        .description("HTTP request latency by route").tag("route", n)
        .publishPercentiles(0.5, 0.99).publishPercentileHistogram().serviceLevelObjectives(Duration.ofMillis(100))
        .register(registry));
  }

  public Counter holds(String eventId) {
    return Counter.builder("boxoffice_holds").description("Seats held (durably) by the inventories on this node")
        .tag("event", eventId).register(registry);
  }

  public Counter sales(String eventId) {
    return Counter.builder("boxoffice_sales").description("Orders sold (durably) by the inventories on this node").tag("event", eventId).register(registry);
  }

  public Counter shed(String eventId, String priority) {
    return Counter.builder("boxoffice_requests_shed").description("Requests refused 503 by the event's bulkhead")
        .tags("event", eventId, "class", priority).register(registry);
  }

  @Override
  public void holdsAndSalesWritten(String eventId, int seatsHeld, int ordersSold, int seatsSold) {
    if (seatsHeld > 0) holds(eventId).increment(seatsHeld);
    if (ordersSold > 0) sales(eventId).increment(ordersSold);
  }

  @Override
  public void seatsReleasedByTimer(String eventId, int seats) {
    Counter.builder("boxoffice_holds_released_by_timer")
        .description("Seats of abandoned holds that the carts' hold timers gave back to the sale")
        .tag("event", eventId).register(registry).increment(seats);
  }

  @Override
  public void requestShed(String eventId, String priority) {
    shed(eventId, priority).increment();
  }

  @Override
  public void batchWritten(String eventId, int commands, int decisions, long writeNanos) {
    Timer.builder("boxoffice_journal_write").description("Inventory group-commit write time").tag("event", eventId)
        .publishPercentiles(0.5, 0.99).register(registry).record(writeNanos, TimeUnit.NANOSECONDS);
    DistributionSummary.builder("boxoffice_journal_batch_commands").description("Commands decided per group commit")
        .tag("event", eventId).publishPercentiles(0.5, 0.99).register(registry).record(commands);
  }

  /** This node's counters of each event, read by the managers' live dashboard. */
  public io.boxoffice.admin.LiveCounters live() {
    return new io.boxoffice.admin.LiveCounters() {
      @Override
      public double seatsHeld(String eventId) {
        Counter c = registry.find("boxoffice_holds").tag("event", eventId).counter();
        return c == null ? 0 : c.count();
      }

      @Override
      public Map<String, Double> shed(String eventId) {
        Map<String, Double> byClass = new java.util.HashMap<>();
        for (Counter c : registry.find("boxoffice_requests_shed").tag("event", eventId).counters()) {
          byClass.merge(c.getId().getTag("class"), c.count(), Double::sum);
        }
        return byClass;
      }
    };
  }

  /** Gauges of an on-sale event, read from this node's copy of its manifest. */
  public void watch(String eventId, Manifests manifests) {
    if (!watchedEvents.add(eventId)) return;
    Tags tags = Tags.of("event", eventId);
    gauge("boxoffice_lobby", "Accounts in the lobby", tags, manifests, eventId, WaitingRoom.Manifest::lobby);
    gauge("boxoffice_admitted_up_to", "The last place admitted", tags, manifests, eventId, WaitingRoom.Manifest::admittedUpTo);
    gauge("boxoffice_active_shoppers", "Admitted places still shopping", tags, manifests, eventId, WaitingRoom.Manifest::activeShoppers);
    gauge("boxoffice_seats_available", "Seats on sale", tags, manifests, eventId, WaitingRoom.Manifest::seatsRemaining);
    gauge("boxoffice_seats_held", "Seats held", tags, manifests, eventId, WaitingRoom.Manifest::seatsHeld);
    gauge("boxoffice_seats_sold", "Seats sold", tags, manifests, eventId, WaitingRoom.Manifest::seatsSold);
  }

  private void gauge(String name, String description, Tags tags, Manifests manifests, String eventId,
                     ToDoubleFunction<WaitingRoom.Manifest> value) {
    Gauge.builder(name, manifests, m -> {
      WaitingRoom.Manifest known = m.known(eventId);
      return known == null ? Double.NaN : value.applyAsDouble(known);
    }).description(description).tags(tags).strongReference(true).register(registry);
  }

  /** A gauge of something this node can count at any time. */
  public void gauge(String name, String description, Tags tags, java.util.function.Supplier<Number> value) {
    // Micrometer holds gauge objects weakly; these suppliers live nowhere else.
    Gauge.builder(name, value, v -> v.get().doubleValue()).description(description).tags(tags).strongReference(true).register(registry);
  }
}
