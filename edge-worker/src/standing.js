// What the edge may answer itself for a fan with a valid queue token, from the token and the
// event's public manifest alone (io.boxoffice.queue.Standing at the origin). Pure functions:
// when in doubt they say "forward", and the origin decides.

import { lotteryPlace } from './lottery.js';

/**
 * Token places at or above this are lobby join indices, which the lottery maps to places once
 * the draw's salt is public (the manifest's lottery), before that only the origin.
 */
export const LOBBY_INDEX = 1n << 62n;

/** The manifest's public draw ({salt, cohort: BigInt}) once the lobby has been drawn, or null. */
export function drawOf(manifest) {
  const d = manifest.lottery;
  if (d === null || typeof d !== 'object') return null;
  if (typeof d.salt !== 'string' || !/^[0-9a-f]{2,128}$/.test(d.salt)) return null;
  const cohort = Number(d.cohort);
  if (!Number.isSafeInteger(cohort) || cohort < 1) return null;
  return { salt: d.salt, cohort: BigInt(cohort) };
}

/**
 * The claims with a lobby join index replaced by the place the lottery drew for it (as the
 * origin's Standing does), when the manifest shows the draw; otherwise the claims as they are.
 */
export async function placed(claims, manifest) {
  if (claims.place < LOBBY_INDEX) return claims;
  const draw = drawOf(manifest);
  if (draw === null) return claims;
  const index = claims.place & ~LOBBY_INDEX;
  if (index < 1n || index > draw.cohort) return claims;
  return { ...claims, place: await lotteryPlace(index, draw.salt, draw.cohort) };
}

/** Manifest states in which no fan without an admitted place may shop (an open sale is "open", or "sold_out" once sold). */
const LINED_UP = new Set(['scheduled', 'lobby', 'waiting', 'paused']);

/**
 * How many places behind the line still count as near: what the line admits in nearSeconds at
 * the manifest's rate, and at least minPlaces. A fan that near is forwarded, so that the
 * origin, whose manifest is fresher, decides the moment of admission.
 */
export function nearMargin(manifest, nearSeconds, minPlaces) {
  const rate = Math.max(0, Number(manifest.admissionPerMinute) || 0);
  return BigInt(Math.max(minPlaces, Math.ceil((rate * nearSeconds) / 60)));
}

/**
 * A shop call (seat map, availability, cart, holds, checkout) of a fan with a verified token:
 * "forward" when the token says admitted or its place is admitted or near; "not_admitted"
 * when its place is certainly not reached. The manifest must be the event's, of an on-sale
 * that lines fans up (see {@link linesUp}).
 */
export function shopVerdict(claims, manifest, margin) {
  if (claims.admittedAt !== 0) return 'forward'; // the origin checks the shopping window
  if (claims.place === 0n) return 'forward';
  if (claims.place >= LOBBY_INDEX) {
    // A lobby index: before the draw nobody is admitted; after it only the origin knows the place.
    return manifest.state === 'scheduled' || manifest.state === 'lobby' ? 'not_admitted' : 'forward';
  }
  return claims.place <= BigInt(manifest.admittedUpTo) + margin ? 'forward' : 'not_admitted';
}

/** Whether the manifest's event lines fans up, so that the edge may refuse a shop call without an admitted place. */
export function linesUp(manifest) {
  return LINED_UP.has(manifest.state);
}

/**
 * The origin's GET .../queue/status answer for a fan far from the line, or null to forward
 * (admitted or near, a lobby index after the draw, an old token without a place, a state the
 * edge does not answer for). Same fields, same order, same arithmetic as QueueRoutes.status.
 */
export function edgeStatus(claims, manifest, margin) {
  const state = manifest.state;
  const admittedUpTo = Number(manifest.admittedUpTo);
  const seatsRemaining = Number(manifest.seatsRemaining);
  if (claims.admittedAt !== 0 || claims.place === 0n) return null;
  if (claims.place >= LOBBY_INDEX) {
    if (state !== 'scheduled' && state !== 'lobby') return null;
    return { state, position: null, admittedUpTo, aheadOfYou: 0, estimatedWaitSeconds: 0, seatsRemaining };
  }
  if (state !== 'waiting' && state !== 'paused' && state !== 'sold_out') return null;
  if (claims.place <= BigInt(admittedUpTo) + margin) return null;
  const position = Number(claims.place);
  const ahead = Math.max(0, position - admittedUpTo - 1);
  const rate = Number(manifest.admissionPerMinute);
  const wait = rate <= 0 ? 0 : Math.ceil((ahead * 60.0) / rate);
  return { state, position, admittedUpTo, aheadOfYou: ahead, estimatedWaitSeconds: wait, seatsRemaining };
}
