// A small stand-in for a boxoffice node that counts what reaches it: the page, assets,
// summary and manifest (which, like the node's, needs a bo_id cookie), and a catch-all that
// echoes every forwarded call. Each event's manifest is set by the test.
import http from 'node:http';

export async function startFakeOrigin() {
  const manifests = new Map();
  // Closed events: their manifest and summary are 404 as an unknown event's; their shop and status 403 not_on_sale.
  const closed = new Set();
  const requests = [];
  let down = false;
  let failing = 0;
  const slow = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (down) {
        req.socket.destroy();
        return;
      }
      const url = new URL(req.url, 'http://origin');
      if (failing) {
        res.writeHead(failing, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ error: 'unavailable', message: 'the origin is failing' }));
        return;
      }
      if (slow.has(url.pathname)) {
        slow.delete(url.pathname);
        setTimeout(() => req.emit('end'), 300);
        return;
      }
      const seen = { method: req.method, path: url.pathname, search: url.search, headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(seen);
      const send = (status, body, headers = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const path = url.pathname;
      let m;
      if ((m = path.match(/^\/events\/([^/]+)$/))) {
        res.writeHead(manifests.has(m[1]) ? 200 : 404, {
          'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=5', etag: '"page-1"',
          'set-cookie': 'tracking=never-replayed; Path=/',
        });
        res.end(`<!doctype html><title>Waiting room</title><p>event ${m[1]}</p>`);
        return;
      }
      if (path.startsWith('/static/')) {
        res.writeHead(200, { 'content-type': 'application/javascript', 'cache-control': 'public, max-age=31536000, immutable' });
        res.end(`// ${path}${url.search}`);
        return;
      }
      if ((m = path.match(/^\/api\/events\/([^/]+)\/summary$/))) {
        const manifest = manifests.get(m[1]);
        if (!manifest) return send(404, { error: 'not_found', message: 'no such event' });
        return send(200, { eventId: m[1], state: manifest.state }, { 'cache-control': 'public, max-age=5' });
      }
      if ((m = path.match(/^\/api\/events\/([^/]+)\/queue\/manifest$/))) {
        if (!/(^|;\s*)bo_id=/.test(req.headers.cookie ?? '')) {
          return send(401, { error: 'unauthenticated', message: 'sign in first (POST /api/session)' });
        }
        const manifest = manifests.get(m[1]);
        if (!manifest) return send(404, { error: 'not_found', message: 'no such event' });
        return send(200, { ...manifest, updatedAt: new Date().toISOString() }, { 'cache-control': 'public, max-age=5' });
      }
      if ((m = path.match(/^\/api\/events\/([^/]+)\//)) && closed.has(m[1])) {
        return send(403, { error: 'not_on_sale', message: 'this event is not on sale' });
      }
      if ((m = path.match(/^\/api\/events\/([^/]+)\//)) && !manifests.has(m[1]) && !/\/presale\//.test(path) && !/\/queue$/.test(path)) {
        return send(404, { error: 'not_found', message: 'no such event' });
      }
      return send(200, { forwarded: true, method: req.method, path, body: seen.body }, {
        'cache-control': 'private, no-store', 'set-cookie': 'bo_q_x=from-origin; Path=/; HttpOnly',
      });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    /** Requests that reached the origin, for a path (a string or a RegExp), since index `from`. */
    count(path, from = 0) {
      return requests.slice(from).filter((r) => (typeof path === 'string' ? r.path === path : path.test(r.path))).length;
    },
    /** A closed event: not scheduled, not opened. */
    setClosed(eventId) {
      closed.add(eventId);
    },
    setManifest(eventId, manifest) {
      manifests.set(eventId, { state: 'waiting', admittedUpTo: 0, admissionPerMinute: 600, seatsRemaining: 1000, ...manifest });
    },
    /** The next request of this path is answered 300 ms late. */
    slowOnce(path) {
      slow.add(path);
    },
    /** Every request answered with this status (0: normally). */
    failWith(status) {
      failing = status;
    },
    setDown(value) {
      down = value;
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
