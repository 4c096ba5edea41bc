// The bo_q_<eventId> queue token, verified as io.boxoffice.queue.domain.QueueToken verifies it.
//
// A token is the unpadded base64url of version(1) keyId(4) place(8) issuedAt(8) admittedAt(8)
// len(1) eventId len(1) accountId len(1) prefix mac(32): integers big-endian, texts UTF-8, the
// HMAC-SHA256 over everything before the MAC. The key id picks the one key to check.
import { decodeStrict } from './base64url.js';

export const COOKIE_PREFIX = 'bo_q_';
const VERSION = 1;
const MAC_BYTES = 32;
const FIXED = 1 + 4 + 8 + 8 + 8;
const MAX_TEXT = 255;
const MIN_BYTES = FIXED + 3 + MAC_BYTES;
const MAX_BYTES = FIXED + 3 * (1 + MAX_TEXT) + MAC_BYTES;
const MIN_CHARS = Math.floor((MIN_BYTES * 4 + 2) / 3);
const MAX_CHARS = Math.floor((MAX_BYTES * 4 + 2) / 3);
const UTF8 = new TextEncoder();

/** Why a token was refused: the names of QueueToken.Reason. */
export const Reason = Object.freeze({
  MALFORMED: 'MALFORMED',
  FORGED: 'FORGED',
  EXPIRED: 'EXPIRED',
  ISSUED_IN_FUTURE: 'ISSUED_IN_FUTURE',
  WRONG_EVENT: 'WRONG_EVENT',
  WRONG_ACCOUNT: 'WRONG_ACCOUNT',
  WRONG_PREFIX: 'WRONG_PREFIX',
});

export function cookieName(eventId) {
  return COOKIE_PREFIX + eventId;
}

function long(b, at) {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return view.getBigInt64(at, false);
}

function sameText(b, at, len, expected) {
  if (typeof expected !== 'string') return false;
  const want = UTF8.encode(expected);
  if (want.length !== len) return false;
  for (let i = 0; i < len; i++) if (b[at + i] !== want[i]) return false;
  return true;
}

/**
 * The layout of a decoded token (offsets and its key id), or null when it is malformed. Pure:
 * no key, no clock.
 */
export function parse(token) {
  if (typeof token !== 'string' || token.length < MIN_CHARS || token.length > MAX_CHARS) return null;
  if (token[0] !== 'A') return null; // version 1 is the first character of every token
  const b = decodeStrict(token);
  if (b === null || b.length < MIN_BYTES || b[0] !== VERSION) return null;
  const eventAt = FIXED + 1;
  const eventLen = b[FIXED];
  const accountAt = eventAt + eventLen + 1;
  if (accountAt + 1 + MAC_BYTES > b.length) return null;
  const accountLen = b[accountAt - 1];
  const prefixAt = accountAt + accountLen + 1;
  if (prefixAt + MAC_BYTES > b.length) return null;
  const prefixLen = b[prefixAt - 1];
  const macAt = prefixAt + prefixLen;
  if (macAt + MAC_BYTES !== b.length) return null;
  const keyId = ((b[1] << 24) | (b[2] << 16) | (b[3] << 8) | b[4]) >>> 0;
  return { b, keyId, eventAt, eventLen, accountAt, accountLen, prefixAt, prefixLen, macAt };
}

/**
 * Verifies a token for this event, account and prefix at nowMillis with the live keys
 * ([{id, key}] from keys.queueKeys): {valid: true, claims} or {valid: false, reason}, the same
 * verdict in the same order of checks as QueueToken.verify. Never throws for any input text.
 * The MAC is checked by crypto.subtle.verify, which compares in constant time.
 */
export async function verify(token, { eventId, accountId, prefix, nowMillis, keys, ttlSeconds, skewSeconds }) {
  const t = parse(token);
  if (t === null) return { valid: false, reason: Reason.MALFORMED };
  const key = keys.find((k) => k.id === t.keyId);
  if (!key) return { valid: false, reason: Reason.FORGED };
  const ok = await crypto.subtle.verify('HMAC', key.key, t.b.subarray(t.macAt), t.b.subarray(0, t.macAt));
  if (!ok) return { valid: false, reason: Reason.FORGED };
  if (!sameText(t.b, t.eventAt, t.eventLen, eventId)) return { valid: false, reason: Reason.WRONG_EVENT };
  if (!sameText(t.b, t.accountAt, t.accountLen, accountId)) return { valid: false, reason: Reason.WRONG_ACCOUNT };
  if (!sameText(t.b, t.prefixAt, t.prefixLen, prefix)) return { valid: false, reason: Reason.WRONG_PREFIX };
  const issuedAt = long(t.b, 13);
  const now = BigInt(Math.floor(nowMillis / 1000));
  if (issuedAt > now + BigInt(skewSeconds)) return { valid: false, reason: Reason.ISSUED_IN_FUTURE };
  if (now > issuedAt + BigInt(ttlSeconds) + BigInt(skewSeconds)) return { valid: false, reason: Reason.EXPIRED };
  return {
    valid: true,
    claims: {
      eventId,
      accountId,
      prefix,
      place: long(t.b, 5),
      issuedAt: Number(issuedAt),
      admittedAt: Number(long(t.b, 21)),
    },
  };
}
