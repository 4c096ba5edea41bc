// The edge's decisions from a verified token and the public manifest (src/standing.js): when it
// may answer or refuse itself, and when only the origin can decide.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LOBBY_INDEX, edgeStatus, linesUp, nearMargin, shopVerdict } from '../src/standing.js';

const manifest = (m = {}) => ({ state: 'waiting', admittedUpTo: 100, admissionPerMinute: 600, seatsRemaining: 50, ...m });
const claims = (c = {}) => ({ place: 500n, admittedAt: 0, ...c });

describe('near margin', () => {
  test('the admissions of nearSeconds at the manifest\'s rate, at least minPlaces', () => {
    assert.equal(nearMargin(manifest(), 10, 20), 100n);
    assert.equal(nearMargin(manifest({ admissionPerMinute: 6 }), 10, 20), 20n);
    assert.equal(nearMargin(manifest({ admissionPerMinute: 0 }), 10, 0), 0n);
  });
});

describe('the shop\'s door', () => {
  test('forwarded: admitted by the token, reached by the line, or near it', () => {
    assert.equal(shopVerdict(claims({ admittedAt: 1 }), manifest(), 0n), 'forward');
    assert.equal(shopVerdict(claims({ place: 100n }), manifest(), 0n), 'forward');
    assert.equal(shopVerdict(claims({ place: 110n }), manifest(), 10n), 'forward');
    assert.equal(shopVerdict(claims({ place: 0n }), manifest(), 0n), 'forward', 'an old token without a place: the origin decides');
  });

  test('refused: a place the line has not reached, a lobby index before the draw', () => {
    assert.equal(shopVerdict(claims({ place: 111n }), manifest(), 10n), 'not_admitted');
    assert.equal(shopVerdict(claims({ place: LOBBY_INDEX | 4n }), manifest({ state: 'lobby' }), 10n), 'not_admitted');
    assert.equal(shopVerdict(claims({ place: LOBBY_INDEX | 4n }), manifest({ state: 'waiting' }), 10n), 'forward');
  });

  test('only sales that line fans up are refused at the edge', () => {
    for (const state of ['scheduled', 'lobby', 'waiting', 'paused']) assert.ok(linesUp(manifest({ state })), state);
    for (const state of ['open', 'sold_out', 'closed', 'unknown']) assert.ok(!linesUp(manifest({ state })), state);
  });
});

describe('the queue status at the edge', () => {
  test('a far fan: QueueRoutes.status\'s fields and arithmetic', () => {
    assert.deepEqual(edgeStatus(claims({ place: 1101n }), manifest({ admittedUpTo: 100, admissionPerMinute: 7 }), 0n), {
      state: 'waiting', position: 1101, admittedUpTo: 100, aheadOfYou: 1000, estimatedWaitSeconds: 8572, seatsRemaining: 50,
    });
    assert.equal(edgeStatus(claims({ place: 1101n }), manifest({ admissionPerMinute: 0 }), 0n).estimatedWaitSeconds, 0);
    assert.equal(edgeStatus(claims(), manifest({ state: 'paused' }), 0n).state, 'paused');
    assert.equal(edgeStatus(claims(), manifest({ state: 'sold_out' }), 0n).state, 'sold_out');
  });

  test('a lobby fan before the draw has no position yet', () => {
    assert.deepEqual(edgeStatus(claims({ place: LOBBY_INDEX | 9n }), manifest({ state: 'scheduled', admittedUpTo: 0 }), 0n), {
      state: 'scheduled', position: null, admittedUpTo: 0, aheadOfYou: 0, estimatedWaitSeconds: 0, seatsRemaining: 50,
    });
  });

  test('the origin answers the admitted, the near, a lobby index after the draw and sales it alone understands', () => {
    assert.equal(edgeStatus(claims({ admittedAt: 5 }), manifest(), 0n), null);
    assert.equal(edgeStatus(claims({ place: 150n }), manifest(), 50n), null);
    assert.equal(edgeStatus(claims({ place: LOBBY_INDEX | 9n }), manifest(), 0n), null);
    assert.equal(edgeStatus(claims({ place: 0n }), manifest(), 0n), null);
    assert.equal(edgeStatus(claims(), manifest({ state: 'open' }), 0n), null);
  });
});
