// The worker under the real workerd, in front of a fake origin that counts what reaches it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startWorkerd } from '../scripts/workerd.js';
import { startFakeOrigin } from './support/fake-origin.js';
import { identityToken, issueQueueToken } from './support/sign.js';

const Q1 = 'HyYtNDtCSVBXXmVsc3qBiI+WnaSrsrnAx87V3OPq8fg=';
const Q2 = 'PkVMU1phaG92fYSLkpmgp661vMPK0djf5u30+wIJEBc=';
const Q_UNKNOWN = 'XWRrcnmAh46VnKOqsbi/xs3U2+Lp8Pf+BQwTGiEoLzY9REtSWWBnbnV8g4qRmJ+m';
const ID1 = 'VVxjanF4f4aNlJuiqbC3vsXM09rh6O/2/QQLEhkgJy4=';
const ID_OTHER = 'dHuCiZCXnqWss7rByM/W3eTr8vkABw4VHCMqMTg/Rk0=';
const LOBBY_INDEX = 1n << 62n;
const vectors = JSON.parse(readFileSync(new URL('./token-vectors.json', import.meta.url), 'utf8'));
const now = () => Math.floor(Date.now() / 1000);

let origin;
let edge;
let fanCount = 0;

/** A signed-in fan of a /24 of its own with a queue token for the event (place null: no token). */
async function fan(eventId, { place = 5000n, admittedAt = 0, issuedAt = now() - 30, key = Q1, idKey = ID1, tokenEvent = eventId } = {}) {
  const n = ++fanCount;
  const ip = `10.${(n >> 8) & 255}.${n & 255}.7`;
  const account = `acc-${n}`;
  const cookies = [`bo_id=${await identityToken(idKey, account)}`];
  if (place !== null) {
    const token = await issueQueueToken(key, {
      eventId: tokenEvent, accountId: account, place, prefix: ip.replace(/\.\d+$/, '.0/24'), issuedAt, admittedAt,
    });
    cookies.push(`bo_q_${eventId}=${token}`);
  }
  return { ip, account, cookie: cookies.join('; ') };
}

function call(f, path, init = {}) {
  const headers = { ...(init.headers ?? {}) };
  if (f) {
    headers.cookie = f.cookie;
    headers['cf-connecting-ip'] = f.ip;
  }
  return fetch(edge.url + path, { ...init, headers, redirect: 'manual' });
}

async function json(response) {
  return { status: response.status, body: await response.json(), edge: response.headers.get('x-edge') };
}

async function eventually(check, { within = 5000, every = 100 } = {}) {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() - started > within) throw e;
      await new Promise((r) => setTimeout(r, every));
    }
  }
}

before(async () => {
  origin = await startFakeOrigin();
  edge = await startWorkerd({
    ORIGIN: origin.url, QUEUE_KEYS: `${Q1},${Q2}`, IDENTITY_KEYS: ID1,
    MANIFEST_REFRESH_SECONDS: '1', PAGE_REFRESH_SECONDS: '5', NEAR_SECONDS: '10', NEAR_PLACES: '20',
  });
});

