// The lottery's permutation (io.boxoffice.queue.domain.Lottery), so that the edge can tell a
// lobby fan its place once the draw's salt is public in the manifest: a six-round balanced
// Feistel network over the smallest even-bit domain holding the cohort, SHA-256 of salt, round
// and half-block (8 bytes, big-endian) as round function, restricted to 1..cohort by cycle
// walking. Checked against the Java side's vectors.

const ROUNDS = 6;
const encoder = new TextEncoder();

function bitLength(n) {
  return n === 0n ? 0 : n.toString(2).length;
}

async function roundFunction(key, round, value) {
  const input = new Uint8Array(key.length + 1 + 8);
  input.set(key, 0);
  input[key.length] = round;
  let v = value;
  for (let i = 7; i >= 0; i--) {
    input[key.length + 1 + i] = Number(v & 0xffn);
    v >>= 8n;
  }
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', input));
  let h = 0n;
  for (let i = 0; i < 8; i++) h = (h << 8n) | BigInt(d[i]);
  return h;
}

/** The place (1..cohort, a BigInt) of join index `joinIndex` (1..cohort) under `salt` (the hex text the room drew). */
export async function lotteryPlace(joinIndex, salt, cohort) {
  if (cohort < 1n) throw new RangeError('a cohort has at least one place');
  if (joinIndex < 1n || joinIndex > cohort) throw new RangeError('join index outside the cohort');
  let bits = Math.max(2, bitLength(cohort - 1n));
  if (bits % 2 === 1) bits++;
  const half = BigInt(bits / 2);
  const mask = (1n << half) - 1n;
  const key = encoder.encode(salt);
  let x = joinIndex - 1n;
  do {
    let left = x >> half;
    let right = x & mask;
    for (let round = 0; round < ROUNDS; round++) {
      const next = left ^ ((await roundFunction(key, round, right)) & mask);
      left = right;
      right = next;
    }
    x = (left << half) | right;
  } while (x >= cohort);
  return x + 1n;
}
