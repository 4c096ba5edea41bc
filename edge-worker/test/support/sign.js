// Test-only signers of the origin's two tokens (the worker itself never signs). Checked against
// the shared vectors: issuing a vector's claims with its key gives the vector's very token.
import { importHmacKey, queueKeyId } from '../../src/keys.js';
import { decodeKey } from '../../src/base64url.js';

const UTF8 = new TextEncoder();

function b64url(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A queue token as QueueToken.issue writes it, under the base64 key. */
export async function issueQueueToken(keyBase64, { eventId, accountId, place, prefix, issuedAt, admittedAt = 0 }) {
  const key = await importHmacKey(decodeKey(keyBase64));
  const id = await queueKeyId(key);
  const texts = [eventId, accountId, prefix].map((t) => UTF8.encode(t));
  const macAt = 29 + 3 + texts.reduce((n, t) => n + t.length, 0);
  const b = new Uint8Array(macAt + 32);
  const view = new DataView(b.buffer);
  b[0] = 1;
  view.setUint32(1, id, false);
  view.setBigInt64(5, BigInt(place), false);
  view.setBigInt64(13, BigInt(issuedAt), false);
  view.setBigInt64(21, BigInt(admittedAt), false);
  let at = 29;
  for (const t of texts) {
    b[at] = t.length;
    b.set(t, at + 1);
    at += 1 + t.length;
  }
  b.set(new Uint8Array(await crypto.subtle.sign('HMAC', key, b.subarray(0, macAt))), macAt);
  return b64url(b);
}

/** A bo_id value as common.Hmac.seal writes it for the payload. */
export async function seal(keyBase64, payload) {
  const key = await importHmacKey(decodeKey(keyBase64));
  const bytes = UTF8.encode(payload);
  return `${b64url(bytes)}.${b64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, bytes)))}`;
}

/** A bo_id of the account valid for an hour from now, as IdentityToken.issue writes it. */
export function identityToken(keyBase64, accountId, expiresEpochSecond = Math.floor(Date.now() / 1000) + 3600) {
  return seal(keyBase64, `id1|${accountId}|${expiresEpochSecond}`);
}
