package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.mockwebserver.DefaultMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pod annotator against a mock Kubernetes API server (fabric8's): the PATCH's path, auth
 * header, content type and body; the cost ranked by member age and re-patched on membership
 * change; a server error retried with backoff, a client error not.
 */
class PodDeletionCostTest {
  static final ActorTestKit testKit = ActorTestKit.create();
  static final ObjectMapper JSON = new ObjectMapper();
  static final String PATH = "/api/v1/namespaces/shop/pods/boxoffice-7d9f-abcde";

  DefaultMockServer server;

  static Address node(int port) {
    return new Address("pekko", "boxoffice", "10.0.0." + port, 25520);
  }

  static PodDeletionCost.Aged aged(int port, int upNumber) {
    return new PodDeletionCost.Aged(node(port), upNumber);
  }

  @BeforeEach
  void start() {
    server = new DefaultMockServer(false);
    server.start();
  }

  @AfterEach
  void stop() {
    server.shutdown();
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  ActorRef<PodDeletionCost.Command> annotator(Address self) throws Exception {
    PodDeletionCost.Settings settings = new PodDeletionCost.Settings(URI.create(server.url("/")), "shop", "boxoffice-7d9f-abcde",
        "sa-token-123", SSLContext.getDefault(), 3, Duration.ofMillis(50), Duration.ofMillis(200),
        Duration.ofSeconds(5), Duration.ofSeconds(10));
    return testKit.spawn(PodDeletionCost.annotator(self, settings));
  }

  RecordedRequest next() throws InterruptedException {
    RecordedRequest request = server.takeRequest(10, TimeUnit.SECONDS);
    assertNotNull(request, "a PATCH reached the API server");
    return request;
  }

  static String cost(RecordedRequest request) throws Exception {
    return JSON.readTree(request.getUtf8Body()).path("metadata").path("annotations").path(PodDeletionCost.ANNOTATION).asText();
  }

  @Test
  void theOldestMembersCostMostByAge() {
    List<PodDeletionCost.Aged> members = List.of(aged(4, 7), aged(1, 2), aged(3, 5), aged(2, 3), aged(5, 9));
    assertEquals(10_000, PodDeletionCost.costOf(node(1), members, 3), "the oldest (lowest up-number)");
    assertEquals(9_999, PodDeletionCost.costOf(node(2), members, 3));
    assertEquals(9_998, PodDeletionCost.costOf(node(3), members, 3));
    assertEquals(0, PodDeletionCost.costOf(node(4), members, 3), "past the annotated oldest: no cost");
    assertEquals(0, PodDeletionCost.costOf(node(9), members, 3), "not a member (yet)");
  }

  @Test
  void patchesThePodWithItsCostAndAgainWhenMembershipChangesIt() throws Exception {
    server.expect().patch().withPath(PATH).andReturn(200, "{}").always();
    ActorRef<PodDeletionCost.Command> annotator = annotator(node(3));

    annotator.tell(new PodDeletionCost.MembersChanged(List.of(aged(1, 1), aged(2, 2), aged(3, 3), aged(4, 4))));
    RecordedRequest first = next();
    assertEquals("PATCH", first.getMethod());
    assertEquals(PATH, first.getPath());
    assertEquals("Bearer sa-token-123", first.getHeader("Authorization"));
    assertEquals("application/merge-patch+json", first.getHeader("Content-Type"));
    assertEquals("9998", cost(first), "third oldest of four");

    // The same cost is not patched again; a change of rank is.
    annotator.tell(new PodDeletionCost.MembersChanged(List.of(aged(1, 1), aged(2, 2), aged(3, 3), aged(5, 5))));
    annotator.tell(new PodDeletionCost.MembersChanged(List.of(aged(2, 2), aged(3, 3), aged(5, 5))));
    assertEquals("9999", cost(next()), "the oldest left: one step up");
    annotator.tell(new PodDeletionCost.MembersChanged(List.of(aged(3, 3), aged(5, 5))));
    assertEquals("10000", cost(next()), "now the oldest");
    assertNull(server.takeRequest(300, TimeUnit.MILLISECONDS), "no PATCH without a change: " + server.getRequestCount());
  }

  @Test
  void aServerErrorIsRetriedWithBackoffAClientErrorIsNot() throws Exception {
    server.expect().patch().withPath(PATH).andReturn(503, "{}").times(2);
    server.expect().patch().withPath(PATH).andReturn(200, "{}").once();
    ActorRef<PodDeletionCost.Command> annotator = annotator(node(1));
    annotator.tell(new PodDeletionCost.MembersChanged(List.of(aged(1, 1))));
    for (int i = 0; i < 3; i++) assertEquals("10000", cost(next()), "attempt " + (i + 1));
    assertNull(server.takeRequest(400, TimeUnit.MILLISECONDS), "annotated: no more attempts");

    server.reset();
    server.expect().patch().withPath(PATH).andReturn(403, "{\"reason\":\"Forbidden\"}").always();
    ActorRef<PodDeletionCost.Command> forbidden = annotator(node(1));
    forbidden.tell(new PodDeletionCost.MembersChanged(List.of(aged(1, 1))));
    next();
    assertNull(server.takeRequest(500, TimeUnit.MILLISECONDS), "RBAC refuses: retrying cannot help");
  }

  @Test
  void aNodeInKubernetesAnnotatesItsOwnPod(@org.junit.jupiter.api.io.TempDir java.nio.file.Path account) throws Exception {
    server.expect().patch().withPath(PATH).andReturn(200, "{}").always();
    // The service account as Kubernetes mounts it: token, namespace, the API server's CA.
    java.nio.file.Files.writeString(account.resolve("token"), "sa-token-123\n");
    java.nio.file.Files.writeString(account.resolve("namespace"), "shop");
    java.nio.file.Files.writeString(account.resolve("ca.crt"),
        io.boxoffice.support.TestCertificates.pem(io.boxoffice.support.TestCertificates.ca("kubernetes-ca").certificate()));
    com.typesafe.config.Config config = com.typesafe.config.ConfigFactory.parseMap(java.util.Map.of(
            "boxoffice.kubernetes.pod-deletion-cost.enabled", "on",
            "boxoffice.kubernetes.pod-deletion-cost.api-server", server.url("/"),
            "boxoffice.kubernetes.pod-deletion-cost.pod-name", "boxoffice-7d9f-abcde",
            "boxoffice.kubernetes.pod-deletion-cost.service-account-dir", account.toString()))
        .withFallback(io.boxoffice.support.TestNode.config("", account.resolve("data").toString()));
    Node node = Node.start(config, new Node.Options(java.time.Clock.systemUTC(), io.boxoffice.support.TestNode.payments()));
    try {
      RecordedRequest patch = next();
      assertEquals(PATH, patch.getPath());
      assertEquals("Bearer sa-token-123", patch.getHeader("Authorization"));
      assertEquals("10000", cost(patch), "the only member is the oldest");
    } finally {
      node.stop();
    }
  }
}
