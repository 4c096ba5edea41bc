// The managers' console: every call goes to the /admin JSON API with the admin token as a bearer
// token. The token is typed once and kept in sessionStorage (gone with the tab), never in a URL.
// Everything that comes from data is written as text (textContent), never as markup.
'use strict';

const KEY = 'boxoffice.adminToken';
const SPARK_POINTS = 300; // five minutes of one-second ticks
const $ = (id) => document.getElementById(id);

let token = sessionStorage.getItem(KEY) || '';
let current = null;       // the event shown
let live = null;          // AbortController of the live stream
let history = [];         // last SPARK_POINTS samples: {holds, sales}
let scheduleShown = false; // the schedule form shows the event's on-sale (or the manager's edits)

function say(message, isError) {
  const s = $('status');
  s.textContent = message;
  s.className = isError ? 'error' : '';
}

async function call(method, path, body) {
  const headers = { Authorization: 'Bearer ' + token };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let json = null;
  try { json = await res.json(); } catch (e) { /* empty body */ }
  if (!res.ok) {
    if (res.status === 401 || res.status === 403) showToken();
    const why = json && json.message ? json.message : res.statusText;
    throw new Error(res.status + ' ' + (json && json.error ? json.error + ': ' : '') + why);
  }
  return json;
}

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text === null || text === undefined ? '' : String(text);
  row.appendChild(td);
  return td;
}

/**
 * A cell with an id: on one line, never broken inside (an id read as "ce-676e15 / b2" is another
 * id), ended with "…" when longer than the column; the whole id stays the text (what a screen
 * reader reads and a copy takes) and the tooltip.
 */
function idCell(row, id) {
  const td = document.createElement('td');
  const span = document.createElement('span');
  span.className = 'id';
  span.textContent = id;
  span.title = id;
  td.appendChild(span);
  row.appendChild(td);
  return td;
}

/**
 * The venues list; {@code created} (just made here) is shown even before the list has it: the
 * server's directory is written by a projection that lags the creation by a moment.
 */
async function loadVenues(created) {
  const { venues } = await call('GET', '/admin/venues');
  if (created && !venues.some((v) => v.venueId === created.venueId)) {
    venues.push(created);
    venues.sort((a, b) => (a.venueId < b.venueId ? -1 : 1));
    setTimeout(() => loadVenues().catch(() => {}), 1500);
  }
  const body = $('venues').tBodies[0];
  body.replaceChildren();
  const select = $('e-venue');
  const chosen = select.value;
  select.replaceChildren();
  for (const v of venues) {
    const tr = document.createElement('tr');
    idCell(tr, v.venueId); cell(tr, v.name); cell(tr, v.seatCount.toLocaleString('en'));
    body.appendChild(tr);
    const opt = document.createElement('option');
    opt.value = v.venueId; opt.textContent = v.name + ' (' + v.venueId + ')';
    select.appendChild(opt);
  }
  if (chosen) select.value = chosen;
}

async function loadEvents() {
  const { events } = await call('GET', '/admin/events');
  const body = $('events').tBodies[0];
  body.replaceChildren();
  for (const e of events) {
    const tr = document.createElement('tr');
    tr.dataset.eventId = e.eventId;
    idCell(tr, e.eventId); cell(tr, e.name); idCell(tr, e.venueId);
    cell(tr, e.state).className = 'state';
    const td = cell(tr, '');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = 'Manage';
    b.setAttribute('aria-label', 'Manage ' + (e.name || e.eventId));
    b.addEventListener('click', () => select(e.eventId, e.name));
    td.appendChild(b);
    body.appendChild(tr);
  }
}

async function refresh() {
  await Promise.all([loadVenues(), loadEvents()]);
}

function numberOf(form, name) {
  const v = form.elements[name].value.trim();
  return v === '' ? undefined : Number(v);
}

/** A datetime-local value read as UTC, as the API wants it. */
function utc(value) {
  const v = value.length === 16 ? value + ':00' : value;
  return v + 'Z';
}

function localValue(date) {
  return date.toISOString().slice(0, 19);
}

async function createVenue(ev) {
  ev.preventDefault();
  const f = ev.target;
  const body = { venueId: f.elements.venueId.value.trim(), name: f.elements.name.value.trim() };
  if (f.elements.layout.value === 'stadium') {
    body.generate = { layout: 'stadium', seats: numberOf(f, 'seats') };
  } else {
    try { body.sections = JSON.parse(f.elements.sections.value); } catch (e) { say('Sections are not valid JSON: ' + e.message, true); return; }
  }
  try {
    const r = await call('POST', '/admin/venues', body);
    say('Venue ' + r.venueId + ' created with ' + r.seatCount.toLocaleString('en') + ' seats.');
    f.reset();
    await loadVenues({ venueId: r.venueId, name: body.name, seatCount: r.seatCount });
    $('e-venue').value = r.venueId;
  } catch (e) { say('Venue not created: ' + e.message, true); }
}

