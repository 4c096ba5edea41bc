// boxoffice's waiting room at the CDN edge (a Cloudflare Workers module; web-standard APIs
// only, so it ports to Fastly Compute).
//
// - GET /events/{id}, /static/..., /favicon.ico, /api/events/{id}/summary: public bytes,
//   served from the edge's cache whatever the cookies (the cache key has none).
// - GET /api/events/{id}/queue/manifest: the same, for a signed-in fan (401 otherwise, as the
//   origin answers).
// - GET /api/events/{id}/queue/status: answered at the edge from the verified queue token and
//   the cached manifest while the fan is far from the line (a lobby fan's place from the
//   lottery's draw, public in the manifest once drawn); forwarded when near or admitted.
// - The shop (seat map, availability, cart, holds, checkout): forwarded only for a fan whose
//   token is valid and whose place is admitted or near it; everyone else gets the origin's own
//   403 at the edge.
// - Everything else (sign-up, sign-in, join, challenge, presale, orders, tickets, admin,
//   gates): forwarded. The origin verifies every token again: this worker is an offload.
// EDGE_MODE=passthrough forwards everything (the kill switch).
import { EdgeCache } from './cache.js';
import { clientPrefix } from './client-prefix.js';
import * as identity from './identity-token.js';
import * as queue from './queue-token.js';
import * as answers from './responses.js';
import { settingsOf } from './settings.js';
import { edgeStatus, linesUp, nearMargin, placed, shopVerdict } from './standing.js';

const EVENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SHOP = /^(seatmap|availability|cart|cart\/holds|cart\/holds\/[^/]+|cart\/checkout)$/;
const PUBLIC_STATUSES = new Set([200, 404]);

let cache = null;

function edgeCache() {
  if (cache === null) cache = new EdgeCache({ cacheApi: globalThis.caches?.default ?? null });
  return cache;
}

