// The client network prefix a queue token is bound to, written exactly as the origin's
// io.boxoffice.edge.ClientPrefix writes it: "203.0.113.0/24" for IPv4 (IPv4-mapped IPv6 counts
// as IPv4), "2001:db8:1::/48" for IPv6 (RFC 5952 text).

function parseV4(s) {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i];
    if (!/^[0-9]{1,3}$/.test(p) || (p.length > 1 && p[0] === '0')) return null;
    const v = Number(p);
    if (v > 255) return null;
    out[i] = v;
  }
  return out;
}

function parseV6(s) {
  if (s.length < 2 || s.length > 45) return null;
  let head = s;
  let tail = '';
  const gapAt = s.indexOf('::');
  if (gapAt >= 0) {
    if (s.indexOf('::', gapAt + 1) >= 0) return null;
    head = s.slice(0, gapAt);
    tail = s.slice(gapAt + 2);
  }
  const groups = (text) => (text === '' ? [] : text.split(':'));
  const h = groups(head);
  const t = groups(tail);
  const words = [];
  const all = gapAt >= 0 ? [...h, null, ...t] : h;
  for (let i = 0; i < all.length; i++) {
    const g = all[i];
    if (g === null) {
      words.push(null);
      continue;
    }
    if (g.includes('.')) {
      if (i !== all.length - 1) return null;
      const v4 = parseV4(g);
      if (v4 === null) return null;
      words.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      continue;
    }
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    words.push(parseInt(g, 16));
  }
  const known = words.filter((w) => w !== null).length;
  if (gapAt < 0) {
    if (known !== 8) return null;
  } else if (known > 7) {
    return null;
  }
  const out = new Uint8Array(16);
  let at = 0;
  for (const w of words) {
    if (w === null) {
      at += (8 - known) * 2;
      continue;
    }
    out[at++] = w >>> 8;
    out[at++] = w & 0xff;
  }
  return out;
}

/** The 4 or 16 bytes of a literal address (never resolved), IPv4-mapped IPv6 as IPv4; null when it is none. */
export function parseAddress(text) {
  if (typeof text !== 'string') return null;
  const s = text.trim();
  const address = s.includes(':') ? parseV6(s) : parseV4(s);
  if (address === null) return null;
  if (address.length === 16 && address.slice(0, 10).every((b) => b === 0) && address[10] === 0xff && address[11] === 0xff) {
    return address.slice(12);
  }
  return address;
}

/** The network of an address in canonical text with its prefix length (24 for IPv4, 48 for IPv6). */
export function formatPrefix(address) {
  const bits = address.length === 4 ? 24 : 48;
  const net = address.map((b, i) => b & (0xff00 >>> Math.max(0, Math.min(8, bits - i * 8))));
  if (net.length === 4) return `${net[0]}.${net[1]}.${net[2]}.${net[3]}/${bits}`;
  const g = [];
  for (let i = 0; i < 8; i++) g.push((net[2 * i] << 8) | net[2 * i + 1]);
  let bestAt = -1;
  let bestLen = 1; // a single zero group is never shortened
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      bestAt = i;
      bestLen = j - i;
    }
    i = j;
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestAt) {
      out += '::';
      i += bestLen - 1;
      continue;
    }
    if (out.length > 0 && !out.endsWith(':')) out += ':';
    out += g[i].toString(16);
  }
  return `${out}/${bits}`;
}

/** The prefix of a client address text (CF-Connecting-IP), or null when it is not a literal address. */
export function clientPrefix(ip) {
  const address = parseAddress(ip);
  return address === null ? null : formatPrefix(address);
}
