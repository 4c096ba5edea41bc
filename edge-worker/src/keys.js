// HMAC-SHA256 keys from Worker secrets, in the encoding the nodes use (base64 or base64url of
// at least 32 bytes; several keys separated by commas).
import { decodeKey } from './base64url.js';

const MIN_KEY_BYTES = 32;
const KEY_ID_LABEL = new TextEncoder().encode('boxoffice queue key id');

/** The raw keys of a comma-separated secret; throws naming the secret (never its value) when one is not a key. */
export function parseKeys(text, name) {
  const keys = [];
  for (const [i, part] of String(text ?? '').split(',').entries()) {
    if (part.trim() === '') continue;
    let bytes;
    try {
      bytes = decodeKey(part);
    } catch {
      throw new Error(`${name}[${i}] is not valid base64`);
    }
    if (bytes.length < MIN_KEY_BYTES) throw new Error(`${name}[${i}] needs at least ${MIN_KEY_BYTES} bytes`);
    keys.push(bytes);
  }
  return keys;
}

/** A WebCrypto HMAC-SHA256 key that signs and verifies. */
export function importHmacKey(raw) {
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

/** The queue key's public 4-byte id (QueueToken.keyId): the start of its MAC of a fixed label, as an unsigned number. */
export async function queueKeyId(key) {
  const tag = new Uint8Array(await crypto.subtle.sign('HMAC', key, KEY_ID_LABEL));
  return ((tag[0] << 24) | (tag[1] << 16) | (tag[2] << 8) | tag[3]) >>> 0;
}

/** The queue keys of a secret as [{id, key}], every one of which verifies (the worker never signs). */
export async function queueKeys(text, name = 'QUEUE_KEYS') {
  const out = [];
  for (const raw of parseKeys(text, name)) {
    const key = await importHmacKey(raw);
    const id = await queueKeyId(key);
    if (!out.some((k) => k.id === id)) out.push({ id, key });
  }
  return out;
}

/** The identity keys of a secret, each of which may have sealed a bo_id cookie. */
export async function identityKeys(text, name = 'IDENTITY_KEYS') {
  return Promise.all(parseKeys(text, name).map(importHmacKey));
}
