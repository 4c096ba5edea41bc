package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
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
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
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
 * Renders the kustomize base and the example overlay of {@code k8s/} with the real
 * {@code kubectl kustomize} ({@link Kustomize}: what {@code kubectl apply -k} sends), reads the result
 * into typed Kubernetes objects (the fabric8 model) and checks that the pieces fit: selectors,
 * ports, probes, environment, ConfigMap and Secret keys, RBAC, roles, scheduling, shutdown
 * budget against the node's own coordinated shutdown, split-brain resolver settings, network
 * policy. Each check is also run on a deliberately broken copy, so none can pass vacuously.
 */
class KubernetesManifestsTest {
  static final Path K8S = Path.of("k8s");
  static final Path BASE = K8S.resolve("base");
  static final Path OVERLAY = K8S.resolve("overlays/example");
  /** The schema migration Job's own kustomization (checked by MigrationJobManifestTest). */
  static final Path MIGRATE = K8S.resolve("migrate");
  /** Not part of any kustomization (the Secret is created from generated values); read to check references. */
  static final Path SECRET_TEMPLATE = K8S.resolve("secret-template.yaml");
  static final Path CONF = Path.of("conf");
  /** Where the pods mount the Secret boxoffice-secrets. */
  static final String SECRET_DIR = "/var/run/secrets/boxoffice/";

  static final String CERT_MANAGER = "cert-manager.io/v1";

  /** The kinds k8s/ may hold; anything else fails the load, so nothing goes unchecked. */
  static final Map<String, Class<? extends HasMetadata>> KINDS = Map.ofEntries(
      Map.entry("v1/Namespace", Namespace.class),
      Map.entry("v1/ServiceAccount", ServiceAccount.class),
      Map.entry("v1/ConfigMap", ConfigMap.class),
      Map.entry("v1/Secret", Secret.class),
      Map.entry("v1/Service", Service.class),
      Map.entry("apps/v1/Deployment", Deployment.class),
      Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
      Map.entry("rbac.authorization.k8s.io/v1/Role", Role.class),
      Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", RoleBinding.class),
      Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
      // The example overlay's optional cert-manager resources (no fabric8 model here): read
      // untyped, checked by certificates().
      Map.entry(CERT_MANAGER + "/Certificate", GenericKubernetesResource.class),
      Map.entry(CERT_MANAGER + "/Issuer", GenericKubernetesResource.class),
      // The schema migration (k8s/migrate/job.yaml), checked by MigrationJobManifestTest.
      Map.entry("batch/v1/Job", io.fabric8.kubernetes.api.model.batch.v1.Job.class));


  /** Variables the app reads (conf/*.conf) that the Kubernetes pods deliberately leave unset. */
  static final Map<String, String> NOT_SET_ON_KUBERNETES = Map.ofEntries(
      Map.entry("BOXOFFICE_DATA_DIR", "the folder of the embedded H2 database; the pods use PostgreSQL (BOXOFFICE_DB_URL)"),
      Map.entry("BOXOFFICE_SEED_NODES", "static seed nodes; on Kubernetes the cluster forms through bootstrap (BOXOFFICE_DISCOVERY)"),
      Map.entry("BOXOFFICE_FORM_CLUSTER", "whether the first static seed may form the cluster; bootstrap decides that on Kubernetes"),
      // TLS: the defaults of conf/ are where the manifests mount the Secrets (checked by edgeTls, remoteTls).
      Map.entry("BOXOFFICE_HTTPS_PORT", "the HTTPS listener's port: the default 8443, the edge's container port https"),
      Map.entry("BOXOFFICE_TLS_CERTIFICATE", "the default /etc/boxoffice/tls/tls.crt, where the edge mounts its TLS Secret"),
      Map.entry("BOXOFFICE_TLS_PRIVATE_KEY", "the default /etc/boxoffice/tls/tls.key, where the edge mounts its TLS Secret"),
      Map.entry("BOXOFFICE_FORWARDED_PROTO", "TLS at an Ingress instead of the edge's own HTTPS (k8s/README.md, \"TLS\")"),
      Map.entry("BOXOFFICE_REMOTE_KEY_STORE", "the default /etc/boxoffice/remote-tls/keystore.p12, where every pod mounts its stores"),
      Map.entry("BOXOFFICE_REMOTE_TRUST_STORE", "the default /etc/boxoffice/remote-tls/truststore.p12"),
      Map.entry("BOXOFFICE_KUBERNETES_API", "the API server for the pod-deletion-cost PATCH: the default https://kubernetes.default.svc"),
      Map.entry("BOXOFFICE_ALLOW_SIMULATOR_IN_PRODUCTION", "a drill's escape from the simulator's refusal: never on a cluster that sells"),
      Map.entry("BOXOFFICE_STRIPE_API_BASE", "Stripe's own https://api.stripe.com, the default; tests point it at a stand-in"));

  /**
   * Secrets the pods get as variables (secretKeyRef), because the app reads no {@code _FILE}
   * variant of them; any other Secret reaches the pods as files.
   */
  static final Set<String> SECRET_VARIABLES = Set.of(
      "BOXOFFICE_QUEUE_KEYS_ACCEPTED", "BOXOFFICE_REMOTE_KEY_STORE_PASSWORD", "BOXOFFICE_REMOTE_TRUST_STORE_PASSWORD");

  static final Set<String> NODE_ROLES = Set.of("inventory", "edge");

  /** Container port names and the variables that must carry the same numbers. */
  static final Map<String, String> PORT_VARIABLES = Map.of(
      "http", "BOXOFFICE_HTTP_PORT",
      "remoting", "BOXOFFICE_CLUSTER_PORT",
      "management", "BOXOFFICE_MANAGEMENT_PORT");

  // ---------------------------------------------------------------------------------- loading

  /** One rendered document and the file it came from. */
  record Doc(Path file, HasMetadata object) {}

  /**
   * One rendering of k8s/, typed, with the Secret template, and the node's own configuration
   * (conf/application.conf over Pekko's defaults) that the manifests must agree with.
   */
  record Manifests(List<Doc> docs, AtomicReference<Config> config) {
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

  /** The kustomization in {@code dir} rendered, plus the Secret template, typed. */
  static Manifests load(Path dir) throws IOException {
    List<Doc> docs = new ArrayList<>();
    List<Kustomize.Rendered> rendered = new ArrayList<>(Kustomize.render(dir));
    for (var o : Kustomize.read(SECRET_TEMPLATE)) rendered.add(new Kustomize.Rendered(SECRET_TEMPLATE, o));
    for (Kustomize.Rendered r : rendered) {
      JsonNode node = r.object();
      String type = node.path("apiVersion").asText() + "/" + node.path("kind").asText();
      Class<? extends HasMetadata> kind = KINDS.get(type);
      if (kind == null) throw new AssertionError(r.source() + ": no check knows " + type + "; add it to KINDS and to the checks");
      docs.add(new Doc(r.source(), YAML.treeToValue(node, kind)));
    }
    return new Manifests(docs, new AtomicReference<>(nodeConfig()));
  }

  static Manifests load() throws IOException {
    return load(OVERLAY);
  }

  /** conf/application.conf (with its includes) over the libraries' reference.conf, as a node reads it. */
  static Config nodeConfig() {
    return ConfigFactory.parseFile(CONF.resolve("application.conf").toFile()).withFallback(ConfigFactory.defaultReference()).resolve();
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
    // logback reads ${BOXOFFICE_LOG_FORMAT:-TEXT}; NodeSecrets reads <VARIABLE>_FILE.
    Matcher logback = Pattern.compile("\\$\\{(BOXOFFICE_[A-Z0-9_]+)").matcher(Files.readString(CONF.resolve("logback.xml")));
    while (logback.find()) names.add(logback.group(1));
    NodeSecrets.FILE_VARIABLES.keySet().forEach(v -> names.add(v + "_FILE"));
    return names;
  }