after(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('waiting fans stay at the edge', () => {
  test('after the first fill, waiting fans get the page, assets, summary and manifest with no origin request within the refresh interval', async () => {
    origin.setManifest('w1', { admittedUpTo: 10 });
    const first = await fan('w1');
    for (const path of ['/events/w1', '/static/fan.js?v=abc', '/api/events/w1/summary', '/api/events/w1/queue/manifest']) {
      assert.equal((await call(first, path)).status, 200, path);
    }
    const mark = origin.requests.length;
    const started = Date.now();
    const fans = await Promise.all(Array.from({ length: 60 }, () => fan('w1')));
    const answers = await Promise.all(fans.flatMap((f) => [
      call(f, '/events/w1'), call(f, '/static/fan.js?v=abc'), call(f, '/api/events/w1/summary'),
      call(f, '/api/events/w1/queue/manifest'), call(f, '/api/events/w1/queue/status'),
    ]));
    const elapsed = Date.now() - started;
    for (const a of answers) assert.equal(a.status, 200);
    const pages = origin.count('/events/w1', mark) + origin.count(/^\/static\//, mark) + origin.count('/api/events/w1/summary', mark);
    assert.equal(pages, elapsed < 5000 ? 0 : pages, 'page, asset and summary: not asked again within their interval');
    assert.ok(origin.count('/api/events/w1/queue/manifest', mark) <= Math.floor(elapsed / 1000), 'at most one manifest request a second');
    assert.equal(origin.count('/api/events/w1/queue/status', mark), 0, 'no waiting fan\'s status reached the origin');
  });

  test('the manifest is asked of the origin at most once per interval, whatever the number of fans', async () => {
    origin.setManifest('w2', { admittedUpTo: 10 });
    const fans = await Promise.all(Array.from({ length: 40 }, () => fan('w2')));
    await call(fans[0], '/api/events/w2/queue/manifest');
    const mark = origin.requests.length;
    const started = Date.now();
    let asked = 0;
    while (Date.now() - started < 3500) {
      await Promise.all(fans.map((f) => call(f, '/api/events/w2/queue/manifest').then((r) => r.arrayBuffer())));
      asked += fans.length;
    }
    const elapsed = Date.now() - started;
    const reached = origin.count('/api/events/w2/queue/manifest', mark);
    assert.ok(asked >= 200, `fans asked ${asked} times`);
    assert.ok(reached >= 2, `it refreshes (${reached} in ${elapsed} ms)`);
    assert.ok(reached <= Math.ceil(elapsed / 1000) + 1, `${reached} origin requests in ${elapsed} ms for ${asked} fan requests`);
  });

  test('a crowd arriving at once at a cold edge makes one origin request per resource', async () => {
    origin.setManifest('w6', { admittedUpTo: 10 });
    const fans = await Promise.all(Array.from({ length: 30 }, () => fan('w6')));
    const mark = origin.requests.length;
    for (const path of ['/events/w6', '/api/events/w6/queue/manifest']) origin.slowOnce(path);
    const answers = await Promise.all(fans.flatMap((f) => [call(f, '/events/w6'), call(f, '/api/events/w6/queue/manifest')]));
    for (const a of answers) assert.equal(a.status, 200);
    assert.equal(origin.count('/events/w6', mark), 1);
    assert.equal(origin.count('/api/events/w6/queue/manifest', mark), 1);
  });

  test('a paused and then a sold-out sale shows at the edge within 5 s', async () => {
    origin.setManifest('w3', { admittedUpTo: 10 });
    const f = await fan('w3');
    assert.equal((await json(await call(f, '/api/events/w3/queue/manifest'))).body.state, 'waiting');
    for (const state of ['paused', 'sold_out']) {
      origin.setManifest('w3', { admittedUpTo: 10, state });
      const started = Date.now();
      await eventually(async () => assert.equal((await json(await call(f, '/api/events/w3/queue/manifest'))).body.state, state));
      assert.ok(Date.now() - started < 5000);
      const status = await json(await call(f, '/api/events/w3/queue/status'));
      assert.equal(status.body.state, state, 'the status answered at the edge says it too');
    }
  });

  test('a far fan\'s queue status is answered at the edge with the origin\'s fields and arithmetic', async () => {
    origin.setManifest('w4', { admittedUpTo: 100, admissionPerMinute: 600, seatsRemaining: 777 });
    const f = await fan('w4', { place: 1101n });
    const mark = origin.requests.length;
    const r = await call(f, '/api/events/w4/queue/status');
    assert.equal(r.headers.get('cache-control'), 'private, no-store');
    assert.deepEqual(await r.json(), {
      state: 'waiting', position: 1101, admittedUpTo: 100, aheadOfYou: 1000, estimatedWaitSeconds: 100, seatsRemaining: 777,
    });
    const lobby = await fan('w4', { place: LOBBY_INDEX | 3n });
    origin.setManifest('w5', { state: 'lobby', admittedUpTo: 0 });
    const inLobby = await fan('w5', { place: LOBBY_INDEX | 3n });
    assert.deepEqual((await json(await call(inLobby, '/api/events/w5/queue/status'))).body, {
      state: 'lobby', position: null, admittedUpTo: 0, aheadOfYou: 0, estimatedWaitSeconds: 0, seatsRemaining: 1000,
    });
    assert.equal(origin.count(/\/queue\/status$/, mark), 0);
    // After the draw, without the draw in the manifest, only the origin maps a lobby index to a place: forwarded.
    assert.equal((await json(await call(lobby, '/api/events/w4/queue/status'))).body.forwarded, true);
  });

  test('at the lottery a lobby fan learns its place at the edge, from the draw the manifest shows', async () => {
    const salt = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    const drawn = vectors.lottery.find((v) => v.salt === salt && v.cohort === '100000' && v.index !== '1');
    origin.setManifest('lot1', { state: 'waiting', admittedUpTo: 0, admissionPerMinute: 600, lottery: { salt, cohort: 100000 } });
    const f = await fan('lot1', { place: LOBBY_INDEX | BigInt(drawn.index) });
    const mark = origin.requests.length;
    const place = Number(drawn.place);
    assert.ok(place > 200, 'far from the line in this vector');
    assert.deepEqual((await json(await call(f, '/api/events/lot1/queue/status'))).body, {
      state: 'waiting', position: place, admittedUpTo: 0, aheadOfYou: place - 1, estimatedWaitSeconds: Math.ceil(((place - 1) * 60) / 600),
      seatsRemaining: 1000,
    });
    assert.equal(origin.count(/\/queue\/status$/, mark), 0, 'answered at the edge');
    // Its shop calls wait at the edge too, until the line nears its drawn place.
    assert.equal((await json(await call(f, '/api/events/lot1/seatmap'))).status, 403);
    origin.setManifest('lot1', { state: 'waiting', admittedUpTo: place, admissionPerMinute: 600, lottery: { salt, cohort: 100000 } });
    await eventually(async () => assert.equal((await json(await call(f, '/api/events/lot1/seatmap'))).body.forwarded, true));
    // A draw the edge cannot read (a salt that is not hex): the origin decides.
    origin.setManifest('lot2', { state: 'waiting', admittedUpTo: 0, lottery: { salt: 'not hex', cohort: 10 } });
    const g = await fan('lot2', { place: LOBBY_INDEX | 3n });
    assert.equal((await json(await call(g, '/api/events/lot2/queue/status'))).body.forwarded, true);
  });
});

describe('admitted and near fans reach the origin', () => {
  test('a fan whose place is admitted or near is forwarded, with the body, cookies and its address', async () => {
    origin.setManifest('a1', { admittedUpTo: 100, admissionPerMinute: 60 });
    const admitted = await fan('a1', { place: 100n });
    const near = await fan('a1', { place: 115n }); // within NEAR_PLACES (20) of the line
    const byToken = await fan('a1', { place: 9000n, admittedAt: now() - 10 });
    const mark = origin.requests.length;
    for (const f of [admitted, near, byToken]) {
      const hold = await call(f, '/api/events/a1/cart/holds', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"best":{"quantity":2}}',
      });
      const got = await json(hold);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, { forwarded: true, method: 'POST', path: '/api/events/a1/cart/holds', body: '{"best":{"quantity":2}}' });
      assert.equal(hold.headers.get('set-cookie'), 'bo_q_x=from-origin; Path=/; HttpOnly', 'the origin\'s cookies reach the fan');
    }
    const seen = origin.requests.slice(mark).filter((r) => !r.path.endsWith('/queue/manifest')); // the first fill
    assert.equal(seen.length, 3);
    assert.deepEqual(seen.map((r) => r.headers['x-forwarded-for']), [admitted.ip, near.ip, byToken.ip]);
    assert.ok(seen.every((r) => r.headers.cookie.includes('bo_q_a1=')), 'the origin verifies the token again');
    for (const path of ['seatmap', 'availability', 'cart', 'cart/checkout']) {
      assert.equal((await call(admitted, `/api/events/a1/${path}`)).status, 200, path);
    }
    assert.equal((await json(await call(near, '/api/events/a1/queue/status'))).body.forwarded, true, 'a near fan asks the origin');
  });

  test('a client cannot choose the address the origin sees', async () => {
    origin.setManifest('a2', { admittedUpTo: 100 });
    const f = await fan('a2', { place: 1n });
    const mark = origin.requests.length;
    await call(f, '/api/events/a2/cart', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(origin.requests[mark].headers['x-forwarded-for'], f.ip);
  });

  test('sign-up, sign-in, sign-out, join, leave, challenge, presale, tickets and admin go to the origin', async () => {
    origin.setManifest('a3', { admittedUpTo: 0 });
    const f = await fan('a3');
    const calls = [
      ['POST', '/api/accounts'], ['POST', '/api/session'], ['DELETE', '/api/session'], ['POST', '/api/events/a3/queue'],
      ['DELETE', '/api/events/a3/queue'], ['GET', '/api/events/a3/queue/challenge'], ['POST', '/api/events/a3/presale/registrations'],
      ['GET', '/api/me/tickets'], ['GET', '/admin/events'], ['POST', '/gate/scan'],
    ];
    for (const [method, path] of calls) {
      const mark = origin.requests.length;
      const r = await call(f, path, { method, ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}) });
      assert.equal(r.status, 200, `${method} ${path}`);
      assert.equal(origin.count(path, mark), 1, `${method} ${path} reached the origin`);
    }
  });
});

