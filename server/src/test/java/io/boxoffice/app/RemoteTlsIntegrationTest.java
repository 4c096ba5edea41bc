package io.boxoffice.app;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.support.TestCertificates;
import io.boxoffice.support.TestCertificates.Issued;
import io.boxoffice.support.TestCluster;
import io.boxoffice.support.TestNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.stream.StreamSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 10: Artery between the nodes runs over mutual TLS when BOXOFFICE_REMOTE_TLS is on. Two
 * nodes whose certificates come from the cluster's CA form a cluster; a node whose certificate
 * comes from another CA cannot join, even though it trusts the cluster's CA itself (the
 * cluster's side demands and checks its certificate); stores that cannot be opened refuse the
 * start.
 */
class RemoteTlsIntegrationTest {
  static final String PASSWORD = "remote-tls-test-password";
  static Path dir;
  static Issued clusterCa;

  @BeforeAll
  static void stores() throws Exception {
    dir = Files.createTempDirectory("boxoffice-remote-tls");
    clusterCa = TestCertificates.ca("boxoffice cluster CA");
    Issued otherCa = TestCertificates.ca("someone else's CA");
    TestCertificates.keyStore(dir.resolve("a.p12"), TestCertificates.leaf(clusterCa, "node-a", BigInteger.valueOf(11)), clusterCa, PASSWORD);
    TestCertificates.keyStore(dir.resolve("b.p12"), TestCertificates.leaf(clusterCa, "node-b", BigInteger.valueOf(12)), clusterCa, PASSWORD);
    TestCertificates.keyStore(dir.resolve("rogue.p12"), TestCertificates.leaf(otherCa, "rogue", BigInteger.valueOf(13)), otherCa, PASSWORD);
    TestCertificates.trustStore(dir.resolve("trust.p12"), clusterCa, PASSWORD);
  }

  static String tls(String keyStore, String password) {
    return "boxoffice.remote-tls { enabled = on, key-store = \"" + dir.resolve(keyStore) + "\", key-store-password = \""
        + password + "\", trust-store = \"" + dir.resolve("trust.p12") + "\", trust-store-password = \"" + PASSWORD + "\" }\n";
  }

  @Test
  void nodesOfTheClustersCaFormAClusterAndANodeOfAnotherCaCannotJoin() throws Exception {
    try (TestCluster cluster = new TestCluster(Clock.systemUTC())) {
      Node a = cluster.startFirst(tls("a.p12", PASSWORD));
      assertEquals("tls-tcp", a.system().settings().config().getString("pekko.remote.artery.transport"));
      Node b = cluster.startNext(tls("b.p12", PASSWORD));
      TestCluster.awaitUp(b, 2);
      TestCluster.awaitUp(a, 2);

      // A client without a certificate of the cluster's CA gets no connection to talk on, even
      // one-way (no join needs to succeed for a message to be delivered).
      assertRefusedWithoutAClientCertificate(Cluster.get(a.system()).selfMember().address().getPort().get());

      // It is never let in: it listens after 2 s instead of waiting out listen-after-up-wait.
      Node rogue = cluster.startNext(tls("rogue.p12", PASSWORD) + "\nboxoffice.listen-after-up-wait = 2s\n");
      await("the rogue node kept out").during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(250))
          .until(() -> members(a) == 2 && members(rogue) == 0);
    }
  }

  @Test
  void aStoreThatDoesNotOpenRefusesTheStartNamingIt() {
    NodeSecrets.Refused wrong = assertThrows(NodeSecrets.Refused.class, () -> NodeConfig.resolve(
        ConfigFactory.parseString(tls("a.p12", "not-the-password")).withFallback(TestNode.config(TestNode.PG_URL, "target/unused"))));
    assertTrue(wrong.getMessage().contains("a.p12") && wrong.getMessage().contains("BOXOFFICE_REMOTE_KEY_STORE_PASSWORD")
        && !wrong.getMessage().contains("not-the-password"), wrong.getMessage());
    NodeSecrets.Refused missing = assertThrows(NodeSecrets.Refused.class, () -> NodeConfig.resolve(
        ConfigFactory.parseString(tls("missing.p12", PASSWORD)).withFallback(TestNode.config(TestNode.PG_URL, "target/unused"))));
    assertTrue(missing.getMessage().contains("missing.p12"), missing.getMessage());
    assertEquals("tcp", NodeConfig.resolve(TestNode.config(TestNode.PG_URL, "target/unused"))
        .getString("pekko.remote.artery.transport"), "off by default");
  }

  /** A TLS client that trusts the cluster's CA but presents no certificate is cut off by the node. */
  static void assertRefusedWithoutAClientCertificate(int port) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", clusterCa.certificate());
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(5_000);
      IOException refused = assertThrows(IOException.class, () -> {
        socket.startHandshake();
        // TLS 1.3: the server checks the client's (missing) certificate after the client's handshake is done.
        socket.getOutputStream().write("AKKA".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        if (socket.getInputStream().read() == -1) throw new java.io.EOFException("closed");
      });
      assertTrue(!(refused instanceof java.net.SocketTimeoutException), "refused, not left waiting: " + refused);
    }
  }

  /** Members this node sees up. */
  static long members(Node node) {
    return StreamSupport.stream(Cluster.get(node.system()).state().getMembers().spliterator(), false)
        .filter(m -> m.status() == MemberStatus.up()).count();
  }
}
