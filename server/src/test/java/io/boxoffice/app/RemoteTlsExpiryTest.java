package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.support.TestCertificates;
import io.boxoffice.support.TestCertificates.Issued;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * The gauge behind BoxofficeArteryCertificateExpiresSoon: the earliest notAfter of every
 * certificate in Artery's key and trust stores (the node's own and its CA, whichever ends
 * first), NaN when remote TLS is off or a store cannot be read (the alert then stays quiet
 * rather than firing on a made-up date; the node refuses to start on such stores anyway).
 */
class RemoteTlsExpiryTest {
  static final String PASSWORD = "expiry-test-password";

  static Config tls(Path dir, String keyStore) {
    return ConfigFactory.parseString("boxoffice.remote-tls { enabled = on, key-store = \"" + dir.resolve(keyStore)
        + "\", key-store-password = \"" + PASSWORD + "\", trust-store = \"" + dir.resolve("trust.p12")
        + "\", trust-store-password = \"" + PASSWORD + "\" }");
  }

  @Test
  void theEarliestExpiryOfTheNodesCertificateAndItsCaIsExported() throws Exception {
    Path dir = Files.createTempDirectory("boxoffice-expiry");
    Issued ca = TestCertificates.ca("boxoffice cluster CA");
    Instant soon = Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    Instant later = Instant.now().plus(300, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
    TestCertificates.keyStore(dir.resolve("soon.p12"),
        TestCertificates.leaf(ca, "node-a", BigInteger.valueOf(21), Instant.now().minus(1, ChronoUnit.DAYS), soon), ca, PASSWORD);
    TestCertificates.keyStore(dir.resolve("later.p12"),
        TestCertificates.leaf(ca, "node-b", BigInteger.valueOf(22), Instant.now().minus(1, ChronoUnit.DAYS), later), ca, PASSWORD);
    TestCertificates.trustStore(dir.resolve("trust.p12"), ca, PASSWORD);
    Instant caExpiry = ca.certificate().getNotAfter().toInstant();

    assertEquals(soon.getEpochSecond(), RemoteTls.earliestExpiry(tls(dir, "soon.p12")), "the node's certificate ends first");
    assertTrue(caExpiry.isBefore(later));
    assertEquals(caExpiry.getEpochSecond(), RemoteTls.earliestExpiry(tls(dir, "later.p12")),
        "a CA that ends before the node's certificate (in the chain and the trust store) is what expires first");
    assertEquals(soon.getEpochSecond(), RemoteTls.expiryGauge(tls(dir, "soon.p12")).get().doubleValue(), "the gauge reads the same");
  }

  @Test
  void offOrUnreadableIsNaN() throws Exception {
    Path dir = Files.createTempDirectory("boxoffice-expiry");
    assertTrue(Double.isNaN(RemoteTls.earliestExpiry(ConfigFactory.parseString("boxoffice.remote-tls.enabled = off"))));
    assertTrue(Double.isNaN(RemoteTls.earliestExpiry(tls(dir, "missing.p12"))));
  }
}
