// The worker's settings from its environment: vars (wrangler.toml [vars]) and secrets
// (wrangler secret put). Read once per isolate for each distinct set of values.
import { identityKeys, queueKeys } from './keys.js';

function seconds(value, fallback) {
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

let cached = null;

/**
 * {mode, origin, queueKeys, identityKeys, ttlSeconds, skewSeconds, ...}. mode is 'edge', or
 * 'passthrough' when EDGE_MODE says so (the kill switch) or the keys are missing or unreadable
 * (then misconfigured names why, never a key): a worker that cannot check tokens sends
 * everyone to the origin's own waiting room rather than refusing them.
 */
export async function settingsOf(env) {
  const signature = [env.ORIGIN, env.EDGE_MODE, env.QUEUE_KEYS, env.IDENTITY_KEYS, env.QUEUE_TOKEN_TTL_SECONDS,
    env.CLOCK_SKEW_SECONDS, env.MANIFEST_REFRESH_SECONDS, env.PAGE_REFRESH_SECONDS, env.NEAR_SECONDS, env.NEAR_PLACES,
    env.ORIGIN_TIMEOUT_SECONDS].join('\u0000');
  if (cached && cached.signature === signature) return cached.settings;
  const settings = {
    mode: String(env.EDGE_MODE ?? 'edge').trim().toLowerCase() === 'passthrough' ? 'passthrough' : 'edge',
    misconfigured: null,
    origin: String(env.ORIGIN ?? '').replace(/\/+$/, ''),
    queueKeys: [],
    identityKeys: [],
    ttlSeconds: seconds(env.QUEUE_TOKEN_TTL_SECONDS, 86400),
    skewSeconds: seconds(env.CLOCK_SKEW_SECONDS, 15),
    manifestRefreshMillis: Math.min(5, Math.max(1, seconds(env.MANIFEST_REFRESH_SECONDS, 1))) * 1000,
    pageRefreshMillis: Math.max(1, seconds(env.PAGE_REFRESH_SECONDS, 5)) * 1000,
    nearSeconds: seconds(env.NEAR_SECONDS, 10),
    nearPlaces: seconds(env.NEAR_PLACES, 20),
    originTimeoutMillis: Math.max(1, seconds(env.ORIGIN_TIMEOUT_SECONDS, 10)) * 1000,
  };
  if (!/^https?:\/\/[^/]+$/.test(settings.origin)) throw new Error('ORIGIN must be an http(s) URL without a path');
  try {
    settings.queueKeys = await queueKeys(env.QUEUE_KEYS);
    settings.identityKeys = await identityKeys(env.IDENTITY_KEYS);
    if (settings.queueKeys.length === 0) throw new Error('QUEUE_KEYS is not set');
    if (settings.identityKeys.length === 0) throw new Error('IDENTITY_KEYS is not set');
  } catch (e) {
    settings.misconfigured = e.message;
    settings.mode = 'passthrough';
    console.error(`edge worker misconfigured, forwarding everything to the origin: ${e.message}`);
  }
  cached = { signature, settings };
  return settings;
}
