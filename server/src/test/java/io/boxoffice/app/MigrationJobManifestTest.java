package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The schema migration Job (k8s/migrate/job.yaml), read into fabric8's typed model: it runs
 * the nodes' own image with {@code migrate} once (never restarted in place, a bounded number of
 * retries), against the database the nodes use, as the owner from a Secret the nodes do not
 * read, as a locked-down pod that cluster bootstrap cannot take for a node.
 */
class MigrationJobManifestTest {
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void theJobMigratesOnceWithTheNodesImageAsTheOwner() throws Exception {
    Job job = YAML.readValue(Files.readString(Path.of("k8s/migrate/job.yaml")), Job.class);
    assertEquals("boxoffice", job.getMetadata().getNamespace());
    assertTrue(job.getSpec().getBackoffLimit() <= 3, "a bounded number of retries");
    assertNotNull(job.getSpec().getActiveDeadlineSeconds());
    PodSpec pod = job.getSpec().getTemplate().getSpec();
    assertEquals("Never", pod.getRestartPolicy());
    assertFalse(pod.getAutomountServiceAccountToken(), "the migration needs no Kubernetes API");
    assertTrue(pod.getSecurityContext().getRunAsNonRoot());
    assertNotEquals("boxoffice", job.getSpec().getTemplate().getMetadata().getLabels().get("app"),
        "cluster bootstrap finds nodes by app=boxoffice: the Job's pod is not one");
    Container c = pod.getContainers().get(0);
    assertEquals(List.of("migrate"), c.getArgs(), "java -jar boxoffice.jar migrate (the image's entrypoint)");
    assertTrue(c.getSecurityContext().getReadOnlyRootFilesystem());
    assertFalse(c.getSecurityContext().getAllowPrivilegeEscalation());

    Deployment inventory = YAML.readValue(Files.readString(Path.of("k8s/base/inventory.yaml")), Deployment.class);
    assertEquals(inventory.getSpec().getTemplate().getSpec().getContainers().get(0).getImage(), c.getImage(),
        "the image of the nodes it prepares the database for");

    Map<String, EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
    String ownerSecret = env.get("BOXOFFICE_DB_USER").getValueFrom().getSecretKeyRef().getName();
    assertEquals(ownerSecret, env.get("BOXOFFICE_DB_URL").getValueFrom().getSecretKeyRef().getName(),
        "the database from the migration's own Secret: the nodes' ConfigMap is named by a hash of its content");
    assertEquals(ownerSecret, env.get("BOXOFFICE_DB_PASSWORD").getValueFrom().getSecretKeyRef().getName());
    assertNotEquals("boxoffice-secrets", ownerSecret, "the owner's login is not in the Secret every node reads");
    for (Container node : inventory.getSpec().getTemplate().getSpec().getContainers()) {
      assertFalse(String.valueOf(node.getEnvFrom()).contains(ownerSecret), "no node reads the owner's Secret");
    }
  }

  /**
   * The release's migration (overlays/example/migrate, rendered by kubectl kustomize): the image
   * the nodes of that release run (the shared release component), a Job name of its own per
   * release (the overlay's app version: the Job of the release before, kept for its TTL, does not
   * block it), and every Secret key it reads is in the Secret template.
   */
  @Test
  void eachReleaseMigratesWithTheNodesImageUnderItsOwnName() throws Exception {
    List<ObjectNodeJob> jobs = Kustomize.render(Path.of("k8s/overlays/example/migrate")).stream()
        .map(r -> new ObjectNodeJob(YAML.convertValue(r.object(), Job.class))).toList();
    assertEquals(1, jobs.size());
    Job job = jobs.get(0).job();
    KubernetesManifestsTest.Manifests nodes = KubernetesManifestsTest.load(KubernetesManifestsTest.OVERLAY);
    for (Deployment d : nodes.all(Deployment.class)) {
      assertEquals(KubernetesManifestsTest.pod(d).getContainers().get(0).getImage(), job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage(),
          "the release's image, as " + d.getMetadata().getName() + " runs it");
    }
    assertFalse(job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().equals("boxoffice"), "mapped to a registry");
    String version = nodes.configMap().getData().get("BOXOFFICE_APP_VERSION");
    assertEquals("boxoffice-migrate-" + version.replace('.', '-'), job.getMetadata().getName(), "named after the release");

    Map<String, Map<String, String>> template = new java.util.HashMap<>();
    for (var o : Kustomize.read(Path.of("k8s/secret-template.yaml"))) {
      io.fabric8.kubernetes.api.model.Secret secret = YAML.convertValue(o, io.fabric8.kubernetes.api.model.Secret.class);
      template.put(secret.getMetadata().getName(), secret.getStringData());
    }
    for (EnvVar e : job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()) {
      if (e.getValueFrom() == null) continue;
      assertNotNull(e.getValueFrom().getSecretKeyRef(), e.getName() + ": from a Secret (the ConfigMap's name is a hash)");
      var ref = e.getValueFrom().getSecretKeyRef();
      assertTrue(template.containsKey(ref.getName()) && template.get(ref.getName()).containsKey(ref.getKey()),
          e.getName() + ": " + ref.getName() + "/" + ref.getKey() + " is in k8s/secret-template.yaml");
    }
  }

  record ObjectNodeJob(Job job) {}
}
