package io.boxoffice.app;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.support.Eventually;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * k8s/monitoring/: the Prometheus alert rules, the Grafana dashboard and the PodMonitor parse,
 * are shaped as their operators expect, and name only metrics that a real node exports: a
 * node on PostgreSQL is driven through a sale, an abandoned hold its timer gives back, shed
 * reads and an on-sale, and its /metrics is the list of names every expression is checked against.
 */
class MonitoringFilesTest {
  static final Path MONITORING = Path.of("k8s/monitoring");
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  static final ObjectMapper JSON = new ObjectMapper();
  /** Series Prometheus makes itself for every target; no node exports them. */
  static final Set<String> PROMETHEUS_OWN = Set.of("up");
  /**
   * Series of the exporters the alerts also read (k8s/README.md, "Monitoring"), by exporter: no
   * node exports them, so they are named here, each checked against its exporter's documentation.
   */
  static final Map<String, String> EXPORTERS = Map.ofEntries(
      Map.entry("kube_pod_container_status_restarts_total", "kube-state-metrics"),
      Map.entry("kube_pod_container_status_waiting_reason", "kube-state-metrics"),
      Map.entry("probe_success", "blackbox exporter (probe.yaml)"),
      Map.entry("probe_ssl_earliest_cert_expiry", "blackbox exporter (probe.yaml)"),
      Map.entry("pg_up", "postgres_exporter"),
      Map.entry("pg_replication_lag_seconds", "postgres_exporter (replication collector)"),
      Map.entry("pg_sync_standbys_count", "postgres_exporter, the custom query pg_sync_standbys of k8s/README.md"),
      Map.entry("pg_stat_activity_count", "postgres_exporter (stat_activity)"),
      Map.entry("pg_settings_max_connections", "postgres_exporter (settings)"));
  /** Alerts that read no metric by design: the dead man's switch (vector(1)). */
  static final Set<String> NO_METRIC = Set.of("alert Watchdog");
  /** The alerts the operations review asked for that the node's metrics can back today. */
  static final Set<String> REQUIRED_ALERTS = Set.of("BoxofficeNodeDown", "BoxofficeMemberUnreachable",
      "BoxofficeNoSalesWhileOnSale", "BoxofficeShedding", "BoxofficeCheckoutSlow", "BoxofficeJournalWritesSlow",
      "BoxofficeHeldSeatsStuck", "BoxofficeJournalBreakerOpen", "BoxofficeDirectoryRowsSkipped",
      // issue 35: alerts that page
      "BoxofficeHttp5xxRatio", "BoxofficeEndpointDown", "BoxofficeDbPoolPending", "BoxofficePodRestarting", "BoxofficeCrashLooping",
      "BoxofficeEdgeCertificateExpiresSoon", "BoxofficeArteryCertificateExpiresSoon", "BoxofficeGcPauseLong", "BoxofficeTwoClusters",
      "PostgresDown", "PostgresReplicationLag", "PostgresNoSyncStandby", "PostgresConnectionsNearLimit", "Watchdog");

  static final MutableClock clock = MutableClock.running();
  static Node node;
  static Set<String> exported;

