package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The alert rules (k8s/monitoring/prometheus-rules.yaml) through Prometheus' own promtool:
 * {@code promtool check rules} (syntax, templates of the annotations) and {@code promtool test
 * rules} with prometheus-rules-test.yaml, where every alert has a case in which it must not
 * fire and one in which it must; every alert links a runbook section that exists in
 * docs/operations/runbooks.md; the monitoring overlay gives each object the Prometheus
 * release label.
 */
class PrometheusRulesTest {
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  static final Path MONITORING = Path.of("k8s/monitoring");
  static final Path RUNBOOKS = Path.of("docs/operations/runbooks.md");
  static final Path MONITORING_OVERLAY = Path.of("k8s/overlays/example/monitoring");
  /** Always fires by design: it has no "must not fire" case. */
  static final String WATCHDOG = "Watchdog";

  /** The PrometheusRule's groups as a Prometheus rule file, with or without the annotations. */
  static String ruleFile(UnaryOperator<String> edit, boolean annotations) throws Exception {
    JsonNode rule = YAML.readTree(MONITORING.resolve("prometheus-rules.yaml").toFile());
    ObjectNode spec = (ObjectNode) rule.get("spec").deepCopy();
    if (!annotations) {
      for (JsonNode g : spec.path("groups")) for (JsonNode r : g.path("rules")) ((ObjectNode) r).remove("annotations");
    }
    return edit.apply(YAML.writeValueAsString(spec));
  }

  /** Runs promtool on the rules (edited by {@code edit}) and the unit tests, in a scratch folder. */
  static Tools.Run promtool(UnaryOperator<String> edit, String... args) throws Exception {
    Path dir = Files.createTempDirectory("boxoffice-rules");
    Files.writeString(dir.resolve("rules.yaml"), ruleFile(edit, false));
    Files.writeString(dir.resolve("annotated-rules.yaml"), ruleFile(edit, true));
    Files.copy(MONITORING.resolve("prometheus-rules-test.yaml"), dir.resolve("prometheus-rules-test.yaml"));
    String[] cmd = new String[args.length + 1];
    cmd[0] = "promtool";
    System.arraycopy(args, 0, cmd, 1, args.length);
    return Tools.run(dir, cmd);
  }

  static Map<String, JsonNode> alerts() throws Exception {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (JsonNode g : YAML.readTree(MONITORING.resolve("prometheus-rules.yaml").toFile()).path("spec").path("groups")) {
      for (JsonNode r : g.path("rules")) out.put(r.path("alert").asText(), r);
    }
    return out;
  }

  @Test
  void promtoolChecksTheRulesAndTheirAnnotations() throws Exception {
    Tools.Run check = promtool(UnaryOperator.identity(), "check", "rules", "annotated-rules.yaml");
    assertEquals(0, check.exit(), check.out());
    assertTrue(check.out().contains(alerts().size() + " rules found"), check.out());
    Tools.Run broken = promtool(s -> s.replace("{{ $labels.pod }}", "{{ $labels.pod "), "check", "rules", "annotated-rules.yaml");
    assertNotEquals(0, broken.exit(), "a broken annotation template is refused: " + broken.out());
  }

  @Test
  void promtoolsUnitTestsOfEveryAlertPass() throws Exception {
    Tools.Run test = promtool(UnaryOperator.identity(), "test", "rules", "prometheus-rules-test.yaml");
    assertEquals(0, test.exit(), test.out());
    assertTrue(test.out().contains("SUCCESS"), test.out());
  }

  /** The unit tests see a rule that no longer fires, and one that fires too soon. */
  @Test
  void promtoolsUnitTestsFailOnABrokenRule() throws Exception {
    Tools.Run tooHigh = promtool(s -> s.replace("> 0.02", "> 0.5"), "test", "rules", "prometheus-rules-test.yaml");
    assertNotEquals(0, tooHigh.exit(), "the 5xx ratio at 50% never fires on 9%: " + tooHigh.out());
    assertTrue(tooHigh.out().contains("BoxofficeHttp5xxRatio"), tooHigh.out());
    Tools.Run tooLow = promtool(s -> s.replace("(boxoffice_db_pool_pending) > 5", "(boxoffice_db_pool_pending) >= 0"),
        "test", "rules", "prometheus-rules-test.yaml");
    assertNotEquals(0, tooLow.exit(), "a pool alert that fires on an idle pool fails its quiet case: " + tooLow.out());
    assertTrue(tooLow.out().contains("BoxofficeDbPoolPending"), tooLow.out());
  }