describe('everyone else is refused at the edge with the origin\'s own answer', () => {
  const unauthenticated = { error: 'unauthenticated', message: 'sign in first (POST /api/session)' };

  test('without a valid bo_id: 401 for the manifest, status and shop', async () => {
    origin.setManifest('r1', { admittedUpTo: 100 });
    const signedOut = { ip: '10.200.0.1', cookie: '' };
    const forged = await fan('r1', { place: 1n, idKey: ID_OTHER });
    const expired = { ...(await fan('r1', { place: 1n })) };
    expired.cookie = expired.cookie.replace(/bo_id=[^;]+/, `bo_id=${await identityToken(ID1, 'acc-x', now() - 1)}`);
    const mark = origin.requests.length;
    for (const f of [signedOut, forged, expired]) {
      for (const path of ['/api/events/r1/queue/manifest', '/api/events/r1/queue/status', '/api/events/r1/cart', '/api/events/r1/seatmap']) {
        const got = await json(await call(f, path));
        assert.deepEqual([got.status, got.body, got.edge], [401, unauthenticated, 'refused'], path);
      }
    }
    assert.equal(origin.requests.length, mark);
  });

  test('forged, expired, moved, foreign-event and unknown-key queue tokens: 403 bad_token; no token or not yet: 403 not_admitted', async () => {
    origin.setManifest('r2', { admittedUpTo: 100 });
    const good = await fan('r2', { place: 5n });
    await call(good, '/api/events/r2/cart'); // the manifest is cached
    const forged = await fan('r2', { place: 5n });
    forged.cookie = forged.cookie.replace(/(bo_q_r2=.{40})(.)/, (all, head, c) => head + (c === 'A' ? 'B' : 'A'));
    const expired = await fan('r2', { place: 5n, issuedAt: now() - 86400 - 16 });
    const future = await fan('r2', { place: 5n, issuedAt: now() + 60 });
    const moved = await fan('r2', { place: 5n });
    moved.ip = '10.250.9.9';
    const foreign = await fan('r2', { place: 5n, tokenEvent: 'other' });
    const unknownKey = await fan('r2', { place: 5n, key: Q_UNKNOWN });
    const none = await fan('r2', { place: null });
    const far = await fan('r2', { place: 5000n });
    const lobbyIndex = await fan('r2', { place: LOBBY_INDEX | 1n });
    const mark = origin.requests.length;
    const badToken = { error: 'bad_token', message: 'the queue token is forged, expired or from another network' };
    for (const f of [forged, expired, future, moved, foreign, unknownKey]) {
      assert.deepEqual((await json(await call(f, '/api/events/r2/cart/holds', { method: 'POST', body: '{}' }))).body, badToken);
      const got = await json(await call(f, '/api/events/r2/queue/status'));
      assert.deepEqual([got.status, got.body], [403, { error: 'bad_token', message: 'the queue token is not valid here' }]);
    }
    const noToken = await json(await call(none, '/api/events/r2/seatmap'));
    assert.deepEqual([noToken.status, noToken.body], [403, { error: 'not_admitted', message: 'wait for your turn in the queue' }]);
    assert.deepEqual((await json(await call(none, '/api/events/r2/queue/status'))).body,
      { error: 'not_admitted', message: 'join the queue first' });
    const notYet = await json(await call(far, '/api/events/r2/cart/checkout', { method: 'POST', body: '{}' }));
    assert.deepEqual([notYet.status, notYet.body], [403, { error: 'not_admitted', message: 'it is not your turn yet' }]);
    assert.equal(origin.requests.length, mark, 'none of them reached the origin');
    // A lobby index after the draw may be admitted: only the origin knows its place.
    assert.equal((await json(await call(lobbyIndex, '/api/events/r2/cart'))).body.forwarded, true);
    // The edge is no trust boundary for what it forwards: the good fan's call goes on with its token.
    assert.equal((await json(await call(good, '/api/events/r2/cart'))).body.forwarded, true);
  });

  test('a closed event (its manifest 404, as an unknown one\'s) and an unknown event are the origin\'s to answer', async () => {
    origin.setClosed('r3');
    const f = await fan('r3', { place: 1n });
    for (const path of ['/api/events/r3/cart', '/api/events/r3/queue/status']) {
      const got = await json(await call(f, path));
      assert.deepEqual([got.status, got.body], [403, { error: 'not_on_sale', message: 'this event is not on sale' }]);
    }
    const g = await fan('nosuch', { place: 1n });
    const mark = origin.requests.length;
    for (let i = 0; i < 5; i++) {
      const got = await json(await call(g, '/api/events/nosuch/cart'));
      assert.deepEqual([got.status, got.body], [404, { error: 'not_found', message: 'no such event' }]);
    }
    assert.ok(origin.count('/api/events/nosuch/queue/manifest', mark) <= 1, 'the 404 manifest is cached');
  });

  test('an open sale and a sold-out one are the origin\'s to decide', async () => {
    origin.setManifest('r4', { state: 'open', admittedUpTo: 0 });
    const f = await fan('r4', { place: null });
    assert.equal((await json(await call(f, '/api/events/r4/seatmap'))).body.forwarded, true);
  });
});

