package io.boxoffice.hostile;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.edge.PemCertificate;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestCertificates;
import io.boxoffice.support.TestCertificates.Issued;
import io.boxoffice.support.TestNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, TLS: the edge serves HTTPS itself with a certificate from mounted PEM files (a
 * Kubernetes TLS Secret), reloaded when they change; the plain port only redirects; the head
 * deadline (and a handshake deadline) still cut slow clients; a bad certificate refuses the start.
 */
class HttpsListenerTest {
  static final long DEADLINE_MS = 2_000;
  static final long MARGIN_MS = 1_500;
  static Path secret;
  static Issued ca;
  static Node node;
  static HttpClient client;

  @BeforeAll
  static void start() throws Exception {
    secret = Files.createTempDirectory("boxoffice-tls");
    ca = TestCertificates.ca("boxoffice test CA");
    TestCertificates.writeSecret(secret, TestCertificates.leaf(ca, "boxoffice", BigInteger.valueOf(1001)), ca);
    node = TestNode.postgres(new MutableClock(Instant.parse("2026-12-01T10:00:00Z")), TestNode.payments(), tls(secret));
    client = HttpClient.newBuilder().sslContext(trusting(ca)).connectTimeout(Duration.ofSeconds(5)).build();
  }

  @AfterAll
  static void stop() {
    if (node != null) node.stop();
  }

  static Config tls(Path dir) {
    return ConfigFactory.parseMap(Map.of(
        "boxoffice.http.tls.enabled", true,
        "boxoffice.http.tls.port", 0,
        "boxoffice.http.tls.redirect-port", 0,
        "boxoffice.http.tls.certificate", dir.resolve("tls.crt").toString(),
        "boxoffice.http.tls.private-key", dir.resolve("tls.key").toString(),
        "boxoffice.http.tls.reload-interval", "200ms",
        "boxoffice.http.header-read-timeout", "2s"));
  }

