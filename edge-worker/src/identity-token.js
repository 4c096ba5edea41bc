// The bo_id identity cookie, verified as io.boxoffice.edge.IdentityToken over common.Hmac does:
// base64url(payload) "." base64url(HMAC-SHA256(payload)); the payload is "id1|account|expires"
// or "id2|account|expires|<version>.<random>" (a session the origin may have signed out: only
// the origin knows, so the edge forwards and the origin refuses it); the expiry is epoch
// seconds, valid while now <= expires.
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

/**
 * The account of a verified payload that has not expired at nowMillis, or null. Pure; as
 * IdentityToken.read: "id1|account|expires", or "id2|account|expires|<version>.<random>",
 * numbers of 1 to 18 decimal digits and nothing else.
 */
export function accountOf(payload, nowMillis) {
  const v2 = payload.startsWith('id2|');
  if (!v2 && !payload.startsWith('id1|')) return null;
  const bar = payload.indexOf('|', 4);
  if (bar <= 4) return null;
  let expires;
  if (!v2) {
    expires = payload.slice(bar + 1);
  } else {
    const bar2 = payload.indexOf('|', bar + 1);
    if (bar2 < 0) return null;
    const dot = payload.indexOf('.', bar2 + 1);
    if (dot <= bar2 + 1 || dot === payload.length - 1 || payload.indexOf('|', bar2 + 1) >= 0) return null;
    if (!DIGITS.test(payload.slice(bar2 + 1, dot))) return null;
    expires = payload.slice(bar + 1, bar2);
  }
  if (!DIGITS.test(expires)) return null;
  return BigInt(Math.floor(nowMillis / 1000)) <= BigInt(expires) ? payload.slice(4, bar) : null;
}

const DIGITS = /^[0-9]{1,18}$/;
