package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.ConfigFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 31, finding 11: each client's open connections are capped; other clients, and a proxy in front, are not touched. */
class PeerConnectionsTest {
  static InetAddress ip(String s) throws Exception {
    return InetAddress.getByName(s);
  }

  static PeerConnections cap(int perClient, String... exempt) {
    return new PeerConnections(new PeerConnections.Settings(Duration.ofSeconds(20), perClient,
        java.util.Arrays.stream(exempt).map(ClientPrefix.Cidr::parse).toList()));
  }

  @Test
  void aClientOverItsCapIsRefusedWhileItsNeighbourIsServedAndAClosedConnectionFreesAPlace() throws Exception {
    PeerConnections peers = cap(3);
    List<PeerConnections.Lease> held = new ArrayList<>();
    for (int i = 0; i < 3; i++) held.add(assertNotNull0(peers.tryOpen(ip("203.0.113.7"))));
    assertNull(peers.tryOpen(ip("203.0.113.7")), "a fourth connection from one address");
    assertNotNull(peers.tryOpen(ip("203.0.113.8")), "the next address of the same /24 is another client (NAT'd networks)");
    assertEquals(3, peers.openBy(ip("203.0.113.7")));
    held.get(0).release();
    held.get(0).release(); // once only
    assertEquals(2, peers.openBy(ip("203.0.113.7")));
    assertNotNull(peers.tryOpen(ip("203.0.113.7")));
    assertNull(peers.tryOpen(ip("203.0.113.7")));
  }

  @Test
  void anIpv6ClientIsItsSlash64AndAMappedIpv4AddressIsItsIpv4() throws Exception {
    PeerConnections peers = cap(2);
    assertNotNull(peers.tryOpen(ip("2001:db8:1:2::1")));
    assertNotNull(peers.tryOpen(ip("2001:db8:1:2:ffff::9")));
    assertNull(peers.tryOpen(ip("2001:db8:1:2:abcd::5")), "another address of the same /64 is the same client");
    assertNotNull(peers.tryOpen(ip("2001:db8:1:3::1")), "another /64 is another client");
    assertNotNull(peers.tryOpen(ip("::ffff:198.51.100.1")));
    assertNotNull(peers.tryOpen(ip("198.51.100.1")));
    assertNull(peers.tryOpen(ip("198.51.100.1")));
  }

  @Test
  void theLastReleaseForgetsTheClient() throws Exception {
    PeerConnections peers = cap(2);
    PeerConnections.Lease a = peers.tryOpen(ip("192.0.2.1"));
    PeerConnections.Lease b = peers.tryOpen(ip("192.0.2.2"));
    assertEquals(2, peers.clients());
    a.release();
    b.release();
    assertEquals(0, peers.clients());
  }

  @Test
  void anExemptProxyIsNeverCapped() throws Exception {
    PeerConnections peers = cap(1, "10.0.0.0/8");
    PeerConnections.Lease first = peers.tryOpen(ip("10.1.2.3"));
    for (int i = 0; i < 100; i++) assertSame(first, peers.tryOpen(ip("10.1.2.3")));
    assertEquals(0, peers.clients());
    assertNotNull(peers.tryOpen(ip("11.1.2.3")));
    assertNull(peers.tryOpen(ip("11.1.2.3")));
  }

  @Test
  void theShippedSettingsAndAnOperatorsValues() {
    PeerConnections.Settings shipped = PeerConnections.Settings.fromConfig(ConfigFactory.load());
    assertEquals(Duration.ofSeconds(20), shipped.idleTimeout());
    assertEquals(256, shipped.perClient());
    assertEquals(List.of("127.0.0.0/8", "::1/128"), shipped.exempt().stream().map(Object::toString).toList(),
        "the trusted proxies, through which every fan comes");
    PeerConnections.Settings set = PeerConnections.Settings.fromConfig(ConfigFactory.parseString(
        "boxoffice.http.connections { idle-timeout = 7s, per-client = 9, exempt = [\"10.0.0.0/8\"] }")
        .withFallback(ConfigFactory.load()));
    assertEquals(new PeerConnections.Settings(Duration.ofSeconds(7), 9, List.of(ClientPrefix.Cidr.parse("10.0.0.0/8"))).perClient(),
        set.perClient());
    assertEquals(Duration.ofSeconds(7), set.idleTimeout());
    assertEquals("10.0.0.0/8", set.exempt().get(0).toString());
    assertThrows(IllegalArgumentException.class, () -> new PeerConnections.Settings(Duration.ZERO, 1, List.of()));
    assertThrows(IllegalArgumentException.class, () -> new PeerConnections.Settings(Duration.ofSeconds(1), 0, List.of()));
  }

  static PeerConnections.Lease assertNotNull0(PeerConnections.Lease lease) {
    assertNotNull(lease);
    return lease;
  }
}