  @Test
  void signInOverHttpsSetsASecureCookieThatWorksAndAnswersCarryHsts() throws Exception {
    String body = "{\"email\":\"tls-fan-" + System.nanoTime() + "@example.com\",\"password\":\"correct horse battery\"}";
    assertEquals(201, https("POST", "/api/accounts", body, null).statusCode());
    HttpResponse<String> session = https("POST", "/api/session", body, null);
    assertEquals(200, session.statusCode(), session.body());
    String setCookie = session.headers().firstValue("Set-Cookie").orElseThrow();
    assertTrue(setCookie.startsWith("bo_id=") && setCookie.contains("Secure") && setCookie.contains("HttpOnly"), setCookie);
    assertEquals("max-age=31536000", session.headers().firstValue("Strict-Transport-Security").orElse(""));
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));
    assertEquals(200, https("GET", "/api/me/tickets", null, cookie).statusCode(), "the cookie signs the fan in over HTTPS");
    assertEquals(401, https("GET", "/api/me/tickets", null, null).statusCode());
  }

  @Test
  void thePlainPortOnlyRedirectsToHttpsWithTheSameHostPathAndQuery() throws Exception {
    HttpClient plain = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    for (String method : new String[] {"GET", "POST"}) {
      HttpResponse<String> r = plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort()
              + "/api/accounts?x=1")).method(method, HttpRequest.BodyPublishers.ofString("{}"))
              .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(308, r.statusCode(), method + " " + r.body());
      assertEquals("https://127.0.0.1:" + node.httpsPort() + "/api/accounts?x=1", r.headers().firstValue("Location").orElse(""));
    }
    // Nothing of the API is served in clear text: not a sign-in, not the metrics.
    HttpResponse<String> metrics = plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort()
        + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(308, metrics.statusCode());
  }

  @Test
  void aHostThatCannotBeALocationIsRefusedNotRedirected() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", node.httpPort())) {
      socket.setSoTimeout(5_000);
      socket.getOutputStream().write("GET /x HTTP/1.1\r\nHost: evil.example\"><script>\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      int status = SlowHeadersTest.readResponse(socket.getInputStream());
      assertTrue(status == 400, "answered " + status);
    }
  }

  @Test
  void aDribbledHandshakeIsCutWithinTheDeadline() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", node.httpsPort())) {
      socket.setSoTimeout((int) (DEADLINE_MS + MARGIN_MS + 5_000));
      long started = System.nanoTime();
      OutputStream out = socket.getOutputStream();
      // A TLS handshake record header announcing 512 bytes, then a byte every 300 ms.
      byte[] record = new byte[5 + 512];
      record[0] = 0x16;
      record[1] = 0x03;
      record[2] = 0x01;
      record[3] = 0x02;
      Thread attacker = new Thread(() -> {
        try {
          for (byte b : record) {
            out.write(b);
            out.flush();
            Thread.sleep(300); // the attacker's pacing
          }
        } catch (IOException | InterruptedException e) {
          // closed under us: what we want
        }
      });
      attacker.setDaemon(true);
      attacker.start();
      try {
        assertEquals(-1, readUntilClosed(socket.getInputStream()));
      } finally {
        attacker.interrupt();
      }
      long cutAfter = (System.nanoTime() - started) / 1_000_000;
      System.out.println("a dribbled TLS handshake was cut after " + cutAfter + " ms");
      assertTrue(cutAfter >= DEADLINE_MS - 300 && cutAfter <= DEADLINE_MS + MARGIN_MS, "cut after " + cutAfter + " ms");
    }
  }

  @Test
  void aDribbledHeadAfterTheHandshakeIsCutWithinTheDeadline() throws Exception {
    try (SSLSocket socket = (SSLSocket) trusting(ca).getSocketFactory().createSocket("127.0.0.1", node.httpsPort())) {
      socket.setSoTimeout((int) (DEADLINE_MS + MARGIN_MS + 5_000));
      socket.startHandshake();
      OutputStream out = socket.getOutputStream();
      out.write(SlowHeadersTest.get("/api/nope").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertEquals(404, SlowHeadersTest.readResponse(socket.getInputStream()), "an honest request is answered");
      // Past the handshake deadline now: the head deadline alone must cut the next, dribbled head.
      long cutAfter = SlowHeadersTest.dribbleUntilClosed(socket, "GET /api/nope HTTP/1.1\r\nHost: boxoffice\r\nX-Slow: "
          + "c".repeat(60) + "\r\n\r\n");
      System.out.println("a dribbled head over TLS was cut after " + cutAfter + " ms");
      assertTrue(cutAfter >= DEADLINE_MS - 300 && cutAfter <= DEADLINE_MS + MARGIN_MS, "cut after " + cutAfter + " ms");
    }
  }

  @Test
  void replacedFilesServeNewConnectionsAndABrokenReplacementIsIgnored() throws Exception {
    BigInteger before = servedSerial();
    BigInteger next = before.add(BigInteger.valueOf(1000));
    TestCertificates.writeSecret(secret, TestCertificates.leaf(ca, "boxoffice", next), ca);
    await("the new certificate served").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
        .until(() -> servedSerial().equals(next));
    // A half-written Secret (a key that is not the certificate's) is not taken: the last good pair stays.
    Issued other = TestCertificates.leaf(ca, "boxoffice", next.add(BigInteger.ONE));
    TestCertificates.replace(secret.resolve("tls.crt"), TestCertificates.pem(other.certificate(), ca.certificate()));
    await("the broken pair refused").during(Duration.ofMillis(1_000)).atMost(Duration.ofSeconds(3))
        .pollInterval(Duration.ofMillis(200)).until(() -> servedSerial().equals(next));
    TestCertificates.replace(secret.resolve("tls.key"), TestCertificates.pem(other.keys().getPrivate()));
    await("the mended pair served").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
        .until(() -> servedSerial().equals(other.serial()));
  }

  @Test
  void anExpiredOrMalformedCertificateRefusesTheStartNamingTheFile() throws Exception {
    Path dir = Files.createTempDirectory("boxoffice-tls-bad");
    Instant now = Instant.now();
    TestCertificates.writeSecret(dir, TestCertificates.leaf(ca, "expired", BigInteger.TEN, now.minusSeconds(7200),
        now.minusSeconds(3600)), ca);
    PemCertificate.Unusable expired = assertThrows(PemCertificate.Unusable.class, () -> TestNode.postgres(
        new MutableClock(now), TestNode.payments(), tls(dir)));
    assertTrue(expired.getMessage().contains("expired") && expired.getMessage().contains("tls.crt"), expired.getMessage());

    Files.writeString(dir.resolve("tls.crt"), "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n");
    PemCertificate.Unusable malformed = assertThrows(PemCertificate.Unusable.class, () -> TestNode.postgres(
        new MutableClock(now), TestNode.payments(), tls(dir)));
    assertTrue(malformed.getMessage().contains("tls.crt"), malformed.getMessage());

    TestCertificates.writeSecret(dir, TestCertificates.leaf(ca, "fine", BigInteger.TWO), ca);
    Files.delete(dir.resolve("tls.key"));
    PemCertificate.Unusable missing = assertThrows(PemCertificate.Unusable.class, () -> TestNode.postgres(
        new MutableClock(now), TestNode.payments(), tls(dir)));
    assertTrue(missing.getMessage().contains("tls.key"), missing.getMessage());
  }

  // ---- helpers ---------------------------------------------------------------------------

  static HttpResponse<String> https(String method, String path, String body, String cookie) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + node.httpsPort() + path))
        .timeout(Duration.ofSeconds(30))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) b.header("Content-Type", "application/json");
    if (cookie != null) b.header("Cookie", cookie);
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The serial of the certificate a new connection is given. */
  static BigInteger servedSerial() throws Exception {
    try (SSLSocket socket = (SSLSocket) trusting(ca).getSocketFactory().createSocket("127.0.0.1", node.httpsPort())) {
      socket.setSoTimeout(5_000);
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }

  static SSLContext trusting(Issued ca) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca.certificate());
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    return context;
  }

  /** Reads until the server closes the connection: -1 (a reset counts as closed). */
  static int readUntilClosed(InputStream in) throws IOException {
    try {
      while (in.read() != -1) {
        // whatever the server says before closing (a TLS alert) is not an answer
      }
      return -1;
    } catch (SocketException reset) {
      return -1;
    }
  }
}
