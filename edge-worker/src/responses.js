// The answers the edge gives itself: the origin's JSON errors (same status, code and message
// as its routes), the queue status, and a small status page for when the origin is down with
// nothing cached.

const PRIVATE = 'private, no-store';

export function json(status, body, extraHeaders = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': PRIVATE, ...extraHeaders },
  });
}

/** {"error","message"} as the origin's Api.error writes it; 429 and 503 carry Retry-After: 1. */
export function error(status, code, message) {
  const extra = status === 429 || status === 503 ? { 'retry-after': '1' } : {};
  return json(status, { error: code, message }, { 'x-edge': 'refused', ...extra });
}

export const unauthenticated = () => error(401, 'unauthenticated', 'sign in first (POST /api/session)');
export const notOnSale = () => error(403, 'not_on_sale', 'this event is not on sale');

/** The shop door's refusals (QueueAdmission). */
export const shop = {
  noToken: () => error(403, 'not_admitted', 'wait for your turn in the queue'),
  badToken: () => error(403, 'bad_token', 'the queue token is forged, expired or from another network'),
  notYet: () => error(403, 'not_admitted', 'it is not your turn yet'),
};

/** The queue status call's refusals (QueueRoutes.status). */
export const status = {
  noToken: () => error(403, 'not_admitted', 'join the queue first'),
  badToken: () => error(403, 'bad_token', 'the queue token is not valid here'),
};

export const originDown = () => error(503, 'unavailable', 'the box office cannot be reached right now, try again');

const STATUS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="15"><title>Waiting room</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34em;margin:4em auto;padding:0 1em;color:#222}</style></head>
<body><h1>The box office is busy</h1>
<p>We cannot reach the box office right now. Keep this page open: it tries again every 15 seconds,
and your place in line is kept in your browser.</p></body></html>
`;

/** The page for a fan when the origin is down and nothing is cached. */
export function statusPage() {
  return new Response(STATUS_PAGE, {
    status: 503,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': '15',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'x-edge': 'status-page',
    },
  });
}
