package io.boxoffice.app;

import io.boxoffice.cart.ShopMetrics;
import io.boxoffice.edge.EdgeMetrics;
import io.boxoffice.inventory.InventoryMetrics;
import io.boxoffice.queue.Manifests;
import io.boxoffice.queue.WaitingRoom;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * This node's metrics in Prometheus format (Micrometer): per event the waiting room's lobby,
 * admissions, active shoppers and seats, holds and sales, requests shed by class; latency per
 * route; the inventory's journal write time and batch sizes; cluster members and shards; the JVM.
 */
public final class Metrics implements InventoryMetrics, EdgeMetrics, ShopMetrics {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  /** The request timers of each route name of {@link RouteNames#ALL}, by status class (1-5), registered when first used. */
  private final Map<String, AtomicReferenceArray<Timer>> routes = RouteNames.ALL.stream()
      .collect(java.util.stream.Collectors.toUnmodifiableMap(r -> r, r -> new AtomicReferenceArray<>(6)));
  private final Set<String> watchedEvents = ConcurrentHashMap.newKeySet();
  /** States in which an event's sale is over: its series go after a retention (see {@link #sweepEnded}). */
  private static final Set<String> ENDED = Set.of("sold_out", "closed");
  private final Map<String, Long> endedSince = new ConcurrentHashMap<>();
  private final Set<String> boundPools = ConcurrentHashMap.newKeySet();

  /** 1 while the inventories' journal calls on this node are refused by its open circuit breaker (see {@link #journalFailed}). */
  private final java.util.concurrent.atomic.AtomicInteger journalBreakerOpen = new java.util.concurrent.atomic.AtomicInteger();