  @BeforeAll
  static void driveANodeThroughASale() throws Exception {
    // Two places per event and edge node: reads may fill one, so a few at once are shed. A long
    // ask timeout: the timer counts only seats its own ask released, and on a loaded machine an
    // answer later than 3 s found them already gone at the retry, and nothing was counted.
    node = TestNode.postgres(clock, TestNode.payments(), ConfigFactory.parseMap(Map.of(
        "boxoffice.cart.hold-recheck", "100ms", "boxoffice.edge.per-event-in-flight", 2, "boxoffice.http.ask-timeout", "15s")));
    String id = UUID.randomUUID().toString().substring(0, 8);
    String event = "e-mon-" + id;
    HttpFan admin = new HttpFan(node.httpPort());
    Eventually.reply("the venue is created", Duration.ofSeconds(20), Duration.ofMillis(250),
        () -> admin.admin("POST", "/admin/venues", "{\"venueId\":\"v-mon-" + id + "\",\"name\":\"H\","
            + "\"generate\":{\"layout\":\"stadium\",\"seats\":100}}"), r -> r.status() != 503);
    Eventually.reply("the event is created", Duration.ofSeconds(20), Duration.ofMillis(250),
        () -> admin.admin("POST", "/admin/events", "{\"eventId\":\"" + event + "\",\"venueId\":\"v-mon-" + id
            + "\",\"name\":\"S\",\"prices\":{\"floor\":1,\"lower\":1,\"upper\":1},\"holdSeconds\":30,"
            + "\"holdJitterSeconds\":0}"), r -> r.status() != 503);
    TestCluster.open(admin, event);

    HttpFan buyer = new HttpFan(node.httpPort());
    buyer.signUp("mon-buyer-" + id + "@example.com");
    assertEquals(200, buyer.send("POST", "/api/events/" + event + "/cart/holds", "{\"best\":{\"quantity\":2}}").status());
    assertEquals(200, buyer.send("POST", "/api/events/" + event + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", "k").status());

    // An abandoned hold, given back by the cart's timer once the clock passes its deadline.
    HttpFan walker = new HttpFan(node.httpPort());
    walker.signUp("mon-walker-" + id + "@example.com");
    HttpFan.Reply held = walker.send("POST", "/api/events/" + event + "/cart/holds", "{\"best\":{\"quantity\":1}}");
    assertEquals(200, held.status());
    long grace = ConfigFactory.load().getDuration("boxoffice.cart.hold-release-grace").toMillis();
    clock.advance(Duration.ofMillis(Instant.parse(held.json().get("holdExpiresAt").asText()).toEpochMilli() + grace - clock.millis() + 1));
    try {
      // Generous: on a loaded machine the timer's round trip took over 15 s once.
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
          .until(() -> scrape().contains("boxoffice_holds_released_by_timer_total{event=\"" + event + "\"}"));
    } catch (RuntimeException e) {
      throw new AssertionError("no release: " + walker.send("GET", "/api/events/" + event + "/cart", null).body() + "\n"
          + scrape().lines().filter(l -> l.contains("hold")).toList() + " " + held.body(), e);
    }

    // Reads at once beyond the bulkhead's share: some are answered 503 and counted.
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
      List<CompletableFuture<HttpFan.Reply>> reads = new ArrayList<>();
      for (int i = 0; i < 20; i++) reads.add(buyer.sendAsync("GET", "/api/events/" + event + "/availability", null));
      return reads.stream().map(CompletableFuture::join).anyMatch(r -> r.status() == 503);
    });

    // An on-sale's waiting room: the per-event gauges.
    Instant now = clock.instant();
    admin.admin("PUT", "/admin/events/" + event + "/onsale", "{\"lobbyOpensAt\":\"" + now + "\",\"startsAt\":\""
        + now.plusSeconds(3600) + "\",\"admissionPerMinute\":60,\"maxActiveShoppers\":10}");
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("mon-fan-" + id + "@example.com");
    assertEquals(200, fan.send("POST", "/api/events/" + event + "/queue", "{}").status());
    // The GC pause timer exists once a collection has happened: a node under load always has
    // one; this one shares a test JVM that may not have collected yet.
    System.gc();
    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
        .until(() -> names(scrape()).containsAll(Set.of("boxoffice_lobby", "boxoffice_active_shoppers", "boxoffice_requests_shed_total",
            "jvm_gc_pause_seconds_count")));
    exported = names(scrape());
  }

  @AfterAll
  static void stop() {
    if (node != null) node.stop();
  }

  static String scrape() {
    return new HttpFan(node.managementPort()).send("GET", "/metrics", null).body();
  }

