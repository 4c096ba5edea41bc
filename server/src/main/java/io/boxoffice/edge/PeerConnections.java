package io.boxoffice.edge;

import com.typesafe.config.Config;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The open connections of each client on one listener, capped per client under the listener's
 * own max-connections: a client that opens its {@code perClient + 1}th connection has it closed
 * at once, while every other client is served. The client is the TCP peer, never a forwarded
 * address (a header cannot open sockets): an IPv4 address, or an IPv6 /64.
 *
 * <p>Why per address and not per /24 (or /48), as the rate limits go: behind carrier-grade NAT,
 * a campus or a stadium's Wi-Fi, hundreds of fans share one IPv4 address and a /24 holds many
 * such addresses, so a cap per /24 would shut a whole carrier's fans out at the moment they all
 * arrive. A browser opens at most six connections to a site (HTTP/1.1), most pages one or two,
 * so {@code perClient} (256 shipped) serves a NAT'd address with over a hundred fans at once and
 * still keeps one host to 1/64 of the listener. IPv6 counts per /64, the network one subscriber
 * or one LAN gets: a host may pick any address in its /64 at will. Peers in {@code exempt} (a
 * proxy in front, through which all fans come) are not capped.
 */
public final class PeerConnections {
  /**
   * Under {@code boxoffice.http.connections}.
   *
   * @param idleTimeout a connection with no byte either way for this long is closed (a browser
   *     opens a new one cheaply; the managers' live stream sends a heartbeat well within it)
   * @param perClient open connections a client may hold on one listener
   * @param exempt peers not capped (CIDR list; shipped: boxoffice.edge.trusted-proxies)
   */
  public record Settings(Duration idleTimeout, int perClient, List<ClientPrefix.Cidr> exempt) {
    public Settings {
      if (idleTimeout.isNegative() || idleTimeout.isZero()) throw new IllegalArgumentException("connections.idle-timeout must be positive");
      if (perClient < 1) throw new IllegalArgumentException("connections.per-client must be at least 1");
      exempt = List.copyOf(exempt);
    }

    public static Settings fromConfig(Config config) {
      Config c = config.getConfig("boxoffice.http.connections");
      return new Settings(c.getDuration("idle-timeout"), c.getInt("per-client"),
          c.getStringList("exempt").stream().map(ClientPrefix.Cidr::parse).toList());
    }
  }

  /** An open connection's place under its client's cap; {@link #release()} once, when it closes. */
  public interface Lease {
    void release();
  }

  private static final Lease EXEMPT = () -> {};

  private final Settings settings;
  private final ConcurrentHashMap<String, AtomicInteger> open = new ConcurrentHashMap<>();

  public PeerConnections(Settings settings) {
    this.settings = settings;
  }

  /** A lease for a new connection from {@code peer}, or null when its client is at the cap. */
  public Lease tryOpen(InetAddress peer) {
    byte[] address = ClientPrefix.normalize(peer.getAddress());
    for (ClientPrefix.Cidr cidr : settings.exempt()) {
      if (cidr.contains(address)) return EXEMPT;
    }
    String client = ClientPrefix.format(address, address.length == 4 ? 32 : 64);
    boolean[] admitted = new boolean[1];
    open.compute(client, (k, n) -> {
      AtomicInteger count = n == null ? new AtomicInteger() : n;
      if (count.get() < settings.perClient()) {
        count.incrementAndGet();
        admitted[0] = true;
      }
      return count.get() == 0 ? null : count;
    });
    if (!admitted[0]) return null;
    AtomicInteger once = new AtomicInteger();
    return () -> {
      if (once.getAndIncrement() == 0) open.computeIfPresent(client, (k, n) -> n.decrementAndGet() == 0 ? null : n);
    };
  }

  /** The connections {@code peer}'s client holds now (0 for an exempt peer). */
  public int openBy(InetAddress peer) {
    byte[] address = ClientPrefix.normalize(peer.getAddress());
    AtomicInteger n = open.get(ClientPrefix.format(address, address.length == 4 ? 32 : 64));
    return n == null ? 0 : n.get();
  }

  /** Clients holding at least one connection. */
  public int clients() {
    return open.size();
  }

  public Settings settings() {
    return settings;
  }
}