  public Metrics() {
    io.micrometer.core.instrument.Gauge.builder("boxoffice_journal_breaker_open", journalBreakerOpen, java.util.concurrent.atomic.AtomicInteger::get)
        .description("1 while a circuit breaker of the journal or snapshot store refuses the inventories' calls on this node: a call was refused open, and none got through since")
        .register(registry);
    for (String store : java.util.List.of("journal", "snapshot")) {
      for (String cause : java.util.List.of("breaker_open", "timeout", "rejected", "error")) journalFailures(store, cause);
    }
    for (String tag : io.boxoffice.admin.Directory.TAGS) directoryRowsSkipped(tag);
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

  /**
   * How long requests to one kind of route take, by the class of their status ({@code 2xx} ..
   * {@code 5xx}; a request that failed without a response counts as {@code 5xx}), as a
   * histogram (Prometheus computes any quantile over the nodes from its buckets) with a 100 ms
   * bucket. No quantiles computed here: they cannot be summed over nodes, and keeping them cost
   * every request a few HdrHistogram updates. {@code route} is one of {@link RouteNames#ALL};
   * anything else is {@code other}.
   */
  public Timer request(String route, int status) {
    // Every request comes here: a map lookup and an array slot, no text built.
    AtomicReferenceArray<Timer> byClass = routes.get(route);
    String name = route;
    if (byClass == null) {
      name = "other";
      byClass = routes.get(name);
    }
    int statusClass = status >= 100 && status < 600 ? status / 100 : 5;
    Timer timer = byClass.get(statusClass);
    if (timer == null) {
      // Registering twice is harmless: the registry answers the same timer for the same name and tags.
      timer = Timer.builder("boxoffice_http_request")
          .description("HTTP request latency by route and status class").tags("route", name, "status", statusClass + "xx")
          .publishPercentileHistogram().serviceLevelObjectives(Duration.ofMillis(100))
          .register(registry);
      byClass.set(statusClass, timer);
    }
    return timer;
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
        .description("Seats of abandoned holds that ran out, found by the carts' hold timers (given back by them, or already by the inventory at the deadline)")
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

  @Override
  public void recovered(String eventId, long recoveryMillis) {
    Timer.builder("boxoffice_inventory_recovery")
        .description("Time an event's inventory took to read its snapshot and journal when it came back on this node (moved, restarted, or restarted after a failed write, backoff included): the event sells nothing meanwhile")
        .tag("event", eventId).register(registry).record(recoveryMillis, TimeUnit.MILLISECONDS);
  }

  private Counter directoryRowsSkipped(String tag) {
    return Counter.builder("boxoffice_directory_rows_skipped")
        .description("Journal events the managers' directory (GET /admin/events and /admin/venues) could not write and skipped, by tag (event, venue): that event or venue is missing from the lists")
        .tag("tag", tag).register(registry);
  }

  /** The managers' directory skipped a row it could not write (see {@code admin.Directory}). */
  public void directoryRowSkipped(String tag) {
    directoryRowsSkipped(tag).increment();
  }

  private Counter journalFailures(String store, String cause) {
    return Counter.builder("boxoffice_journal_failures")
        .description("Failed calls of the inventories on this node to the journal (writes, replays) and snapshot store (loads), by cause: breaker_open (refused by the open circuit breaker), timeout (outlived the breaker's call-timeout), rejected, error")
        .tags("store", store, "cause", cause).register(registry);
  }

  @Override
  public void journalFailed(String store, String cause) {
    journalFailures(store, cause).increment();
    if (cause.equals("breaker_open")) journalBreakerOpen.set(1);
  }

  @Override
  public void journalAnswered() {
    journalBreakerOpen.set(0);
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
    watch(eventId, manifests::known);
  }

  /** Gauges of an on-sale event, read from {@code known} (this node's copy of its manifest, or null). */
  public void watch(String eventId, Function<String, WaitingRoom.Manifest> known) {
    if (!watchedEvents.add(eventId)) return;
    Tags tags = Tags.of("event", eventId);
    gauge("boxoffice_lobby", "Accounts in the lobby", tags, known, eventId, WaitingRoom.Manifest::lobby);
    gauge("boxoffice_admitted_up_to", "The last place admitted", tags, known, eventId, WaitingRoom.Manifest::admittedUpTo);
    gauge("boxoffice_active_shoppers", "Admitted places still shopping", tags, known, eventId, WaitingRoom.Manifest::activeShoppers);
    gauge("boxoffice_seats_available", "Seats on sale", tags, known, eventId, WaitingRoom.Manifest::seatsRemaining);
    gauge("boxoffice_seats_held", "Seats held", tags, known, eventId, WaitingRoom.Manifest::seatsHeld);
    gauge("boxoffice_seats_sold", "Seats sold", tags, known, eventId, WaitingRoom.Manifest::seatsSold);
  }

  private void gauge(String name, String description, Tags tags, Function<String, WaitingRoom.Manifest> manifests,
                     String eventId, ToDoubleFunction<WaitingRoom.Manifest> value) {
    Gauge.builder(name, manifests, m -> {
      WaitingRoom.Manifest known = m.apply(eventId);
      return known == null ? Double.NaN : value.applyAsDouble(known);
    }).description(description).tags(tags).strongReference(true).register(registry);
  }

  /**
   * Removes the series of events whose sale has ended: every meter tagged with the event (its
   * gauges, holds, sales, shed requests, journal writes) once its manifest has said
   * {@code sold_out} or {@code closed} for {@code retention} (long enough for a last scrape). An
   * event selling again (seats released after a sell-out, a sale reopened) is watched again, and
   * a counter bumped after the removal is removed again at the next sweep. Without this a node's
   * series grow with every event it ever sold.
   */
  public void sweepEnded(Collection<WaitingRoom.Manifest> manifests, Function<String, WaitingRoom.Manifest> known,
                         long nowMillis, Duration retention) {
    Set<String> seen = new HashSet<>();
    for (WaitingRoom.Manifest m : manifests) {
      seen.add(m.eventId());
      if (!ENDED.contains(m.state())) {
        endedSince.remove(m.eventId());
        if (!watchedEvents.contains(m.eventId())) watch(m.eventId(), known);
        continue;
      }
      long since = endedSince.computeIfAbsent(m.eventId(), id -> nowMillis);
      if (nowMillis - since >= retention.toMillis()) forget(m.eventId());
    }
    endedSince.keySet().retainAll(seen);
  }

  /** Removes every meter tagged with {@code eventId}. */
  void forget(String eventId) {
    watchedEvents.remove(eventId);
    for (Meter meter : registry.getMeters()) {
      if (eventId.equals(meter.getId().getTag("event"))) registry.remove(meter);
    }
  }

  /**
   * Gauges of every HikariCP pool in JMX not bound yet ({@code registerMbeans}: the journal's,
   * which Slick creates when the journal starts, the read side's, the payment ledger's), tagged
   * with the pool's name: connections active, idle, total, and threads waiting for one (a pool
   * pinned by a stalled database shows here first).
   */
  public void bindPools() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      for (ObjectName name : server.queryNames(new ObjectName("com.zaxxer.hikari:type=Pool (*)"), null)) {
        String type = name.getKeyProperty("type");
        String pool = type.substring("Pool (".length(), type.length() - 1);
        if (!boundPools.add(pool)) continue;
        Tags tags = Tags.of("pool", pool);
        poolGauge(server, name, "ActiveConnections", "boxoffice_db_pool_active", "Connections in use", tags);
        poolGauge(server, name, "IdleConnections", "boxoffice_db_pool_idle", "Connections idle", tags);
        poolGauge(server, name, "TotalConnections", "boxoffice_db_pool_open", "Connections open", tags);
        poolGauge(server, name, "ThreadsAwaitingConnection", "boxoffice_db_pool_pending", "Threads waiting for a connection", tags);
      }
    } catch (MalformedObjectNameException e) {
      throw new IllegalStateException(e);
    }
  }

  private void poolGauge(MBeanServer server, ObjectName name, String attribute, String metric, String description, Tags tags) {
    gauge(metric, description, tags, () -> {
      try {
        return (Number) server.getAttribute(name, attribute);
      } catch (Exception gone) {
        return Double.NaN;
      }
    });
  }

  /** A gauge of something this node can count at any time. */
  public void gauge(String name, String description, Tags tags, java.util.function.Supplier<Number> value) {
    // Micrometer holds gauge objects weakly; these suppliers live nowhere else.
    Gauge.builder(name, value, v -> v.get().doubleValue()).description(description).tags(tags).strongReference(true).register(registry);
  }
}
