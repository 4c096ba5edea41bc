package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientPrefixTest {
  final ClientPrefix loopbackOnly = ClientPrefix.fromConfig(ConfigFactory.load());
  final ClientPrefix behindLb = new ClientPrefix(List.of(ClientPrefix.Cidr.parse("10.0.0.0/8"),
      ClientPrefix.Cidr.parse("fd00::/8")));

  static InetAddress ip(String literal) throws Exception {
    return InetAddress.getByName(literal); // literals only: no lookup
  }

  static Optional<String> xff(String value) {
    return Optional.of(value);
  }

  @Test
  void anIpv4PeerIsItsSlash24() throws Exception {
    assertEquals("203.0.113.0/24", loopbackOnly.of(ip("203.0.113.77"), Optional.empty()));
    assertEquals("198.51.100.0/24", loopbackOnly.of(ip("198.51.100.255"), Optional.empty()));
  }

  @Test
  void anIpv6PeerIsItsSlash48InCanonicalText() throws Exception {
    assertEquals("2001:db8:1::/48", loopbackOnly.of(ip("2001:0DB8:0001:abcd::17"), Optional.empty()));
    assertEquals("2001::/48", loopbackOnly.of(ip("2001:0:0:1::1"), Optional.empty()));
    assertEquals("2001:0:5::/48", loopbackOnly.of(ip("2001:0:5:1::1"), Optional.empty()));
    assertEquals("2a00:1450:4009::/48", loopbackOnly.of(ip("2a00:1450:4009:81f::200e"), Optional.empty()));
  }

  @Test
  void anIpv4MappedIpv6PeerCountsAsIpv4() throws Exception {
    byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 203, 0, 113, 9};
    InetAddress peer = Inet6Address.getByAddress(null, mapped, -1);
    assertTrue(peer instanceof Inet6Address);
    assertEquals("203.0.113.0/24", loopbackOnly.of(peer, Optional.empty()));
    // A mapped loopback peer is a trusted proxy like 127.0.0.1.
    InetAddress mappedLoopback = Inet6Address.getByAddress(null,
        new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 127, 0, 0, 1}, -1);
    assertEquals("198.51.100.0/24", loopbackOnly.of(mappedLoopback, xff("198.51.100.4")));
    assertEquals("198.51.100.0/24", loopbackOnly.of(ip("127.0.0.1"), xff("::ffff:198.51.100.4")));
  }

  @Test
  void aTrustedProxysLastHopIsTheClient() throws Exception {
    assertEquals("198.51.100.0/24", loopbackOnly.of(ip("127.0.0.1"), xff("192.0.2.1, 10.1.1.1,198.51.100.23")));
    assertEquals("198.51.100.0/24", loopbackOnly.of(ip("::1"), xff("198.51.100.23")));
    assertEquals("2001:db8:7::/48", loopbackOnly.of(ip("127.0.0.5"), xff("203.0.113.1, 2001:db8:7:1::9")));
    assertEquals("2001:db8:7::/48", loopbackOnly.of(ip("127.0.0.5"), xff("[2001:db8:7:1::9]:443")));
    assertEquals("198.51.100.0/24", loopbackOnly.of(ip("127.0.0.5"), xff("198.51.100.23:5123")));
    assertEquals("198.51.100.0/24", behindLb.of(ip("10.20.30.40"), xff("198.51.100.23")));
    assertEquals("198.51.100.0/24", behindLb.of(ip("fd12::1"), xff("198.51.100.23")));
  }

  @Test
  void anUntrustedPeersForwardedForIsIgnored() throws Exception {
    assertEquals("203.0.113.0/24", loopbackOnly.of(ip("203.0.113.77"), xff("198.51.100.23")));
    assertEquals("2001:db8:1::/48", loopbackOnly.of(ip("2001:db8:1::5"), xff("198.51.100.23")));
    assertEquals("11.0.0.0/24", behindLb.of(ip("11.0.0.1"), xff("198.51.100.23")));
    assertEquals("127.0.0.0/24", behindLb.of(ip("127.0.0.1"), xff("198.51.100.23")));
  }

  @Test
  void aMalformedForwardedForFallsBackToThePeer() throws Exception {
    for (String bad : new String[] {"", " ", "198.51.100.23,", "unknown", "localhost", "example.com", "1.2.3", "1.2.3.4.5",
        "256.1.1.1", "01.2.3.4", "1.2.3.4:99999", "1.2.3.4:", "::ffff:1.2.3", "2001:db8::1%eth0", "2001:db8:::1",
        "1:2:3:4:5:6:7:8:9", "[2001:db8::1", "[198.51.100.23]", "2001:db8::1]:80", "12345::", "1.2.3.4 5.6.7.8"}) {
      assertEquals("127.0.0.0/24", loopbackOnly.of(ip("127.0.0.1"), xff(bad)), bad);
    }
  }

  @Test
  void literalsParseStrictly() {
    assertEquals("::/48", ClientPrefix.format(ClientPrefix.parseAddress("::"), 48));
    assertEquals("::1/128", ClientPrefix.format(ClientPrefix.parseAddress("::1"), 128));
    assertEquals("1::/128", ClientPrefix.format(ClientPrefix.parseAddress("1::"), 128));
    assertEquals("1:0:0:2::3/128", ClientPrefix.format(ClientPrefix.parseAddress("1:0:0:2:0:0:0:3"), 128));
    assertEquals("1:2:3:4:5:6:7:8/128", ClientPrefix.format(ClientPrefix.parseAddress("1:2:3:4:5:6:7:8"), 128));
    assertEquals("::102:304/128", ClientPrefix.format(ClientPrefix.parseAddress("::1.2.3.4"), 128));
    assertNull(ClientPrefix.parseAddress("1:2:3:4:5:6:7::8"));
    assertNull(ClientPrefix.parseAddress(":1::"));
    assertNull(ClientPrefix.parseAddress("1::2::3"));
  }

  @Test
  void cidrsMatchOnTheirLeadingBitsOnly() {
    ClientPrefix.Cidr c = ClientPrefix.Cidr.parse("192.168.128.0/17");
    assertTrue(c.contains(ClientPrefix.parseAddress("192.168.200.1")));
    assertFalse(c.contains(ClientPrefix.parseAddress("192.168.127.255")));
    assertFalse(c.contains(ClientPrefix.parseAddress("::1")));
    assertTrue(ClientPrefix.Cidr.parse("0.0.0.0/0").contains(ClientPrefix.parseAddress("8.8.8.8")));
    assertTrue(ClientPrefix.Cidr.parse("::ffff:10.0.0.0/104").contains(ClientPrefix.parseAddress("10.9.9.9")));
    assertThrows(IllegalArgumentException.class, () -> ClientPrefix.Cidr.parse("10.0.0.0/33"));
    assertThrows(IllegalArgumentException.class, () -> ClientPrefix.Cidr.parse("proxy.internal/8"));
  }

  @Test
  void everyForwardedForLineCountsAndTheLastHopWins() throws Exception {
    org.apache.pekko.http.javadsl.model.HttpRequest request = org.apache.pekko.http.javadsl.model.HttpRequest.create("/")
        .addAttribute(org.apache.pekko.http.javadsl.model.AttributeKeys.remoteAddress,
            org.apache.pekko.http.javadsl.model.RemoteAddress.create(new java.net.InetSocketAddress(ip("10.1.2.3"), 40000)))
        .withHeaders(List.of( // in the order they came on the wire
            org.apache.pekko.http.javadsl.model.headers.RawHeader.create("X-Forwarded-For", "1.2.3.4"),
            org.apache.pekko.http.javadsl.model.headers.RawHeader.create("X-Forwarded-For", "198.51.100.9, 203.0.113.5")));
    assertEquals("203.0.113.0/24", FanContext.prefixOf(behindLb, request), "the proxy's own line, not the client's first one");
    assertEquals("10.1.2.0/24", FanContext.prefixOf(loopbackOnly, request), "an untrusted peer's header is ignored");
  }
}
