// The edge's cache of public bytes (the waiting page, its assets, an event's summary and
// manifest): isolate memory first, the Cache API (shared by the isolates of one location)
// second, the origin last. Entries are plain data (status, headers, bytes), never Response
// objects, so that any request of the isolate may serve them.
//
// Stale-while-revalidate: an entry older than its refresh interval is still served, and one
// refresh per key is started in the background (ctx.waitUntil). A key is checked with the
// origin at most once per interval, whether the refresh succeeds or not, however many fans
// ask; when the origin is down the last good entry is served for as long as it is down.

const DROPPED_HEADERS = new Set(['set-cookie', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/** A cacheable copy of an origin response: plain data, Set-Cookie and hop-by-hop headers dropped. */
export async function snapshot(response, nowMillis) {
  const headers = [];
  for (const [name, value] of response.headers) {
    if (!DROPPED_HEADERS.has(name.toLowerCase())) headers.push([name, value]);
  }
  return { status: response.status, headers, body: await response.arrayBuffer(), storedAt: nowMillis, checkedAt: nowMillis };
}

export class EdgeCache {
  constructor({ maxEntries = 5000, cacheApi = null } = {}) {
    this.entries = new Map();
    this.inFlight = new Set();
    this.maxEntries = maxEntries;
    this.cacheApi = cacheApi;
  }

  peek(key) {
    return this.entries.get(key) ?? null;
  }

  store(key, entry) {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value);
  }

  /**
   * The entry for key, and how it was found: 'hit' (fresh), 'stale' (served while one refresh
   * runs or the origin is down), 'miss' (loaded now), or {entry: null, error} when nothing is
   * cached and the origin failed. load() returns an origin Response or throws; cacheable(status)
   * says which answers to keep (a 5xx never replaces a good entry). Concurrent first requests
   * of a key make one origin request; the others wait for it at most waitMillis.
   */
  async get(key, { refreshMillis, nowMillis, load, cacheable, waitUntil, waitMillis = 10000 }) {
    let entry = this.peek(key);
    if (entry === null) entry = await this.fromCacheApi(key);
    if (entry !== null) {
      if (nowMillis - entry.checkedAt < refreshMillis) return { entry, source: 'hit' };
      if (!this.inFlight.has(key)) {
        this.inFlight.add(key);
        entry.checkedAt = nowMillis;
        waitUntil(this.refresh(key, load, cacheable, refreshMillis).finally(() => this.inFlight.delete(key)));
      }
      return { entry, source: 'stale' };
    }
    // Nothing cached. When another request of this isolate is loading it already, wait for its
    // result (polling memory on this request's own timers: a promise of another request must
    // not be awaited in Workers); otherwise this request loads it.
    if (this.inFlight.has(key)) {
      const waited = await this.awaitOther(key, waitMillis);
      if (waited !== null) return { entry: waited, source: 'hit' };
    }
    this.inFlight.add(key);
    try {
      const response = await load();
      const fresh = await snapshot(response, Date.now());
      if (cacheable(fresh.status)) {
        this.store(key, fresh);
        waitUntil(this.toCacheApi(key, fresh, refreshMillis));
      }
      return { entry: fresh, source: 'miss' };
    } catch (error) {
      return { entry: null, source: 'error', error };
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** The entry another request is loading, once it is stored; null when that load ends without one or takes too long. */
  async awaitOther(key, waitMillis) {
    const deadline = Date.now() + waitMillis;
    while (this.inFlight.has(key) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const entry = this.peek(key);
      if (entry !== null) return entry;
    }
    return this.peek(key);
  }

  async refresh(key, load, cacheable, refreshMillis) {
    try {
      const fresh = await snapshot(await load(), Date.now());
      if (!cacheable(fresh.status)) return;
      this.store(key, fresh);
      await this.toCacheApi(key, fresh, refreshMillis);
    } catch {
      // The origin is down or slow: keep serving what we have; the next interval tries again.
    }
  }

  async fromCacheApi(key) {
    if (!this.cacheApi) return null;
    try {
      const hit = await this.cacheApi.match(new Request(key));
      if (!hit) return null;
      const storedAt = Number(hit.headers.get('x-edge-stored-at')) || 0;
      const entry = await snapshot(hit, storedAt);
      entry.headers = entry.headers.filter(([n]) => !/^(x-edge-stored-at|cache-control|cf-cache-status|age)$/i.test(n));
      const original = hit.headers.get('x-edge-cache-control');
      entry.headers = entry.headers.filter(([n]) => n.toLowerCase() !== 'x-edge-cache-control');
      if (original) entry.headers.push(['cache-control', original]);
      this.store(key, entry);
      return entry;
    } catch {
      return null;
    }
  }

  async toCacheApi(key, entry, refreshMillis) {
    if (!this.cacheApi) return;
    try {
      const headers = new Headers(entry.headers.filter(([n]) => n.toLowerCase() !== 'cache-control'));
      const original = entry.headers.find(([n]) => n.toLowerCase() === 'cache-control');
      if (original) headers.set('x-edge-cache-control', original[1]);
      headers.set('x-edge-stored-at', String(entry.storedAt));
      headers.set('cache-control', `public, max-age=${Math.max(1, Math.ceil(refreshMillis / 1000))}`);
      await this.cacheApi.put(new Request(key), new Response(entry.body.slice(0), { status: entry.status, headers }));
    } catch {
      // The Cache API is an optimisation: a location without it still has the isolate's memory.
    }
  }
}