async function createEvent(ev) {
  ev.preventDefault();
  const f = ev.target;
  const prices = {};
  for (const zone of ['floor', 'lower', 'upper']) {
    const v = numberOf(f, zone);
    if (v !== undefined) prices[zone] = v;
  }
  const other = f.elements.otherPrices.value.trim();
  if (other) {
    try { Object.assign(prices, JSON.parse(other)); } catch (e) { say('Other zones are not valid JSON: ' + e.message, true); return; }
  }
  const body = {
    eventId: f.elements.eventId.value.trim(), venueId: f.elements.venueId.value, name: f.elements.name.value.trim(),
    prices, holdSeconds: numberOf(f, 'holdSeconds'), maxSeatsPerAccount: numberOf(f, 'maxSeatsPerAccount'),
  };
  try {
    const r = await call('POST', '/admin/events', body);
    say('Event ' + r.eventId + ' created (' + r.state + ').');
    f.reset();
    await loadEvents();
    select(r.eventId, body.name);
  } catch (e) { say('Event not created: ' + e.message, true); }
}

function select(eventId, name) {
  current = eventId;
  $('event').hidden = false;
  $('event-title').textContent = (name ? name + ' · ' : '') + eventId;
  const now = new Date(Date.now() + 60000);
  $('o-lobby').value = localValue(new Date());
  $('o-start').value = localValue(now);
  scheduleShown = false;
  $('invitations').replaceChildren();
  history = [];
  drawSpark();
  watch(eventId);
  $('event').scrollIntoView({ block: 'start' });
}

async function eventAction(label, method, suffix, body) {
  if (!current) return;
  try {
    const r = await call(method, '/admin/events/' + encodeURIComponent(current) + suffix, body);
    say(label + ': ' + current + ' is now ' + (r && r.state ? r.state : 'updated') + '.');
    await loadEvents();
    return r;
  } catch (e) { say(label + ' failed: ' + e.message, true); }
}

async function schedule(ev) {
  ev.preventDefault();
  const f = ev.target;
  await eventAction('Scheduled', 'PUT', '/onsale', {
    lobbyOpensAt: utc(f.elements.lobbyOpensAt.value), startsAt: utc(f.elements.startsAt.value),
    admissionPerMinute: numberOf(f, 'admissionPerMinute'), maxActiveShoppers: numberOf(f, 'maxActiveShoppers'),
    presale: f.elements.presale.checked, powBits: numberOf(f, 'powBits') || 0,
  });
}

async function rates(ev) {
  ev.preventDefault();
  const f = ev.target;
  const body = {};
  const rate = numberOf(f, 'admissionPerMinute');
  const cap = numberOf(f, 'maxActiveShoppers');
  if (rate !== undefined) body.admissionPerMinute = rate;
  if (cap !== undefined) body.maxActiveShoppers = cap;
  if (await eventAction('Rates changed', 'PATCH', '/onsale', body)) f.reset();
}

async function invite(ev) {
  ev.preventDefault();
  const r = await eventAction('Invitations drawn', 'POST', '/presale/invitations', { count: numberOf(ev.target, 'count') });
  if (!r) return;
  const list = $('invitations');
  list.replaceChildren();
  for (const i of r.invitations) {
    const li = document.createElement('li');
    li.textContent = i.accountId + ' — ' + i.code;
    list.appendChild(li);
  }
  say(r.invitations.length + ' invitation(s) drawn for ' + current + '.');
}

// ---- live dashboard: Server-Sent Events read through fetch, so the token travels in a header ----

function stopWatch() {
  if (live) live.abort();
  live = null;
}

async function watch(eventId) {
  stopWatch();
  const controller = new AbortController();
  live = controller;
  $('live-conn').textContent = 'connecting…';
  try {
    const res = await fetch('/admin/events/' + encodeURIComponent(eventId) + '/live', {
      headers: { Authorization: 'Bearer ' + token, Accept: 'text/event-stream' }, signal: controller.signal, cache: 'no-store',
    });
    if (!res.ok) {
      $('live-conn').textContent = 'not live (' + res.status + ')';
      if (res.status === 401 || res.status === 403) showToken();
      return;
    }
    $('live-conn').textContent = 'live';
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
        if (data && live === controller) show(JSON.parse(data));
      }
    }
  } catch (e) {
    if (controller.signal.aborted) return;
  }
  if (live === controller) {
    $('live-conn').textContent = 'reconnecting…';
    setTimeout(() => { if (live === controller) watch(eventId); }, 2000);
  }
}

function fmt(n) {
  return typeof n === 'number' ? n.toLocaleString('en', { maximumFractionDigits: 2 }) : '–';
}

