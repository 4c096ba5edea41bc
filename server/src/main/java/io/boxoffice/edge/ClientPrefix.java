package io.boxoffice.edge;

import com.typesafe.config.Config;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The client network prefix of a request ({@code 203.0.113.0/24}, {@code 2001:db8:1::/48}):
 * from the TCP peer, or from the last hop of {@code X-Forwarded-For} when the peer is a trusted
 * proxy. IPv4-mapped IPv6 addresses count as IPv4. Header values are parsed as literal
 * addresses only, never resolved.
 */
public final class ClientPrefix {
  public static final String FORWARDED_FOR = "X-Forwarded-For";

  private final List<Cidr> trustedProxies;

  public ClientPrefix(List<Cidr> trustedProxies) {
    this.trustedProxies = List.copyOf(trustedProxies);
  }

  /** Trusting the proxies of {@code boxoffice.edge.trusted-proxies}. */
  public static ClientPrefix fromConfig(Config config) {
    return new ClientPrefix(config.getStringList("boxoffice.edge.trusted-proxies").stream().map(Cidr::parse).toList());
  }

  /**
   * The prefix of the client behind {@code peer}. {@code forwardedFor} is the request's
   * {@code X-Forwarded-For}, several header fields joined with commas in their order; it is
   * used only when the peer is trusted, and a malformed last hop falls back to the peer.
   */
  public String of(InetAddress peer, Optional<String> forwardedFor) {
    byte[] client = normalize(peer.getAddress());
    if (forwardedFor.isPresent() && isTrusted(client)) {
      byte[] hop = lastHop(forwardedFor.get());
      if (hop != null) client = hop;
    }
    return format(client);
  }

  /**
   * The prefix of the client behind {@code peer}, given every {@code X-Forwarded-For} header line
   * in the order they came (a proxy may append a line of its own rather than extend the
   * client's, so reading only the first would let the client choose its prefix).
   */
  public String of(InetAddress peer, List<String> forwardedForLines) {
    return of(peer, forwardedForLines.isEmpty() ? Optional.empty() : Optional.of(String.join(",", forwardedForLines)));
  }

  /** Whether {@code peer} is one of the trusted proxies, whose forwarding headers count. */
  public boolean isTrusted(InetAddress peer) {
    return isTrusted(normalize(peer.getAddress()));
  }

  private boolean isTrusted(byte[] address) {
    for (Cidr cidr : trustedProxies) {
      if (cidr.contains(address)) return true;
    }
    return false;
  }

  /** A network: address bytes (4 or 16) and the number of leading bits that count. */
  public record Cidr(byte[] network, int bits) {
    public Cidr {
      if (network.length != 4 && network.length != 16) throw new IllegalArgumentException("4 or 16 address bytes");
      if (bits < 0 || bits > network.length * 8) throw new IllegalArgumentException("prefix length out of range");
      network = network.clone();
    }

    /** {@code 10.0.0.0/8}, {@code ::1/128}, or a bare address (all its bits). */
    public static Cidr parse(String text) {
      String s = text.trim();
      int slash = s.indexOf('/');
      byte[] address = parseAddress(slash < 0 ? s : s.substring(0, slash));
      if (address == null) throw new IllegalArgumentException("not an IP address or CIDR: " + text);
      boolean mapped = address.length == 16 && isMapped(address);
      address = normalize(address);
      int bits = address.length * 8;
      if (slash >= 0) {
        String len = s.substring(slash + 1);
        if (len.isEmpty() || len.length() > 3 || !len.chars().allMatch(c -> c >= '0' && c <= '9')) {
          throw new IllegalArgumentException("not a CIDR: " + text);
        }
        bits = Integer.parseInt(len) - (mapped ? 96 : 0);
        if (bits < 0 || bits > address.length * 8) throw new IllegalArgumentException("prefix length out of range: " + text);
      }
      return new Cidr(address, bits);
    }

    public boolean contains(byte[] address) {
      if (address.length != network.length) return false;
      int whole = bits >>> 3;
      for (int i = 0; i < whole; i++) {
        if (address[i] != network[i]) return false;
      }
      int rest = bits & 7;
      if (rest == 0) return true;
      int mask = 0xff00 >>> rest & 0xff;
      return (address[whole] & mask) == (network[whole] & mask);
    }

    @Override
    public String toString() {
      return format(network, bits);
    }
  }

  // ---- parsing ---------------------------------------------------------------------------

  /** The address of the last hop of an X-Forwarded-For value, or null when it is not a literal address. */
  static byte[] lastHop(String forwardedFor) {
    String hop = forwardedFor.substring(forwardedFor.lastIndexOf(',') + 1).trim();
    if (hop.isEmpty() || hop.length() > 64) return null;
    if (hop.charAt(0) == '[') {
      int close = hop.indexOf(']');
      if (close < 0) return null;
      String after = hop.substring(close + 1);
      if (!after.isEmpty() && !isPort(after)) return null;
      hop = hop.substring(1, close);
      byte[] v6 = hop.indexOf(':') >= 0 ? parseAddress(hop) : null;
      return v6 == null ? null : normalize(v6);
    }
    int colon = hop.indexOf(':');
    if (colon >= 0 && colon == hop.lastIndexOf(':') && isPort(hop.substring(colon))) {
      hop = hop.substring(0, colon); // an IPv4 address with a port
    }
    byte[] address = parseAddress(hop);
    return address == null ? null : normalize(address);
  }

