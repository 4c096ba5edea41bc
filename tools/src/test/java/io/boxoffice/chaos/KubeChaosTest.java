package io.boxoffice.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes drills against an API server (fabric8's, in CRUD mode: what the drills write
 * is stored and read back as a cluster would): which pod a seed kills, what a partition and a
 * black hole change and that heal undoes exactly that, and the guards against breaking the
 * wrong pods. Whether the CNI then drops the packets is the manifests' part
 * (KubernetesManifestsTest checks that the mesh label decides remoting both ways).
 */
@EnableKubernetesMockClient(crud = true)
class KubeChaosTest {
  /** The mock server logs every request at INFO; held here so that the level sticks (JUL keeps loggers weakly). */
  static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  static {
    MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
  }

  KubernetesClient client;
  @TempDir
  Path dir;
  String ns;
  KubeChaos chaos;

  @BeforeEach
  void deployment() {
    ns = "drill-" + UUID.randomUUID().toString().substring(0, 6);
    client.apps().deployments().inNamespace(ns).resource(new DeploymentBuilder().withNewMetadata().withName("boxoffice-inventory")
        .addToLabels("app", "boxoffice").addToLabels("role", "inventory").endMetadata().build()).create();
    for (String name : List.of("boxoffice-inventory-a", "boxoffice-inventory-b", "boxoffice-inventory-c")) {
      pod(name, "boxoffice", "inventory", "Running");
    }
    pod("boxoffice-edge-a", "boxoffice", "edge", "Running");
    pod("boxoffice-inventory-pending", "boxoffice", "inventory", "Pending");
    pod("postgres-0", "postgres", null, "Running");
    chaos = new KubeChaos(client, ns, dir.resolve("events.log"), Clock.systemUTC());
  }

  void pod(String name, String app, String role, String phase) {
    PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).addToLabels("app", app).endMetadata()
        .withNewStatus().withPhase(phase).endStatus();
    if (role != null) pod.editMetadata().addToLabels("role", role).addToLabels(KubeChaos.MESH, "on").endMetadata();
    client.pods().inNamespace(ns).resource(pod.build()).create();
  }

  Pod get(String name) {
    return client.pods().inNamespace(ns).withName(name).get();
  }

  @Test
  void aSeedPicksTheSameRunningPodOfTheRoleEveryTime() {
    String first = chaos.victim(null, "inventory", 42);
    for (int i = 0; i < 5; i++) assertEquals(first, chaos.victim(null, "inventory", 42), "the seed replays its victim");
    assertTrue(first.startsWith("boxoffice-inventory-") && !first.endsWith("pending"), first);
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (long seed = 0; seed < 40; seed++) seen.add(chaos.victim(null, "inventory", seed));
    assertEquals(java.util.Set.of("boxoffice-inventory-a", "boxoffice-inventory-b", "boxoffice-inventory-c"), seen,
        "seeds spread over the running inventory pods only");
    assertEquals("boxoffice-edge-a", chaos.victim(null, "edge", 7));
  }

  @Test
  void aKillDeletesThePodAndLogsItsSeed() throws Exception {
    String killed = chaos.kill(null, "inventory", 42);
    assertNull(get(killed), "deleted");
    assertEquals(5, client.pods().inNamespace(ns).list().getItems().size(), "only the victim");
    String log = Files.readString(dir.resolve("events.log"));
    assertTrue(log.contains("kill " + killed + " seed=42"), log);
  }

  @Test
  void aPartitionTurnsThePodsMeshLabelOffAndHealTurnsItBack() {
    String cut = chaos.partition("boxoffice-inventory-b", null, 0);
    assertEquals("off", get(cut).getMetadata().getLabels().get(KubeChaos.MESH));
    assertEquals("inventory", get(cut).getMetadata().getLabels().get("role"), "the ReplicaSet's labels stay");
    assertEquals("on", get("boxoffice-inventory-a").getMetadata().getLabels().get(KubeChaos.MESH), "only the victim");

    assertEquals(List.of("partition boxoffice-inventory-b"), chaos.heal());
    assertEquals("on", get(cut).getMetadata().getLabels().get(KubeChaos.MESH));
    assertEquals(List.of(), chaos.heal(), "nothing left to undo");
  }

  @Test
  void aBlackHoleAdmitsEveryAddressButTheDatabasesUntilHealed() {
    chaos.blackholeDatabase("10.0.3.17/32");
    NetworkPolicy policy = client.network().v1().networkPolicies().inNamespace(ns).withName(KubeChaos.BLACKHOLE).get();
    assertNotNull(policy);
    assertEquals(List.of("Egress"), policy.getSpec().getPolicyTypes());
    assertEquals("boxoffice", policy.getSpec().getPodSelector().getMatchLabels().get("app"));
    List<NetworkPolicyPeer> to = policy.getSpec().getEgress().get(0).getTo();
    assertEquals("0.0.0.0/0", to.get(0).getIpBlock().getCidr());
    assertEquals(List.of("10.0.3.17/32"), to.get(0).getIpBlock().getExcept());
    assertEquals("::/0", to.get(1).getIpBlock().getCidr());
    assertTrue(policy.getSpec().getEgress().get(0).getPorts() == null || policy.getSpec().getEgress().get(0).getPorts().isEmpty(),
        "every port of every other address");
    chaos.blackholeDatabase("10.0.3.17/32"); // again: replaced, not refused

    chaos.partition("boxoffice-edge-a", null, 0);
    List<String> undone = chaos.abort();
    assertTrue(undone.containsAll(List.of("partition boxoffice-edge-a", "policy " + KubeChaos.BLACKHOLE)), undone.toString());
    assertNull(client.network().v1().networkPolicies().inNamespace(ns).withName(KubeChaos.BLACKHOLE).get());
  }

  @Test
  void theDrillsRefuseToBreakWhatIsNotTheirs() {
    assertThrows(IllegalArgumentException.class, () -> new KubeChaos(client, "kube-system", null, Clock.systemUTC()));
    assertThrows(IllegalArgumentException.class, () -> new KubeChaos(client, "default", null, Clock.systemUTC()));
    assertThrows(IllegalArgumentException.class, () -> new KubeChaos(client, " ", null, Clock.systemUTC()));
    assertThrows(IllegalArgumentException.class, () -> chaos.kill("postgres-0", null, 1), "not a boxoffice pod");
    assertNotNull(get("postgres-0"));
    assertThrows(IllegalArgumentException.class, () -> chaos.partition("nobody", null, 1));
    KubeChaos typo = new KubeChaos(client, "boxofice", null, Clock.systemUTC());
    assertThrows(IllegalStateException.class, () -> typo.kill(null, null, 1), "a namespace without boxoffice");
    for (String bad : List.of("", "10.0.3.17", "10.0.3.17/32; rm -rf /", "db.internal/32")) {
      assertThrows(IllegalArgumentException.class, () -> chaos.blackholeDatabase(bad), bad);
    }
    assertNull(client.network().v1().networkPolicies().inNamespace(ns).withName(KubeChaos.BLACKHOLE).get());
  }
}
