// The bo_id identity cookie, verified as io.boxoffice.edge.IdentityToken over common.Hmac does:
// base64url(payload) "." base64url(HMAC-SHA256(payload)); the payload is "idN|account|expires"
// (id1) or with more fields after the expiry (id2 adds a session id): the account is field 1,
// the expiry (epoch seconds, valid while now <= expires) field 2.
import { decodeLenient } from './base64url.js';

export const COOKIE = 'bo_id';
const UTF8 = new TextDecoder('utf-8', { fatal: false });

/** The account id of a sealed identity token, or null for a forged, malformed or expired one. Never throws. */
export async function verify(token, { keys, nowMillis }) {
  if (typeof token !== 'string' || token.length > 4096) return null;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const payload = decodeLenient(token.slice(0, dot));
  const sig = decodeLenient(token.slice(dot + 1));
  if (payload === null || sig === null) return null;
  let signed = false;
  for (const key of keys) {
    if (await crypto.subtle.verify('HMAC', key, sig, payload)) {
      signed = true;
      break;
    }
  }
  if (!signed) return null;
  return accountOf(UTF8.decode(payload), nowMillis);
}

/** The account of a verified payload that has not expired at nowMillis, or null. Pure. */
export function accountOf(payload, nowMillis) {
  const fields = payload.split('|');
  if (fields.length < 3 || !/^id[0-9]+$/.test(fields[0])) return null;
  // As Java's Long.parseLong: an optional sign, decimal digits, within 64 bits.
  if (!/^[+-]?[0-9]{1,19}$/.test(fields[2])) return null;
  const expires = BigInt(fields[2]);
  if (expires > 9223372036854775807n || expires < -9223372036854775808n) return null;
  return BigInt(Math.floor(nowMillis / 1000)) <= expires ? fields[1] : null;
}
