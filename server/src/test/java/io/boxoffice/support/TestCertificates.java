package io.boxoffice.support;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Certificates for tests, made with BouncyCastle: a CA, and leaves it signs for 127.0.0.1 / localhost. */
public final class TestCertificates {
  private TestCertificates() {}

  /** A key pair and its certificate. */
  public record Issued(KeyPair keys, X509Certificate certificate) {
    public BigInteger serial() {
      return certificate.getSerialNumber();
    }
  }

  public static KeyPair rsa() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A self-signed CA certificate. */
  public static Issued ca(String name) {
    KeyPair keys = rsa();
    Instant now = Instant.now();
    return new Issued(keys, sign(new X500Name("CN=" + name), keys, new X500Name("CN=" + name), keys.getPrivate(),
        BigInteger.valueOf(now.toEpochMilli()), now.minusSeconds(3600), now.plusSeconds(86_400), true));
  }

  /** A leaf for 127.0.0.1 and localhost signed by {@code ca}, valid from {@code notBefore} to {@code notAfter}. */
  public static Issued leaf(Issued ca, String name, BigInteger serial, Instant notBefore, Instant notAfter) {
    KeyPair keys = rsa();
    X500Name issuer = new X500Name(ca.certificate().getSubjectX500Principal().getName());
    return new Issued(keys, sign(new X500Name("CN=" + name), keys, issuer, ca.keys().getPrivate(), serial, notBefore,
        notAfter, false));
  }

  /** A leaf valid for a day around now. */
  public static Issued leaf(Issued ca, String name, BigInteger serial) {
    Instant now = Instant.now();
    return leaf(ca, name, serial, now.minusSeconds(3600), now.plusSeconds(86_400));
  }

  private static X509Certificate sign(X500Name subject, KeyPair keys, X500Name issuer, PrivateKey issuerKey,
                                      BigInteger serial, Instant notBefore, Instant notAfter, boolean ca) {
    try {
      JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, serial, Date.from(notBefore),
          Date.from(notAfter), subject, keys.getPublic());
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
      if (!ca) {
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
      }
      return new JcaX509CertificateConverter().getCertificate(
          b.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey)));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** PEM text of certificates and keys (BouncyCastle writes keys as PKCS#1 / "RSA PRIVATE KEY"). */
  public static String pem(Object... objects) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(out)) {
      for (Object o : objects) w.writeObject(o);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toString();
  }

  /**
   * Writes {@code tls.crt} (leaf, then CA) and {@code tls.key} into {@code dir}, each through a
   * temporary file moved into place, as a Secret update appears to the pod.
   */
  public static void writeSecret(Path dir, Issued leaf, Issued ca) throws IOException {
    replace(dir.resolve("tls.crt"), pem(leaf.certificate(), ca.certificate()));
    replace(dir.resolve("tls.key"), pem(leaf.keys().getPrivate()));
  }

  public static void replace(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** A PKCS#12 key store with {@code leaf}'s key and chain under alias "node". */
  public static void keyStore(Path file, Issued leaf, Issued ca, String password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry("node", leaf.keys().getPrivate(), password.toCharArray(),
        new Certificate[] {leaf.certificate(), ca.certificate()});
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password.toCharArray());
    }
  }

  /** A PKCS#12 trust store holding {@code ca}. */
  public static void trustStore(Path file, Issued ca, String password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setCertificateEntry("ca", ca.certificate());
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password.toCharArray());
    }
  }
}
