package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads every YAML document under {@code k8s/} into typed Kubernetes objects (the fabric8 model)
 * and checks that the pieces fit: selectors, ports, probes, environment, ConfigMap and Secret
 * keys, RBAC, roles, sysctls. Each check is also run on a deliberately broken copy of the
 * manifests, so none of them can pass vacuously.
 */
class KubernetesManifestsTest {
  static final Path K8S = Path.of("k8s");
  static final Path CONF = Path.of("conf");

  /** The kinds k8s/ may hold; anything else fails the load, so nothing goes unchecked. */
  static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
      "v1/Namespace", Namespace.class,
      "v1/ServiceAccount", ServiceAccount.class,
      "v1/ConfigMap", ConfigMap.class,
      "v1/Secret", Secret.class,
      "v1/Service", Service.class,
      "apps/v1/Deployment", Deployment.class,
      "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class,
      "rbac.authorization.k8s.io/v1/Role", Role.class,
      "rbac.authorization.k8s.io/v1/RoleBinding", RoleBinding.class,
      // The schema migration (k8s/migrate-job.yaml), checked by MigrationJobManifestTest.
      "batch/v1/Job", io.fabric8.kubernetes.api.model.batch.v1.Job.class);

  /** Variables the app reads (conf/*.conf) that the Kubernetes pods deliberately leave unset. */
  static final Map<String, String> NOT_SET_ON_KUBERNETES = Map.of(
      "BOXOFFICE_DATA_DIR", "the folder of the embedded H2 database; the pods use PostgreSQL (BOXOFFICE_DB_URL)",
      "BOXOFFICE_SEED_NODES", "static seed nodes; on Kubernetes the cluster forms through bootstrap (BOXOFFICE_DISCOVERY)",
      "BOXOFFICE_FORM_CLUSTER", "whether the first static seed may form the cluster; bootstrap decides that on Kubernetes");

  static final Set<String> NODE_ROLES = Set.of("inventory", "edge");

  /** Container port names and the variables that must carry the same numbers. */
  static final Map<String, String> PORT_VARIABLES = Map.of(
      "http", "BOXOFFICE_HTTP_PORT",
      "remoting", "BOXOFFICE_CLUSTER_PORT",
      "management", "BOXOFFICE_MANAGEMENT_PORT");

  /** The seed's "Linux Kernel Backlog Tuning" (shared/seeds/virtual-waiting-room-architecture.txt). */
  static final Map<String, String> SEED_SYSCTLS = Map.of(
      "net.core.somaxconn", "65535",
      "net.ipv4.tcp_max_syn_backlog", "65535",
      "net.core.netdev_max_backlog", "32768",
      "net.ipv4.ip_local_port_range", "10240 65535",
      "net.ipv4.tcp_fin_timeout", "15");

  /**
   * The kubelet's safe sysctls (allowed without configuration) as of Kubernetes 1.32; some need
   * a recent kernel (kubernetes.io, "Linux Kernel Version Requirements").
   */
  static final Set<String> SAFE_SYSCTLS = Set.of(
      "kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.tcp_syncookies",
      "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start",
      "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
      "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes", "net.ipv4.tcp_rmem",
      "net.ipv4.tcp_wmem");

  /** Host-wide: absent from a new network namespace, so no pod can set them. */
  static final Set<String> NOT_NAMESPACED = Set.of("net.core.netdev_max_backlog");

  // ---------------------------------------------------------------------------------- loading

  /** One document of k8s/ and the file it came from. */
  record Doc(Path file, HasMetadata object) {}

  /** Everything under k8s/, typed. */
  record Manifests(List<Doc> docs) {
    <T extends HasMetadata> List<T> all(Class<T> kind) {
      return docs.stream().map(Doc::object).filter(kind::isInstance).map(kind::cast).toList();
    }

    <T extends HasMetadata> Optional<T> find(Class<T> kind, String namespace, String name) {
      return all(kind).stream()
          .filter(o -> name.equals(o.getMetadata().getName()) && Objects.equals(namespace, o.getMetadata().getNamespace()))
          .findFirst();
    }

    Deployment deployment(String name) {
      return all(Deployment.class).stream().filter(d -> d.getMetadata().getName().equals(name)).findFirst().orElseThrow();
    }

    ConfigMap configMap() {
      return all(ConfigMap.class).get(0);
    }
  }

  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  static Manifests load() throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(K8S)) {
      files = walk.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
    }
    List<Doc> docs = new ArrayList<>();
    for (Path file : files) {
      try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
        while (it.hasNext()) {
          JsonNode node = it.next();
          if (node == null || node.isNull() || node.isMissingNode() || node.isEmpty()) continue;
          String type = node.path("apiVersion").asText() + "/" + node.path("kind").asText();
          Class<? extends HasMetadata> kind = KINDS.get(type);
          if (kind == null) throw new AssertionError(file + ": no check knows " + type + "; add it to KINDS and to the checks");
          docs.add(new Doc(file, YAML.treeToValue(node, kind)));
        }
      }
    }
    return new Manifests(docs);
  }

  /** Every ${?BOXOFFICE_...} of conf/*.conf: the environment variables the app reads. */
  static Set<String> variablesTheAppReads() throws IOException {
    Pattern p = Pattern.compile("\\$\\{\\?(BOXOFFICE_[A-Z0-9_]+)}");
    Set<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.list(CONF)) {
      for (Path f : files.filter(f -> f.toString().endsWith(".conf")).toList()) {
        Matcher m = p.matcher(Files.readString(f));
        while (m.find()) names.add(m.group(1));
      }
    }
    return names;
  }

  // ---------------------------------------------------------------------------------- helpers

  static <T> List<T> nz(List<T> list) {
    return list == null ? List.of() : list;
  }

  static <K, V> Map<K, V> nz(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }

  static String name(HasMetadata o) {
    return o.getKind() + " " + o.getMetadata().getName();
  }

  static Map<String, String> podLabels(Deployment d) {
    return nz(d.getSpec().getTemplate().getMetadata().getLabels());
  }

  static PodSpec pod(Deployment d) {
    return d.getSpec().getTemplate().getSpec();
  }

  /** Kubernetes label selector semantics: matchLabels and matchExpressions, all must hold. */
  static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) return false;
    if (nz(selector.getMatchLabels()).isEmpty() && nz(selector.getMatchExpressions()).isEmpty()) return false;
    for (Map.Entry<String, String> e : nz(selector.getMatchLabels()).entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) return false;
    }
    for (LabelSelectorRequirement r : nz(selector.getMatchExpressions())) {
      String v = labels.get(r.getKey());
      boolean ok = switch (r.getOperator()) {
        case "In" -> v != null && nz(r.getValues()).contains(v);
        case "NotIn" -> v == null || !nz(r.getValues()).contains(v);
        case "Exists" -> v != null;
        case "DoesNotExist" -> v == null;
        default -> false;
      };
      if (!ok) return false;
    }
    return true;
  }

  static boolean matches(Map<String, String> selector, Map<String, String> labels) {
    return !nz(selector).isEmpty() && labels.entrySet().containsAll(selector.entrySet());
  }

  /** Whether a port, by name or number, is one of the container's declared ports. */
  static boolean declares(Container c, IntOrString port) {
    if (port == null) return false;
    for (ContainerPort p : nz(c.getPorts())) {
      if (port.getStrVal() != null ? port.getStrVal().equals(p.getName()) : Objects.equals(port.getIntVal(), p.getContainerPort())) return true;
    }
    return false;
  }

  static String show(IntOrString port) {
    return port == null ? "none" : port.getStrVal() != null ? port.getStrVal() : String.valueOf(port.getIntVal());
  }

  static Set<String> keys(ConfigMap cm) {
    Set<String> keys = new TreeSet<>(nz(cm.getData()).keySet());
    keys.addAll(nz(cm.getBinaryData()).keySet());
    return keys;
  }

  static Set<String> keys(Secret s) {
    Set<String> keys = new TreeSet<>(nz(s.getData()).keySet());
    keys.addAll(nz(s.getStringData()).keySet());
    return keys;
  }

  /** The variables a container gets, each only when its source exists (key, ConfigMap, Secret). */
  static Set<String> environment(Manifests m, String namespace, Container c) {
    Set<String> names = new TreeSet<>();
    for (EnvFromSource from : nz(c.getEnvFrom())) {
      String prefix = from.getPrefix() == null ? "" : from.getPrefix();
      if (from.getConfigMapRef() != null) {
        m.find(ConfigMap.class, namespace, from.getConfigMapRef().getName())
            .ifPresent(cm -> keys(cm).forEach(k -> names.add(prefix + k)));
      }
      if (from.getSecretRef() != null) {
        m.find(Secret.class, namespace, from.getSecretRef().getName())
            .ifPresent(s -> keys(s).forEach(k -> names.add(prefix + k)));
      }
    }
    for (EnvVar e : nz(c.getEnv())) {
      EnvVarSource src = e.getValueFrom();
      if (src == null) {
        names.add(e.getName());
      } else if (src.getConfigMapKeyRef() != null) {
        var ref = src.getConfigMapKeyRef();
        if (m.find(ConfigMap.class, namespace, ref.getName()).map(cm -> keys(cm).contains(ref.getKey())).orElse(false)) names.add(e.getName());
      } else if (src.getSecretKeyRef() != null) {
        var ref = src.getSecretKeyRef();
        if (m.find(Secret.class, namespace, ref.getName()).map(s -> keys(s).contains(ref.getKey())).orElse(false)) names.add(e.getName());
      } else if (src.getFieldRef() != null || src.getResourceFieldRef() != null) {
        names.add(e.getName());
      }
    }
    return names;
  }

  /** The value a container sees for a variable set directly or through a ConfigMap, if any. */
  static Optional<String> plainValue(Manifests m, String namespace, Container c, String variable) {
    for (EnvVar e : nz(c.getEnv())) {
      if (!e.getName().equals(variable)) continue;
      if (e.getValueFrom() == null) return Optional.ofNullable(e.getValue());
      var ref = e.getValueFrom().getConfigMapKeyRef();
      if (ref != null) return m.find(ConfigMap.class, namespace, ref.getName()).map(cm -> nz(cm.getData()).get(ref.getKey()));
      return Optional.empty();
    }
    for (EnvFromSource from : nz(c.getEnvFrom())) {
      if (from.getConfigMapRef() == null) continue;
      String prefix = from.getPrefix() == null ? "" : from.getPrefix();
      if (!variable.startsWith(prefix)) continue;
      Optional<String> v = m.find(ConfigMap.class, namespace, from.getConfigMapRef().getName())
          .map(cm -> nz(cm.getData()).get(variable.substring(prefix.length())));
      if (v.isPresent()) return v;
    }
    return Optional.empty();
  }

  static Map<String, String> sysctls(Deployment d) {
    Map<String, String> out = new LinkedHashMap<>();
    if (pod(d).getSecurityContext() != null) {
      for (Sysctl s : nz(pod(d).getSecurityContext().getSysctls())) out.put(s.getName(), s.getValue());
    }
    return out;
  }

  /** The sysctls k8s/README.md tells operators to put on the kubelet's allow-list. */
  static Set<String> readmeAllowList() throws IOException {
    Matcher m = Pattern.compile("--allowed-unsafe-sysctls=(\\S+)").matcher(Files.readString(K8S.resolve("README.md")));
    Set<String> names = new TreeSet<>();
    while (m.find()) names.addAll(List.of(m.group(1).split(",")));
    return names;
  }

  // ----------------------------------------------------------------------------------- checks

  interface Check {
    List<String> problems(Manifests m) throws Exception;
  }

  static final Map<String, Check> CHECKS = new LinkedHashMap<>();

  static {
    CHECKS.put("every document is read without unknown fields", KubernetesManifestsTest::unknownFields);
    CHECKS.put("every namespaced object is in a declared namespace", KubernetesManifestsTest::namespaces);
    CHECKS.put("every Deployment selects its own pod template", KubernetesManifestsTest::deploymentSelectors);
    CHECKS.put("every Service selects pods of a Deployment that declare its target ports", KubernetesManifestsTest::services);
    CHECKS.put("every probe's port is a declared container port", KubernetesManifestsTest::probePorts);
    CHECKS.put("probes use the management routes", KubernetesManifestsTest::probeRoutes);
    CHECKS.put("Prometheus scrapes /metrics on the management port", KubernetesManifestsTest::metricsScrape);
    CHECKS.put("every PodDisruptionBudget selects a Deployment", KubernetesManifestsTest::disruptionBudgets);
    CHECKS.put("every variable the app reads is set in every Deployment", KubernetesManifestsTest::environmentCoverage);
    CHECKS.put("every BOXOFFICE_ variable set is one the app reads", KubernetesManifestsTest::noUnknownVariables);
    CHECKS.put("every ConfigMap and Secret reference names an existing key", KubernetesManifestsTest::references);
    CHECKS.put("the RoleBinding lets the Deployments' ServiceAccount list pods", KubernetesManifestsTest::rbac);
    CHECKS.put("BOXOFFICE_ROLES differs per Deployment and matches its role label", KubernetesManifestsTest::roles);
    CHECKS.put("cluster bootstrap finds every pod and advertises the pod IP", KubernetesManifestsTest::bootstrap);
    CHECKS.put("the port variables equal the named container ports", KubernetesManifestsTest::portVariables);
    CHECKS.put("sysctls are the seed's, allowed or on the README's allow-list", KubernetesManifestsTest::sysctls);
    CHECKS.put("the Secret template holds placeholders only", KubernetesManifestsTest::secretPlaceholders);
    CHECKS.put("pods leave the cluster gracefully", KubernetesManifestsTest::gracefulShutdown);
    CHECKS.put("pods have requests, limits, the JVM options and anti-affinity", KubernetesManifestsTest::podShape);
  }

  static List<String> unknownFields(Manifests m) throws Exception {
    List<String> problems = new ArrayList<>();
    for (Doc d : m.docs()) walk(d.object(), d.file() + " " + name(d.object()), problems);
    return problems;
  }

  /** fabric8 keeps fields it does not know in additionalProperties: a typo lands there. */
  static void walk(Object o, String path, List<String> problems) throws Exception {
    if (o instanceof Collection<?> c) {
      int i = 0;
      for (Object x : c) walk(x, path + "[" + i++ + "]", problems);
      return;
    }
    if (o instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) walk(e.getValue(), path + "." + e.getKey(), problems);
      return;
    }
    if (o == null || !o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model.")) return;
    for (Method getter : o.getClass().getMethods()) {
      if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get") || getter.getDeclaringClass() != o.getClass()) continue;
      Object value = getter.invoke(o);
      if (getter.getName().equals("getAdditionalProperties")) {
        if (value instanceof Map<?, ?> extra && !extra.isEmpty()) problems.add(path + ": unknown fields " + extra.keySet());
      } else {
        walk(value, path + "." + getter.getName().substring(3), problems);
      }
    }
  }

  static List<String> namespaces(Manifests m) {
    Set<String> declared = m.all(Namespace.class).stream().map(n -> n.getMetadata().getName()).collect(Collectors.toSet());
    List<String> problems = new ArrayList<>();
    if (declared.isEmpty()) problems.add("no Namespace in k8s/");
    for (Doc d : m.docs()) {
      if (d.object() instanceof Namespace) continue;
      String ns = d.object().getMetadata().getNamespace();
      if (ns == null || !declared.contains(ns)) problems.add(name(d.object()) + " is in namespace " + ns + ", not one of " + declared);
    }
    return problems;
  }

  static List<String> deploymentSelectors(Manifests m) {
    List<String> problems = new ArrayList<>();
    if (m.all(Deployment.class).isEmpty()) problems.add("no Deployment in k8s/");
    for (Deployment d : m.all(Deployment.class)) {
      if (!matches(d.getSpec().getSelector(), podLabels(d))) problems.add(name(d) + ": selector does not match its pod labels " + podLabels(d));
      if (!"boxoffice".equals(podLabels(d).get("app")) || podLabels(d).get("role") == null) {
        problems.add(name(d) + ": pods need labels app=boxoffice and role, have " + podLabels(d));
      }
    }
    return problems;
  }

  static List<String> services(Manifests m) {
    List<String> problems = new ArrayList<>();
    if (m.all(Service.class).isEmpty()) problems.add("no Service in k8s/");
    for (Service s : m.all(Service.class)) {
      List<Deployment> selected = m.all(Deployment.class).stream()
          .filter(d -> Objects.equals(d.getMetadata().getNamespace(), s.getMetadata().getNamespace()))
          .filter(d -> matches(s.getSpec().getSelector(), podLabels(d)))
          .toList();
      if (selected.isEmpty()) {
        problems.add(name(s) + ": selector " + s.getSpec().getSelector() + " matches no Deployment's pods");
        continue;
      }
      for (ServicePort port : nz(s.getSpec().getPorts())) {
        IntOrString target = port.getTargetPort() != null ? port.getTargetPort() : new IntOrString(port.getPort());
        for (Deployment d : selected) {
          if (pod(d).getContainers().stream().noneMatch(c -> declares(c, target))) {
            problems.add(name(s) + " port " + port.getName() + ": target " + show(target) + " is no container port of " + name(d));
          }
        }
      }
    }
    return problems;
  }

  static List<String> probePorts(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      for (Container c : pod(d).getContainers()) {
        Map<String, Probe> probes = new LinkedHashMap<>();
        probes.put("startup", c.getStartupProbe());
        probes.put("readiness", c.getReadinessProbe());
        probes.put("liveness", c.getLivenessProbe());
        probes.forEach((kind, probe) -> {
          if (probe == null) {
            problems.add(name(d) + "/" + c.getName() + ": no " + kind + " probe");
            return;
          }
          IntOrString port = probe.getHttpGet() != null ? probe.getHttpGet().getPort()
              : probe.getTcpSocket() != null ? probe.getTcpSocket().getPort()
              : probe.getGrpc() != null ? new IntOrString(probe.getGrpc().getPort()) : null;
          if (port == null && probe.getExec() == null) problems.add(name(d) + "/" + c.getName() + ": " + kind + " probe has no handler");
          if (port != null && !declares(c, port)) {
            problems.add(name(d) + "/" + c.getName() + ": " + kind + " probe port " + show(port) + " is not declared");
          }
        });
      }
    }
    return problems;
  }

  static List<String> probeRoutes(Manifests m) {
    Map<String, String> paths = Map.of("startup", "/alive", "readiness", "/ready", "liveness", "/alive");
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      for (Container c : pod(d).getContainers()) {
        Map<String, Probe> probes = new LinkedHashMap<>();
        probes.put("startup", c.getStartupProbe());
        probes.put("readiness", c.getReadinessProbe());
        probes.put("liveness", c.getLivenessProbe());
        probes.forEach((kind, probe) -> {
          var get = probe == null ? null : probe.getHttpGet();
          if (get == null || !paths.get(kind).equals(get.getPath()) || !new IntOrString("management").equals(get.getPort())) {
            problems.add(name(d) + ": " + kind + " probe must GET " + paths.get(kind) + " on port management, is "
                + (get == null ? "no HTTP GET" : get.getPath() + " on " + show(get.getPort())));
          }
        });
      }
    }
    return problems;
  }

  /** /metrics is served on the management port only (never to fans): the scrape annotations must point there. */
  static List<String> metricsScrape(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      Map<String, String> a = nz(d.getSpec().getTemplate().getMetadata().getAnnotations());
      String management = pod(d).getContainers().stream().flatMap(c -> c.getPorts().stream())
          .filter(p -> "management".equals(p.getName())).map(p -> String.valueOf(p.getContainerPort())).findFirst().orElse("none");
      if (!"true".equals(a.get("prometheus.io/scrape")) || !"/metrics".equals(a.get("prometheus.io/path"))
          || !management.equals(a.get("prometheus.io/port"))) {
        problems.add(name(d) + ": prometheus.io/* must scrape /metrics on the management port " + management + ", is "
            + a.get("prometheus.io/path") + " on " + a.get("prometheus.io/port"));
      }
    }
    return problems;
  }

  static List<String> disruptionBudgets(Manifests m) {
    List<String> problems = new ArrayList<>();
    if (m.all(PodDisruptionBudget.class).isEmpty()) problems.add("no PodDisruptionBudget in k8s/");
    for (PodDisruptionBudget pdb : m.all(PodDisruptionBudget.class)) {
      long n = m.all(Deployment.class).stream()
          .filter(d -> Objects.equals(d.getMetadata().getNamespace(), pdb.getMetadata().getNamespace()))
          .filter(d -> matches(pdb.getSpec().getSelector(), podLabels(d))).count();
      if (n != 1) problems.add(name(pdb) + ": selector matches " + n + " Deployments, not exactly one");
      if ((pdb.getSpec().getMaxUnavailable() == null) == (pdb.getSpec().getMinAvailable() == null)) {
        problems.add(name(pdb) + ": needs exactly one of maxUnavailable and minAvailable");
      }
    }
    return problems;
  }

  static List<String> environmentCoverage(Manifests m) throws IOException {
    Set<String> read = variablesTheAppReads();
    List<String> problems = new ArrayList<>();
    if (!read.contains("BOXOFFICE_ROLES")) {
      problems.add("conf/*.conf yields no BOXOFFICE_ROLES: is the ${?BOXOFFICE_...} pattern still right? " + read);
    }
    for (String allowed : NOT_SET_ON_KUBERNETES.keySet()) {
      if (!read.contains(allowed)) problems.add(allowed + " is on NOT_SET_ON_KUBERNETES but conf/ no longer reads it");
    }
    for (Deployment d : m.all(Deployment.class)) {
      for (Container c : pod(d).getContainers()) {
        Set<String> set = environment(m, d.getMetadata().getNamespace(), c);
        for (String v : read) {
          if (NOT_SET_ON_KUBERNETES.containsKey(v)) {
            if (set.contains(v)) problems.add(name(d) + " sets " + v + ", which is meant to stay unset: " + NOT_SET_ON_KUBERNETES.get(v));
          } else if (!set.contains(v)) {
            problems.add(name(d) + "/" + c.getName() + " does not set " + v);
          }
        }
      }
    }
    return problems;
  }

  static List<String> noUnknownVariables(Manifests m) throws IOException {
    Set<String> read = variablesTheAppReads();
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      for (Container c : pod(d).getContainers()) {
        for (String v : environment(m, d.getMetadata().getNamespace(), c)) {
          if (v.startsWith("BOXOFFICE_") && !read.contains(v)) {
            problems.add(name(d) + " sets " + v + ", which nothing in conf/ reads");
          }
        }
      }
    }
    return problems;
  }

  static List<String> references(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      String ns = d.getMetadata().getNamespace();
      for (Container c : pod(d).getContainers()) {
        for (EnvVar e : nz(c.getEnv())) {
          EnvVarSource src = e.getValueFrom();
          if (src != null && src.getConfigMapKeyRef() != null) {
            var ref = src.getConfigMapKeyRef();
            Optional<ConfigMap> cm = m.find(ConfigMap.class, ns, ref.getName());
            if (cm.isEmpty()) problems.add(name(d) + " " + e.getName() + ": no ConfigMap " + ref.getName());
            else if (!keys(cm.get()).contains(ref.getKey())) {
              problems.add(name(d) + " " + e.getName() + ": ConfigMap " + ref.getName() + " has no key " + ref.getKey());
            }
          }
          if (src != null && src.getSecretKeyRef() != null) {
            var ref = src.getSecretKeyRef();
            Optional<Secret> s = m.find(Secret.class, ns, ref.getName());
            if (s.isEmpty()) problems.add(name(d) + " " + e.getName() + ": no Secret " + ref.getName());
            else if (!keys(s.get()).contains(ref.getKey())) {
              problems.add(name(d) + " " + e.getName() + ": Secret " + ref.getName() + " has no key " + ref.getKey());
            }
          }
        }
        for (EnvFromSource from : nz(c.getEnvFrom())) {
          if (from.getConfigMapRef() != null && m.find(ConfigMap.class, ns, from.getConfigMapRef().getName()).isEmpty()) {
            problems.add(name(d) + ": envFrom names no ConfigMap " + from.getConfigMapRef().getName());
          }
          if (from.getSecretRef() != null && m.find(Secret.class, ns, from.getSecretRef().getName()).isEmpty()) {
            problems.add(name(d) + ": envFrom names no Secret " + from.getSecretRef().getName());
          }
        }
      }
    }
    return problems;
  }

  static List<String> rbac(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      String ns = d.getMetadata().getNamespace();
      String sa = pod(d).getServiceAccountName();
      if (sa == null || sa.equals("default") || m.find(ServiceAccount.class, ns, sa).isEmpty()) {
        problems.add(name(d) + ": serviceAccountName " + sa + " is not a ServiceAccount of k8s/");
        continue;
      }
      if (Boolean.FALSE.equals(pod(d).getAutomountServiceAccountToken())) {
        problems.add(name(d) + ": bootstrap needs the ServiceAccount token mounted");
      }
      boolean granted = m.all(RoleBinding.class).stream()
          .filter(b -> ns.equals(b.getMetadata().getNamespace()))
          .filter(b -> nz(b.getSubjects()).stream().anyMatch(s -> isServiceAccount(s, sa, ns)))
          .filter(b -> "Role".equals(b.getRoleRef().getKind()))
          .map(b -> m.find(Role.class, ns, b.getRoleRef().getName()))
          .flatMap(Optional::stream)
          .anyMatch(KubernetesManifestsTest::canReadPods);
      if (!granted) problems.add(name(d) + ": no RoleBinding grants ServiceAccount " + sa + " get, watch and list on pods in " + ns);
    }
    return problems;
  }

  static boolean isServiceAccount(Subject s, String name, String namespace) {
    return "ServiceAccount".equals(s.getKind()) && name.equals(s.getName()) && namespace.equals(s.getNamespace());
  }

  static boolean canReadPods(Role role) {
    for (PolicyRule r : nz(role.getRules())) {
      if (nz(r.getApiGroups()).contains("") && nz(r.getResources()).contains("pods")
          && nz(r.getVerbs()).containsAll(List.of("get", "watch", "list"))) return true;
    }
    return false;
  }

  static List<String> roles(Manifests m) {
    List<String> problems = new ArrayList<>();
    Map<String, String> rolesByDeployment = new LinkedHashMap<>();
    for (Deployment d : m.all(Deployment.class)) {
      Container c = pod(d).getContainers().get(0);
      Optional<EnvVar> direct = nz(c.getEnv()).stream().filter(e -> e.getName().equals("BOXOFFICE_ROLES")).findFirst();
      if (direct.isEmpty() || direct.get().getValue() == null) {
        problems.add(name(d) + ": BOXOFFICE_ROLES must be set in the Deployment itself (roles are per Deployment)");
        continue;
      }
      String roles = direct.get().getValue();
      rolesByDeployment.put(d.getMetadata().getName(), roles);
      Set<String> each = Stream.of(roles.split(",")).map(String::trim).collect(Collectors.toCollection(TreeSet::new));
      if (!NODE_ROLES.containsAll(each)) problems.add(name(d) + ": BOXOFFICE_ROLES " + roles + " names a role other than " + NODE_ROLES);
      if (!roles.equals(podLabels(d).get("role"))) {
        problems.add(name(d) + ": role label " + podLabels(d).get("role") + " but BOXOFFICE_ROLES " + roles);
      }
    }
    if (new TreeSet<>(rolesByDeployment.values()).size() != rolesByDeployment.size()) {
      problems.add("two Deployments run the same roles: " + rolesByDeployment);
    }
    Set<String> covered = rolesByDeployment.values().stream().flatMap(r -> Stream.of(r.split(","))).map(String::trim).collect(Collectors.toSet());
    if (!covered.containsAll(NODE_ROLES)) problems.add("no Deployment runs " + NODE_ROLES.stream().filter(r -> !covered.contains(r)).toList());
    return problems;
  }

  static List<String> bootstrap(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      String ns = d.getMetadata().getNamespace();
      Container c = pod(d).getContainers().get(0);
      if (!plainValue(m, ns, c, "BOXOFFICE_DISCOVERY").equals(Optional.of("kubernetes"))) {
        problems.add(name(d) + ": BOXOFFICE_DISCOVERY is not kubernetes");
      }
      // pekko.discovery.kubernetes-api.pod-label-selector = "app=%s", %s = the service name.
      String service = plainValue(m, ns, c, "BOXOFFICE_SERVICE_NAME").orElse("boxoffice");
      if (!service.equals(podLabels(d).get("app"))) problems.add(name(d) + ": bootstrap looks for app=" + service + ", the pods are " + podLabels(d));
      Optional<EnvVar> host = nz(c.getEnv()).stream().filter(e -> e.getName().equals("BOXOFFICE_CLUSTER_HOST")).findFirst();
      boolean podIp = host.map(EnvVar::getValueFrom).map(EnvVarSource::getFieldRef).map(f -> "status.podIP".equals(f.getFieldPath())).orElse(false);
      if (!podIp) problems.add(name(d) + ": BOXOFFICE_CLUSTER_HOST must come from the downward API, status.podIP");
    }
    return problems;
  }

  static List<String> portVariables(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      Container c = pod(d).getContainers().get(0);
      PORT_VARIABLES.forEach((portName, variable) -> {
        Optional<Integer> declared = nz(c.getPorts()).stream().filter(p -> portName.equals(p.getName())).map(ContainerPort::getContainerPort).findFirst();
        Optional<String> value = plainValue(m, d.getMetadata().getNamespace(), c, variable);
        if (declared.isEmpty()) problems.add(name(d) + ": no container port named " + portName);
        else if (!value.equals(Optional.of(declared.get().toString()))) {
          problems.add(name(d) + ": " + variable + " is " + value.orElse("unset") + ", port " + portName + " is " + declared.get());
        }
      });
    }
    return problems;
  }

  static List<String> sysctls(Manifests m) throws IOException {
    List<String> problems = new ArrayList<>();
    Set<String> allowList = readmeAllowList();
    Set<String> unsafeUsed = new TreeSet<>();
    Map<String, String> union = new LinkedHashMap<>();
    for (Deployment d : m.all(Deployment.class)) {
      Map<String, String> set = sysctls(d);
      union.putAll(set);
      set.forEach((k, v) -> {
        if (NOT_NAMESPACED.contains(k)) problems.add(name(d) + ": " + k + " is not namespaced, no pod can set it");
        else if (!SAFE_SYSCTLS.contains(k)) unsafeUsed.add(k);
        if (SEED_SYSCTLS.containsKey(k) && !SEED_SYSCTLS.get(k).equals(v)) {
          problems.add(name(d) + ": " + k + "=" + v + ", the seed says " + SEED_SYSCTLS.get(k));
        }
      });
      // A widened local port range must not hand our own listening ports to outgoing connections.
      String range = set.get("net.ipv4.ip_local_port_range");
      if (range != null) {
        String[] lohi = range.trim().split("\\s+");
        int lo = Integer.parseInt(lohi[0]), hi = Integer.parseInt(lohi[1]);
        Set<String> reserved = Set.of(set.getOrDefault("net.ipv4.ip_local_reserved_ports", "").split(","));
        for (Container c : pod(d).getContainers()) {
          for (ContainerPort p : nz(c.getPorts())) {
            if (p.getContainerPort() >= lo && p.getContainerPort() <= hi && !reserved.contains(p.getContainerPort().toString())) {
              problems.add(name(d) + ": port " + p.getContainerPort() + " lies in ip_local_port_range " + range + " but is not in ip_local_reserved_ports");
            }
          }
        }
      }
    }
    if (!unsafeUsed.equals(allowList)) {
      problems.add("unsafe sysctls in the pods " + unsafeUsed + " differ from k8s/README.md's --allowed-unsafe-sysctls " + allowList);
    }
    String readme = Files.readString(K8S.resolve("README.md"));
    for (String seed : SEED_SYSCTLS.keySet()) {
      boolean inPods = union.containsKey(seed);
      if (NOT_NAMESPACED.contains(seed) ? !readme.contains(seed) : !inPods) {
        problems.add("the seed's " + seed + " is neither set in a pod nor left to the nodes in k8s/README.md");
      }
    }
    return problems;
  }

  static List<String> secretPlaceholders(Manifests m) {
    List<String> problems = new ArrayList<>();
    if (m.all(Secret.class).isEmpty()) problems.add("no Secret template in k8s/");
    for (Secret s : m.all(Secret.class)) {
      if (!nz(s.getData()).isEmpty()) problems.add(name(s) + ": a template has no data, only stringData placeholders");
      nz(s.getStringData()).forEach((k, v) -> {
        if (!v.isEmpty() && !v.equals("REPLACE_ME")) {
          problems.add(name(s) + ": " + k + " holds a value; only REPLACE_ME or empty belong in the repository");
        }
      });
    }
    return problems;
  }

  static List<String> gracefulShutdown(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      Container c = pod(d).getContainers().get(0);
      var preStop = c.getLifecycle() == null ? null : c.getLifecycle().getPreStop();
      long pause = -1;
      if (preStop != null && preStop.getExec() != null) {
        List<String> cmd = nz(preStop.getExec().getCommand());
        if (cmd.size() == 2 && cmd.get(0).equals("sleep")) pause = Long.parseLong(cmd.get(1));
      } else if (preStop != null && preStop.getSleep() != null) {
        pause = preStop.getSleep().getSeconds();
      }
      if (pause <= 0) problems.add(name(d) + ": needs a preStop pause so the Service stops routing first");
      Long grace = pod(d).getTerminationGracePeriodSeconds();
      // Coordinated shutdown: leaving the cluster and handing the shards over takes tens of seconds.
      if (grace == null || grace < pause + 30) {
        problems.add(name(d) + ": terminationGracePeriodSeconds " + grace + " leaves under 30 s after the preStop pause");
      }
    }
    return problems;
  }

  static List<String> podShape(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      String ns = d.getMetadata().getNamespace();
      for (Container c : pod(d).getContainers()) {
        var r = c.getResources();
        for (String resource : List.of("cpu", "memory")) {
          Quantity req = r == null ? null : nz(r.getRequests()).get(resource);
          Quantity lim = r == null ? null : nz(r.getLimits()).get(resource);
          if (req == null || lim == null) problems.add(name(d) + ": " + resource + " needs a request and a limit");
          else if (req.getNumericalAmount().compareTo(lim.getNumericalAmount()) > 0) {
            problems.add(name(d) + ": " + resource + " request above its limit");
          }
        }
        String jvm = plainValue(m, ns, c, "JAVA_TOOL_OPTIONS").orElse("");
        if (!jvm.contains("-XX:+UseParallelGC") || !jvm.contains("-XX:MaxRAMPercentage=")) {
          problems.add(name(d) + ": JAVA_TOOL_OPTIONS must select ParallelGC and size the heap to the container, is '" + jvm + "'");
        }
      }
      var anti = pod(d).getAffinity() == null ? null : pod(d).getAffinity().getPodAntiAffinity();
      List<PodAffinityTerm> terms = new ArrayList<>();
      if (anti != null) {
        terms.addAll(nz(anti.getRequiredDuringSchedulingIgnoredDuringExecution()));
        nz(anti.getPreferredDuringSchedulingIgnoredDuringExecution()).stream().map(WeightedPodAffinityTerm::getPodAffinityTerm).forEach(terms::add);
      }
      boolean spreads = terms.stream().anyMatch(t -> "kubernetes.io/hostname".equals(t.getTopologyKey()) && matches(t.getLabelSelector(), podLabels(d)));
      if (!spreads) problems.add(name(d) + ": no pod anti-affinity on kubernetes.io/hostname that selects its own pods");
    }
    return problems;
  }

  // ------------------------------------------------------------------------------------ tests

  @Test
  void everyManifestIsLoaded() throws IOException {
    Manifests m = load();
    Set<String> kinds = m.docs().stream().map(d -> d.object().getKind()).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(KINDS.values().stream().map(Class::getSimpleName).toList()), kinds, "every expected kind is present");
    assertEquals(Set.of("boxoffice-inventory", "boxoffice-edge"),
        m.all(Deployment.class).stream().map(d -> d.getMetadata().getName()).collect(Collectors.toSet()));
    assertFalse(variablesTheAppReads().isEmpty());
  }

  @TestFactory
  Stream<DynamicTest> theManifestsPassEveryCheck() throws IOException {
    Manifests m = load();
    return CHECKS.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
      List<String> problems = e.getValue().problems(m);
      assertTrue(problems.isEmpty(), String.join("\n", problems));
    }));
  }

  /** A way to break fresh copies of the manifests, and the check that must then complain. */
  record Breakage(String what, String check, Consumer<Manifests> breakIt) {}

  static final List<Breakage> BREAKAGES = List.of(
      new Breakage("a typo in a field name", "every document is read without unknown fields",
          m -> pod(m.deployment("boxoffice-edge")).getContainers().get(0).setAdditionalProperty("readinesProbe", Map.of())),
      new Breakage("an object outside the namespace", "every namespaced object is in a declared namespace",
          m -> m.configMap().getMetadata().setNamespace("default")),
      new Breakage("a Deployment selector that misses its pods", "every Deployment selects its own pod template",
          m -> m.deployment("boxoffice-edge").getSpec().getSelector().getMatchLabels().put("role", "inventory")),
      new Breakage("a Service selector with a typo", "every Service selects pods of a Deployment that declare its target ports",
          m -> m.all(Service.class).get(0).getSpec().getSelector().put("role", "egde")),
      new Breakage("a Service target port nobody declares", "every Service selects pods of a Deployment that declare its target ports",
          m -> m.all(Service.class).get(0).getSpec().getPorts().get(0).setTargetPort(new IntOrString("htttp"))),
      new Breakage("a probe on an undeclared port", "every probe's port is a declared container port",
          m -> pod(m.deployment("boxoffice-inventory")).getContainers().get(0).getLivenessProbe().getHttpGet().setPort(new IntOrString(8559))),
      new Breakage("readiness on the liveness route", "probes use the management routes",
          m -> pod(m.deployment("boxoffice-edge")).getContainers().get(0).getReadinessProbe().getHttpGet().setPath("/alive")),
      new Breakage("metrics scraped on the fans' port", "Prometheus scrapes /metrics on the management port",
          m -> m.deployment("boxoffice-edge").getSpec().getTemplate().getMetadata().getAnnotations().put("prometheus.io/port", "8080")),
      new Breakage("a PodDisruptionBudget selecting nothing", "every PodDisruptionBudget selects a Deployment",
          m -> m.all(PodDisruptionBudget.class).get(0).getSpec().getSelector().getMatchLabels().put("role", "inventroy")),
      new Breakage("a Secret variable dropped from one Deployment", "every variable the app reads is set in every Deployment",
          m -> pod(m.deployment("boxoffice-edge")).getContainers().get(0).getEnv().removeIf(e -> e.getName().equals("BOXOFFICE_TICKET_KEY"))),
      new Breakage("a ConfigMap key removed", "every variable the app reads is set in every Deployment",
          m -> m.configMap().getData().remove("BOXOFFICE_DB_URL")),
      new Breakage("static seed nodes besides bootstrap", "every variable the app reads is set in every Deployment",
          m -> m.configMap().getData().put("BOXOFFICE_SEED_NODES", "10.0.0.1:25520")),
      new Breakage("a misspelt variable", "every BOXOFFICE_ variable set is one the app reads",
          m -> m.configMap().getData().put("BOXOFFICE_HTTP_PROT", "8080")),
      new Breakage("a secretKeyRef to a missing key", "every ConfigMap and Secret reference names an existing key",
          m -> pod(m.deployment("boxoffice-inventory")).getContainers().get(0).getEnv().stream()
              .filter(e -> e.getName().equals("BOXOFFICE_POW_KEY")).findFirst().orElseThrow()
              .getValueFrom().getSecretKeyRef().setKey("BOXOFFICE_POWKEY")),
      new Breakage("envFrom naming a missing ConfigMap", "every ConfigMap and Secret reference names an existing key",
          m -> pod(m.deployment("boxoffice-edge")).getContainers().get(0).getEnvFrom().get(0).getConfigMapRef().setName("boxoffice-conf")),
      new Breakage("the RoleBinding bound to another ServiceAccount", "the RoleBinding lets the Deployments' ServiceAccount list pods",
          m -> m.all(RoleBinding.class).get(0).getSubjects().get(0).setName("default")),
      new Breakage("the Role without watch", "the RoleBinding lets the Deployments' ServiceAccount list pods",
          m -> m.all(Role.class).get(0).getRules().get(0).setVerbs(List.of("get", "list"))),
      new Breakage("both Deployments inventory", "BOXOFFICE_ROLES differs per Deployment and matches its role label",
          m -> pod(m.deployment("boxoffice-edge")).getContainers().get(0).getEnv().stream()
              .filter(e -> e.getName().equals("BOXOFFICE_ROLES")).findFirst().orElseThrow().setValue("inventory")),
      new Breakage("a bootstrap service name no pod carries", "cluster bootstrap finds every pod and advertises the pod IP",
          m -> m.configMap().getData().put("BOXOFFICE_SERVICE_NAME", "box-office")),
      new Breakage("a fixed cluster host", "cluster bootstrap finds every pod and advertises the pod IP",
          m -> pod(m.deployment("boxoffice-inventory")).getContainers().get(0).getEnv().stream()
              .filter(e -> e.getName().equals("BOXOFFICE_CLUSTER_HOST")).findFirst().orElseThrow()
              .setValueFrom(null)),
      new Breakage("an HTTP port that differs from the container port", "the port variables equal the named container ports",
          m -> m.configMap().getData().put("BOXOFFICE_HTTP_PORT", "8081")),
      new Breakage("a host-wide sysctl in a pod", "sysctls are the seed's, allowed or on the README's allow-list",
          m -> pod(m.deployment("boxoffice-edge")).getSecurityContext().getSysctls().add(new Sysctl("net.core.netdev_max_backlog", "32768"))),
      new Breakage("an unsafe sysctl missing from the README's allow-list", "sysctls are the seed's, allowed or on the README's allow-list",
          m -> pod(m.deployment("boxoffice-inventory")).getSecurityContext().getSysctls().add(new Sysctl("net.ipv4.tcp_tw_reuse", "1"))),
      new Breakage("a listening port left in the local port range", "sysctls are the seed's, allowed or on the README's allow-list",
          m -> pod(m.deployment("boxoffice-inventory")).getSecurityContext().getSysctls()
              .removeIf(s -> s.getName().equals("net.ipv4.ip_local_reserved_ports"))),
      new Breakage("a real-looking key in the Secret template", "the Secret template holds placeholders only",
          m -> m.all(Secret.class).get(0).getStringData().put("BOXOFFICE_TICKET_KEY", "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJ0=")),
      new Breakage("no time to leave the cluster", "pods leave the cluster gracefully",
          m -> pod(m.deployment("boxoffice-inventory")).setTerminationGracePeriodSeconds(10L)),
      new Breakage("no memory limit", "pods have requests, limits, the JVM options and anti-affinity",
          m -> pod(m.deployment("boxoffice-edge")).getContainers().get(0).getResources().getLimits().remove("memory")),
      new Breakage("the default collector", "pods have requests, limits, the JVM options and anti-affinity",
          m -> m.configMap().getData().put("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=70")),
      new Breakage("anti-affinity against the other role's pods", "pods have requests, limits, the JVM options and anti-affinity",
          m -> pod(m.deployment("boxoffice-inventory")).getAffinity().getPodAntiAffinity()
              .getPreferredDuringSchedulingIgnoredDuringExecution().get(0).getPodAffinityTerm()
              .getLabelSelector().getMatchLabels().put("role", "edge")));

  @TestFactory
  Stream<DynamicTest> eachCheckCatchesItsBreakage() {
    return BREAKAGES.stream().map(b -> DynamicTest.dynamicTest(b.what(), () -> {
      Check check = CHECKS.get(b.check());
      assertTrue(check != null, "no check named " + b.check());
      Manifests m = load();
      assertTrue(check.problems(m).isEmpty(), "passes before the breakage");
      b.breakIt().accept(m);
      assertFalse(check.problems(m).isEmpty(), "'" + b.check() + "' misses " + b.what());
    }));
  }

  @Test
  void everyCheckHasABreakage() {
    Set<String> broken = BREAKAGES.stream().map(Breakage::check).collect(Collectors.toSet());
    assertEquals(CHECKS.keySet(), broken,
        "every check is shown to fail on some breakage");
  }
}
