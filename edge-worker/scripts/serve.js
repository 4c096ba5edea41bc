// `npm run serve`: the worker under workerd on 127.0.0.1:8787 in front of ORIGIN, with the
// keys of the environment (QUEUE_KEYS, IDENTITY_KEYS: the nodes' BOXOFFICE_QUEUE_KEY plus
// BOXOFFICE_QUEUE_KEYS_ACCEPTED, and BOXOFFICE_IDENTITY_KEY) and the other vars of
// wrangler.toml when set. Ctrl-C stops it.
import { startWorkerd } from './workerd.js';

const names = ['ORIGIN', 'EDGE_MODE', 'QUEUE_KEYS', 'IDENTITY_KEYS', 'QUEUE_TOKEN_TTL_SECONDS', 'CLOCK_SKEW_SECONDS',
  'MANIFEST_REFRESH_SECONDS', 'PAGE_REFRESH_SECONDS', 'NEAR_SECONDS', 'NEAR_PLACES', 'ORIGIN_TIMEOUT_SECONDS'];
const vars = Object.fromEntries(names.filter((n) => process.env[n] !== undefined).map((n) => [n, process.env[n]]));
vars.ORIGIN ??= 'http://127.0.0.1:8080';
const port = Number(process.env.PORT ?? 8787);
const w = await startWorkerd(vars, { port, echo: true });
console.log(`edge worker on ${w.url} in front of ${vars.ORIGIN}`);
const stop = async () => {
  await w.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