  /** Each alert: a unit test where it must stay quiet and one where it must fire (the Watchdog always fires). */
  @Test
  void everyAlertHasAQuietAndAFiringUnitTest() throws Exception {
    Set<String> quiet = new TreeSet<>(), firing = new TreeSet<>();
    for (JsonNode group : YAML.readTree(MONITORING.resolve("prometheus-rules-test.yaml").toFile()).path("tests")) {
      for (JsonNode t : group.path("alert_rule_test")) {
        (t.path("exp_alerts").isEmpty() ? quiet : firing).add(t.path("alertname").asText());
      }
    }
    List<String> missing = new ArrayList<>();
    for (String alert : alerts().keySet()) {
      if (!firing.contains(alert)) missing.add(alert + ": no case where it fires");
      if (!quiet.contains(alert) && !alert.equals(WATCHDOG)) missing.add(alert + ": no case where it stays quiet");
    }
    assertTrue(missing.isEmpty(), String.join("\n", missing));
  }

  static final Pattern HEADING = Pattern.compile("(?m)^#{2,3} (.+)$");

  /** GitHub's anchor of a heading: lower case, spaces to dashes, punctuation dropped. */
  static String anchor(String heading) {
    return heading.trim().toLowerCase().replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
  }

  @Test
  void everyAlertLinksItsRunbookSection() throws Exception {
    Set<String> anchors = new TreeSet<>();
    Matcher m = HEADING.matcher(Files.readString(RUNBOOKS));
    while (m.find()) anchors.add(anchor(m.group(1)));
    List<String> problems = new ArrayList<>();
    alerts().forEach((name, rule) -> {
      String url = rule.path("annotations").path("runbook_url").asText();
      int hash = url.indexOf('#');
      if (hash < 0 || !url.substring(0, hash).endsWith("/docs/operations/runbooks.md")) problems.add(name + ": runbook_url " + url + " is not into docs/operations/runbooks.md");
      else if (!anchors.contains(url.substring(hash + 1))) problems.add(name + ": no section #" + url.substring(hash + 1) + " in " + RUNBOOKS);
      if (!rule.path("annotations").path("description").isTextual()) problems.add(name + ": no description");
    });
    assertTrue(problems.isEmpty(), String.join("\n", problems));
    assertFalse(anchors.contains("no-such-alert"));
  }

  /** kube-prometheus-stack selects on its release label: the overlay puts it on every object, and only in metadata. */
  @Test
  void theMonitoringOverlayLabelsEveryObjectForThePrometheusRelease() throws Exception {
    List<JsonNode> docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(Tools.kustomize(MONITORING_OVERLAY)).readAll();
    Set<String> kinds = new TreeSet<>();
    for (JsonNode d : docs) {
      kinds.add(d.path("kind").asText());
      assertEquals("kube-prometheus-stack", d.path("metadata").path("labels").path("release").asText(), d.path("kind") + " has the release label");
      assertTrue(d.path("spec").path("selector").path("matchLabels").path("release").isMissingNode(), "selectors are left alone");
    }
    assertEquals(Set.of("PodMonitor", "PrometheusRule", "Probe"), kinds);
    for (JsonNode d : YAML.readerFor(JsonNode.class).<JsonNode>readValues(Tools.kustomize(MONITORING)).readAll()) {
      assertTrue(d.path("metadata").path("labels").path("release").isMissingNode(), "the base names no release: the overlay chooses it");
    }
    JsonNode probe = docs.stream().filter(d -> d.path("kind").asText().equals("Probe")).findFirst().orElseThrow();
    assertEquals("boxoffice-https", probe.path("spec").path("jobName").asText(), "the job the black-box alerts select");
    assertTrue(alerts().get("BoxofficeEndpointDown").path("expr").asText().contains("job=\"boxoffice-https\""));
  }
}
