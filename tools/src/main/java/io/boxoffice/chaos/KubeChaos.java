package io.boxoffice.chaos;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The chaos drills against a Kubernetes deployment of boxoffice ({@code chaos/k8s/*}): the
 * faults of the loopback scripts, made through the API server with the operator's kubeconfig.
 * <ul>
 *   <li>{@code kill}: a pod deleted with grace period 0 (its containers get SIGKILL), named, or
 *       chosen by a seed among the running boxoffice pods (of a role); its Deployment starts another.
 *   <li>{@code partition}: a pod cut from its peers' remoting and management, both ways: the label
 *       {@code boxoffice.io/mesh=off} takes it out of the NetworkPolicy that admits those ports
 *       between boxoffice pods ({@code k8s/base/networkpolicy.yaml}), so the default deny drops
 *       them. Fans still reach it if it is an edge pod, as in a real partition.
 *   <li>{@code db-blackhole}: every boxoffice pod's packets to the database's address dropped, by
 *       an Egress policy that admits everything else. New connections hang as in a failover;
 *       whether open ones are cut as well depends on the CNI (Calico and Cilium cut them).
 *   <li>{@code heal} / {@code abort}: every partition and black hole undone; abort also lists the
 *       boxoffice pods that are not ready.
 * </ul>
 * Guards: the namespace is named explicitly and must hold a boxoffice Deployment
 * ({@code app=boxoffice}); {@code kube-system}, {@code kube-public} and {@code default} are
 * refused; only pods labelled {@code app=boxoffice} are touched; what this makes carries the
 * label {@code boxoffice.io/chaos=drill}, which heal removes. Every fault is appended, with its
 * seed, to an events log. A database delay (rather than a black hole) needs a proxy in the path:
 * NetworkPolicy can only drop.
 */
public final class KubeChaos {
  /** The pod label the cluster's NetworkPolicy admits remoting and management by. */
  public static final String MESH = "boxoffice.io/mesh";
  /** The label of every object a drill made. */
  public static final String CHAOS = "boxoffice.io/chaos";
  static final String BLACKHOLE = "boxoffice-chaos-db-blackhole";
  private static final Set<String> REFUSED_NAMESPACES = Set.of("kube-system", "kube-public", "kube-node-lease", "default");
  private static final Pattern CIDR = Pattern.compile("[0-9a-fA-F:.]+/[0-9]{1,3}");

  private final KubernetesClient client;
  private final String namespace;
  private final Path events;
  private final Clock clock;

  public KubeChaos(KubernetesClient client, String namespace, Path events, Clock clock) {
    if (namespace == null || namespace.isBlank()) throw new IllegalArgumentException("name the namespace (--namespace)");
    if (REFUSED_NAMESPACES.contains(namespace)) {
      throw new IllegalArgumentException("refused: " + namespace + " is not a namespace a drill may break");
    }
    this.client = client;
    this.namespace = namespace;
    this.events = events;
    this.clock = clock;
  }

  /** Refuses a namespace without a boxoffice Deployment: a typo must not break somebody else's pods. */
  void checkNamespace() {
    if (client.apps().deployments().inNamespace(namespace).withLabel("app", "boxoffice").list().getItems().isEmpty()) {
      throw new IllegalStateException("refused: no Deployment labelled app=boxoffice in namespace " + namespace);
    }
  }

  /** The running, not terminating boxoffice pods (of {@code role} when not null), by name. */
  List<Pod> runningPods(String role) {
    var pods = client.pods().inNamespace(namespace).withLabel("app", "boxoffice");
    List<Pod> found = new ArrayList<>(role == null ? pods.list().getItems() : pods.withLabel("role", role).list().getItems());
    found.removeIf(p -> p.getMetadata().getDeletionTimestamp() != null || p.getStatus() == null
        || !"Running".equals(p.getStatus().getPhase()));
    found.sort(Comparator.comparing(p -> p.getMetadata().getName()));
    return found;
  }

  /** The pod named {@code name} if it is a boxoffice pod; else the seed's choice among the running ones. */
  String victim(String name, String role, long seed) {
    if (name != null) {
      Pod pod = client.pods().inNamespace(namespace).withName(name).get();
      if (pod == null) throw new IllegalArgumentException("no pod " + name + " in " + namespace);
      if (!"boxoffice".equals(labels(pod).get("app"))) throw new IllegalArgumentException("refused: " + name + " is not a boxoffice pod");
      return name;
    }
    List<Pod> pods = runningPods(role);
    if (pods.isEmpty()) throw new IllegalStateException("no running boxoffice pod" + (role == null ? "" : " of role " + role));
    return pods.get(new Random(seed).nextInt(pods.size())).getMetadata().getName();
  }

  /** Kills a pod (grace period 0); returns its name. */
  public String kill(String name, String role, long seed) {
    checkNamespace();
    String pod = victim(name, role, seed);
    client.pods().inNamespace(namespace).withName(pod).withGracePeriod(0).delete();
    log("kill " + pod + " seed=" + seed);
    return pod;
  }

  /** Cuts a pod from its peers' remoting and management; returns its name. */
  public String partition(String name, String role, long seed) {
    checkNamespace();
    String pod = victim(name, role, seed);
    label(pod, "off");
    log("partition " + pod + " seed=" + seed);
    return pod;
  }

  /** Drops every boxoffice pod's packets to {@code databaseCidr} (e.g. 10.0.3.17/32) until healed. */
  public void blackholeDatabase(String databaseCidr) {
    if (databaseCidr == null || !CIDR.matcher(databaseCidr).matches()) {
      throw new IllegalArgumentException("give the database's address as a CIDR, e.g. 10.0.3.17/32");
    }
    checkNamespace();
    boolean v6 = databaseCidr.contains(":");
    NetworkPolicy policy = new NetworkPolicyBuilder()
        .withNewMetadata().withName(BLACKHOLE).withNamespace(namespace).addToLabels(CHAOS, "drill").endMetadata()
        .withNewSpec()
        .withNewPodSelector().addToMatchLabels("app", "boxoffice").endPodSelector()
        .withPolicyTypes("Egress")
        .addNewEgress()
        .addNewTo().withNewIpBlock().withCidr("0.0.0.0/0").withExcept(v6 ? List.of() : List.of(databaseCidr)).endIpBlock().endTo()
        .addNewTo().withNewIpBlock().withCidr("::/0").withExcept(v6 ? List.of(databaseCidr) : List.of()).endIpBlock().endTo()
        .endEgress()
        .endSpec()
        .build();
    client.network().v1().networkPolicies().inNamespace(namespace).resource(policy).createOr(p -> p.update());
    log("db-blackhole " + databaseCidr);
  }

  /** Undoes every partition and black hole a drill made; returns what it undid. */
  public List<String> heal() {
    List<String> undone = new ArrayList<>();
    for (Pod pod : client.pods().inNamespace(namespace).withLabel("app", "boxoffice").withLabel(MESH, "off").list().getItems()) {
      label(pod.getMetadata().getName(), "on");
      undone.add("partition " + pod.getMetadata().getName());
    }
    for (NetworkPolicy p : client.network().v1().networkPolicies().inNamespace(namespace).withLabel(CHAOS).list().getItems()) {
      client.network().v1().networkPolicies().inNamespace(namespace).withName(p.getMetadata().getName()).delete();
      undone.add("policy " + p.getMetadata().getName());
    }
    log("heal " + String.join(", ", undone));
    return undone;
  }

  /** Heals, then names the boxoffice pods that are not ready (their Deployments start them again). */
  public List<String> abort() {
    List<String> report = new ArrayList<>(heal());
    for (Pod pod : client.pods().inNamespace(namespace).withLabel("app", "boxoffice").list().getItems()) {
      boolean ready = pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
          .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
      if (!ready) report.add("not ready: " + pod.getMetadata().getName());
    }
    log("abort");
    return report;
  }

  private void label(String pod, String mesh) {
    // A merge patch of the one label: the pod's other labels (app, role: the ReplicaSet's selector) stay.
    client.pods().inNamespace(namespace).withName(pod)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"" + MESH + "\":\"" + mesh + "\"}}}");
  }

  private static Map<String, String> labels(Pod pod) {
    return pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
  }

  private void log(String line) {
    if (events == null) return;
    try {
      if (events.getParent() != null) Files.createDirectories(events.getParent());
      Files.writeString(events, clock.instant() + " k8s " + namespace + " " + line + "\n", StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static final String USAGE = """
      usage: KubeChaos COMMAND --namespace NS [options]
        kill [--pod NAME | --role inventory|edge] [--seed N]       kill a pod (grace period 0)
        partition [--pod NAME | --role inventory|edge] [--seed N]  cut a pod from its peers' remoting and management
        db-blackhole --database CIDR                               drop every pod's packets to the database
        heal                                                       undo partitions and black holes
        abort                                                      heal, and list the pods that are not ready
      options: --events FILE (default chaos/run/k8s-events.log); the kubeconfig's current context is used
      """;

  public static void main(String[] args) {
    if (args.length == 0 || args[0].equals("--help")) {
      System.out.print(USAGE);
      return;
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        System.err.print("bad argument: " + args[i] + "\n" + USAGE);
        System.exit(2);
      }
      options.put(args[i].substring(2), args[++i]);
    }
    long seed = options.containsKey("seed") ? Long.parseLong(options.get("seed")) : System.nanoTime() % 100_000;
    Path events = Path.of(options.getOrDefault("events", "chaos/run/k8s-events.log"));
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      KubeChaos chaos = new KubeChaos(client, options.get("namespace"), events, Clock.systemUTC());
      var context = client.getConfiguration().getCurrentContext();
      System.out.println("context: " + (context == null ? "in-cluster" : context.getName()) + ", namespace " + options.get("namespace"));
      switch (args[0]) {
        case "kill" -> System.out.println("killed " + chaos.kill(options.get("pod"), options.get("role"), seed) + " (seed " + seed + ")");
        case "partition" -> System.out.println("partitioned " + chaos.partition(options.get("pod"), options.get("role"), seed)
            + " (seed " + seed + "); undo with heal");
        case "db-blackhole" -> {
          chaos.blackholeDatabase(options.get("database"));
          System.out.println("database black-holed; undo with heal");
        }
        case "heal" -> chaos.heal().forEach(System.out::println);
        case "abort" -> chaos.abort().forEach(System.out::println);
        default -> {
          System.err.print("unknown command " + args[0] + "\n" + USAGE);
          System.exit(2);
        }
      }
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
  }
}