  /**
   * The variables a container gets from files of mounted Secrets: X when X_FILE is set to the
   * path of key X of a Secret volume mounted there (the Secret holding that key).
   */
  static Set<String> fromFiles(Manifests m, String namespace, PodSpec pod, Container c) {
    Set<String> names = new TreeSet<>();
    for (EnvVar e : nz(c.getEnv())) {
      if (!e.getName().endsWith("_FILE") || e.getValue() == null) continue;
      String variable = e.getName().substring(0, e.getName().length() - "_FILE".length());
      for (VolumeMount mount : nz(c.getVolumeMounts())) {
        String dir = mount.getMountPath().endsWith("/") ? mount.getMountPath() : mount.getMountPath() + "/";
        if (!e.getValue().startsWith(dir)) continue;
        String key = e.getValue().substring(dir.length());
        nz(pod.getVolumes()).stream().filter(v -> v.getName().equals(mount.getName()) && v.getSecret() != null)
            .map(v -> m.find(Secret.class, namespace, v.getSecret().getSecretName()))
            .flatMap(Optional::stream)
            .filter(secret -> keys(secret).contains(key) && key.equals(variable))
            .findFirst().ifPresent(secret -> names.add(variable));
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
    CHECKS.put("inventory pods annotate their own pod-deletion-cost (switched on, named by the downward API, allowed to patch pods); the edge may not patch pods",
        KubernetesManifestsTest::podDeletionCost);
    CHECKS.put("BOXOFFICE_ROLES differs per Deployment and matches its role label", KubernetesManifestsTest::roles);
    CHECKS.put("cluster bootstrap finds every pod and advertises the pod IP", KubernetesManifestsTest::bootstrap);
    CHECKS.put("the port variables equal the named container ports", KubernetesManifestsTest::portVariables);
    CHECKS.put("no sysctls (a stock cluster refuses unsafe ones)", KubernetesManifestsTest::noSysctls);
    CHECKS.put("the Secret template holds placeholders only", KubernetesManifestsTest::secretPlaceholders);
    CHECKS.put("secrets reach the pods as files, not variables", KubernetesManifestsTest::secretsAsFiles);
    CHECKS.put("the grace period covers preStop and coordinated shutdown's every phase", KubernetesManifestsTest::gracefulShutdown);
    CHECKS.put("CPU requests and no CPU limit, memory limit, JVM options and processors from the request", KubernetesManifestsTest::podShape);
    CHECKS.put("inventory pods never share a host; every role spreads over zones and hosts", KubernetesManifestsTest::spread);
    CHECKS.put("the split-brain resolver counts inventory nodes and follows the docs", KubernetesManifestsTest::splitBrainResolver);
    CHECKS.put("rolling updates: surge before stop, minReadySeconds, an app-version, a join timeout", KubernetesManifestsTest::rollingUpdates);
    CHECKS.put("JSON log lines", KubernetesManifestsTest::jsonLogs);
    CHECKS.put("pods run in production and pay through Stripe, never the simulator", KubernetesManifestsTest::realPayments);
    CHECKS.put("remoting and management only from boxoffice pods, HTTP only to edge pods", KubernetesManifestsTest::networkPolicy);
    CHECKS.put("the edge serves HTTPS from a mounted TLS Secret, the Service 443 to it and 80 to the redirect", KubernetesManifestsTest::edgeTls);
    CHECKS.put("every pod speaks mutual TLS to its peers with stores from a mounted Secret", KubernetesManifestsTest::remoteTls);
    CHECKS.put("a pod whose mesh label is off is cut from its peers' remoting and management both ways",
        KubernetesManifestsTest::partitionByLabel);
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
    // Untyped (cert-manager): every field is an additional property; certificates() checks those.
    if (o instanceof GenericKubernetesResource) return;
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
    Map<String, String> paths = Map.of("startup", "/ready", "readiness", "/ready", "liveness", "/alive");
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
        set.addAll(fromFiles(m, d.getMetadata().getNamespace(), pod(d), c));
        for (String v : read) {
          if (v.endsWith("_FILE")) continue;
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

  /** A variable's value in a Deployment's container: its own env entry, else the ConfigMap (envFrom). */
  static String effective(Manifests m, Deployment d, String variable) {
    Optional<EnvVar> own = nz(pod(d).getContainers().get(0).getEnv()).stream().filter(e -> e.getName().equals(variable)).findFirst();
    if (own.isPresent()) return own.get().getValueFrom() == null ? own.get().getValue() : "(from " + own.get().getValueFrom() + ")";
    return m.configMap().getData().get(variable);
  }

  /** The verbs the RoleBindings of {@code sa} grant on pods in {@code ns}. */
  static Set<String> podVerbs(Manifests m, String ns, String sa) {
    return m.all(RoleBinding.class).stream()
        .filter(b -> ns.equals(b.getMetadata().getNamespace()))
        .filter(b -> nz(b.getSubjects()).stream().anyMatch(s -> isServiceAccount(s, sa, ns)))
        .filter(b -> "Role".equals(b.getRoleRef().getKind()))
        .map(b -> m.find(Role.class, ns, b.getRoleRef().getName()))
        .flatMap(Optional::stream)
        .flatMap(r -> nz(r.getRules()).stream())
        .filter(r -> (nz(r.getApiGroups()).contains("") || nz(r.getApiGroups()).contains("*"))
            && (nz(r.getResources()).contains("pods") || nz(r.getResources()).contains("*")))
        .flatMap(r -> nz(r.getVerbs()).stream())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  static final Set<String> WRITE_VERBS = Set.of("*", "patch", "update", "create", "delete", "deletecollection");

  /**
   * Only the inventory pods annotate themselves (the members the cost protects are inventory
   * members), with a ServiceAccount of their own that may patch pods; the internet-facing edge
   * switches the annotator off and its ServiceAccount may not change any pod.
   */
  static List<String> podDeletionCost(Manifests m) {
    List<String> problems = new ArrayList<>();
    Set<String> inventoryAccounts = new TreeSet<>();
    for (Deployment d : m.all(Deployment.class)) {
      String ns = d.getMetadata().getNamespace();
      String sa = pod(d).getServiceAccountName();
      String role = pod(d).getContainers().isEmpty() ? null : effective(m, d, "BOXOFFICE_ROLES");
      Set<String> verbs = podVerbs(m, ns, String.valueOf(sa));
      String on = effective(m, d, "BOXOFFICE_POD_DELETION_COST");
      if ("inventory".equals(role)) {
        inventoryAccounts.add(sa);
        if (!"on".equals(on)) problems.add(name(d) + ": BOXOFFICE_POD_DELETION_COST is " + on + ", not on");
        Container c = pod(d).getContainers().get(0);
        Optional<EnvVar> podName = nz(c.getEnv()).stream().filter(e -> e.getName().equals("BOXOFFICE_POD_NAME")).findFirst();
        boolean fromDownwardApi = podName.isPresent() && podName.get().getValueFrom() != null
            && podName.get().getValueFrom().getFieldRef() != null
            && "metadata.name".equals(podName.get().getValueFrom().getFieldRef().getFieldPath());
        if (!fromDownwardApi) problems.add(name(d) + ": BOXOFFICE_POD_NAME must come from the downward API's metadata.name");
        if (!verbs.contains("patch")) problems.add(name(d) + ": no RoleBinding grants ServiceAccount " + sa + " patch on pods in " + ns);
      } else {
        if (!"off".equals(on)) problems.add(name(d) + " (" + role + "): BOXOFFICE_POD_DELETION_COST is " + on + "; only inventory pods annotate themselves");
        Set<String> writes = new TreeSet<>(verbs);
        writes.retainAll(WRITE_VERBS);
        if (!writes.isEmpty()) problems.add(name(d) + " (" + role + "): ServiceAccount " + sa + " may " + writes + " pods; it may only read them");
      }
    }
    for (Deployment d : m.all(Deployment.class)) {
      String role = effective(m, d, "BOXOFFICE_ROLES");
      if (!"inventory".equals(role) && inventoryAccounts.contains(pod(d).getServiceAccountName())) {
        problems.add(name(d) + " (" + role + ") shares the inventory's ServiceAccount " + pod(d).getServiceAccountName());
      }
    }
    if (inventoryAccounts.isEmpty()) problems.add("no inventory Deployment");
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

  static List<String> noSysctls(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      var sc = pod(d).getSecurityContext();
      if (sc != null && !nz(sc.getSysctls()).isEmpty()) {
        problems.add(name(d) + ": sets sysctls " + sc.getSysctls().stream().map(Sysctl::getName).toList()
            + "; unsafe ones need a kubelet allow-list, tcp_fin_timeout Kubernetes 1.29 (k8s/README.md, \"Kernel settings\")");
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

  static List<String> secretsAsFiles(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      for (Container c : pod(d).getContainers()) {
        for (EnvVar e : nz(c.getEnv())) {
          if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null
              && !(SECRET_VARIABLES.contains(e.getName()) && !NodeSecrets.FILE_VARIABLES.containsKey(e.getName()))) {
            problems.add(name(d) + ": " + e.getName() + " comes from a Secret as a variable; mount it and set " + e.getName() + "_FILE");
          }
        }
        for (EnvFromSource from : nz(c.getEnvFrom())) {
          if (from.getSecretRef() != null) problems.add(name(d) + ": envFrom a Secret puts every key in the environment");
        }
        for (String v : NodeSecrets.FILE_VARIABLES.keySet()) {
          boolean viaFile = fromFiles(m, d.getMetadata().getNamespace(), pod(d), c).contains(v);
          if (!viaFile) problems.add(name(d) + ": " + v + "_FILE does not name key " + v + " of a mounted Secret (" + SECRET_DIR + ")");
        }
      }
    }
    return problems;
  }

  /** One phase of coordinated shutdown and its timeout. */
  record Phase(String name, Duration timeout) {}

  /** Every enabled phase of the node's coordinated shutdown, each with its timeout (or the default). */
  static List<Phase> shutdownPhases(Config config) {
    Config cs = config.getConfig("pekko.coordinated-shutdown");
    Duration fallback = cs.getDuration("default-phase-timeout");
    List<Phase> phases = new ArrayList<>();
    for (String phase : new TreeSet<>(cs.getObject("phases").keySet())) {
      Config p = cs.getConfig("phases").getConfig("\"" + phase + "\"");
      if (p.hasPath("enabled") && !p.getBoolean("enabled")) continue;
      phases.add(new Phase(phase, p.hasPath("timeout") ? p.getDuration("timeout") : fallback));
    }
    return phases;
  }

  /**
   * The phases run one after another, each cut off at its timeout, so their sum bounds the
   * whole (a path through the phase graph can only be shorter); the kubelet's grace period
   * starts with the preStop hook, so it must cover preStop + that sum.
   */
  static List<String> gracefulShutdown(Manifests m) {
    List<String> problems = new ArrayList<>();
    List<Phase> phases = shutdownPhases(m.config().get());
    long shutdownSeconds = (phases.stream().mapToLong(p -> p.timeout().toMillis()).sum() + 999) / 1000;
    if (phases.size() < 10) problems.add("only " + phases.size() + " coordinated shutdown phases read: " + phases);
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
      if (grace == null || grace < pause + shutdownSeconds) {
        problems.add(name(d) + ": terminationGracePeriodSeconds " + grace + " < preStop " + pause + " s + coordinated shutdown "
            + shutdownSeconds + " s (" + phases.stream().map(p -> p.name() + " " + p.timeout().toMillis() / 1000.0).collect(Collectors.joining(" + ")) + ")");
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
        Map<String, Quantity> requests = r == null ? Map.of() : nz(r.getRequests());
        Map<String, Quantity> limits = r == null ? Map.of() : nz(r.getLimits());
        if (requests.get("cpu") == null) problems.add(name(d) + ": needs a CPU request");
        if (limits.containsKey("cpu")) problems.add(name(d) + ": a CPU limit throttles the JVM (missed heartbeats, downed nodes); requests only");
        Quantity memReq = requests.get("memory"), memLim = limits.get("memory");
        if (memReq == null || memLim == null) problems.add(name(d) + ": memory needs a request and a limit");
        else if (memReq.getNumericalAmount().compareTo(memLim.getNumericalAmount()) != 0) {
          problems.add(name(d) + ": memory request " + memReq + " differs from its limit " + memLim + " (the heap is a share of the limit)");
        }
        String jvm = plainValue(m, ns, c, "JAVA_TOOL_OPTIONS").orElse("");
        if (!jvm.contains("-XX:+UseParallelGC") || !jvm.contains("-XX:MaxRAMPercentage=")) {
          problems.add(name(d) + ": JAVA_TOOL_OPTIONS must select ParallelGC and size the heap to the container, is '" + jvm + "'");
        }
        // -XX:ActiveProcessorCount=$(VAR), VAR the container's own requests.cpu in whole CPUs, declared before it.
        List<EnvVar> env = nz(c.getEnv());
        String opts = env.stream().filter(e -> e.getName().equals("JDK_JAVA_OPTIONS")).map(EnvVar::getValue).filter(Objects::nonNull).findFirst().orElse("");
        Matcher apc = Pattern.compile("-XX:ActiveProcessorCount=\\$\\(([A-Z_]+)\\)").matcher(opts);
        boolean fromRequest = false;
        if (apc.find()) {
          for (EnvVar e : env) {
            if (e.getName().equals("JDK_JAVA_OPTIONS")) break;
            var field = e.getValueFrom() == null ? null : e.getValueFrom().getResourceFieldRef();
            if (e.getName().equals(apc.group(1)) && field != null && "requests.cpu".equals(field.getResource())
                && (field.getContainerName() == null || field.getContainerName().equals(c.getName()))
                && field.getDivisor() != null && field.getDivisor().getNumericalAmount().compareTo(java.math.BigDecimal.ONE) == 0) {
              fromRequest = true;
            }
          }
        }
        if (!fromRequest) {
          problems.add(name(d) + ": JDK_JAVA_OPTIONS must set -XX:ActiveProcessorCount=$(V), V an earlier variable from resourceFieldRef requests.cpu, divisor 1; is '" + opts + "'");
        }
      }
    }
    return problems;
  }

  static boolean selectsOwnPods(LabelSelector selector, Deployment d) {
    return matches(selector, podLabels(d)) && selector.getMatchLabels() != null && podLabels(d).get("role").equals(selector.getMatchLabels().get("role"));
  }

  static List<String> spread(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      List<TopologySpreadConstraint> constraints = nz(pod(d).getTopologySpreadConstraints());
      for (String key : List.of("topology.kubernetes.io/zone", "kubernetes.io/hostname")) {
        if (constraints.stream().noneMatch(t -> key.equals(t.getTopologyKey()) && t.getMaxSkew() == 1 && selectsOwnPods(t.getLabelSelector(), d))) {
          problems.add(name(d) + ": no topology spread constraint (maxSkew 1) over " + key + " that selects its own pods");
        }
      }
      var anti = pod(d).getAffinity() == null ? null : pod(d).getAffinity().getPodAntiAffinity();
      List<PodAffinityTerm> required = anti == null ? List.of() : nz(anti.getRequiredDuringSchedulingIgnoredDuringExecution());
      List<PodAffinityTerm> any = new ArrayList<>(required);
      if (anti != null) nz(anti.getPreferredDuringSchedulingIgnoredDuringExecution()).stream().map(WeightedPodAffinityTerm::getPodAffinityTerm).forEach(any::add);
      boolean inventory = "inventory".equals(podLabels(d).get("role"));
      List<PodAffinityTerm> terms = inventory ? required : any;
      if (terms.stream().noneMatch(t -> "kubernetes.io/hostname".equals(t.getTopologyKey()) && selectsOwnPods(t.getLabelSelector(), d))) {
        problems.add(name(d) + ": no " + (inventory ? "required " : "") + "pod anti-affinity on kubernetes.io/hostname against its own pods");
      }
    }
    return problems;
  }

  static List<String> splitBrainResolver(Manifests m) {
    List<String> problems = new ArrayList<>();
    Config c = m.config().get().getConfig("pekko.cluster");
    if (!"org.apache.pekko.cluster.sbr.SplitBrainResolverProvider".equals(c.getString("downing-provider-class"))) {
      problems.add("pekko.cluster.downing-provider-class is not the split-brain resolver");
    }
    Config sbr = c.getConfig("split-brain-resolver");
    if (!"keep-majority".equals(sbr.getString("active-strategy"))) problems.add("active-strategy is " + sbr.getString("active-strategy") + ", not keep-majority");
    String role = sbr.getString("keep-majority.role");
    if (!"inventory".equals(role) || !role.equals(c.getString("sharding.role"))) {
      problems.add("keep-majority.role is '" + role + "': the majority must be counted over the inventory nodes, sharding's role " + c.getString("sharding.role"));
    }
    Duration stable = sbr.getDuration("stable-after");
    String unstable = sbr.getString("down-all-when-unstable");
    // "on" derives max(3/4 stable-after, 4 s); "off" keeps no bound at all.
    Duration downAll = switch (unstable) {
      case "on" -> Duration.ofMillis(Math.max(stable.toMillis() * 3 / 4, 4000));
      case "off" -> Duration.ofDays(1);
      default -> sbr.getDuration("down-all-when-unstable");
    };
    if (downAll.compareTo(stable) > 0) {
      problems.add("down-all-when-unstable (" + unstable + " = " + downAll + ") is longer than stable-after " + stable + ", which the Pekko docs advise against");
    }
    long inventoryPods = m.all(Deployment.class).stream().filter(d -> "inventory".equals(podLabels(d).get("role")))
        .mapToLong(d -> d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas()).sum();
    if (inventoryPods % 2 == 0) problems.add(inventoryPods + " inventory pods: keep-majority needs an odd number, or an even split downs both halves");
    return problems;
  }

  /** Pekko's app-version syntax, roughly: numbers with dots, then an optional qualifier. */
  static final Pattern APP_VERSION = Pattern.compile("\\d+(\\.\\d+)*([-+][0-9A-Za-z.+-]+)?");

  static List<String> rollingUpdates(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      var strategy = d.getSpec().getStrategy();
      var rolling = strategy == null ? null : strategy.getRollingUpdate();
      if (strategy == null || !"RollingUpdate".equals(strategy.getType()) || rolling == null
          || !new IntOrString(0).equals(rolling.getMaxUnavailable()) || !new IntOrString(1).equals(rolling.getMaxSurge())) {
        problems.add(name(d) + ": needs RollingUpdate with maxSurge 1 and maxUnavailable 0 (a new member is Up before an old one leaves)");
      }
      if (d.getSpec().getMinReadySeconds() == null || d.getSpec().getMinReadySeconds() < 5) {
        problems.add(name(d) + ": minReadySeconds " + d.getSpec().getMinReadySeconds() + ": a new pod must stay Ready a while before the next old one goes");
      }
      Container c = pod(d).getContainers().get(0);
      String version = plainValue(m, d.getMetadata().getNamespace(), c, "BOXOFFICE_APP_VERSION").orElse("");
      if (!APP_VERSION.matcher(version).matches()) problems.add(name(d) + ": BOXOFFICE_APP_VERSION '" + version + "' is no version Pekko orders");
      String join = plainValue(m, d.getMetadata().getNamespace(), c, "BOXOFFICE_JOIN_TIMEOUT").orElse("off");
      try {
        Duration timeout = ConfigFactory.parseMap(Map.of("t", join)).getDuration("t");
        if (timeout.isZero() || timeout.isNegative()) problems.add(name(d) + ": BOXOFFICE_JOIN_TIMEOUT must be positive");
      } catch (RuntimeException e) {
        problems.add(name(d) + ": BOXOFFICE_JOIN_TIMEOUT '" + join + "' is no duration: a pod that never joins would wait forever");
      }
    }
    if (!m.config().get().hasPath("pekko.cluster.shutdown-after-unsuccessful-join-seed-nodes")
        || !m.config().get().getBoolean("pekko.coordinated-shutdown.exit-jvm")) {
      problems.add("a node that gives up joining must exit the JVM (pekko.coordinated-shutdown.exit-jvm)");
    }
    return problems;
  }

  static List<String> jsonLogs(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      for (Container c : pod(d).getContainers()) {
        Optional<String> format = plainValue(m, d.getMetadata().getNamespace(), c, "BOXOFFICE_LOG_FORMAT");
        if (!format.equals(Optional.of("JSON"))) problems.add(name(d) + ": BOXOFFICE_LOG_FORMAT is " + format.orElse("unset") + ", not JSON");
      }
    }
    return problems;
  }

  /** A pod that sells must charge real cards: the simulator's tok_visa would hand out tickets unpaid. */
  static List<String> realPayments(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      for (Container c : pod(d).getContainers()) {
        String ns = d.getMetadata().getNamespace();
        Optional<String> profile = plainValue(m, ns, c, "BOXOFFICE_PROFILE");
        if (!profile.equals(Optional.of("production"))) problems.add(name(d) + ": BOXOFFICE_PROFILE is " + profile.orElse("unset") + ", not production");
        Optional<String> provider = plainValue(m, ns, c, "BOXOFFICE_PAYMENTS_PROVIDER");
        if (!provider.equals(Optional.of("stripe"))) problems.add(name(d) + ": BOXOFFICE_PAYMENTS_PROVIDER is " + provider.orElse("unset") + ", not stripe");
        if (plainValue(m, ns, c, "BOXOFFICE_ALLOW_SIMULATOR_IN_PRODUCTION").isPresent()) {
          problems.add(name(d) + ": sets BOXOFFICE_ALLOW_SIMULATOR_IN_PRODUCTION, a drill's escape");
        }
      }
    }
    return problems;
  }

  /** Who may reach {@code port} on {@code d}'s pods: the peers of every ingress rule that admits it (null: anyone). */
  static List<NetworkPolicyPeer> admitted(Manifests m, Deployment d, int port, String portName) {
    return admitted(m, d.getMetadata().getNamespace(), podLabels(d), port, portName);
  }

  /** Who may reach {@code port} on a pod of {@code namespace} with these labels. */
  static List<NetworkPolicyPeer> admitted(Manifests m, String namespace, Map<String, String> labels, int port, String portName) {
    List<NetworkPolicyPeer> peers = new ArrayList<>();
    for (NetworkPolicy p : m.all(NetworkPolicy.class)) {
      if (!Objects.equals(p.getMetadata().getNamespace(), namespace)) continue;
      LabelSelector sel = p.getSpec().getPodSelector();
      boolean selects = sel == null || (nz(sel.getMatchLabels()).isEmpty() && nz(sel.getMatchExpressions()).isEmpty()) || matches(sel, labels);
      if (!selects) continue;
      for (NetworkPolicyIngressRule rule : nz(p.getSpec().getIngress())) {
        boolean portAdmitted = nz(rule.getPorts()).isEmpty();
        for (NetworkPolicyPort np : nz(rule.getPorts())) {
          IntOrString x = np.getPort();
          if (x == null || (x.getIntVal() != null && x.getIntVal() == port) || portName.equals(x.getStrVal())) portAdmitted = true;
        }
        if (!portAdmitted) continue;
        if (nz(rule.getFrom()).isEmpty()) peers.add(null);
        else peers.addAll(rule.getFrom());
      }
    }
    return peers;
  }

  static boolean isBoxofficePod(NetworkPolicyPeer peer) {
    return peer != null && peer.getNamespaceSelector() == null && peer.getIpBlock() == null && peer.getPodSelector() != null
        && "boxoffice".equals(nz(peer.getPodSelector().getMatchLabels()).get("app"));
  }

  /** A named namespace's named pods (Prometheus): both selectors present and not empty. */
  static boolean isNamedScraper(NetworkPolicyPeer peer) {
    return peer != null && peer.getIpBlock() == null && peer.getNamespaceSelector() != null && peer.getPodSelector() != null
        && !nz(peer.getNamespaceSelector().getMatchLabels()).isEmpty() && !nz(peer.getPodSelector().getMatchLabels()).isEmpty();
  }

  static List<String> networkPolicy(Manifests m) {
    List<String> problems = new ArrayList<>();
    boolean denyAll = m.all(NetworkPolicy.class).stream().anyMatch(p -> p.getSpec().getPodSelector() != null
        && nz(p.getSpec().getPodSelector().getMatchLabels()).isEmpty() && nz(p.getSpec().getPodSelector().getMatchExpressions()).isEmpty()
        && nz(p.getSpec().getPolicyTypes()).contains("Ingress") && nz(p.getSpec().getIngress()).isEmpty());
    if (!denyAll) problems.add("no default-deny NetworkPolicy (podSelector {}, Ingress, no rules)");
    for (Deployment d : m.all(Deployment.class)) {
      List<NetworkPolicyPeer> remoting = admitted(m, d, 25520, "remoting");
      if (remoting.isEmpty() || !remoting.stream().allMatch(KubernetesManifestsTest::isBoxofficePod)) {
        problems.add(name(d) + ": remoting (25520) must be admitted from boxoffice pods of its namespace only, is " + remoting);
      }
      List<NetworkPolicyPeer> management = admitted(m, d, 8558, "management");
      if (management.stream().noneMatch(KubernetesManifestsTest::isBoxofficePod)
          || !management.stream().allMatch(p -> isBoxofficePod(p) || isNamedScraper(p))) {
        problems.add(name(d) + ": management (8558) must be admitted from boxoffice pods (and a named scraper) only, is " + management);
      }
      List<NetworkPolicyPeer> http = admitted(m, d, 8080, "http");
      boolean edge = "edge".equals(podLabels(d).get("role"));
      if (edge && http.isEmpty()) problems.add(name(d) + ": no policy admits the fans' HTTP (8080)");
      if (!edge && !http.isEmpty()) problems.add(name(d) + ": HTTP is admitted to pods that serve no fans: " + http);
      int httpsPort = m.config().get().getInt("boxoffice.http.tls.port");
      List<NetworkPolicyPeer> https = admitted(m, d, httpsPort, "https");
      if (edge && https.isEmpty()) problems.add(name(d) + ": no policy admits the fans' HTTPS (" + httpsPort + ")");
      if (!edge && !https.isEmpty()) problems.add(name(d) + ": HTTPS is admitted to pods that serve no fans: " + https);
    }
    return problems;
  }

  static final String MESH = "boxoffice.io/mesh";

  /**
   * chaos/k8s partition turns a pod's mesh label off: then no boxoffice pod may reach its remoting
   * or management, it may reach no other pod's (its peers admit only pods in the mesh), and an
   * edge pod still takes the fans' HTTPS, as in a real partition.
   */
  static List<String> partitionByLabel(Manifests m) {
    List<String> problems = new ArrayList<>();
    int httpsPort = m.config().get().getInt("boxoffice.http.tls.port");
    for (Deployment d : m.all(Deployment.class)) {
      String ns = d.getMetadata().getNamespace();
      Map<String, String> on = podLabels(d);
      if (!"on".equals(on.get(MESH))) {
        problems.add(name(d) + ": its pods lack the label " + MESH + "=on, which admits remoting between pods");
        continue;
      }
      Map<String, String> off = new java.util.HashMap<>(on);
      off.put(MESH, "off");
      for (int port : List.of(25520, 8558)) {
        List<NetworkPolicyPeer> in = admitted(m, ns, off, port, port == 25520 ? "remoting" : "management");
        if (in.stream().anyMatch(p -> p == null || isBoxofficePod(p) || p.getIpBlock() != null)) {
          problems.add(name(d) + ": a partitioned pod's port " + port + " is still admitted from " + in);
        }
        List<NetworkPolicyPeer> peersOfOn = admitted(m, ns, on, port, port == 25520 ? "remoting" : "management");
        for (NetworkPolicyPeer peer : peersOfOn) {
          if (peer == null || peer.getPodSelector() == null || matches(peer.getPodSelector(), off)) {
            if (!isNamedScraper(peer)) problems.add(name(d) + ": a partitioned pod may still reach its peers' port " + port + " as " + peer);
          }
        }
        if (port == 25520 && peersOfOn.stream().noneMatch(p -> p != null && p.getPodSelector() != null && matches(p.getPodSelector(), on))) {
          problems.add(name(d) + ": pods in the mesh cannot reach each other's remoting");
        }
      }
      if ("edge".equals(on.get("role")) && admitted(m, ns, off, httpsPort, "https").isEmpty()) {
        problems.add(name(d) + ": a partitioned edge pod no longer takes the fans' HTTPS");
      }
    }
    return problems;
  }

  static boolean isOn(Optional<String> value) {
    try {
      return value.isPresent() && ConfigFactory.parseMap(Map.of("v", value.get())).getBoolean("v");
    } catch (RuntimeException e) {
      return false;
    }
  }

  static String parent(String file) {
    return Path.of(file).getParent().toString();
  }

  /**
   * Problems with the Secret volume {@code c} mounts at {@code dir}: none when a Secret volume is
   * mounted there whole (no subPath: the kubelet updates only whole Secret volumes) and read-only.
   * The Secret's name, when there is one, goes to {@code secretName}.
   */
  static List<String> secretMount(PodSpec pod, Container c, String dir, AtomicReference<String> secretName) {
    List<String> problems = new ArrayList<>();
    List<VolumeMount> mounts = nz(c.getVolumeMounts()).stream().filter(v -> dir.equals(v.getMountPath().replaceAll("/$", ""))).toList();
    if (mounts.size() != 1) return List.of("mounts " + mounts.size() + " volumes at " + dir + ", not one Secret");
    VolumeMount mount = mounts.get(0);
    if (mount.getSubPath() != null && !mount.getSubPath().isEmpty() || mount.getSubPathExpr() != null && !mount.getSubPathExpr().isEmpty()) {
      problems.add("mounts " + dir + " by subPath, which the kubelet never updates: mount the whole Secret");
    }
    if (!Boolean.TRUE.equals(mount.getReadOnly())) problems.add("mounts " + dir + " writable");
    Optional<Volume> volume = nz(pod.getVolumes()).stream().filter(v -> v.getName().equals(mount.getName())).findFirst();
    if (volume.isEmpty() || volume.get().getSecret() == null || volume.get().getSecret().getSecretName() == null) {
      problems.add("mounts " + mount.getName() + " at " + dir + ", which is no Secret volume");
    } else {
      secretName.set(volume.get().getSecret().getSecretName());
    }
    return problems;
  }

  /** Where a Service port sends traffic to on {@code c}: the container port's number, or -1. */
  static int targetNumber(Container c, ServicePort p) {
    IntOrString t = p.getTargetPort() != null ? p.getTargetPort() : new IntOrString(p.getPort());
    return nz(c.getPorts()).stream()
        .filter(cp -> t.getStrVal() != null ? t.getStrVal().equals(cp.getName()) : Objects.equals(t.getIntVal(), cp.getContainerPort()))
        .mapToInt(ContainerPort::getContainerPort).findFirst().orElse(-1);
  }

  /**
   * Edge pods: BOXOFFICE_TLS on, a container port https on the listener's port, the directory of
   * boxoffice.http.tls.certificate and private-key a whole read-only Secret volume; a Service
   * routing to them forwards its redirect port (443) to HTTPS and 80 to the plain port.
   */
  static List<String> edgeTls(Manifests m) {
    List<String> problems = new ArrayList<>();
    Config tls = m.config().get().getConfig("boxoffice.http.tls");
    int httpsPort = tls.getInt("port"), redirectPort = tls.getInt("redirect-port");
    String dir = parent(tls.getString("certificate"));
    if (!dir.equals(parent(tls.getString("private-key")))) problems.add("boxoffice.http.tls: certificate and private-key in different folders");
    List<Deployment> edges = m.all(Deployment.class).stream().filter(d -> "edge".equals(podLabels(d).get("role"))).toList();
    if (edges.isEmpty()) problems.add("no edge Deployment");
    for (Deployment d : edges) {
      String ns = d.getMetadata().getNamespace();
      for (Container c : pod(d).getContainers()) {
        if (!isOn(plainValue(m, ns, c, "BOXOFFICE_TLS"))) problems.add(name(d) + ": BOXOFFICE_TLS is not on: fans' cookies are Secure");
        Optional<Integer> https = nz(c.getPorts()).stream().filter(p -> "https".equals(p.getName())).map(ContainerPort::getContainerPort).findFirst();
        if (!https.equals(Optional.of(httpsPort))) problems.add(name(d) + ": container port https is " + https.orElse(null) + ", the listener's " + httpsPort);
        secretMount(pod(d), c, dir, new AtomicReference<>()).forEach(p -> problems.add(name(d) + ": " + p));
        for (Service s : m.all(Service.class)) {
          if (!Objects.equals(ns, s.getMetadata().getNamespace()) || !matches(s.getSpec().getSelector(), podLabels(d))
              || "None".equals(s.getSpec().getClusterIP())) continue;
          Map<Integer, Integer> ports = new LinkedHashMap<>();
          for (ServicePort p : nz(s.getSpec().getPorts())) ports.put(p.getPort(), targetNumber(c, p));
          int plain = m.config().get().getInt("boxoffice.http.port");
          if (!Objects.equals(ports.get(redirectPort), httpsPort) || !Objects.equals(ports.get(80), plain)) {
            problems.add(name(s) + ": must forward " + redirectPort + " (boxoffice.http.tls.redirect-port) to https " + httpsPort
                + " and 80 to http " + plain + ", forwards " + ports);
          }
        }
      }
    }
    return problems;
  }

  /**
   * Every pod: BOXOFFICE_REMOTE_TLS on, the stores' folder a whole read-only Secret volume, both
   * passwords from a key of an existing Secret (never literal).
   */
  static List<String> remoteTls(Manifests m) {
    List<String> problems = new ArrayList<>();
    Config rt = m.config().get().getConfig("boxoffice.remote-tls");
    String dir = parent(rt.getString("key-store"));
    if (!dir.equals(parent(rt.getString("trust-store")))) problems.add("boxoffice.remote-tls: key-store and trust-store in different folders");
    for (Deployment d : m.all(Deployment.class)) {
      String ns = d.getMetadata().getNamespace();
      for (Container c : pod(d).getContainers()) {
        if (!isOn(plainValue(m, ns, c, "BOXOFFICE_REMOTE_TLS"))) problems.add(name(d) + ": BOXOFFICE_REMOTE_TLS is not on: any pod could join");
        secretMount(pod(d), c, dir, new AtomicReference<>()).forEach(p -> problems.add(name(d) + ": " + p));
        for (String variable : List.of("BOXOFFICE_REMOTE_KEY_STORE_PASSWORD", "BOXOFFICE_REMOTE_TRUST_STORE_PASSWORD")) {
          var ref = nz(c.getEnv()).stream().filter(e -> e.getName().equals(variable) && e.getValueFrom() != null)
              .map(e -> e.getValueFrom().getSecretKeyRef()).filter(Objects::nonNull).findFirst();
          boolean found = ref.flatMap(r -> m.find(Secret.class, ns, r.getName()).map(s -> keys(s).contains(r.getKey()))).orElse(false);
          if (!found) problems.add(name(d) + ": " + variable + " must come from a key of an existing Secret");
        }
      }
    }
    return problems;
  }

  static JsonNode spec(GenericKubernetesResource r) {
    return YAML.valueToTree(r).path("spec");
  }

  static List<GenericKubernetesResource> certManager(Manifests m, String kind) {
    return m.all(GenericKubernetesResource.class).stream()
        .filter(r -> (CERT_MANAGER).equals(r.getApiVersion()) && kind.equals(r.getKind())).toList();
  }

  /**
   * The example's cert-manager resources make the Secrets the pods mount: a Certificate per TLS
   * Secret volume, the stores' one with PKCS#12 keystores under the password the pods read, each
   * issued by an Issuer of k8s/ or a ClusterIssuer.
   */
  static List<String> certificates(Manifests m) {
    List<String> problems = new ArrayList<>();
    List<GenericKubernetesResource> certs = certManager(m, "Certificate");
    Set<String> issuers = certManager(m, "Issuer").stream().map(i -> i.getMetadata().getName()).collect(Collectors.toSet());
    for (GenericKubernetesResource cert : certs) {
      JsonNode issuer = spec(cert).path("issuerRef");
      String kind = issuer.path("kind").asText("Issuer");
      if (kind.equals("Issuer") ? !issuers.contains(issuer.path("name").asText()) : !kind.equals("ClusterIssuer")) {
        problems.add(name(cert) + ": issuerRef " + issuer + " is no Issuer of k8s/ nor a ClusterIssuer");
      }
    }
    Config conf = m.config().get();
    Map<String, Boolean> dirs = Map.of(parent(conf.getString("boxoffice.http.tls.certificate")), false,
        parent(conf.getString("boxoffice.remote-tls.key-store")), true);
    for (Deployment d : m.all(Deployment.class)) {
      for (Container c : pod(d).getContainers()) {
        dirs.forEach((dir, stores) -> {
          AtomicReference<String> secret = new AtomicReference<>();
          if (!secretMount(pod(d), c, dir, secret).isEmpty() || secret.get() == null) return;
          Optional<JsonNode> cert = certs.stream().map(KubernetesManifestsTest::spec).filter(s -> secret.get().equals(s.path("secretName").asText())).findFirst();
          if (cert.isEmpty()) {
            problems.add(name(d) + ": no Certificate writes the Secret " + secret.get() + " mounted at " + dir);
            return;
          }
          if (!stores) return;
          JsonNode p12 = cert.get().path("keystores").path("pkcs12");
          var password = nz(c.getEnv()).stream().filter(e -> e.getName().equals("BOXOFFICE_REMOTE_KEY_STORE_PASSWORD") && e.getValueFrom() != null)
              .map(e -> e.getValueFrom().getSecretKeyRef()).filter(Objects::nonNull).findFirst();
          if (!p12.path("create").asBoolean(false) || password.isEmpty()
              || !password.get().getName().equals(p12.path("passwordSecretRef").path("name").asText())
              || !password.get().getKey().equals(p12.path("passwordSecretRef").path("key").asText())) {
            problems.add(name(d) + ": the Certificate of " + secret.get() + " must create PKCS#12 keystores with the password the pods read, has " + p12);
          }
        });
      }
    }
    return problems;
  }

  static List<String> imagesByDigest(Manifests m) {
    List<String> problems = new ArrayList<>();
    for (Deployment d : m.all(Deployment.class)) {
      for (Container c : pod(d).getContainers()) {
        if (!c.getImage().matches("[a-z0-9.:/_-]+/[a-z0-9._/-]+@sha256:[0-9a-f]{64}")) {
          problems.add(name(d) + ": image " + c.getImage() + " is not a registry image pinned by digest");
        }
      }
    }
    return problems;
  }

  /** Checks that hold for an installation only: the base leaves these to the overlay. */
  static final Map<String, Check> OVERLAY_CHECKS = Map.of(
      "the image is a registry's, pinned by digest", KubernetesManifestsTest::imagesByDigest,
      "cert-manager Certificates make the TLS Secrets the pods mount", KubernetesManifestsTest::certificates);

  static Map<String, Check> checks(Path kustomization) {
    Map<String, Check> all = new LinkedHashMap<>(CHECKS);
    if (kustomization.equals(OVERLAY)) all.putAll(OVERLAY_CHECKS);
    return all;
  }

  // ------------------------------------------------------------------------------------ tests

  @Test
  void everyManifestIsLoaded() throws IOException {
    for (Path k : List.of(BASE, OVERLAY)) {
      Manifests m = load(k);
      Set<String> kinds = m.docs().stream().map(d -> d.object().getKind()).collect(Collectors.toCollection(TreeSet::new));
      Set<String> expected = KINDS.keySet().stream().filter(t -> k.equals(OVERLAY) || !t.startsWith(CERT_MANAGER + "/"))
          .filter(t -> !t.equals("batch/v1/Job"))  // the migration has its own kustomization (MIGRATE)
          .map(t -> t.substring(t.lastIndexOf('/') + 1)).collect(Collectors.toCollection(TreeSet::new));
      assertEquals(expected, kinds, k + ": every expected kind is present (cert-manager's in the overlay only)");
      assertEquals(Set.of("boxoffice-inventory", "boxoffice-edge"),
          m.all(Deployment.class).stream().map(d -> d.getMetadata().getName()).collect(Collectors.toSet()));
    }
    assertFalse(variablesTheAppReads().isEmpty());
  }

  /** The kustomizations an installation applies: the nodes, the release's migration, the monitoring; and the bases they build on. */
  static final List<Path> KUSTOMIZATIONS = List.of(BASE, OVERLAY, MIGRATE, OVERLAY.resolve("migrate"), OVERLAY.resolve("release"),
      OVERLAY.resolve("monitoring"), K8S.resolve("monitoring"));

  /** Nothing under k8s/ escapes the checks: every manifest is a resource, component or patch of a kustomization, or the Secret template. */
  @Test
  void everyManifestIsPartOfAKustomization() throws IOException {
    Set<Path> reached = new TreeSet<>();
    reached.add(SECRET_TEMPLATE.normalize());
    for (Path k : KUSTOMIZATIONS) {
      JsonNode kustomization = YAML.readTree(k.resolve("kustomization.yaml").toFile());
      reached.add(k.resolve("kustomization.yaml").normalize());
      kustomization.path("resources").forEach(r -> reached.add(k.resolve(r.asText()).normalize()));
      kustomization.path("patches").forEach(r -> reached.add(k.resolve(r.path("path").asText()).normalize()));
      kustomization.path("components").forEach(r -> assertTrue(KUSTOMIZATIONS.contains(k.resolve(r.asText()).normalize()), k + ": component " + r));
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(K8S)) {
      files = walk.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
          .filter(p -> !p.equals(K8S.resolve("monitoring/prometheus-rules-test.yaml"))).map(Path::normalize).sorted().toList();
    }
    for (Path f : files) assertTrue(reached.contains(f), f + " is in no kustomization: apply -k would skip it and no check reads it");
  }

  @Test
  void theOverlayIsRenderedLikeKustomize() throws IOException {
    Manifests base = load(BASE), overlay = load(OVERLAY);
    assertEquals("boxoffice", pod(base.deployment("boxoffice-edge")).getContainers().get(0).getImage());
    assertEquals("registry.example.com/boxoffice@sha256:" + "0".repeat(64), pod(overlay.deployment("boxoffice-edge")).getContainers().get(0).getImage(),
        "images: newName and digest replace the base's name");
    assertTrue(overlay.configMap().getData().get("BOXOFFICE_DB_URL").contains("postgres.example.internal"), "the overlay's config.env merges");
    assertEquals(base.configMap().getData().get("BOXOFFICE_SERVICE_NAME"), overlay.configMap().getData().get("BOXOFFICE_SERVICE_NAME"),
        "keys the overlay leaves alone stay");
    Container edge = pod(overlay.deployment("boxoffice-edge")).getContainers().get(0);
    assertEquals(new Quantity("2"), edge.getResources().getRequests().get("cpu"), "the Deployment patch merges the container by name");
    assertEquals(pod(base.deployment("boxoffice-edge")).getContainers().get(0).getEnv(), edge.getEnv(), "and keeps what it does not name");
    assertTrue(overlay.all(NetworkPolicy.class).stream().anyMatch(p -> p.getMetadata().getName().equals("boxoffice-prometheus")));
  }

  /** The name of the one ConfigMap, and the ConfigMaps every Deployment's envFrom names. */
  static String configMapName(Manifests m) {
    assertEquals(1, m.all(ConfigMap.class).size());
    String name = m.configMap().getMetadata().getName();
    for (Deployment d : m.all(Deployment.class)) {
      assertEquals(List.of(name), nz(pod(d).getContainers().get(0).getEnvFrom()).stream()
          .filter(e -> e.getConfigMapRef() != null).map(e -> e.getConfigMapRef().getName()).toList(), name(d) + " reads the generated ConfigMap");
    }
    return name;
  }

  /**
   * configMapGenerator: the ConfigMap's name carries a hash of its content and both Deployments
   * name it, so a changed setting changes the pod templates (every pod rolls) and a pod that
   * restarts later runs the configuration it was rolled out with. Checked on a copy of k8s/ whose
   * overlay config.env changes one value.
   */
  @Test
  void aConfigChangeRenamesTheConfigMapAndSoRollsThePods() throws IOException {
    String before = configMapName(load(OVERLAY));
    assertTrue(before.matches("boxoffice-config-[a-z0-9]{10}"), "a hash suffix: " + before);
    Path copy = Files.createTempDirectory("boxoffice-k8s").resolve("k8s");
    try (Stream<Path> walk = Files.walk(K8S)) {
      for (Path p : walk.toList()) {
        Path to = copy.resolve(K8S.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(to);
        else Files.copy(p, to);
      }
    }
    Path env = copy.resolve("overlays/example/config.env");
    Files.writeString(env, Files.readString(env).replace("BOXOFFICE_APP_VERSION=0.1.0", "BOXOFFICE_APP_VERSION=0.1.1"));
    Manifests changed = load(copy.resolve("overlays/example"));
    String after = configMapName(changed);
    assertEquals("0.1.1", changed.configMap().getData().get("BOXOFFICE_APP_VERSION"));
    assertTrue(after.startsWith("boxoffice-config-"));
    assertFalse(after.equals(before), "another content, another name: the Deployments' templates change and roll");
  }

  /** A `kubectl rollout status` that names one Deployment: the only form kubectl accepts. */
  static final Pattern ONE_ROLLOUT_WAIT = Pattern.compile("rollout status (deployment|deploy|deployments)/[A-Za-z0-9$_{}-]+( |$|`)(?!.*(deployment|deploy)/)");

  /** The lines of {@code text} that wait for rollouts in a way kubectl refuses. */
  static List<String> badRolloutWaits(String text) {
    List<String> bad = new ArrayList<>();
    for (String line : text.split("\n")) {
      int at = line.indexOf("rollout status");
      // Prose naming the command (`rollout status`), not running it.
      if (at < 0 || line.startsWith("`", at + "rollout status".length())) continue;
      if (!ONE_ROLLOUT_WAIT.matcher(line.substring(at)).lookingAt()) bad.add(line.trim());
    }
    return bad;
  }

  /**
   * Key rotation and every other procedure wait for each Deployment on its own: `kubectl rollout
   * status deployment` (all of them) errors at once, so a script's wait between phases never
   * happened. Every doc and script of k8s/, docs/operations and chaos/ is read.
   */
  @Test
  void everyRolloutWaitNamesOneDeployment() throws IOException {
    assertEquals(1, badRolloutWaits("kubectl -n boxoffice rollout status deployment --timeout=30m").size(), "the old key-rotation line");
    assertEquals(1, badRolloutWaits("kubectl rollout status deployment/boxoffice-inventory deployment/boxoffice-edge").size());
    assertEquals(0, badRolloutWaits("kubectl -n boxoffice rollout status deployment/$d --timeout=30m || return 1").size());
    List<String> problems = new ArrayList<>();
    for (Path root : List.of(K8S, Path.of("docs/operations"), Path.of("chaos"))) {
      try (Stream<Path> walk = Files.walk(root)) {
        for (Path f : walk.filter(Files::isRegularFile).filter(f -> !f.toString().contains("/target/")).toList()) {
          String text;
          try {
            text = Files.readString(f);
          } catch (java.nio.charset.MalformedInputException binary) {
            continue;
          }
          for (String line : badRolloutWaits(text)) problems.add(f + ": " + line);
        }
      }
    }
    assertTrue(problems.isEmpty(), "rollout status takes one resource:\n" + String.join("\n", problems));
  }

  /** The arithmetic behind terminationGracePeriodSeconds, spelled out. */
  @Test
  void theGracePeriodIsPreStopPlusEveryShutdownPhase() throws IOException {
    List<Phase> phases = shutdownPhases(nodeConfig());
    long millis = phases.stream().mapToLong(p -> p.timeout().toMillis()).sum();
    // 12 phases: service-requests-done 12 s, cluster-sharding-shutdown-region, cluster-exiting and
    // actor-system-terminate 10 s each, the other 8 at the 5 s default: 12 + 30 + 40 = 82 s.
    assertEquals(82_000, millis, "coordinated shutdown's worst case: " + phases);
    for (Path k : List.of(BASE, OVERLAY)) {
      for (Deployment d : load(k).all(Deployment.class)) {
        long grace = pod(d).getTerminationGracePeriodSeconds();
        assertTrue(grace >= 5 + 82, name(d) + ": grace " + grace + " s >= preStop 5 s + shutdown 82 s");
      }
    }
  }

  /** The ConfigMap's variables, as a node would read them, set the Pekko settings they are meant for. */
  @Test
  void theConfigMapReachesPekkosSettings() throws IOException {
    Map<String, String> data = load(OVERLAY).configMap().getData();
    Config node = ConfigFactory.parseFile(CONF.resolve("application.conf").toFile())
        .withFallback(ConfigFactory.parseMap(data)).withFallback(ConfigFactory.defaultReference()).resolve();
    assertEquals(data.get("BOXOFFICE_APP_VERSION"), node.getString("pekko.cluster.app-version"));
    assertEquals(Duration.ofSeconds(60), node.getDuration("pekko.cluster.shutdown-after-unsuccessful-join-seed-nodes"));
    assertEquals("kubernetes-api", node.getString("pekko.management.cluster.bootstrap.contact-point-discovery.discovery-method"));
    // Unset (a local node): Pekko's default version, and a join that waits for its seeds.
    Config local = nodeConfig();
    assertEquals("0.0.0", local.getString("pekko.cluster.app-version"));
    assertEquals("off", local.getString("pekko.cluster.shutdown-after-unsuccessful-join-seed-nodes"));
  }

  @TestFactory
  Stream<DynamicTest> theManifestsPassEveryCheck() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path k : List.of(BASE, OVERLAY)) {
      Manifests m = load(k);
      checks(k).forEach((what, check) -> tests.add(DynamicTest.dynamicTest(k + ": " + what, () -> {
        List<String> problems = check.problems(m);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
      })));
    }
    return tests.stream();
  }

