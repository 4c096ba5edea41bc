'use strict';
// The fan's page for one event: sign-in and sign-up, the waiting room, then the shop (seat map,
// holds, cart with its timer, checkout) and the tickets. The server sends the same page to
// everyone; the page learns who the fan is and where it stands from its own calls, and moves
// from the room to the shop by itself when the fan is admitted.
(() => {
  const eventId = decodeURIComponent(location.pathname.split('/')[2] || '');
  const base = `/api/events/${encodeURIComponent(eventId)}`;
  const $ = id => document.getElementById(id);
  const show = (id, on) => { $(id).hidden = !on; };
  const fan = { event: null, skewMs: 0, signedIn: false, view: document.body.dataset.view };
  const money = cents => (cents / 100).toLocaleString('en', { style: 'currency', currency: 'EUR' });
  const plural = (n, one, many) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
  const serverNow = () => Date.now() + fan.skewMs;

  function announce(text) { $('live').textContent = text; }

  /** A call to the origin; {@code cache} 'default' lets a public answer come from a cache (the manifest, the summary). */
  async function call(method, path, body, headers, cache) {
    let r;
    try {
      r = await fetch(path, { method, credentials: 'same-origin', cache: cache || 'no-store',
        headers: Object.assign(body !== undefined ? { 'Content-Type': 'application/json' } : {}, headers || {}),
        body: body !== undefined ? JSON.stringify(body) : undefined });
    } catch (e) {
      return { status: 0, body: null, headers: new Headers() };
    }
    let json = null;
    try { json = await r.json(); } catch (e) { /* no JSON body */ }
    return { status: r.status, body: json, headers: r.headers };
  }
  const message = (r, fallback) => (r.body && r.body.message) || `${fallback} (${r.status || 'no connection'})`;

  function mmss(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const two = n => String(n).padStart(2, '0');
    return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${two(m)}:${two(sec)}`;
  }

  // ---- the event ---------------------------------------------------------------------------

  async function loadEvent() {
    let r = await call('GET', `${base}/summary`);
    // The page is the same for every event: what this one is (an open sale or a line) is in the
    // summary, so a busy answer is asked again, a few times, before the page goes on without it.
    for (let tries = 0; tries < 4 && (r.status === 0 || r.status === 429 || r.status >= 500); tries++) {
      await new Promise(resolve => setTimeout(resolve, 1000 * Math.min(5, Number(r.headers.get('Retry-After')) || 1)));
      r = await call('GET', `${base}/summary`);
    }
    // A closed event's summary is a 404, as an unknown event's: nothing about it is public yet.
    if (r.status === 404) { $('event-name').textContent = 'This event is not on sale yet'; return; }
    if (r.status !== 200) return;
    fan.event = r.body;
    if (!r.body.name) { $('event-name').textContent = 'This event is not on sale yet'; return; }
    if (r.body.now) fan.skewMs = Date.parse(r.body.now) - Date.now();
    $('event-name').textContent = r.body.name;
    document.title = `${r.body.name} · ${document.title}`;
    const starts = r.body.startsAt ? new Date(r.body.startsAt) : null;
    const venue = r.body.venueName || r.body.venueId;
    $('event-where').textContent = starts
      ? `${venue} · ${starts.toLocaleDateString('en', { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric' })}`
        + ` · sale starts ${starts.toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' })}`
      : venue;
    tickClock();
  }

  function tickClock() {
    const e = fan.event;
    if (!e) return;
    const now = serverNow();
    const lobby = e.lobbyOpensAt ? Date.parse(e.lobbyOpensAt) : 0;
    const start = e.startsAt ? Date.parse(e.startsAt) : 0;
    let text = '';
    if (e.open) text = 'On sale now';
    else if (lobby && now < lobby) text = `Lobby opens in ${mmss(lobby - now)}`;
    else if (start && now < start) text = `Sale starts in ${mmss(start - now)}`;
    else if (start) text = 'On sale now';
    $('event-when').textContent = text;
  }

  // ---- signing in and up --------------------------------------------------------------------

  async function signIn(email, password, errorId) {
    const r = await call('POST', '/api/session', { email, password });
    if (r.status === 200) {
      fan.signedIn = true;
      $(errorId).textContent = '';
      announce('Signed in.');
      return route();
    }
    if (r.status === 401) $(errorId).textContent = 'That email and password do not match an account.';
    else if (r.status === 429) $(errorId).textContent = `Too many attempts: try again in ${r.headers.get('Retry-After') || 'a few'} seconds.`;
    else $(errorId).textContent = message(r, 'Could not sign in');
  }

  $('signin-form').addEventListener('submit', ev => {
    ev.preventDefault();
    signIn($('signin-email').value.trim(), $('signin-password').value, 'signin-error');
  });
  $('show-signup').addEventListener('click', () => {
    const open = $('signup-form').hidden;
    show('signup-form', open);
    $('show-signup').setAttribute('aria-expanded', String(open));
    if (open) $('signup-email').focus();
  });
  $('signup-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    const email = $('signup-email').value.trim(), password = $('signup-password').value;
    if (password.length < 10) { $('signup-error').textContent = 'The password needs at least 10 characters.'; return; }
    const r = await call('POST', '/api/accounts', { email, password });
    if (r.status === 201) return signIn(email, password, 'signup-error');
    if (r.status === 409) $('signup-error').textContent = 'There is already an account with this email: sign in above.';
    else if (r.status === 429) $('signup-error').textContent = `Too many attempts: try again in ${r.headers.get('Retry-After') || 'a few'} seconds.`;
    else $('signup-error').textContent = message(r, 'Could not create the account');
  });
  // Both buttons sit in #signout: "everywhere" signs out every device this account is signed in on.
  $('signout').addEventListener('click', async ev => {
    const button = ev.target.closest('button');
    if (!button) return;
    await call('DELETE', button.id === 'signout-everywhere' ? '/api/sessions' : '/api/session');
    sessionStorage.clear();
    location.reload();
  });

  function needSignIn() {
    clearTimeout(room.timer);
    fan.signedIn = false;
    show('auth', true); show('signout', false);
    show('room', false); show('shop', false); show('cart', false); show('tickets', false);
    announce('Sign in or create an account to continue.');
  }

  // ---- the waiting room ---------------------------------------------------------------------

  const STATES = {
    scheduled: 'The lobby is not open yet. Come back when it opens.',
    lobby: 'You are in the lobby. Places are drawn by lottery when the sale starts.',
    waiting: 'You are in line.',
    paused: 'The sale is paused for a moment; your place is kept.',
    sold_out: 'Sold out. Sorry!',
    closed: 'Your shopping time has ended.',
    left: 'You left the line.',
    admitted: 'It is your turn! Opening the shop…'
  };
  // What the page knows of the fan's place comes from the fan's own calls (the join answer, or
  // the status asked once per page load and at the lottery), and is kept in sessionStorage; what
  // the line does comes from the event's public manifest, the same bytes for every fan, which a
  // CDN answers. While the fan waits the page asks the origin nothing private: it works out the
  // people ahead, the estimate and its turn from its place and the manifest.
  const room = {
    timer: 0, history: [], state: '', position: 0, manifest: null, asked: 0, bounces: 0, sawDraw: false, rejoined: false
  };
  const STANDING_KEY = `bo-standing-${eventId}`;
  const WAITING = ['lobby', 'scheduled', 'waiting', 'paused', 'sold_out'];
  const MANIFEST_EVERY_MS = 10000;   // the manifest is cacheable for 5 s: polling faster gains nothing
  const NEAR_SECONDS = 30;           // closer than this to its turn, the page polls every 5 s
  const ASK_BEFORE_SECONDS = 5;      // closer than this, it asks for its own state (at most every 5 s)

  /** People a minute the line moves: what it did lately, else the rate capped by the shoppers the sale lets in at once. */
  function lineRate(perMinuteNow) {
    const h = room.history;
    if (h.length >= 2) {
      const a = h[0], b = h[h.length - 1];
      if (b.t - a.t >= 20000 && b.upTo > a.upTo) return (b.upTo - a.upTo) * 60000 / (b.t - a.t);
    }
    const e = fan.event || {};
    const perMinute = perMinuteNow || e.admissionPerMinute || 0;
    if (!e.maxActiveShoppers || !e.holdSeconds) return perMinute;
    // Little's law: at most maxActiveShoppers shop at once, each for up to about a hold's time.
    return Math.min(perMinute, e.maxActiveShoppers * 60 / e.holdSeconds);
  }

  /** Places between the line's front and the fan's own place (its place is not ahead of it). */
  function aheadNow() {
    const m = room.manifest;
    return room.position && m ? Math.max(0, room.position - m.admittedUpTo - 1) : null;
  }

  /** Seconds until the line reaches the fan's place at its recent pace, or Infinity when it does not move. */
  function secondsToTurn() {
    const ahead = aheadNow();
    if (ahead === null) return Infinity;
    const rate = lineRate(room.manifest.admissionPerMinute);
    return rate > 0 ? (ahead + 1) * 60 / rate : Infinity;
  }

  function renderStanding() {
    const state = room.state;
    const m = room.manifest;
    show('join-form', false);
    show('standing', true);
    $('state-text').textContent = STATES[state] || state;
    // The lottery's promise is about the lobby: once places are given it only confuses.
    show('lottery-text', state === 'lobby' || state === 'scheduled');
    show('position-row', !!room.position);
    $('position').textContent = room.position ? room.position.toLocaleString('en') : '';
    const waiting = state === 'waiting' || state === 'paused';
    const ahead = aheadNow();
    show('ahead-row', waiting && ahead !== null);
    if (ahead !== null) {
      $('ahead').textContent = ahead === 0 ? 'Nobody is ahead of you.'
        : `${plural(ahead, 'person is', 'people are')} ahead of you.`;
    }
    const rate = lineRate(m && m.admissionPerMinute);
    show('wait-row', waiting && ahead !== null && ahead > 0);
    if (rate > 0) {
      const minutes = (ahead || 0) / rate;
      const pace = rate >= 1.5 ? `about ${plural(Math.round(rate), 'person', 'people')} a minute`
        : rate >= 0.75 ? 'about one person a minute' : `about one person every ${Math.round(1 / rate)} minutes`;
      $('wait').textContent = (minutes < 1.5 ? 'About a minute' : minutes < 90 ? `About ${Math.round(minutes)} minutes`
        : `About ${(minutes / 60).toFixed(1)} hours`) + ` (the line moves ${pace}).`;
    } else {
      $('wait').textContent = 'The line is not moving right now.';
    }
    // Before the start the room has not counted the seats yet: the venue's count is the honest number.
    const early = state === 'lobby' || state === 'scheduled';
    const seats = early ? (fan.event && fan.event.seats) : m && m.seatsRemaining;
    show('seats-row', seats !== undefined && seats !== null);
    if (early && seats) {
      $('seats-left').textContent = `${plural(seats, 'seat', 'seats')} in this sale.`;
    } else if (seats !== undefined && seats !== null) {
      $('seats-left').textContent = `${plural(seats, 'seat', 'seats')} left.`
        + (waiting && seats > 0 && ahead * 2 > seats ? ' They may be gone before your turn.' : '');
    }
    show('leave', ['lobby', 'waiting', 'paused'].includes(state));
  }

  function later(fn, ms) {
    clearTimeout(room.timer);
    room.timer = setTimeout(fn, ms);
  }

  function signedInView() {
    fan.signedIn = true;
    show('auth', false); show('signout', true);
    show('room', true);
  }

  function showJoinForm() {
    show('standing', false); show('join-form', true);
    const open = fan.event && fan.event.open;
    $('join-text').textContent = open ? 'Tickets for this event are on sale now.' : 'Join the line for this sale.';
    show('lottery-text', !open);
    $('join-button').textContent = open ? 'Go to the shop' : 'Join the line';
  }

  function notOnSale() {
    show('join-form', false); show('standing', true);
    $('state-text').textContent = 'This event is not on sale.';
    show('lottery-text', false); show('position-row', false); show('ahead-row', false); show('wait-row', false);
    show('seats-row', false); show('leave', false);
  }

  /**
   * The fan's own state, from the origin: once when the page opens (signed in? in line? where?),
   * at the lottery, and when the manifest says its turn has come or is seconds away.
   */
  async function askStanding() {
    room.asked = Date.now();
    const s = await call('GET', `${base}/queue/status`);
    if (s.status === 401) return needSignIn();
    if (s.status === 0 || s.status >= 500 || s.status === 429) {
      announce('Reconnecting…');
      return later(askStanding, 1000 * Math.min(30, Number(s.headers.get('Retry-After')) || 3) + Math.random() * 1000);
    }
    signedInView();
    if (!ticketsLoaded) loadTickets();
    if (s.status === 403 && s.body && s.body.error === 'not_on_sale') {
      notOnSale();
      return later(pollManifest, 30000);
    }
    if (s.status === 403) {
      // Not in line in this browser: a fan who joined from this tab before (a reload, an expired or
      // moved token) joins again, which keeps the one place; anyone else is offered the line.
      if (sessionStorage.getItem(STANDING_KEY) && !room.rejoined) { room.rejoined = true; return join(); }
      return showJoinForm();
    }
    if (s.status !== 200) { announce(message(s, 'Could not load your place')); return later(askStanding, 10000); }
    if (s.body.admittedUpTo !== undefined) {
      room.manifest = Object.assign({ admissionPerMinute: (fan.event || {}).admissionPerMinute || 0 }, room.manifest || {},
        { admittedUpTo: s.body.admittedUpTo, seatsRemaining: s.body.seatsRemaining });
    }
    return stand(s.body);
  }

  /** Takes the fan's state and place (from a join answer or the status), keeps them, and waits on the manifest. */
  function stand(body) {
    const previous = room.state;
    room.state = body.state;
    if (body.position) room.position = body.position;
    sessionStorage.setItem(STANDING_KEY, JSON.stringify({ state: room.state, position: room.position }));
    if (previous !== room.state) announce(STATES[room.state] || room.state);
    if (room.state === 'admitted') return enterShop();
    renderStanding();
    if (!WAITING.includes(room.state)) return;
    // The status carries the line's front but not its pace or the sale's start: the manifest at once.
    if (room.manifest && room.manifest.state) nextPoll();
    else later(pollManifest, 0);
  }

  /** The next look at the manifest: sooner near the sale's start and near the fan's turn, spread so a crowd does not ask at once. */
  function nextPoll() {
    const jitter = Math.random() * 1000;
    const m = room.manifest || {};
    const start = m.startsAt ? Date.parse(m.startsAt) - serverNow() : 0;
    if ((room.state === 'lobby' || room.state === 'scheduled') && !m.drawn && start > 0) {
      return later(pollManifest, Math.min(MANIFEST_EVERY_MS, start + 1000) + jitter);
    }
    later(pollManifest, (secondsToTurn() <= NEAR_SECONDS ? 5000 : MANIFEST_EVERY_MS) + jitter);
  }

  /** The event's public manifest: the line's front, its pace and the sale's state, the same for every fan. */
  async function pollManifest() {
    const r = await call('GET', `${base}/queue/manifest`, undefined, undefined, 'default');
    if (r.status === 401) return needSignIn();
    // A closed event's manifest is a 404, as an unknown event's: not on sale (yet); looked at now and then.
    if (r.status === 404) { notOnSale(); return later(pollManifest, 30000 + Math.random() * 5000); }
    if (r.status !== 200) { announce('Reconnecting…'); return later(pollManifest, 5000 + Math.random() * 2000); }
    const m = r.body;
    room.manifest = m;
    room.history.push({ t: serverNow(), upTo: m.admittedUpTo });
    if (room.history.length > 30) room.history.shift();
    if (m.state === 'open') return enterShop();
    if (m.state === 'closed') { notOnSale(); return later(pollManifest, 30000); }
    if (!room.state) {
      // The event was not on sale when the page asked: it is now, so ask where the fan stands.
      return askStanding();
    }
    if (room.state === 'lobby' || room.state === 'scheduled') {
      if (m.drawn && (!room.sawDraw || Date.now() - room.asked > 30000)) {
        // The lottery has given the places: once, spread over a few seconds across the crowd.
        room.sawDraw = true;
        renderStanding();
        return later(askStanding, Math.random() * 5000);
      }
      if (room.state === 'scheduled' && m.state !== 'scheduled') room.state = 'lobby';
      renderStanding();
      return nextPoll();
    }
    if (['waiting', 'paused', 'sold_out'].includes(room.state) && ['waiting', 'paused', 'sold_out'].includes(m.state)) {
      room.state = m.state;
    }
    renderStanding();
    const reached = room.position && m.admittedUpTo >= room.position;
    const soon = room.state === 'waiting' && secondsToTurn() <= ASK_BEFORE_SECONDS;
    if ((reached || soon) && Date.now() - room.asked >= 5000) return askStanding();
    nextPoll();
  }

  async function sha256Bits(text) {
    const d = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
    let n = 0;
    for (const b of d) { if (b === 0) { n += 8; continue; } return n + Math.clz32(b) - 24; }
    return n;
  }

  /** Joins the line (again: a fan's one place is kept), solving the proof of work the sale asks for. */
  async function join() {
    $('join-error').textContent = '';
    $('join-button').disabled = true;
    try {
      const body = {};
      if (!$('code').hidden) body.code = $('code').value.trim();
      const c = await call('GET', `${base}/queue/challenge`);
      if (c.status === 200 && c.body.bits > 0) {
        announce('One moment: proving this is a person, not a script…');
        let nonce = 0;
        while (await sha256Bits(`${c.body.challenge}:${nonce}`) < c.body.bits) nonce++;
        body.pow = { challenge: c.body.challenge, nonce: String(nonce) };
      }
      // Joining again keeps the one place, so a busy answer is simply asked again, a few times.
      let r = await call('POST', `${base}/queue`, body);
      for (let tries = 0; tries < 4 && (r.status === 503 || r.status === 0); tries++) {
        $('join-error').textContent = 'Busy for a moment: trying again…';
        await new Promise(resolve => setTimeout(resolve, 1000 * Math.min(5, Number(r.headers.get('Retry-After')) || 1)));
        r = await call('POST', `${base}/queue`, body);
      }
      if (r.status === 200) {
        $('join-error').textContent = '';
        signedInView();
        return stand(r.body);
      }
      if (r.status === 401) return needSignIn();
      showJoinForm();
      if (r.body && r.body.error === 'bad_code') {
        show('code', true); show('code-label', true);
        $('join-text').textContent = 'This is a presale: enter your code.';
        $('code').focus();
      }
      $('join-error').textContent = message(r, 'Could not join');
    } finally {
      $('join-button').disabled = false;
    }
  }

  $('join-form').addEventListener('submit', ev => {
    ev.preventDefault();
    join();
  });

  $('leave').addEventListener('click', async () => {
    if (!confirm('Leave the line? The line skips your place; join again before it gets there and it is yours again, but once the line has passed it you cannot join this sale again.')) return;
    const r = await call('DELETE', `${base}/queue`);
    if (r.status === 204) {
      clearTimeout(room.timer);
      sessionStorage.removeItem(STANDING_KEY);
      room.state = 'left';
      room.position = 0;
      renderStanding();
      show('ahead-row', false); show('wait-row', false); show('seats-row', false);
      show('leave', false);
      announce('You left the line.');
    } else {
      announce(message(r, 'Could not leave the line'));
    }
  });

  // ---- the shop: seat map -------------------------------------------------------------------

  const ZONE_COLOURS = ['#2e9d5b', '#0f8b8d', '#8a5cc2', '#b0782a', '#c2557a', '#7a9a1f'];
  const COLOUR = { picked: '#f08c00', mine: '#1f5fd6', held: '#c9c9c9', sold: '#555555' };
  const map = {
    n: 0, x: null, y: null, rowOf: null, rows: [], rowByPrefix: new Map(), sections: [], zones: [], prices: {}, zoneOfRow: null,
    status: null, version: '', picked: new Set(), mine: new Set(), view: null, zoom: 1, cx: 0, cy: 0,
    grid: null, cell: 1, minX: 0, minY: 0, maxX: 0, maxY: 0, spacing: 1, drawMs: 0, timer: 0, max: 8
  };
  const cart = { seats: [], expiresAt: 0, warned: false, timer: 0, paying: false };
  const CHECKOUT_KEY = `bo-checkout-${eventId}`;

  function seatId(i) {
    const r = map.rows[map.rowOf[i]];
    return `${map.sections[r.section]}-${r.id}-${i - r.start + 1}`;
  }
  /** The seat's index from its id {@code <section>-<row>-<n>}, or -1 for a seat this map does not have. */
  function indexOf(id) {
    const dash = id.lastIndexOf('-');
    const row = map.rowByPrefix.get(id.slice(0, dash + 1));
    const k = Number(id.slice(dash + 1));
    if (row === undefined || !Number.isInteger(k) || k < 1 || k > map.rows[row].seats) return -1;
    return map.rows[row].start + k - 1;
  }
  const zoneOf = i => map.zones[map.rows[map.rowOf[i]].zone];

  /** Reads the compact seat map (see SeatMapWire): sections, rows and scaled coordinates in seat-map order. */
  function loadMap(m) {
    map.version = m.version;
    map.zones = m.zones;
    map.prices = m.prices;
    map.max = m.maxSeatsPerAccount || 8;
    map.n = m.seatCount;
    map.x = new Float32Array(map.n); map.y = new Float32Array(map.n); map.rowOf = new Int32Array(map.n);
    map.rows = []; map.sections = []; map.rowByPrefix = new Map();
    let i = 0;
    for (const s of m.sections) {
      const section = map.sections.length;
      map.sections.push(s.id);
      for (const r of s.rows) {
        const row = map.rows.length;
        map.rows.push({ id: r.id, section, zone: s.zone, start: i, seats: r.seats });
        map.rowByPrefix.set(`${s.id}-${r.id}-`, row);
        for (let k = 0; k < r.seats; k++, i++) {
          map.x[i] = r.xy[2 * k] / m.scale; map.y[i] = r.xy[2 * k + 1] / m.scale; map.rowOf[i] = row;
        }
      }
    }
    map.status = new Uint8Array(map.n);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let k = 0; k < map.n; k++) {
      if (map.x[k] < minX) minX = map.x[k]; if (map.x[k] > maxX) maxX = map.x[k];
      if (map.y[k] < minY) minY = map.y[k]; if (map.y[k] > maxY) maxY = map.y[k];
    }
    Object.assign(map, { minX, minY, maxX, maxY, cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, zoom: 1 });
    // Seats sit about a unit apart: a grid of cells a few units wide finds the seat under a click.
    map.spacing = 1;
    map.cell = 4;
    map.grid = new Map();
    for (let k = 0; k < map.n; k++) {
      const key = Math.floor(map.x[k] / map.cell) * 100003 + Math.floor(map.y[k] / map.cell);
      let list = map.grid.get(key);
      if (!list) map.grid.set(key, list = []);
      list.push(k);
    }
    // Each seat is drawn as big as the gap to its nearest neighbour allows (a floor seat is a
    // unit from the next, a bowl seat several), found through the same grid.
    map.near = new Float32Array(map.n);
    for (let k = 0; k < map.n; k++) {
      const gx = Math.floor(map.x[k] / map.cell), gy = Math.floor(map.y[k] / map.cell);
      let best = 36;
      for (let ax = gx - 1; ax <= gx + 1; ax++) {
        for (let ay = gy - 1; ay <= gy + 1; ay++) {
          for (const j of map.grid.get(ax * 100003 + ay) || []) {
            if (j === k) continue;
            const d = (map.x[j] - map.x[k]) ** 2 + (map.y[j] - map.y[k]) ** 2;
            if (d < best) best = d;
          }
        }
      }
      map.near[k] = Math.sqrt(best);
    }
    renderPrices();
    renderSectionChoices();
  }

  function renderPrices() {
    const list = $('prices');
    list.replaceChildren();
    const zone = $('zone');
    zone.replaceChildren(new Option('any zone', ''));
    map.zones.forEach((z, k) => {
      const li = document.createElement('li');
      const sw = document.createElement('span');
      sw.className = 'swatch';
      sw.style.background = ZONE_COLOURS[k % ZONE_COLOURS.length];
      li.append(sw, `${z}: ${money(map.prices[z])}`);
      list.append(li);
      zone.append(new Option(`${z} (${money(map.prices[z])})`, z));
    });
    const q = $('quantity');
    const chosen = Number(q.value) || 2;
    q.replaceChildren();
    for (let k = 1; k <= map.max; k++) q.append(new Option(String(k), String(k), false, k === Math.min(chosen, map.max)));
  }

  /** Canvas transform: venue units to canvas pixels. */
  function transform(canvas) {
    const w = canvas.width, h = canvas.height, pad = 12;
    const spanX = Math.max(1, map.maxX - map.minX + 2), spanY = Math.max(1, map.maxY - map.minY + 2);
    const s = Math.min((w - 2 * pad) / spanX, (h - 2 * pad) / spanY) * map.zoom;
    return { s, ox: w / 2 - map.cx * s, oy: h / 2 - map.cy * s };
  }

  function sizeCanvas() {
    const canvas = $('map');
    const width = Math.max(280, Math.floor(canvas.parentElement.clientWidth));
    const spanX = Math.max(1, map.maxX - map.minX + 2), spanY = Math.max(1, map.maxY - map.minY + 2);
    const height = Math.max(220, Math.min(Math.round(width * spanY / spanX), Math.round(window.innerHeight * 0.7)));
    if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
  }

  /** Draws every seat, one fill colour at a time (a colour change per seat is what makes 70,000 seats slow). */
  function draw() {
    if (!map.n) return;
    const started = performance.now();
    const canvas = $('map');
    sizeCanvas();
    const g = canvas.getContext('2d');
    g.clearRect(0, 0, canvas.width, canvas.height);
    const t = transform(canvas);

    const classes = map.zones.length + 4;
    const buckets = Array.from({ length: classes }, () => []);
    for (let i = 0; i < map.n; i++) {
      let c;
      const st = map.status[i];
      if (map.picked.has(i)) c = map.zones.length;
      else if (map.mine.has(i)) c = map.zones.length + 1;
      else if (st === 1) c = map.zones.length + 2;
      else if (st === 2) c = map.zones.length + 3;
      else c = map.rows[map.rowOf[i]].zone;
      buckets[c].push(i);
    }
    const colours = map.zones.map((z, k) => ZONE_COLOURS[k % ZONE_COLOURS.length])
      .concat([COLOUR.picked, COLOUR.mine, COLOUR.held, COLOUR.sold]);
    for (let c = 0; c < classes; c++) {
      g.fillStyle = colours[c];
      for (const i of buckets[c]) {
        const size = Math.max(1.5, Math.min(map.near[i] * t.s * 0.8, 28));
        g.fillRect(t.ox + map.x[i] * t.s - size / 2, t.oy + map.y[i] * t.s - size / 2, size, size);
      }
    }
    map.drawMs = performance.now() - started;
    window.boxofficeDrawMs = map.drawMs;
    const available = map.n - map.status.reduce((a, s) => a + (s === 0 ? 0 : 1), 0);
    $('map').setAttribute('aria-label', `Seat map: ${plural(available, 'seat', 'seats')} available of ${map.n.toLocaleString('en')}.`
      + ' Pick seats by section and row below, or let us find the best ones.');
    $('map-info').textContent = `${plural(available, 'seat', 'seats')} available`;
  }

  function seatAt(px, py) {
    const canvas = $('map');
    const t = transform(canvas);
    const x = (px - t.ox) / t.s, y = (py - t.oy) / t.s;
    const reach = Math.max(0.75, 8 / t.s);
    let best = -1, bestD = reach * reach;
    const cx = Math.floor(x / map.cell), cy = Math.floor(y / map.cell);
    const cells = Math.ceil(reach / map.cell);
    for (let gx = cx - cells; gx <= cx + cells; gx++) {
      for (let gy = cy - cells; gy <= cy + cells; gy++) {
        for (const i of map.grid.get(gx * 100003 + gy) || []) {
          const d = (map.x[i] - x) ** 2 + (map.y[i] - y) ** 2;
          if (d < bestD) { bestD = d; best = i; }
        }
      }
    }
    return best;
  }

  function renderPicked() {
    const ids = [...map.picked].map(seatId);
    const total = [...map.picked].reduce((a, i) => a + map.prices[zoneOf(i)], 0);
    $('picked-text').textContent = ids.length
      ? `Picked: ${ids.join(', ')} (${money(total)})`
      : 'Click seats on the map to pick them, or let us find the best ones below.';
    $('hold-picked').disabled = ids.length === 0;
    $('hold-picked').textContent = ids.length ? `Hold ${plural(ids.length, 'seat', 'seats')}` : 'Hold picked seats';
  }

  let drag = null;
  $('map').addEventListener('pointerdown', ev => { drag = { x: ev.clientX, y: ev.clientY, cx: map.cx, cy: map.cy, moved: false }; });
  $('map').addEventListener('pointermove', ev => {
    if (!drag || map.zoom <= 1) return;
    const canvas = $('map');
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const dx = (ev.clientX - drag.x) * ratio, dy = (ev.clientY - drag.y) * ratio;
    if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
    if (!drag.moved) return;
    const t = transform(canvas);
    map.cx = drag.cx - dx / t.s; map.cy = drag.cy - dy / t.s;
    draw();
  });
  $('map').addEventListener('pointerup', ev => {
    const wasDrag = drag && drag.moved;
    drag = null;
    if (wasDrag) return;
    const canvas = $('map');
    const rect = canvas.getBoundingClientRect();
    const ratio = canvas.width / rect.width;
    const i = seatAt((ev.clientX - rect.left) * ratio, (ev.clientY - rect.top) * ratio);
    if (i >= 0) togglePick(i);
  });

  /** Picks a seat, or unpicks one already picked; a seat that is not available, or one over the limit, is refused aloud. */
  function togglePick(i) {
    if (map.picked.has(i)) { map.picked.delete(i); announce(`Seat ${seatId(i)} unpicked.`); }
    else if (map.status[i] !== 0 || map.mine.has(i)) { announce(`Seat ${seatId(i)} is not available.`); return; }
    else if (map.picked.size + cart.seats.length >= map.max) { announce(`You can have at most ${map.max} seats.`); return; }
    else { map.picked.add(i); announce(`Seat ${seatId(i)} picked, ${money(map.prices[zoneOf(i)])}.`); }
    renderPicked();
    renderSeatChoices();
    draw();
  }

  // The same choice without a pointer: section, row, then one of the row's seats (each option
  // says its price and whether it can be had), for the keyboard and for screen readers.
  function renderSectionChoices() {
    const sections = $('pick-section');
    sections.replaceChildren(...map.sections.map((id, k) => new Option(`Section ${id}`, String(k))));
    renderRowChoices();
  }
  function renderRowChoices() {
    const section = Number($('pick-section').value);
    const rows = $('pick-row');
    rows.replaceChildren();
    map.rows.forEach((r, k) => { if (r.section === section) rows.append(new Option(`Row ${r.id} (${map.zones[r.zone]})`, String(k))); });
    renderSeatChoices();
  }
  function renderSeatChoices() {
    const rowIndex = Number($('pick-row').value);
    const select = $('pick-seat');
    const r = map.rows[rowIndex];
    if (!r) { select.replaceChildren(); return; }
    const chosen = select.value;
    const options = [];
    for (let k = 0; k < r.seats; k++) {
      const i = r.start + k;
      const state = map.picked.has(i) ? 'picked' : map.mine.has(i) ? 'in your cart' : map.status[i] === 0 ? money(map.prices[map.zones[r.zone]]) : 'taken';
      const o = new Option(`Seat ${k + 1}, ${state}`, String(i));
      o.disabled = state === 'taken' || state === 'in your cart';
      options.push(o);
    }
    select.replaceChildren(...options);
    if (chosen && options.some(o => o.value === chosen && !o.disabled)) select.value = chosen;
    else { const first = options.find(o => !o.disabled); if (first) select.value = first.value; }
  }
  $('pick-section').addEventListener('change', renderRowChoices);
  $('pick-row').addEventListener('change', renderSeatChoices);
  $('seat-form').addEventListener('submit', ev => {
    ev.preventDefault();
    const i = Number($('pick-seat').value);
    if ($('pick-seat').value !== '' && Number.isInteger(i) && i >= 0 && i < map.n) togglePick(i);
  });
  const zoomBy = f => { map.zoom = Math.min(64, Math.max(1, map.zoom * f)); if (map.zoom === 1) { map.cx = (map.minX + map.maxX) / 2; map.cy = (map.minY + map.maxY) / 2; } draw(); };
  $('zoom-in').addEventListener('click', () => zoomBy(2));
  $('zoom-out').addEventListener('click', () => zoomBy(0.5));
  $('zoom-reset').addEventListener('click', () => { map.zoom = 2; zoomBy(0.5); });
  window.addEventListener('resize', () => draw());

  async function refreshAvailability() {
    clearTimeout(map.timer);
    const r = await fetch(`${base}/availability`, { credentials: 'same-origin' }).catch(() => null);
    if (r && r.status === 200) {
      const bits = new Uint8Array(await r.arrayBuffer());
      for (let i = 0; i < map.n; i++) map.status[i] = (bits[i >> 2] >> (6 - 2 * (i & 3))) & 3;
      // A seat someone else took since it was picked can no longer be held: drop it.
      for (const i of [...map.picked]) if (map.status[i] !== 0) map.picked.delete(i);
      renderPicked();
      if (document.activeElement !== $('pick-seat')) renderSeatChoices();
      draw();
    } else if (r && r.status === 403) {
      return lostAdmission();
    }
    map.timer = setTimeout(refreshAvailability, 1000);
  }

  function lostAdmission() {
    clearTimeout(map.timer);
    announce('Your shopping time has ended.');
    $('hold-error').textContent = 'Your shopping time has ended.';
    $('best-button').disabled = true;
    $('hold-picked').disabled = true;
  }

  // ---- the shop: holds ----------------------------------------------------------------------

  async function hold(body) {
    $('hold-error').textContent = '';
    const r = await call('POST', `${base}/cart/holds`, body);
    if (r.status === 200) {
      map.picked.clear();
      renderPicked();
      announce(`Held ${r.body.seats.map(s => s.seatId).join(', ')}.`);
      await loadCart();
      return;
    }
    if (r.status === 409 && r.body && r.body.error === 'seats_taken') {
      const taken = r.body.seats || [];
      for (const id of taken) { const i = indexOf(id); if (i >= 0) { map.picked.delete(i); map.status[i] = 1; } }
      renderPicked(); draw();
      $('hold-error').textContent = `Just taken by someone else: ${taken.join(', ')}. Nothing was held; pick again.`;
    } else if (r.status === 409 && r.body && r.body.error === 'no_seats') {
      $('hold-error').textContent = 'No seats together fit that choice. Try fewer seats, another zone or a higher price.';
    } else if (r.status === 422) {
      $('hold-error').textContent = `That is more than the ${map.max} seats one account may have.`;
    } else if (r.status === 403) {
      lostAdmission();
    } else {
      $('hold-error').textContent = message(r, 'Could not hold seats');
    }
  }

  $('hold-picked').addEventListener('click', () => hold({ seats: [...map.picked].map(seatId) }));
  $('best-form').addEventListener('submit', ev => {
    ev.preventDefault();
    const best = { quantity: Number($('quantity').value) };
    if ($('zone').value) best.zone = $('zone').value;
    const max = $('max-price').value.trim().replace(',', '.');
    if (max) {
      if (!/^\d{1,7}(\.\d{1,2})?$/.test(max)) { $('hold-error').textContent = 'The max price is an amount like 80 or 79.50.'; return; }
      best.maxPriceCents = Math.round(Number(max) * 100);
    }
    hold({ best });
  });

  // ---- the cart and its timer ---------------------------------------------------------------

  async function loadCart() {
    const r = await call('GET', `${base}/cart`);
    if (r.status === 403) { lostAdmission(); return null; }
    if (r.status !== 200) return null;
    showCart(r.body);
    return r.body;
  }

  function showCart(body) {
    cart.seats = body.seats || [];
    cart.expiresAt = body.holdExpiresAt ? Date.parse(body.holdExpiresAt) : 0;
    map.mine = new Set(cart.seats.map(s => indexOf(s.seatId)).filter(i => i >= 0));
    const list = $('cart-list');
    list.replaceChildren();
    for (const s of cart.seats) {
      const li = document.createElement('li');
      li.dataset.seat = s.seatId;
      const i = indexOf(s.seatId);
      li.append(`${s.seatId}${i >= 0 ? ` (${zoneOf(i)})` : ''} · ${money(s.priceCents)} `);
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'secondary';
      b.textContent = 'Remove';
      b.setAttribute('aria-label', `Remove seat ${s.seatId}`);
      b.addEventListener('click', async () => {
        await call('DELETE', `${base}/cart/holds/${encodeURIComponent(s.seatId)}`);
        announce(`Seat ${s.seatId} removed.`);
        loadCart();
      });
      li.append(b);
      list.append(li);
    }
    $('cart-total').textContent = money(cart.seats.reduce((a, s) => a + s.priceCents, 0));
    show('cart', cart.seats.length > 0 || cart.paying || !!sessionStorage.getItem(CHECKOUT_KEY)
      || $('checkout-status').textContent !== '');
    show('checkout-form', cart.seats.length > 0 || cart.paying);
    show('timer', cart.seats.length > 0);
    show('total-row', cart.seats.length > 0);
    cart.warned = false;
    if (body.expired && cart.seats.length === 0 && !sessionStorage.getItem(CHECKOUT_KEY)) {
      $('checkout-status').textContent = 'Your hold ran out; the seats went back on sale.';
    }
    tickCart();
    draw();
  }

  function tickCart() {
    clearTimeout(cart.timer);
    renderCartBar();
    if (!cart.seats.length || !cart.expiresAt) return;
    const left = cart.expiresAt - serverNow();
    $('countdown').textContent = mmss(left);
    $('timer').classList.toggle('warning', left <= 60000);
    if (left <= 60000 && !cart.warned) {
      cart.warned = true;
      announce('Less than a minute left to pay for your seats.');
    }
    if (left <= 0 && !cart.paying) {
      // The hold is over: the seats are on sale again, whether or not the server has said so yet.
      const gone = cart.seats.map(s => s.seatId);
      showCart({ seats: [], holdExpiresAt: null });
      $('checkout-status').textContent = `Your hold ran out: ${gone.join(', ')} went back on sale.`;
      announce('Your hold ran out; the seats went back on sale.');
      setTimeout(loadCart, 1500);
      return;
    }
    cart.timer = setTimeout(tickCart, 1000 - (serverNow() % 1000) + 5);
  }

  // ---- the cart bar: on a phone the cart is far below the map, so while no part of it is in view a
  // bar at the window's foot shows the held seats and their time left, with a way to the cart. It
  // never takes focus by itself and goes as soon as the cart comes into view, so it never covers
  // the cart or its Buy; while it shows, the page scrolls what gets focus to above it. ---------

  const cartBar = { supported: 'IntersectionObserver' in window, cartInView: false };
  if (cartBar.supported) {
    new IntersectionObserver(entries => {
      for (const e of entries) cartBar.cartInView = e.isIntersecting;
      renderCartBar();
    }).observe($('cart'));
  }

  function renderCartBar() {
    const on = cartBar.supported && !cartBar.cartInView && cart.seats.length > 0 && cart.expiresAt > 0 && !$('cart').hidden;
    show('cart-bar', on);
    document.documentElement.classList.toggle('with-cart-bar', on);
    if (!on) return;
    const left = cart.expiresAt - serverNow();
    $('cart-bar-seats').textContent = `${plural(cart.seats.length, 'seat', 'seats')} held`;
    $('cart-bar-countdown').textContent = mmss(left);
    $('cart-bar').classList.toggle('warning', left <= 60000);
  }

  $('cart-bar-go').addEventListener('click', () => {
    $('cart').scrollIntoView({ block: 'end' });
    $('cart').focus({ preventScroll: true });
  });

  // ---- checkout -----------------------------------------------------------------------------

  const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);

  function payingState(on) {
    cart.paying = on;
    $('buy').disabled = on;
    $('token').disabled = on;
    for (const b of $('cart-list').querySelectorAll('button')) b.disabled = on;
  }

  $('checkout-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    if (cart.paying) return;
    let attempt = JSON.parse(sessionStorage.getItem(CHECKOUT_KEY) || 'null');
    if (!attempt) {
      const shown = cart.seats.map(s => s.seatId);
      if (!shown.length) { $('checkout-status').textContent = 'Your cart is empty.'; return; }
      // Pay only for what this page shows: the server refuses (409 cart_changed) if another tab
      // changed the cart since, and charges nothing.
      attempt = { key: newKey(), token: $('token').value.trim(), seats: shown };
      sessionStorage.setItem(CHECKOUT_KEY, JSON.stringify(attempt));
    }
    await pay(attempt);
  });

  /** Sends the attempt, with its one Idempotency-Key, until it has an answer; a slow or lost answer is asked again with the same key. */
  async function pay(attempt) {
    payingState(true);
    show('cart', true);
    $('checkout-status').textContent = 'Paying…';
    for (let tries = 0; ; tries++) {
      const slow = setTimeout(() => {
        $('checkout-status').textContent = 'Payment pending: waiting for the payment provider. Do not pay again; this page keeps checking.';
      }, 2000);
      const body = { paymentToken: attempt.token };
      if (attempt.seats && attempt.seats.length) body.expectedSeats = attempt.seats;
      const r = await call('POST', `${base}/cart/checkout`, body, { 'Idempotency-Key': attempt.key });
      clearTimeout(slow);
      if (r.status === 200) {
        sessionStorage.removeItem(CHECKOUT_KEY);
        payingState(false);
        $('checkout-status').textContent = `Paid: order ${r.body.orderId}. Your tickets are below.`;
        announce('Payment done. Your tickets are below.');
        await loadTickets();
        await loadCart();
        return;
      }
      const answered = r.status !== 0 && r.status !== 503 && r.status !== 504 && r.status !== 429 && r.status !== 502;
      if (answered) {
        sessionStorage.removeItem(CHECKOUT_KEY);
        payingState(false);
        $('checkout-status').textContent = r.status === 402 ? 'The payment was declined; nothing was charged. Your seats stay held until the timer runs out.'
          : r.status === 410 ? 'Your hold ran out before the payment; nothing was charged.'
          : r.status === 409 && r.body && r.body.error === 'cart_changed'
            ? 'Your cart changed (in another tab?) and nothing was charged. Check the seats above, then press Buy again.'
          : r.status === 409 && r.body && r.body.error === 'checkout_in_progress'
            ? 'Another payment for this cart is under way (in another tab?); reload this page to see its tickets.'
          : message(r, 'The payment did not go through');
        if (r.body && r.body.error === 'cart_changed') announce('Your cart changed. Nothing was charged.');
        await loadCart();
        return;
      }
      $('checkout-status').textContent = 'Payment pending: waiting for the payment provider. Do not pay again; this page keeps checking.';
      if (tries === 0) announce('Payment pending.');
      const wait = Math.min(10, Number(r.headers.get('Retry-After')) || 2);
      await new Promise(resolve => setTimeout(resolve, wait * 1000));
    }
  }

  // ---- tickets ------------------------------------------------------------------------------

  let ticketsLoaded = false;
  /** The fan's tickets: once when the page knows the fan, again only after a payment (never per poll). */
  async function loadTickets() {
    ticketsLoaded = true;
    const r = await call('GET', '/api/me/tickets');
    if (r.status !== 200) return;
    const mine = (r.body.tickets || []).filter(t => !t.eventId || t.eventId === eventId);
    const list = $('ticket-list');
    const known = new Set([...list.children].map(li => li.dataset.ticket));
    for (const t of mine) {
      if (known.has(t.ticketId)) continue;
      const li = document.createElement('li');
      li.dataset.ticket = t.ticketId;
      const title = document.createElement('strong');
      title.textContent = `Seat ${t.seatId}`;
      const img = document.createElement('img');
      img.src = `/api/me/tickets/${encodeURIComponent(t.ticketId)}/qr`;
      img.alt = `QR code of the ticket for seat ${t.seatId}: show it at the gate`;
      img.width = 200; img.height = 200;
      const code = document.createElement('p');
      code.className = 'barcode';
      code.textContent = t.barcode;
      li.append(title, document.createElement('br'), img, code);
      list.append(li);
    }
    show('tickets', list.children.length > 0);
  }

  // ---- moving between views -----------------------------------------------------------------

  let shopStarted = false;
  async function enterShop() {
    clearTimeout(room.timer);
    document.body.dataset.view = 'shop';
    fan.view = 'shop';
    document.title = document.title.replace('Waiting room', 'Choose your seats');
    show('room', false);
    return startShop();
  }

  async function startShop() {
    const c = await call('GET', `${base}/cart`);
    if (c.status === 401) return needSignIn();
    if (c.status === 403 && !(c.body && c.body.error === 'not_on_sale')) {
      // Not (or no longer) admitted here: back to the room, which says why (asked again more slowly each time).
      document.body.dataset.view = 'room';
      fan.view = 'room';
      room.state = '';
      room.bounces++;
      if (room.bounces === 1) return askStanding();
      return later(askStanding, 1000 * Math.min(30, 2 ** room.bounces));
    }
    fan.signedIn = true;
    show('auth', false); show('signout', true);
    if (c.status === 403) { show('shop', false); announce('This event is not on sale.'); return; }
    show('shop', true);
    announce('It is your turn: pick your seats.');
    if (!shopStarted) {
      shopStarted = true;
      const m = await call('GET', `${base}/seatmap?format=compact`);
      if (m.status === 200) loadMap(m.body);
      else $('hold-error').textContent = message(m, 'Could not load the seat map');
    }
    if (c.status === 200) showCart(c.body);
    refreshAvailability();
    loadTickets();
    const pending = JSON.parse(sessionStorage.getItem(CHECKOUT_KEY) || 'null');
    if (pending) pay(pending);
  }

  async function route() {
    // An open sale has no line: a signed-in fan shops at once. Otherwise the fan's own state says
    // which view: the page itself is the same for everyone.
    if (fan.event && fan.event.open) return enterShop();
    return askStanding();
  }

  // For tests and support: where a seat is drawn (CSS pixels from the canvas's top left), the
  // first available seats, and the time of the last full draw.
  window.boxoffice = {
    seatPoint(id) {
      const i = indexOf(id), canvas = $('map');
      if (i < 0) return null;
      const t = transform(canvas), k = canvas.getBoundingClientRect().width / canvas.width;
      return { x: (t.ox + map.x[i] * t.s) * k, y: (t.oy + map.y[i] * t.s) * k };
    },
    availableSeats(n) {
      const out = [];
      for (let i = 0; i < map.n && out.length < n; i++) if (map.status[i] === 0 && !map.mine.has(i)) out.push(seatId(i));
      return out;
    },
    seats: () => map.n,
    drawMs: () => map.drawMs,
    redraw() { draw(); return map.drawMs; }
  };

  setInterval(tickClock, 1000);
  loadEvent().then(route);
})();
