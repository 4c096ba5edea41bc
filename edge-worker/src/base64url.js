// Base64url decoding exactly as the origin's two verifiers do it (no Node APIs: this runs in
// Workers and ports to Fastly Compute).

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

function sextet(code) {
  return code < 128 ? VALUE[code] : -1;
}

function decodeSextets(s, length) {
  const out = new Uint8Array(Math.floor((length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < length; i++) {
    const v = sextet(s.charCodeAt(i));
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (acc >>> bits) & 0xff;
    }
  }
  return out;
}

/**
 * Canonical unpadded base64url, as QueueToken's decoder: the url alphabet only, no padding, a
 * length that is not 1 mod 4, and zero bits after the last byte; null for anything else.
 */
export function decodeStrict(s) {
  const len = s.length;
  if ((len & 3) === 1) return null;
  if (len === 0) return new Uint8Array(0);
  const last = sextet(s.charCodeAt(len - 1));
  const unused = (len & 3) === 2 ? 0xf : (len & 3) === 3 ? 0x3 : 0;
  if (last < 0 || (last & unused) !== 0) return null;
  return decodeSextets(s, len);
}

/**
 * Base64url as Java's Base64.getUrlDecoder() reads it (the identity cookie's): optional '='
 * padding that completes the last 4-character unit, bits after the last byte ignored; null for
 * anything else.
 */
export function decodeLenient(s) {
  let len = s.length;
  if (len > 0 && s.charCodeAt(len - 1) === 61 /* = */) {
    if ((len & 3) !== 0) return null;
    len -= s.charCodeAt(len - 2) === 61 ? 2 : 1;
    if ((len & 3) === 1 || (len & 3) === 0) return null; // "=" must complete a unit of 2 or 3 characters
  }
  if ((len & 3) === 1) return null;
  return decodeSextets(s, len);
}

/** Standard or URL-safe base64 of a configured key, as the nodes read BOXOFFICE_*_KEY; throws when it is neither. */
export function decodeKey(text) {
  const v = text.trim();
  const url = v.includes('-') || v.includes('_');
  const normalized = url ? v : v.replace(/\+/g, '-').replace(/\//g, '_');
  if (!url && /[-_]/.test(v)) throw new Error('not base64');
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(normalized)) throw new Error('not base64');
  const bytes = decodeLenient(normalized);
  if (bytes === null) throw new Error('not base64');
  return bytes;
}