describe('cache keys ignore cookies', () => {
  test('the page is asked of the origin without the fan\'s cookies and never replays an origin cookie', async () => {
    origin.setManifest('c1', {});
    const a = await fan('c1');
    const b = await fan('c1', { place: 1n });
    const mark = origin.requests.length;
    const first = await call(a, '/events/c1');
    const second = await call(b, '/events/c1');
    assert.equal(await first.text(), await second.text());
    assert.equal(origin.count('/events/c1', mark), 1);
    assert.equal(origin.requests[mark].headers.cookie, undefined);
    assert.equal(second.headers.get('set-cookie'), null);
    assert.equal(second.headers.get('x-edge-cache'), 'hit');
    const revalidated = await call(b, '/events/c1', { headers: { 'if-none-match': '"page-1"' } });
    assert.equal(revalidated.status, 304);
  });
});

describe('the origin down', () => {
  test('cached page and manifest are served stale; nothing cached: a status page or 503 unavailable', async () => {
    origin.setManifest('d1', { admittedUpTo: 3 });
    const f = await fan('d1');
    assert.equal((await call(f, '/events/d1')).status, 200);
    assert.equal((await call(f, '/api/events/d1/queue/manifest')).status, 200);
    origin.setDown(true);
    try {
      await new Promise((r) => setTimeout(r, 1200)); // past the manifest's refresh interval
      for (let i = 0; i < 3; i++) {
        const page = await call(f, '/events/d1');
        assert.equal(page.status, 200);
        assert.match(await page.text(), /event d1/);
        const manifest = await json(await call(f, '/api/events/d1/queue/manifest'));
        assert.equal(manifest.status, 200);
        assert.equal(manifest.body.admittedUpTo, 3);
        assert.equal((await json(await call(f, '/api/events/d1/queue/status'))).body.state, 'waiting');
      }
      const cold = await call(f, '/events/never-cached');
      assert.equal(cold.status, 503);
      assert.match(cold.headers.get('content-type'), /text\/html/);
      assert.match(await cold.text(), /box office/);
      const join = await json(await call(f, '/api/events/d1/queue', { method: 'POST', body: '{}' }));
      assert.equal(join.status, 503);
      assert.equal(join.body.error, 'unavailable');
    } finally {
      origin.setDown(false);
    }
  });
});

