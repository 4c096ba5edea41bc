package io.boxoffice.edge;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTPS listener's certificate, from PEM files mounted from a Kubernetes TLS Secret, and
 * reloaded when they change: every {@code reload-interval} the files' bytes are hashed, and a
 * changed pair that passes {@link PemCertificate#load}'s checks is presented to every new
 * connection (open ones keep theirs). A changed pair that fails them (a half-written Secret, an
 * expired certificate) is logged and the current one kept. A bad pair at start refuses the start.
 */
public final class ServerTls {
  private static final Logger log = LoggerFactory.getLogger(ServerTls.class);

  /** {@code boxoffice.http.tls}: see conf/http.conf. */
  public record Settings(boolean enabled, int port, Path certificate, Path privateKey, Duration reloadInterval,
                         int redirectPort, String strictTransportSecurity, boolean forwardedProto) {
    public static Settings fromConfig(Config config) {
      Config c = config.getConfig("boxoffice.http.tls");
      return new Settings(c.getBoolean("enabled"), c.getInt("port"), Path.of(c.getString("certificate")),
          Path.of(c.getString("private-key")), c.getDuration("reload-interval"), c.getInt("redirect-port"),
          c.getString("strict-transport-security"), c.getBoolean("forwarded-proto"));
    }
  }

  private record Loaded(PemCertificate certificate, SSLContext context) {}

  private final Settings settings;
  private final Clock clock;
  private final AtomicReference<Loaded> current;
  /** The fingerprint of the last pair refused, so that it is logged once, not at every poll. */
  private volatile String refused = "";

  private ServerTls(Settings settings, Clock clock, Loaded first) {
    this.settings = settings;
    this.clock = clock;
    this.current = new AtomicReference<>(first);
  }

  /** Loads the pair named by {@code settings}; {@link PemCertificate.Unusable} says why it cannot. */
  public static ServerTls load(Settings settings, Clock clock) {
    PemCertificate pem = PemCertificate.load(settings.certificate(), settings.privateKey(), clock.instant());
    log.info("HTTPS certificate {} (serial {}, valid until {})", pem.leaf().getSubjectX500Principal().getName(),
        pem.leaf().getSerialNumber().toString(16), pem.leaf().getNotAfter().toInstant());
    return new ServerTls(settings, clock, new Loaded(pem, pem.sslContext()));
  }

  public Settings settings() {
    return settings;
  }

  /** The certificate new connections are given. */
  public X509Certificate certificate() {
    return current.get().certificate().leaf();
  }

  /** A server engine for one new connection, with the certificate current now. */
  public SSLEngine newEngine() {
    SSLEngine engine = current.get().context().createSSLEngine();
    engine.setUseClientMode(false);
    engine.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
    return engine;
  }

  /**
   * Takes the files' current pair when they changed and it passes the checks; returns whether it
   * was taken. Never throws: a bad new pair is logged and the current one kept.
   */
  public boolean reload() {
    Loaded loaded = current.get();
    try {
      String seen = PemCertificate.fingerprint(settings.certificate(), settings.privateKey());
      if (seen.equals(loaded.certificate().fingerprint()) || seen.equals(refused)) return false;
      refused = seen;
      PemCertificate pem = PemCertificate.load(settings.certificate(), settings.privateKey(), clock.instant());
      current.set(new Loaded(pem, pem.sslContext()));
      refused = "";
      log.info("HTTPS certificate reloaded: {} (serial {}, valid until {})", pem.leaf().getSubjectX500Principal().getName(),
          pem.leaf().getSerialNumber().toString(16), pem.leaf().getNotAfter().toInstant());
      return true;
    } catch (Exception e) {
      log.error("the HTTPS certificate files changed but cannot be used; still serving serial {}: {}",
          loaded.certificate().leaf().getSerialNumber().toString(16), e.getMessage());
      return false;
    }
  }

  /** Polls the files every reload-interval, on the blocking dispatcher, until the system stops. */
  public Cancellable watch(ActorSystem<?> system) {
    return system.scheduler().scheduleWithFixedDelay(settings.reloadInterval(), settings.reloadInterval(), this::reload,
        system.dispatchers().lookup(DispatcherSelector.fromConfig("boxoffice.blocking-dispatcher")));
  }
}
