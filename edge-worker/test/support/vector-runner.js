// A test-only worker that runs the worker's own token modules inside workerd on the shared
// vectors posted to it (with each vector's clock), so that the vectors are checked in the
// runtime that runs the worker, not only in Node.
import { clientPrefix } from './client-prefix.js';
import * as identity from './identity-token.js';
import { identityKeys, queueKeys } from './keys.js';
import * as queue from './queue-token.js';

export default {
  async fetch(request) {
    const v = await request.json();
    const out = { queue: [], identity: [], prefixes: [] };
    for (const q of v.queue) {
      const keys = await queueKeys(q.liveKeys.map((k) => v.queueKeys[k]).join(','));
      const r = await queue.verify(q.token, {
        eventId: q.eventId, accountId: q.accountId, prefix: q.prefix, nowMillis: q.nowMillis, keys,
        ttlSeconds: v.settings.tokenTtlSeconds, skewSeconds: v.settings.clockSkewSeconds,
      });
      out.queue.push(r.valid
        ? { verdict: 'VALID', place: r.claims.place.toString(), issuedAt: r.claims.issuedAt, admittedAt: r.claims.admittedAt }
        : { verdict: r.reason });
    }
    for (const i of v.identity) {
      const keys = await identityKeys(i.keys.map((k) => v.identityKeys[k]).join(','));
      out.identity.push(await identity.verify(i.token, { keys, nowMillis: i.nowMillis }));
    }
    for (const p of v.prefixes) out.prefixes.push(clientPrefix(p.ip));
    return Response.json(out);
  },
};
