package io.boxoffice.edge;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * A server certificate chain and its private key, read from the PEM files of a Kubernetes TLS
 * Secret ({@code tls.crt}: the leaf first, then intermediates; {@code tls.key}: PKCS#8, PKCS#1 or
 * SEC1, unencrypted), checked before use: the chain parses, the leaf is within its validity and
 * the key is the leaf's. Every refusal names the file and what is wrong, never the key.
 */
public final class PemCertificate {
  private final List<X509Certificate> chain;
  private final PrivateKey key;
  private final String fingerprint;

  private PemCertificate(List<X509Certificate> chain, PrivateKey key, String fingerprint) {
    this.chain = chain;
    this.key = key;
    this.fingerprint = fingerprint;
  }

  /** Why a certificate or key cannot be used. */
  public static final class Unusable extends IllegalStateException {
    public Unusable(String message) {
      super(message);
    }

    public Unusable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  public X509Certificate leaf() {
    return chain.get(0);
  }

  /** SHA-256 over both files' bytes: the same files give the same fingerprint. */
  public String fingerprint() {
    return fingerprint;
  }

  /** The fingerprint of the two files as they are now, without parsing them. */
  public static String fingerprint(Path certificate, Path privateKey) throws IOException {
    return fingerprint(Files.readAllBytes(certificate), Files.readAllBytes(privateKey));
  }

  /** Reads and checks the pair at {@code now}; {@link Unusable} says which file and why. */
  public static PemCertificate load(Path certificate, Path privateKey, Instant now) {
    byte[] certBytes = read(certificate, "certificate");
    byte[] keyBytes = read(privateKey, "private key");
    List<X509Certificate> chain = certificates(certificate, certBytes);
    PrivateKey key = privateKey(privateKey, keyBytes);
    X509Certificate leaf = chain.get(0);
    if (now.isAfter(leaf.getNotAfter().toInstant())) {
      throw new Unusable("the TLS certificate " + certificate + " (" + leaf.getSubjectX500Principal().getName()
          + ") expired at " + leaf.getNotAfter().toInstant() + "; mount a valid one");
    }
    if (now.isBefore(leaf.getNotBefore().toInstant())) {
      throw new Unusable("the TLS certificate " + certificate + " is not valid before " + leaf.getNotBefore().toInstant());
    }
    if (!matches(key, leaf)) {
      throw new Unusable("the private key " + privateKey + " does not belong to the certificate " + certificate);
    }
    return new PemCertificate(List.copyOf(chain), key, fingerprint(certBytes, keyBytes));
  }

  /** A TLS server context presenting this chain (TLS 1.3 and 1.2, the JDK's default ciphers). */
  public SSLContext sslContext() {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      char[] password = new char[0];
      store.setKeyEntry("server", key, password, chain.toArray(new Certificate[0]));
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new Unusable("cannot build a TLS context from the certificate " + leaf().getSubjectX500Principal().getName(), e);
    }
  }

  private static byte[] read(Path file, String what) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new Unusable("cannot read the TLS " + what + " file " + file + ": " + e, e);
    }
  }

  private static List<X509Certificate> certificates(Path file, byte[] bytes) {
    List<X509Certificate> chain = new ArrayList<>();
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    try (PEMParser pem = parser(bytes)) {
      for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
        if (o instanceof X509CertificateHolder holder) chain.add(converter.getCertificate(holder));
      }
    } catch (Exception e) {
      throw new Unusable("the TLS certificate file " + file + " is not PEM (-----BEGIN CERTIFICATE-----): " + e.getMessage(), e);
    }
    if (chain.isEmpty()) throw new Unusable("the TLS certificate file " + file + " holds no PEM certificate");
    return chain;
  }

  private static PrivateKey privateKey(Path file, byte[] bytes) {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    try (PEMParser pem = parser(bytes)) {
      for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
        if (o instanceof PrivateKeyInfo info) return converter.getPrivateKey(info);
        if (o instanceof PEMKeyPair pair) return converter.getKeyPair(pair).getPrivate();
      }
    } catch (Exception e) {
      throw new Unusable("the TLS private key file " + file + " is not an unencrypted PEM private key", e);
    }
    throw new Unusable("the TLS private key file " + file + " holds no unencrypted PEM private key");
  }

  private static PEMParser parser(byte[] bytes) {
    Reader reader = new StringReader(new String(bytes, StandardCharsets.US_ASCII));
    return new PEMParser(reader);
  }

  /** Whether {@code key} signs what the certificate's public key verifies. */
  private static boolean matches(PrivateKey key, X509Certificate cert) {
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC", "ECDSA" -> "SHA256withECDSA";
      case "Ed25519", "EdDSA" -> "Ed25519";
      default -> null;
    };
    if (algorithm == null) throw new Unusable("unsupported TLS private key algorithm " + key.getAlgorithm());
    try {
      byte[] probe = "boxoffice key check".getBytes(StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(cert.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static String fingerprint(byte[] certificate, byte[] key) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(certificate);
      sha.update((byte) 0);
      sha.update(key);
      return HexFormat.of().formatHex(sha.digest());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