  /** The series names of Prometheus text: each sample line's name. */
  static Set<String> names(String text) {
    Set<String> out = new TreeSet<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) continue;
      Matcher m = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)").matcher(line);
      if (m.find()) out.add(m.group(1));
    }
    return out;
  }

  static final Set<String> PROMQL_WORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring",
      "group_left", "group_right", "bool", "offset", "inf", "nan");

  /**
   * The metric names a PromQL expression reads: identifiers outside strings, label matchers,
   * ranges and grouping clauses that are neither keywords nor called as functions.
   */
  static Set<String> metricsIn(String expr) {
    String s = expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
        .replaceAll("\\{[^}]*}", " ")
        .replaceAll("\\[[^]]*]", " ")
        .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
    Set<String> out = new TreeSet<>();
    Matcher m = Pattern.compile("(?<![A-Za-z0-9_.$])[A-Za-z_:][A-Za-z0-9_:]*").matcher(s);
    while (m.find()) {
      String rest = s.substring(m.end()).stripLeading();
      if (rest.startsWith("(") || PROMQL_WORDS.contains(m.group())) continue;
      out.add(m.group());
    }
    return out;
  }

  static JsonNode rules() throws Exception {
    return YAML.readTree(MONITORING.resolve("prometheus-rules.yaml").toFile());
  }

  static JsonNode dashboard() throws Exception {
    return JSON.readTree(MONITORING.resolve("grafana-dashboard.json").toFile());
  }

  /** Every alert and dashboard expression, by where it is. */
  static Map<String, String> expressions() throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (JsonNode group : rules().path("spec").path("groups")) {
      for (JsonNode rule : group.path("rules")) out.put("alert " + rule.path("alert").asText(), rule.path("expr").asText());
    }
    for (JsonNode panel : dashboard().path("panels")) {
      for (JsonNode target : panel.path("targets")) out.put("panel '" + panel.path("title").asText() + "' " + target.path("refId").asText(), target.path("expr").asText());
    }
    return out;
  }

  @Test
  void everyMetricTheRulesAndTheDashboardReadIsExportedByANode() throws Exception {
    List<String> missing = new ArrayList<>();
    Set<String> read = new HashSet<>();
    expressions().forEach((where, expr) -> {
      Set<String> metrics = metricsIn(expr);
      if (metrics.isEmpty() && !NO_METRIC.contains(where)) missing.add(where + ": reads no metric: " + expr);
      for (String metric : metrics) {
        read.add(metric);
        if (!exported.contains(metric) && !PROMETHEUS_OWN.contains(metric) && !EXPORTERS.containsKey(metric)) missing.add(where + ": " + metric);
      }
    });
    assertTrue(missing.isEmpty(), "not in a node's /metrics:\n" + String.join("\n", missing) + "\nexported: " + exported);
    assertTrue(read.containsAll(Set.of("boxoffice_sales_total", "boxoffice_requests_shed_total", "boxoffice_holds_released_by_timer_total",
        "boxoffice_http_request_seconds_bucket", "boxoffice_journal_write_seconds")), "the extraction finds names: " + read);
  }

  @Test
  void theExtractionSeesMetricsNotFunctionsLabelsOrDurations() {
    assertEquals(Set.of("a_total", "b_seconds_bucket", "up"), metricsIn(
        "sum by (event, le) (rate(a_total{x=\"y{z}\"}[5m])) / on (event) group_left histogram_quantile(0.99, b_seconds_bucket[$__rate_interval])"
            + " unless up == 0"));
  }

  @Test
  void theAlertRulesAreAPrometheusRuleWithWhatEachAlertNeeds() throws Exception {
    JsonNode doc = rules();
    assertEquals("monitoring.coreos.com/v1", doc.path("apiVersion").asText());
    assertEquals("PrometheusRule", doc.path("kind").asText());
    assertEquals("boxoffice", doc.path("metadata").path("namespace").asText());
    Set<String> alerts = new TreeSet<>();
    for (JsonNode group : doc.path("spec").path("groups")) {
      assertFalse(group.path("name").asText().isEmpty(), "every group is named");
      for (JsonNode rule : group.path("rules")) {
        String name = rule.path("alert").asText();
        assertTrue(name.matches("[A-Z][A-Za-z0-9]+"), "an alert name: " + rule);
        assertTrue(alerts.add(name), "one alert per name: " + name);
        String expr = rule.path("expr").asText();
        assertEquals(expr.chars().filter(c -> c == '(').count(), expr.chars().filter(c -> c == ')').count(), name + ": parentheses");
        assertTrue(Set.of("page", "ticket").contains(rule.path("labels").path("severity").asText())
            || (name.equals("Watchdog") && rule.path("labels").path("severity").asText().equals("none")), name + ": severity page or ticket");
        assertFalse(rule.path("annotations").path("summary").asText().isEmpty(), name + ": a summary");
        if (rule.has("for")) ConfigFactory.parseMap(Map.of("d", rule.get("for").asText())).getDuration("d");
      }
    }
    assertTrue(alerts.containsAll(REQUIRED_ALERTS), "missing " + REQUIRED_ALERTS.stream().filter(a -> !alerts.contains(a)).toList());
  }

  @Test
  void theDashboardIsGrafanaJsonWithAPrometheusDatasourceVariable() throws Exception {
    JsonNode d = dashboard();
    assertEquals("boxoffice", d.path("uid").asText());
    Set<Integer> ids = new HashSet<>();
    assertTrue(d.path("panels").size() >= 8, "panels");
    for (JsonNode panel : d.path("panels")) {
      assertTrue(ids.add(panel.path("id").asInt()), "panel ids are unique");
      assertEquals("${datasource}", panel.path("datasource").path("uid").asText(), panel.path("title") + ": the datasource variable");
      assertTrue(panel.path("targets").size() > 0, panel.path("title") + ": a query");
    }
    boolean datasourceVariable = false;
    for (JsonNode v : d.path("templating").path("list")) {
      if (v.path("name").asText().equals("datasource") && v.path("query").asText().equals("prometheus")) datasourceVariable = true;
    }
    assertTrue(datasourceVariable, "a datasource variable of type prometheus, so the dashboard imports anywhere");
  }

  @Test
  void thePodMonitorScrapesTheManagementPortOfEveryBoxofficePod() throws Exception {
    JsonNode pm = YAML.readTree(MONITORING.resolve("podmonitor.yaml").toFile());
    assertEquals("PodMonitor", pm.path("kind").asText());
    assertEquals("monitoring.coreos.com/v1", pm.path("apiVersion").asText());
    JsonNode endpoint = pm.path("spec").path("podMetricsEndpoints").get(0);
    assertEquals("/metrics", endpoint.path("path").asText());
    KubernetesManifestsTest.Manifests m = KubernetesManifestsTest.load(KubernetesManifestsTest.BASE);
    Map<String, String> selector = YAML.convertValue(pm.path("spec").path("selector").path("matchLabels"),
        YAML.getTypeFactory().constructMapType(Map.class, String.class, String.class));
    List<String> namespaces = new ArrayList<>();
    pm.path("spec").path("namespaceSelector").path("matchNames").forEach(n -> namespaces.add(n.asText()));
    for (Deployment d : m.all(Deployment.class)) {
      assertTrue(KubernetesManifestsTest.matches(selector, KubernetesManifestsTest.podLabels(d)), d.getMetadata().getName() + " is selected");
      assertTrue(namespaces.contains(d.getMetadata().getNamespace()), "its namespace is scraped");
      Container c = KubernetesManifestsTest.pod(d).getContainers().get(0);
      assertTrue(c.getPorts().stream().anyMatch(p -> p.getName().equals(endpoint.path("port").asText()) && p.getContainerPort() == 8558),
          "the endpoint's port is the management port of " + d.getMetadata().getName());
    }
  }

  @Test
  void everyMonitoringFileIsChecked() throws Exception {
    try (var files = Files.list(MONITORING)) {
      // kustomization.yaml and probe.yaml: PrometheusRulesTest (kubectl kustomize); prometheus-rules-test.yaml: promtool.
      assertEquals(Set.of("podmonitor.yaml", "prometheus-rules.yaml", "grafana-dashboard.json", "probe.yaml", "kustomization.yaml",
          "prometheus-rules-test.yaml"),
          new HashSet<>(files.map(f -> f.getFileName().toString()).toList()));
    }
  }
}
