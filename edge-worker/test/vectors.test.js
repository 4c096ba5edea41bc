// The shared vectors (written by the Java side's EdgeTokenVectorsTest from the real
// QueueToken, IdentityToken and ClientPrefix) against the worker's token modules: in Node, and
// inside workerd, the runtime that runs the worker.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { clientPrefix } from '../src/client-prefix.js';
import * as identity from '../src/identity-token.js';
import { identityKeys, queueKeys } from '../src/keys.js';
import * as queue from '../src/queue-token.js';
import { lotteryPlace } from '../src/lottery.js';
import { startWorkerd } from '../scripts/workerd.js';
import { issueQueueToken } from './support/sign.js';

const vectors = JSON.parse(readFileSync(new URL('./token-vectors.json', import.meta.url), 'utf8'));
const { settings } = vectors;

function expectedQueue(v) {
  return v.verdict === 'VALID'
    ? { verdict: 'VALID', place: v.place, issuedAt: v.issuedAt, admittedAt: v.admittedAt }
    : { verdict: v.verdict };
}

describe('queue token vectors', () => {
  for (const v of vectors.queue) {
    test(v.name, async () => {
      const keys = await queueKeys(v.liveKeys.map((k) => vectors.queueKeys[k]).join(','));
      const r = await queue.verify(v.token, {
        eventId: v.eventId, accountId: v.accountId, prefix: v.prefix, nowMillis: v.nowMillis, keys,
        ttlSeconds: settings.tokenTtlSeconds, skewSeconds: settings.clockSkewSeconds,
      });
      const got = r.valid
        ? { verdict: 'VALID', place: r.claims.place.toString(), issuedAt: r.claims.issuedAt, admittedAt: r.claims.admittedAt }
        : { verdict: r.reason };
      assert.deepEqual(got, expectedQueue(v));
    });
  }

  test('the tests\' signer writes the very tokens the Java side issued', async () => {
    let checked = 0;
    for (const v of vectors.queue.filter((q) => q.verdict === 'VALID' && q.liveKeys.length === 1)) {
      const token = await issueQueueToken(vectors.queueKeys[v.liveKeys[0]], {
        eventId: v.eventId, accountId: v.accountId, place: v.place, prefix: v.prefix, issuedAt: v.issuedAt, admittedAt: v.admittedAt,
      });
      assert.equal(token, v.token, v.name);
      checked++;
    }
    assert.ok(checked >= 5);
  });
});

describe('identity token vectors', () => {
  for (const v of vectors.identity) {
    test(v.name, async () => {
      const keys = await identityKeys(v.keys.map((k) => vectors.identityKeys[k]).join(','));
      assert.equal(await identity.verify(v.token, { keys, nowMillis: v.nowMillis }), v.account);
    });
  }

  test('any of the live identity keys verifies (a rotation)', async () => {
    const v = vectors.identity.find((i) => i.name === 'signed by the other key');
    const both = await identityKeys(`${vectors.identityKeys.i1},${vectors.identityKeys.i2}`);
    assert.equal(await identity.verify(v.token, { keys: both, nowMillis: v.nowMillis }), v.account);
  });
});

describe('client prefix vectors', () => {
  for (const v of vectors.prefixes) {
    test(`${JSON.stringify(v.ip)} -> ${v.prefix}`, () => assert.equal(clientPrefix(v.ip), v.prefix));
  }
});

describe('every vector inside workerd', () => {
  let w;
  before(async () => {
    w = await startWorkerd({}, { main: fileURLToPath(new URL('./support/vector-runner.js', import.meta.url)) });
  });
  after(() => w?.stop());

  test('workerd gives the Java side\'s verdict for every queue, identity and prefix vector', async () => {
    const response = await fetch(w.url, { method: 'POST', body: JSON.stringify(vectors) });
    assert.equal(response.status, 200, w.output());
    const got = await response.json();
    assert.deepEqual(got.queue, vectors.queue.map(expectedQueue));
    assert.deepEqual(got.identity, vectors.identity.map((i) => i.account));
    assert.deepEqual(got.prefixes, vectors.prefixes.map((p) => p.prefix));
  });
});

describe('the worker\'s settings are the nodes\' shipped ones', () => {
  test('token lifetime and clock-skew leeway: the defaults and wrangler.toml', async () => {
    const { settingsOf } = await import('../src/settings.js');
    const s = await settingsOf({ ORIGIN: 'http://127.0.0.1:1', QUEUE_KEYS: vectors.queueKeys.q1, IDENTITY_KEYS: vectors.identityKeys.i1 });
    assert.equal(s.mode, 'edge');
    assert.equal(s.ttlSeconds, settings.tokenTtlSeconds);
    assert.equal(s.skewSeconds, settings.clockSkewSeconds);
    const toml = readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8');
    assert.match(toml, new RegExp(`^QUEUE_TOKEN_TTL_SECONDS = "${settings.tokenTtlSeconds}"$`, 'm'));
    assert.match(toml, new RegExp(`^CLOCK_SKEW_SECONDS = "${settings.clockSkewSeconds}"$`, 'm'));
  });
});

describe('lottery vectors', () => {
  test('the edge draws the same place as the waiting room for every vector', async () => {
    assert.ok(vectors.lottery.length >= 100);
    for (const v of vectors.lottery) {
      const place = await lotteryPlace(BigInt(v.index), v.salt, BigInt(v.cohort));
      assert.equal(place.toString(), v.place, `index ${v.index} of ${v.cohort} under ${v.salt.slice(0, 8)}`);
    }
  });
});