function show(s) {
  $('live-state').textContent = s.state;
  $('f-lobby').textContent = fmt(s.lobby);
  $('f-admitted').textContent = fmt(s.admittedUpTo);
  $('f-active').textContent = fmt(s.activeShoppers);
  $('f-apm').textContent = fmt(s.admissionsPerMinute);
  $('f-hps').textContent = fmt(s.holdsPerSecond);
  $('f-sps').textContent = fmt(s.salesPerSecond);
  $('f-orders').textContent = fmt(s.orders);
  const shed = s.shed || {};
  $('f-shed').textContent = [shed.read, shed.hold, shed.checkout].map(fmt).join(' · ');
  const seats = s.seats;
  const total = Math.max(1, seats.available + seats.held + seats.sold);
  const bar = $('seat-bar');
  bar.querySelector('.sold').style.width = (100 * seats.sold / total) + '%';
  bar.querySelector('.held').style.width = (100 * seats.held / total) + '%';
  bar.querySelector('.available').style.width = (100 * seats.available / total) + '%';
  bar.setAttribute('aria-label', 'Seats: ' + seats.sold + ' sold, ' + seats.held + ' held, ' + seats.available + ' available');
  $('f-sold').textContent = fmt(seats.sold);
  $('f-held').textContent = fmt(seats.held);
  $('f-available').textContent = fmt(seats.available);
  if (s.onsale) {
    $('r-rate').placeholder = s.onsale.admissionPerMinute;
    $('r-cap').placeholder = s.onsale.maxActiveShoppers;
    if (!scheduleShown) showSchedule(s.onsale);
  }
  const pause = $('pause');
  const resume = $('resume');
  pause.disabled = !s.onsale || s.state === 'paused';
  resume.disabled = !s.onsale || s.state !== 'paused';
  history.push({ holds: s.holdsPerSecond || 0, sales: s.salesPerSecond || 0 });
  if (history.length > SPARK_POINTS) history.shift();
  drawSpark();
  const row = document.querySelector('#events tr[data-event-id="' + CSS.escape(current) + '"] .state');
  if (row) row.textContent = s.state;
}

/** The event's on-sale as it stands, into the schedule form, once per selection and never over the manager's edits. */
function showSchedule(o) {
  scheduleShown = true;
  $('o-lobby').value = localValue(new Date(o.lobbyOpensAt));
  $('o-start').value = localValue(new Date(o.startsAt));
  $('o-rate').value = o.admissionPerMinute;
  $('o-cap').value = o.maxActiveShoppers;
  $('o-presale').checked = !!o.presale;
  $('o-pow').value = o.powBits || 0;
}

function drawSpark() {
  const max = Math.max(1, ...history.map((h) => Math.max(h.holds, h.sales)));
  const line = (key) => history.map((h, i) => (SPARK_POINTS - history.length + i) + ',' + (58 - 56 * h[key] / max).toFixed(1)).join(' ');
  $('spark-holds').setAttribute('points', line('holds'));
  $('spark-sales').setAttribute('points', line('sales'));
}

// ---- token ----

function showToken() {
  $('token-form').querySelector('input').hidden = false;
  $('token-form').querySelector('label').hidden = false;
  $('token-form').querySelector('button[type=submit]').hidden = false;
}

async function useToken(ev) {
  if (ev) ev.preventDefault();
  if (ev) token = $('token').value.trim();
  try {
    await refresh();
    sessionStorage.setItem(KEY, token);
    $('token').value = '';
    for (const el of $('token-form').querySelectorAll('input, label, button[type=submit]')) el.hidden = true;
    $('forget').hidden = false;
    $('app').hidden = false;
    say('Signed in to the console.');
  } catch (e) {
    sessionStorage.removeItem(KEY);
    $('app').hidden = true;
    say('The token was not accepted: ' + e.message, true);
  }
}

function forget() {
  stopWatch();
  sessionStorage.removeItem(KEY);
  token = '';
  $('app').hidden = true;
  $('forget').hidden = true;
  showToken();
  say('Token forgotten.');
}

document.addEventListener('DOMContentLoaded', () => {
  $('token-form').addEventListener('submit', useToken);
  $('forget').addEventListener('click', forget);
  $('venue-form').addEventListener('submit', createVenue);
  $('event-form').addEventListener('submit', createEvent);
  $('onsale-form').addEventListener('submit', schedule);
  $('onsale-form').addEventListener('input', () => { scheduleShown = true; });
  $('rates-form').addEventListener('submit', rates);
  $('invite-form').addEventListener('submit', invite);
  $('pause').addEventListener('click', () => eventAction('Paused', 'POST', '/onsale/pause'));
  $('resume').addEventListener('click', () => eventAction('Resumed', 'POST', '/onsale/resume'));
  $('open').addEventListener('click', () => eventAction('Opened', 'POST', '/open'));
  if (token) useToken();
});