  private static boolean isPort(String s) {
    if (s.length() < 2 || s.length() > 6 || s.charAt(0) != ':') return false;
    for (int i = 1; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') return false;
    }
    return Integer.parseInt(s.substring(1)) <= 65535;
  }

  /** A literal IPv4 (dotted quad) or IPv6 address, or null. */
  static byte[] parseAddress(String s) {
    return s.indexOf(':') >= 0 ? parseV6(s) : parseV4(s, 0, s.length());
  }

  /** Strict dotted quad: four decimal numbers 0-255 without leading zeros. */
  private static byte[] parseV4(String s, int from, int to) {
    byte[] out = new byte[4];
    int part = 0;
    int i = from;
    while (part < 4) {
      int start = i;
      int value = 0;
      while (i < to && i - start < 3 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        value = value * 10 + (s.charAt(i) - '0');
        i++;
      }
      int digits = i - start;
      if (digits == 0 || value > 255 || (digits > 1 && s.charAt(start) == '0')) return null;
      out[part++] = (byte) value;
      if (part < 4) {
        if (i >= to || s.charAt(i) != '.') return null;
        i++;
      }
    }
    return i == to ? out : null;
  }

  /** RFC 4291 text: up to eight hex groups, one {@code ::}, an optional dotted-quad tail; no zone. */
  private static byte[] parseV6(String s) {
    int n = s.length();
    if (n < 2 || n > 45) return null;
    byte[] out = new byte[16];
    int groups = 0;
    int gap = -1; // group index where "::" stands
    int i = 0;
    if (s.startsWith("::")) {
      gap = 0;
      i = 2;
      if (i == n) return out;
    } else if (s.charAt(0) == ':') {
      return null;
    }
    while (i < n) {
      if (groups == 8) return null;
      int start = i;
      int value = 0;
      while (i < n && i - start < 4 && Character.digit(s.charAt(i), 16) >= 0) {
        value = value << 4 | Character.digit(s.charAt(i), 16);
        i++;
      }
      if (i < n && s.charAt(i) == '.') { // a dotted-quad tail takes the last two groups
        if (groups > 6 || (gap < 0 && groups != 6)) return null;
        byte[] v4 = parseV4(s, start, n);
        if (v4 == null) return null;
        System.arraycopy(v4, 0, out, groups * 2, 4);
        groups += 2;
        i = n;
        break;
      }
      if (i == start) return null;
      out[groups * 2] = (byte) (value >>> 8);
      out[groups * 2 + 1] = (byte) value;
      groups++;
      if (i == n) break;
      if (s.charAt(i) != ':') return null;
      i++;
      if (i < n && s.charAt(i) == ':') {
        if (gap >= 0) return null;
        gap = groups;
        i++;
      } else if (i == n) {
        return null; // a trailing single colon
      }
    }
    if (gap < 0) return groups == 8 ? out : null;
    if (groups == 8) return null; // "::" must stand for at least one group
    int tail = (groups - gap) * 2;
    System.arraycopy(out, gap * 2, out, 16 - tail, tail);
    java.util.Arrays.fill(out, gap * 2, 16 - tail, (byte) 0);
    return out;
  }

  private static boolean isMapped(byte[] a) {
    for (int i = 0; i < 10; i++) {
      if (a[i] != 0) return false;
    }
    return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
  }

  /** IPv4-mapped IPv6 addresses as their 4 IPv4 bytes; everything else as it is. */
  static byte[] normalize(byte[] address) {
    if (address.length == 16 && isMapped(address)) return java.util.Arrays.copyOfRange(address, 12, 16);
    return address;
  }

  // ---- formatting ------------------------------------------------------------------------

  private static String format(byte[] address) {
    return format(address, address.length == 4 ? 24 : 48);
  }

  /** The network of {@code address} with {@code bits} bits, in canonical text (RFC 5952 for IPv6). */
  static String format(byte[] address, int bits) {
    byte[] net = new byte[address.length];
    for (int i = 0; i < net.length; i++) {
      int keep = Math.max(0, Math.min(8, bits - i * 8));
      net[i] = (byte) (address[i] & (0xff00 >>> keep));
    }
    StringBuilder sb = new StringBuilder(24);
    if (net.length == 4) {
      sb.append(net[0] & 0xff).append('.').append(net[1] & 0xff).append('.').append(net[2] & 0xff).append('.').append(net[3] & 0xff);
    } else {
      int[] g = new int[8];
      for (int i = 0; i < 8; i++) g[i] = (net[2 * i] & 0xff) << 8 | (net[2 * i + 1] & 0xff);
      int bestAt = -1;
      int bestLen = 1; // a single zero group is never shortened
      for (int i = 0; i < 8; ) {
        if (g[i] != 0) {
          i++;
          continue;
        }
        int j = i;
        while (j < 8 && g[j] == 0) j++;
        if (j - i > bestLen) {
          bestAt = i;
          bestLen = j - i;
        }
        i = j;
      }
      for (int i = 0; i < 8; i++) {
        if (i == bestAt) {
          sb.append("::");
          i += bestLen - 1;
          continue;
        }
        if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') sb.append(':');
        sb.append(Integer.toHexString(g[i]));
      }
    }
    return sb.append('/').append(bits).toString();
  }
}