  static Container container(Manifests m, String deployment) {
    return pod(m.deployment(deployment)).getContainers().get(0);
  }

  static EnvVar env(Manifests m, String deployment, String name) {
    return container(m, deployment).getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow();
  }

  static NetworkPolicy policy(Manifests m, String name) {
    return m.all(NetworkPolicy.class).stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst().orElseThrow();
  }

  static void setting(Manifests m, String path, Object value) {
    m.config().set(m.config().get().withValue(path, ConfigValueFactory.fromAnyRef(value)));
  }

  /** A way to break fresh copies of the manifests, and the check that must then complain. */
  record Breakage(String what, String check, Consumer<Manifests> breakIt) {}

  static final String PDC = "inventory pods annotate their own pod-deletion-cost (switched on, named by the downward API, allowed to patch pods); the edge may not patch pods";

  static final List<Breakage> BREAKAGES = List.of(
      new Breakage("a typo in a field name", "every document is read without unknown fields",
          m -> container(m, "boxoffice-edge").setAdditionalProperty("readinesProbe", Map.of())),
      new Breakage("an object outside the namespace", "every namespaced object is in a declared namespace",
          m -> m.configMap().getMetadata().setNamespace("default")),
      new Breakage("a Deployment selector that misses its pods", "every Deployment selects its own pod template",
          m -> m.deployment("boxoffice-edge").getSpec().getSelector().getMatchLabels().put("role", "inventory")),
      new Breakage("a Service selector with a typo", "every Service selects pods of a Deployment that declare its target ports",
          m -> m.all(Service.class).get(0).getSpec().getSelector().put("role", "egde")),
      new Breakage("a Service target port nobody declares", "every Service selects pods of a Deployment that declare its target ports",
          m -> m.all(Service.class).get(0).getSpec().getPorts().get(0).setTargetPort(new IntOrString("htttp"))),
      new Breakage("a probe on an undeclared port", "every probe's port is a declared container port",
          m -> container(m, "boxoffice-inventory").getLivenessProbe().getHttpGet().setPort(new IntOrString(8559))),
      new Breakage("readiness on the liveness route", "probes use the management routes",
          m -> container(m, "boxoffice-edge").getReadinessProbe().getHttpGet().setPath("/alive")),
      new Breakage("a startup probe that passes before the pod joins", "probes use the management routes",
          m -> container(m, "boxoffice-inventory").getStartupProbe().getHttpGet().setPath("/alive")),
      new Breakage("metrics scraped on the fans' port", "Prometheus scrapes /metrics on the management port",
          m -> m.deployment("boxoffice-edge").getSpec().getTemplate().getMetadata().getAnnotations().put("prometheus.io/port", "8080")),
      new Breakage("a PodDisruptionBudget selecting nothing", "every PodDisruptionBudget selects a Deployment",
          m -> m.all(PodDisruptionBudget.class).get(0).getSpec().getSelector().getMatchLabels().put("role", "inventroy")),
      new Breakage("a secret file dropped from one Deployment", "every variable the app reads is set in every Deployment",
          m -> container(m, "boxoffice-edge").getEnv().removeIf(e -> e.getName().equals("BOXOFFICE_TICKET_KEY_FILE"))),
      new Breakage("a secret file outside the mounted Secret", "every variable the app reads is set in every Deployment",
          m -> env(m, "boxoffice-inventory", "BOXOFFICE_POW_KEY_FILE").setValue("/etc/boxoffice/BOXOFFICE_POW_KEY")),
      new Breakage("a ConfigMap key removed", "every variable the app reads is set in every Deployment",
          m -> m.configMap().getData().remove("BOXOFFICE_DB_URL")),
      new Breakage("static seed nodes besides bootstrap", "every variable the app reads is set in every Deployment",
          m -> m.configMap().getData().put("BOXOFFICE_SEED_NODES", "10.0.0.1:25520")),
      new Breakage("a misspelt variable", "every BOXOFFICE_ variable set is one the app reads",
          m -> m.configMap().getData().put("BOXOFFICE_HTTP_PROT", "8080")),
      new Breakage("envFrom naming a missing ConfigMap", "every ConfigMap and Secret reference names an existing key",
          m -> container(m, "boxoffice-edge").getEnvFrom().get(0).getConfigMapRef().setName("boxoffice-conf")),
      new Breakage("the RoleBinding bound to another ServiceAccount", "the RoleBinding lets the Deployments' ServiceAccount list pods",
          m -> m.find(RoleBinding.class, "boxoffice", "boxoffice-pod-reader").orElseThrow().getSubjects().forEach(x -> x.setName("default"))),
      new Breakage("the Role without watch", "the RoleBinding lets the Deployments' ServiceAccount list pods",
          m -> m.find(Role.class, "boxoffice", "boxoffice-pod-reader").orElseThrow().getRules().get(0).setVerbs(List.of("get", "list"))),
      new Breakage("the annotator's Role without patch", "inventory pods annotate their own pod-deletion-cost (switched on, named by the downward API, allowed to patch pods); the edge may not patch pods",
          m -> m.find(Role.class, "boxoffice", "boxoffice-pod-annotator").orElseThrow().getRules().get(0).setVerbs(List.of("get"))),
      new Breakage("the pod name from the pod IP", "inventory pods annotate their own pod-deletion-cost (switched on, named by the downward API, allowed to patch pods); the edge may not patch pods",
          m -> env(m, "boxoffice-inventory", "BOXOFFICE_POD_NAME").getValueFrom().getFieldRef().setFieldPath("status.podIP")),
      new Breakage("the annotator switched off", PDC,
          m -> m.configMap().getData().put("BOXOFFICE_POD_DELETION_COST", "off")),
      new Breakage("the edge bound to the annotator's Role", PDC,
          m -> m.find(RoleBinding.class, "boxoffice", "boxoffice-pod-annotator").orElseThrow().getSubjects()
              .add(new Subject(null, "ServiceAccount", "boxoffice-edge", "boxoffice"))),
      new Breakage("the edge on the inventory's ServiceAccount", PDC,
          m -> pod(m.deployment("boxoffice-edge")).setServiceAccountName("boxoffice-inventory")),
      new Breakage("the edge's reader Role widened to update pods", PDC,
          m -> m.find(Role.class, "boxoffice", "boxoffice-pod-reader").orElseThrow().getRules().get(0)
              .setVerbs(List.of("get", "watch", "list", "update"))),
      new Breakage("the edge annotating itself", PDC,
          m -> env(m, "boxoffice-edge", "BOXOFFICE_POD_DELETION_COST").setValue("on")),
      new Breakage("both Deployments inventory", "BOXOFFICE_ROLES differs per Deployment and matches its role label",
          m -> env(m, "boxoffice-edge", "BOXOFFICE_ROLES").setValue("inventory")),
      new Breakage("a bootstrap service name no pod carries", "cluster bootstrap finds every pod and advertises the pod IP",
          m -> m.configMap().getData().put("BOXOFFICE_SERVICE_NAME", "box-office")),
      new Breakage("a fixed cluster host", "cluster bootstrap finds every pod and advertises the pod IP",
          m -> env(m, "boxoffice-inventory", "BOXOFFICE_CLUSTER_HOST").setValueFrom(null)),
      new Breakage("an HTTP port that differs from the container port", "the port variables equal the named container ports",
          m -> m.configMap().getData().put("BOXOFFICE_HTTP_PORT", "8081")),
      new Breakage("an unsafe sysctl in a pod", "no sysctls (a stock cluster refuses unsafe ones)",
          m -> pod(m.deployment("boxoffice-edge")).getSecurityContext().setSysctls(new ArrayList<>(List.of(new Sysctl("net.core.somaxconn", "65535"))))),
      new Breakage("a real-looking key in the Secret template", "the Secret template holds placeholders only",
          m -> m.all(Secret.class).get(0).getStringData().put("BOXOFFICE_TICKET_KEY", "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJ0=")),
      new Breakage("a key as a variable from the Secret", "secrets reach the pods as files, not variables",
          m -> container(m, "boxoffice-edge").getEnv().add(new EnvVar("BOXOFFICE_ADMIN_TOKEN", null,
              new EnvVarSource(null, null, null, null, new io.fabric8.kubernetes.api.model.SecretKeySelector("BOXOFFICE_ADMIN_TOKEN", "boxoffice-secrets", false))))),
      new Breakage("the Secret volume not mounted", "secrets reach the pods as files, not variables",
          m -> container(m, "boxoffice-inventory").getVolumeMounts().removeIf(v -> v.getName().equals("secrets"))),
      new Breakage("no time to leave the cluster", "the grace period covers preStop and coordinated shutdown's every phase",
          m -> pod(m.deployment("boxoffice-inventory")).setTerminationGracePeriodSeconds(60L)),
      new Breakage("a longer shard hand-over than the grace period allows", "the grace period covers preStop and coordinated shutdown's every phase",
          m -> setting(m, "pekko.coordinated-shutdown.phases.cluster-sharding-shutdown-region.timeout", "20s")),
      new Breakage("a CPU limit", "CPU requests and no CPU limit, memory limit, JVM options and processors from the request",
          m -> container(m, "boxoffice-edge").getResources().getLimits().put("cpu", new Quantity("2"))),
      new Breakage("no memory limit", "CPU requests and no CPU limit, memory limit, JVM options and processors from the request",
          m -> container(m, "boxoffice-edge").getResources().getLimits().remove("memory")),
      new Breakage("the default collector", "CPU requests and no CPU limit, memory limit, JVM options and processors from the request",
          m -> m.configMap().getData().put("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=70")),
      new Breakage("a processor count that ignores the request", "CPU requests and no CPU limit, memory limit, JVM options and processors from the request",
          m -> env(m, "boxoffice-inventory", "JDK_JAVA_OPTIONS").setValue("-XX:ActiveProcessorCount=8")),
      new Breakage("processors from the CPU limit", "CPU requests and no CPU limit, memory limit, JVM options and processors from the request",
          m -> env(m, "boxoffice-edge", "CPU_REQUEST").getValueFrom().getResourceFieldRef().setResource("limits.cpu")),
      new Breakage("inventory anti-affinity only preferred", "inventory pods never share a host; every role spreads over zones and hosts",
          m -> {
            var anti = pod(m.deployment("boxoffice-inventory")).getAffinity().getPodAntiAffinity();
            anti.setPreferredDuringSchedulingIgnoredDuringExecution(anti.getRequiredDuringSchedulingIgnoredDuringExecution().stream()
                .map(t -> new WeightedPodAffinityTerm(t, 100)).toList());
            anti.setRequiredDuringSchedulingIgnoredDuringExecution(null);
          }),
      new Breakage("anti-affinity against the other role's pods", "inventory pods never share a host; every role spreads over zones and hosts",
          m -> pod(m.deployment("boxoffice-inventory")).getAffinity().getPodAntiAffinity()
              .getRequiredDuringSchedulingIgnoredDuringExecution().get(0).getLabelSelector().getMatchLabels().put("role", "edge")),
      new Breakage("no zone spread", "inventory pods never share a host; every role spreads over zones and hosts",
          m -> pod(m.deployment("boxoffice-edge")).getTopologySpreadConstraints().removeIf(t -> t.getTopologyKey().contains("zone"))),
      new Breakage("the majority counted over every node", "the split-brain resolver counts inventory nodes and follows the docs",
          m -> setting(m, "pekko.cluster.split-brain-resolver.keep-majority.role", "")),
      new Breakage("down-all-when-unstable beyond stable-after", "the split-brain resolver counts inventory nodes and follows the docs",
          m -> setting(m, "pekko.cluster.split-brain-resolver.down-all-when-unstable", "1h")),
      new Breakage("an even number of inventory pods", "the split-brain resolver counts inventory nodes and follows the docs",
          m -> m.deployment("boxoffice-inventory").getSpec().setReplicas(4)),
      new Breakage("an old pod stopped before its successor is up", "rolling updates: surge before stop, minReadySeconds, an app-version, a join timeout",
          m -> m.deployment("boxoffice-inventory").getSpec().getStrategy().getRollingUpdate().setMaxUnavailable(new IntOrString(1))),
      new Breakage("no minReadySeconds", "rolling updates: surge before stop, minReadySeconds, an app-version, a join timeout",
          m -> m.deployment("boxoffice-edge").getSpec().setMinReadySeconds(null)),
      new Breakage("an app-version Pekko cannot order", "rolling updates: surge before stop, minReadySeconds, an app-version, a join timeout",
          m -> m.configMap().getData().put("BOXOFFICE_APP_VERSION", "latest")),
      new Breakage("a join that never gives up", "rolling updates: surge before stop, minReadySeconds, an app-version, a join timeout",
          m -> m.configMap().getData().put("BOXOFFICE_JOIN_TIMEOUT", "off")),
      new Breakage("text logs", "JSON log lines",
          m -> m.configMap().getData().put("BOXOFFICE_LOG_FORMAT", "TEXT")),
      new Breakage("the payment simulator on a cluster that sells", "pods run in production and pay through Stripe, never the simulator",
          m -> m.configMap().getData().put("BOXOFFICE_PAYMENTS_PROVIDER", "simulator")),
      new Breakage("no production profile", "pods run in production and pay through Stripe, never the simulator",
          m -> m.configMap().getData().remove("BOXOFFICE_PROFILE")),
      new Breakage("no default deny", "remoting and management only from boxoffice pods, HTTP only to edge pods",
          m -> m.docs().removeIf(d -> d.object().getMetadata().getName().equals("boxoffice-default-deny"))),
      new Breakage("remoting open to every address", "remoting and management only from boxoffice pods, HTTP only to edge pods",
          m -> policy(m, "boxoffice-cluster").getSpec().getIngress().get(0).getFrom()
              .add(new io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder().withNewIpBlock().withCidr("0.0.0.0/0").endIpBlock().build())),
      new Breakage("management open to a whole namespace", "remoting and management only from boxoffice pods, HTTP only to edge pods",
          m -> policy(m, "boxoffice-prometheus").getSpec().getIngress().get(0).getFrom().get(0).setPodSelector(null)),
      new Breakage("HTTP admitted to every port of the edge", "remoting and management only from boxoffice pods, HTTP only to edge pods",
          m -> policy(m, "boxoffice-http").getSpec().getIngress().get(0).setPorts(null)),
      new Breakage("HTTP admitted to inventory pods", "remoting and management only from boxoffice pods, HTTP only to edge pods",
          m -> policy(m, "boxoffice-http").getSpec().getPodSelector().getMatchLabels().remove("role")),
      new Breakage("the accepted queue keys not passed to the inventory", "every variable the app reads is set in every Deployment",
          m -> container(m, "boxoffice-inventory").getEnv().removeIf(e -> e.getName().equals("BOXOFFICE_QUEUE_KEYS_ACCEPTED"))),
      new Breakage("HTTPS not admitted to the edge", "remoting and management only from boxoffice pods, HTTP only to edge pods",
          m -> policy(m, "boxoffice-http").getSpec().getIngress().get(0).getPorts().removeIf(p -> p.getPort().getIntVal() == 8443)),
      new Breakage("HTTPS off on the edge", "the edge serves HTTPS from a mounted TLS Secret, the Service 443 to it and 80 to the redirect",
          m -> env(m, "boxoffice-edge", "BOXOFFICE_TLS").setValue("off")),
      new Breakage("the TLS Secret mounted by subPath", "the edge serves HTTPS from a mounted TLS Secret, the Service 443 to it and 80 to the redirect",
          m -> container(m, "boxoffice-edge").getVolumeMounts().stream().filter(v -> v.getName().equals("tls")).findFirst().orElseThrow().setSubPath("tls.crt")),
      new Breakage("the TLS Secret not mounted", "the edge serves HTTPS from a mounted TLS Secret, the Service 443 to it and 80 to the redirect",
          m -> container(m, "boxoffice-edge").getVolumeMounts().removeIf(v -> v.getName().equals("tls"))),
      new Breakage("no https container port", "the edge serves HTTPS from a mounted TLS Secret, the Service 443 to it and 80 to the redirect",
          m -> container(m, "boxoffice-edge").getPorts().removeIf(p -> "https".equals(p.getName()))),
      new Breakage("the Service's 443 to the plain port", "the edge serves HTTPS from a mounted TLS Secret, the Service 443 to it and 80 to the redirect",
          m -> m.find(Service.class, "boxoffice", "boxoffice-http").orElseThrow().getSpec().getPorts().stream()
              .filter(p -> p.getPort() == 443).findFirst().orElseThrow().setTargetPort(new IntOrString("http"))),
      new Breakage("the Service without port 80", "the edge serves HTTPS from a mounted TLS Secret, the Service 443 to it and 80 to the redirect",
          m -> m.find(Service.class, "boxoffice", "boxoffice-http").orElseThrow().getSpec().getPorts().removeIf(p -> p.getPort() == 80)),
      new Breakage("remoting in plain TCP", "every pod speaks mutual TLS to its peers with stores from a mounted Secret",
          m -> m.configMap().getData().put("BOXOFFICE_REMOTE_TLS", "off")),
      new Breakage("the stores not mounted on the inventory", "every pod speaks mutual TLS to its peers with stores from a mounted Secret",
          m -> container(m, "boxoffice-inventory").getVolumeMounts().removeIf(v -> v.getName().equals("remote-tls"))),
      new Breakage("the stores mounted by subPath", "every pod speaks mutual TLS to its peers with stores from a mounted Secret",
          m -> container(m, "boxoffice-edge").getVolumeMounts().stream().filter(v -> v.getName().equals("remote-tls")).findFirst().orElseThrow().setSubPath("keystore.p12")),
      new Breakage("a store password written into the manifest", "every pod speaks mutual TLS to its peers with stores from a mounted Secret",
          m -> {
            EnvVar e = env(m, "boxoffice-inventory", "BOXOFFICE_REMOTE_TRUST_STORE_PASSWORD");
            e.setValueFrom(null);
            e.setValue("changeit");
          }),
      new Breakage("a store password from a Secret that does not exist", "every pod speaks mutual TLS to its peers with stores from a mounted Secret",
          m -> env(m, "boxoffice-edge", "BOXOFFICE_REMOTE_KEY_STORE_PASSWORD").getValueFrom().getSecretKeyRef().setName("boxoffice-remote-tls-pasword")),
      new Breakage("the Certificate writes another Secret", "cert-manager Certificates make the TLS Secrets the pods mount",
          m -> certManager(m, "Certificate").stream().filter(c -> c.getMetadata().getName().equals("boxoffice-remote-tls")).findFirst().orElseThrow()
              .getAdditionalProperties().put("spec", Map.of("secretName", "boxoffice-remote", "issuerRef", Map.of("kind", "ClusterIssuer", "name", "x")))),
      new Breakage("no PKCS#12 keystores", "cert-manager Certificates make the TLS Secrets the pods mount",
          m -> certManager(m, "Certificate").stream().filter(c -> c.getMetadata().getName().equals("boxoffice-remote-tls")).findFirst().orElseThrow()
              .getAdditionalProperties().put("spec", Map.of("secretName", "boxoffice-remote-tls", "issuerRef", Map.of("kind", "Issuer", "name", "boxoffice-cluster-ca")))),
      new Breakage("an Issuer k8s/ does not have", "cert-manager Certificates make the TLS Secrets the pods mount",
          m -> m.docs().removeIf(d -> d.object().getKind().equals("Issuer") && d.object().getMetadata().getName().equals("boxoffice-cluster-ca"))),
      new Breakage("remoting admitted from pods out of the mesh", "a pod whose mesh label is off is cut from its peers' remoting and management both ways",
          m -> policy(m, "boxoffice-cluster").getSpec().getIngress().get(0).getFrom().get(0).getPodSelector().getMatchLabels().remove(MESH)),
      new Breakage("a pod out of the mesh still selected for remoting", "a pod whose mesh label is off is cut from its peers' remoting and management both ways",
          m -> policy(m, "boxoffice-cluster").getSpec().getPodSelector().getMatchLabels().remove(MESH)),
      new Breakage("inventory pods without the mesh label", "a pod whose mesh label is off is cut from its peers' remoting and management both ways",
          m -> m.deployment("boxoffice-inventory").getSpec().getTemplate().getMetadata().getLabels().remove(MESH)),
      new Breakage("an image by tag", "the image is a registry's, pinned by digest",
          m -> container(m, "boxoffice-edge").setImage("registry.example.com/boxoffice:0.1.0")));

  @TestFactory
  Stream<DynamicTest> eachCheckCatchesItsBreakage() {
    return BREAKAGES.stream().map(b -> DynamicTest.dynamicTest(b.what(), () -> {
      Check check = checks(OVERLAY).get(b.check());
      assertTrue(check != null, "no check named " + b.check());
      Manifests m = load(OVERLAY);
      assertTrue(check.problems(m).isEmpty(), "passes before the breakage");
      b.breakIt().accept(m);
      assertFalse(check.problems(m).isEmpty(), "'" + b.check() + "' misses " + b.what());
    }));
  }

  @Test
  void everyCheckHasABreakage() {
    Set<String> broken = BREAKAGES.stream().map(Breakage::check).collect(Collectors.toSet());
    assertEquals(checks(OVERLAY).keySet(), broken, "every check is shown to fail on some breakage");
  }
}