/** The value of one cookie of the request, or null. */
export function cookie(request, name) {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Headers for the origin: the client's, with X-Forwarded-For naming the client address Cloudflare saw (never one the client wrote). */
function originHeaders(request, clientIp) {
  const headers = new Headers(request.headers);
  headers.delete('x-forwarded-for');
  if (clientIp) headers.set('x-forwarded-for', clientIp);
  return headers;
}

async function forward(request, url, settings, clientIp) {
  const target = settings.origin + url.pathname + url.search;
  const init = { method: request.method, headers: originHeaders(request, clientIp), redirect: 'manual' };
  if (request.method !== 'GET' && request.method !== 'HEAD') init.body = request.body;
  try {
    return await fetch(target, init);
  } catch {
    return answers.originDown();
  }
}

function timeoutSignal(millis) {
  return typeof AbortSignal !== 'undefined' && typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(millis) : undefined;
}

/** An entry of the cache as the fan's response, with a 304 for a matching If-None-Match. */
function fromEntry(request, entry, source, nowMillis) {
  const headers = new Headers(entry.headers);
  headers.set('x-edge-cache', source);
  headers.set('age', String(Math.max(0, Math.floor((nowMillis - entry.storedAt) / 1000))));
  const etag = headers.get('etag');
  const ifNoneMatch = request.headers.get('if-none-match');
  if (etag && ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
    return new Response(null, { status: 304, headers });
  }
  const body = request.method === 'HEAD' ? null : entry.body.slice(0);
  return new Response(body, { status: entry.status, headers });
}

/**
 * A public resource from the cache. The origin is asked without the fan's cookies, except for
 * the manifest, which the origin answers only to a signed-in fan: it is asked with the bo_id
 * of the fan whose request refreshes it (already verified here), never with a queue cookie.
 */
async function cached(request, ctx, settings, clientIp, { key, path, refreshMillis, identityCookie = null, accept = '*/*' }) {
  const nowMillis = Date.now();
  const load = () => {
    const headers = new Headers({ accept });
    if (clientIp) headers.set('x-forwarded-for', clientIp);
    if (identityCookie) headers.set('cookie', `${identity.COOKIE}=${identityCookie}`);
    return fetch(settings.origin + path, { headers, redirect: 'manual', signal: timeoutSignal(settings.originTimeoutMillis) });
  };
  // Keyed on the request's own host (the Cache API keeps only URLs of the worker's zone), never on cookies.
  return edgeCache().get(`${new URL(request.url).origin}/__boxoffice-edge-cache${key}`, {
    refreshMillis,
    nowMillis,
    load,
    cacheable: (s) => PUBLIC_STATUSES.has(s),
    waitUntil: (p) => ctx.waitUntil(p),
    waitMillis: settings.originTimeoutMillis,
  });
}

async function publicResource(request, ctx, settings, clientIp, spec, { html }) {
  const found = await cached(request, ctx, settings, clientIp, spec);
  if (found.entry === null) return html ? answers.statusPage() : answers.originDown();
  return fromEntry(request, found.entry, found.source, Date.now());
}

/** The event's manifest as data ({state, admittedUpTo, ...}), {notFound: entry} for an unknown or closed event, or null when it cannot be had. */
async function manifestOf(request, ctx, settings, clientIp, eventId, identityCookie) {
  const path = `/api/events/${eventId}/queue/manifest`;
  const found = await cached(request, ctx, settings, clientIp,
    { key: path, path, refreshMillis: settings.manifestRefreshMillis, identityCookie });
  if (found.entry === null) return null;
  if (found.entry.status === 404) return { notFound: found };
  if (found.entry.status !== 200) return null;
  try {
    const m = JSON.parse(new TextDecoder().decode(found.entry.body));
    return typeof m.state === 'string' && Number.isFinite(Number(m.admittedUpTo)) ? m : null;
  } catch {
    return null;
  }
}

async function signedIn(request, settings) {
  const token = cookie(request, identity.COOKIE);
  if (token === null) return { token: null, account: null };
  return { token, account: await identity.verify(token, { keys: settings.identityKeys, nowMillis: Date.now() }) };
}

async function queueClaims(request, settings, eventId, account, prefix) {
  const token = cookie(request, queue.cookieName(eventId));
  if (token === null) return { present: false };
  const v = await queue.verify(token, {
    eventId, accountId: account, prefix, nowMillis: Date.now(),
    keys: settings.queueKeys, ttlSeconds: settings.ttlSeconds, skewSeconds: settings.skewSeconds,
  });
  return { present: true, ...v };
}

async function handle(request, env, ctx) {
  const settings = await settingsOf(env);
  const url = new URL(request.url);
  const path = url.pathname;
  const clientIp = request.headers.get('cf-connecting-ip');
  if (settings.mode === 'passthrough') return forward(request, url, settings, clientIp);
  const get = request.method === 'GET' || request.method === 'HEAD';

  // Public bytes: the same for every fan.
  if (get && (path.startsWith('/static/') || path === '/favicon.ico')) {
    return publicResource(request, ctx, settings, clientIp,
      { key: path + url.search, path: path + url.search, refreshMillis: 24 * 3600 * 1000 }, { html: false });
  }
  const page = path.match(/^\/events\/([^/]+)$/);
  if (get && page && EVENT_ID.test(page[1])) {
    // The origin answers an unknown event with a 404 page to a browser and JSON to anyone else: two variants.
    const browser = (request.headers.get('accept') ?? '').includes('text/html');
    return publicResource(request, ctx, settings, clientIp, {
      key: `${path}?variant=${browser ? 'html' : 'other'}`, path, refreshMillis: settings.pageRefreshMillis,
      accept: browser ? 'text/html' : 'application/json',
    }, { html: true });
  }
  const api = path.match(/^\/api\/events\/([^/]+)\/(.+)$/);
  if (!api || !EVENT_ID.test(api[1])) return forward(request, url, settings, clientIp);
  const [, eventId, rest] = api;
  if (get && rest === 'summary') {
    return publicResource(request, ctx, settings, clientIp,
      { key: path, path, refreshMillis: settings.pageRefreshMillis }, { html: false });
  }
  const isManifest = get && rest === 'queue/manifest';
  const isStatus = get && rest === 'queue/status';
  const isShop = SHOP.test(rest);
  if (!isManifest && !isStatus && !isShop) return forward(request, url, settings, clientIp);

  // Signed-in calls: the identity cookie first, as the origin checks it first.
  const { token: idToken, account } = await signedIn(request, settings);
  if (account === null) return answers.unauthenticated();
  if (isManifest) {
    return publicResource(request, ctx, settings, clientIp,
      { key: path, path, refreshMillis: settings.manifestRefreshMillis, identityCookie: idToken }, { html: false });
  }
  const prefix = clientPrefix(clientIp);
  if (prefix === null) return forward(request, url, settings, clientIp); // no client address to bind to: the origin decides
  const m = await manifestOf(request, ctx, settings, clientIp, eventId, idToken);
  if (m === null) return forward(request, url, settings, clientIp);
  // 404: an unknown event, or a closed one (its manifest looks unknown on purpose, while the origin
  // answers its shop and status 403 not_on_sale): only the origin can tell them apart.
  if (m.notFound) return forward(request, url, settings, clientIp);
  if (m.state === 'closed') return answers.notOnSale();
  const margin = nearMargin(m, settings.nearSeconds, settings.nearPlaces);

  if (isStatus) {
    const q = await queueClaims(request, settings, eventId, account, prefix);
    if (!q.present) return answers.status.noToken();
    if (!q.valid) return answers.status.badToken();
    const body = edgeStatus(await placed(q.claims, m), m, margin);
    return body === null ? forward(request, url, settings, clientIp) : answers.json(200, body, { 'x-edge': 'answered' });
  }

  // The shop's door.
  if (!linesUp(m)) return forward(request, url, settings, clientIp); // an open sale, or sold out: the origin decides
  const q = await queueClaims(request, settings, eventId, account, prefix);
  if (!q.present) return answers.shop.noToken();
  if (!q.valid) return answers.shop.badToken();
  return shopVerdict(await placed(q.claims, m), m, margin) === 'forward'
    ? forward(request, url, settings, clientIp) : answers.shop.notYet();
}

export default {
  async fetch(request, env, ctx) {
    try {
      return await handle(request, env, ctx);
    } catch (e) {
      console.error(`edge worker failed: ${e && e.stack ? e.stack : e}`);
      return answers.error(503, 'unavailable', 'the edge could not answer, try again');
    }
  },
};