describe('the origin failing', () => {
  test('a 5xx never replaces a cached page or manifest', async () => {
    origin.setManifest('d2', { admittedUpTo: 4 });
    const f = await fan('d2');
    assert.equal((await call(f, '/events/d2')).status, 200);
    assert.equal((await call(f, '/api/events/d2/queue/manifest')).status, 200);
    origin.failWith(503);
    try {
      await new Promise((r) => setTimeout(r, 1200));
      for (let i = 0; i < 3; i++) {
        const manifest = await json(await call(f, '/api/events/d2/queue/manifest'));
        assert.deepEqual([manifest.status, manifest.body.admittedUpTo], [200, 4]);
        assert.equal((await call(f, '/events/d2')).status, 200);
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      origin.failWith(0);
    }
  });
});

describe('kill switch and misconfiguration', () => {
  test('EDGE_MODE=passthrough sends everything to the origin, refusals included', async () => {
    const passthrough = await startWorkerd({ ORIGIN: origin.url, QUEUE_KEYS: Q1, IDENTITY_KEYS: ID1, EDGE_MODE: 'passthrough' });
    try {
      origin.setManifest('k1', { admittedUpTo: 0 });
      const f = await fan('k1', { place: 9999n });
      const mark = origin.requests.length;
      for (let i = 0; i < 3; i++) {
        await (await fetch(`${passthrough.url}/events/k1`, { headers: { cookie: f.cookie, 'cf-connecting-ip': f.ip } })).text();
        const shop = await fetch(`${passthrough.url}/api/events/k1/cart`, { headers: { cookie: f.cookie, 'cf-connecting-ip': f.ip } });
        assert.equal((await shop.json()).forwarded, true);
      }
      assert.equal(origin.count('/events/k1', mark), 3);
      assert.equal(origin.count('/api/events/k1/cart', mark), 3);
      assert.equal(origin.requests[mark].headers.cookie, f.cookie);
    } finally {
      await passthrough.stop();
    }
  });

  test('a worker without readable keys forwards everything rather than refusing fans', async () => {
    const broken = await startWorkerd({ ORIGIN: origin.url, QUEUE_KEYS: 'not base64!', IDENTITY_KEYS: ID1 });
    try {
      origin.setManifest('k2', { admittedUpTo: 0 });
      const f = await fan('k2', { place: 9999n });
      const shop = await fetch(`${broken.url}/api/events/k2/cart`, { headers: { cookie: f.cookie, 'cf-connecting-ip': f.ip } });
      assert.equal((await shop.json()).forwarded, true);
      assert.doesNotMatch(broken.output(), /not base64!/, 'the log never shows a key');
    } finally {
      await broken.stop();
    }
  });
});
