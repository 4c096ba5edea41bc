package io.boxoffice.app;

import com.typesafe.config.Config;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Artery over mutual TLS ({@code boxoffice.remote-tls}, conf/remote-tls.conf): the Pekko settings
 * it implies, after checking the stores, so that a node with a missing store, a wrong password
 * or an expired key says so at start instead of failing every connection to its peers.
 */
final class RemoteTls {
  static final String ARTERY = "pekko.remote.artery";
  static final String ENGINE = ARTERY + ".ssl.config-ssl-engine";

  private RemoteTls() {}

  /** The derived settings: none when off; transport tls-tcp and the engine's stores when on. */
  static Map<String, Object> derived(Config base) {
    if (!base.hasPath("boxoffice.remote-tls") || !base.getBoolean("boxoffice.remote-tls.enabled")) return Map.of();
    Config c = base.getConfig("boxoffice.remote-tls");
    String keyStore = c.getString("key-store");
    String keyPassword = c.getString("key-store-password");
    String trustStore = c.getString("trust-store");
    String trustPassword = c.getString("trust-store-password");
    KeyStore keys = open(keyStore, keyPassword, "BOXOFFICE_REMOTE_KEY_STORE", "BOXOFFICE_REMOTE_KEY_STORE_PASSWORD");
    KeyStore trust = open(trustStore, trustPassword, "BOXOFFICE_REMOTE_TRUST_STORE", "BOXOFFICE_REMOTE_TRUST_STORE_PASSWORD");
    checkKey(keys, keyStore);
    checkTrust(trust, trustStore);
    Map<String, Object> derived = new HashMap<>();
    derived.put(ARTERY + ".transport", "tls-tcp");
    derived.put(ARTERY + ".ssl.ssl-engine-provider", "org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider");
    derived.put(ENGINE + ".key-store", keyStore);
    derived.put(ENGINE + ".key-store-password", keyPassword);
    derived.put(ENGINE + ".key-password", keyPassword);
    derived.put(ENGINE + ".trust-store", trustStore);
    derived.put(ENGINE + ".trust-store-password", trustPassword);
    derived.put(ENGINE + ".protocol", c.getString("protocol"));
    derived.put(ENGINE + ".require-mutual-authentication", true);
    derived.put(ENGINE + ".hostname-verification", false);
    return derived;
  }

  private static KeyStore open(String file, String password, String fileVar, String passwordVar) {
    Path path = Path.of(file);
    if (!Files.isReadable(path)) {
      throw new NodeSecrets.Refused("boxoffice refuses to start: BOXOFFICE_REMOTE_TLS is on but the store " + file
          + " (" + fileVar + ") cannot be read");
    }
    if (password.isEmpty()) {
      throw new NodeSecrets.Refused("boxoffice refuses to start: BOXOFFICE_REMOTE_TLS is on but " + passwordVar + " is not set");
    }
    try (InputStream in = Files.newInputStream(path)) {
      KeyStore store = KeyStore.getInstance(file.endsWith(".jks") ? "JKS" : "PKCS12");
      store.load(in, password.toCharArray());
      return store;
    } catch (Exception e) {
      throw new NodeSecrets.Refused("boxoffice refuses to start: the store " + file + " (" + fileVar
          + ") does not open with " + passwordVar + " or is not a PKCS#12/JKS store: " + e.getMessage());
    }
  }

  private static void checkKey(KeyStore keys, String file) {
    try {
      for (String alias : Collections.list(keys.aliases())) {
        if (!keys.isKeyEntry(alias)) continue;
        X509Certificate cert = (X509Certificate) keys.getCertificate(alias);
        if (cert != null && Instant.now().isAfter(cert.getNotAfter().toInstant())) {
          throw new NodeSecrets.Refused("boxoffice refuses to start: the remoting certificate in " + file + " expired at "
              + cert.getNotAfter().toInstant());
        }
        return;
      }
    } catch (java.security.KeyStoreException e) {
      throw new NodeSecrets.Refused("boxoffice refuses to start: cannot read the key store " + file + ": " + e.getMessage());
    }
    throw new NodeSecrets.Refused("boxoffice refuses to start: the key store " + file + " holds no private key");
  }

  private static void checkTrust(KeyStore trust, String file) {
    try {
      if (trust.size() == 0) {
        throw new NodeSecrets.Refused("boxoffice refuses to start: the trust store " + file + " holds no certificate");
      }
    } catch (java.security.KeyStoreException e) {
      throw new NodeSecrets.Refused("boxoffice refuses to start: cannot read the trust store " + file + ": " + e.getMessage());
    }
  }

  /**
   * The earliest expiry, in epoch seconds, of every certificate in the node's key and trust stores
   * as they are on disk now (what cert-manager last wrote), or NaN when remote TLS is off or a
   * store cannot be read. The gauge {@code boxoffice_remote_tls_certificate_expiry_timestamp_seconds}
   * (alert BoxofficeArteryCertificateExpiresSoon).
   */
  static double earliestExpiry(Config base) {
    if (!base.hasPath("boxoffice.remote-tls") || !base.getBoolean("boxoffice.remote-tls.enabled")) return Double.NaN;
    Config c = base.getConfig("boxoffice.remote-tls");
    try {
      Instant earliest = null;
      for (String[] store : new String[][] {{c.getString("key-store"), c.getString("key-store-password")},
          {c.getString("trust-store"), c.getString("trust-store-password")}}) {
        KeyStore ks = open(store[0], store[1], "BOXOFFICE_REMOTE_KEY_STORE", "BOXOFFICE_REMOTE_KEY_STORE_PASSWORD");
        for (String alias : Collections.list(ks.aliases())) {
          java.security.cert.Certificate[] chain = ks.isKeyEntry(alias) ? ks.getCertificateChain(alias)
              : new java.security.cert.Certificate[] {ks.getCertificate(alias)};
          for (java.security.cert.Certificate cert : chain == null ? new java.security.cert.Certificate[0] : chain) {
            if (!(cert instanceof X509Certificate x)) continue;
            Instant notAfter = x.getNotAfter().toInstant();
            if (earliest == null || notAfter.isBefore(earliest)) earliest = notAfter;
          }
        }
      }
      return earliest == null ? Double.NaN : earliest.getEpochSecond();
    } catch (RuntimeException | java.security.KeyStoreException unreadable) {
      return Double.NaN;
    }
  }

  /** {@link #earliestExpiry} read at most once a minute (every scrape would otherwise open both stores). */
  static java.util.function.Supplier<Number> expiryGauge(Config base) {
    long[] readAt = {Long.MIN_VALUE};
    double[] value = {Double.NaN};
    return () -> {
      synchronized (readAt) {
        long now = System.nanoTime();
        if (readAt[0] == Long.MIN_VALUE || now - readAt[0] > 60_000_000_000L) {
          value[0] = earliestExpiry(base);
          readAt[0] = now;
        }
        return value[0];
      }
    };
  }
}
