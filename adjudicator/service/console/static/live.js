// What every page shares: the JSON API, the session, the live feed, and
// building DOM from data (text only: recorded strings never become markup).
import { lang, t } from './i18n.js';
import { refusalWords } from './words.js';
import { shareable, followShared, stream } from './feed.js';
export async function api(path, options = {}) {
  const res = await fetch(path, { credentials: 'same-origin', ...options });
  if (res.status === 401) {
    location.href = '/login';
    throw new Error('sign in');
  }
  const body = await res.json();
  if (!res.ok) {
    const said = refusalWords(body.error, lang(), (at) => (hallClock ??= new ZoneClock('UTC')).said(at));
    throw Object.assign(new Error(said || res.statusText), { status: res.status, body });
  }
  return body;
}

// The hall's clock once the session names it (`serve --time-zone`), for
// the instants a refusal names; UTC until then.
let hallClock;
let sessionPromise;
export function session() {
  sessionPromise ??= api('/api/session').then((s) => {
    try {
      if (s.timeZone) hallClock = new ZoneClock(s.timeZone);
    } catch {
      // A zone this browser's Intl does not know: UTC, named as such.
    }
    return s;
  });
  return sessionPromise;
}

// A write: JSON body, the session's CSRF token.
export async function post(path, body) {
  const s = await session();
  return api(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf },
    body: JSON.stringify(body),
  });
}

export async function signOut() {
  const s = await session();
  await fetch('/logout', { method: 'POST', credentials: 'same-origin', headers: { 'X-CSRF-Token': s.csrf } });
  location.href = '/login';
}

// Follows the Server-Sent Events from feed position `after`: onGame(game)
// for each game a commit advanced; onReload when the page fell too far behind;
// onState(up) as the feed connects and drops. The tabs of one browser share
// one connection to the feed (feed.js); a browser without the means to share
// gets one per page. Returns { close() }.
export function follow(after, onGame, onReload, onState) {
  if (shareable() && Number.isFinite(Number(after)) && String(after) !== '') {
    return followShared(after, onGame, onReload, onState);
  }
  document.body.dataset.feed = 'own';
  return stream(after, (id, kind, data) => (kind === 'reload' ? onReload() : onGame(JSON.parse(data))),
    (up) => onState?.(up));
}

let liveUp = null;
// The live feed's state in the header's #status, in the page's language:
// showLive(up) when it changes, showLive() again after a language switch.
export function showLive(up = liveUp) {
  liveUp = up;
  const status = document.getElementById('status');
  if (!status || up === null) return;
  status.textContent = up ? t('live') : t('offline');
  status.className = up ? 'status up' : 'status down';
  document.body.dataset.live = up ? '1' : '0';
}

// el('td', {class: 'x'}, 'text', child...): text children become text nodes.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function seconds(duration) {
  if (!duration) return 0;
  return parseFloat(String(duration).replace(/s$/, '')) || 0;
}

export function clockText(secs) {
  const s = Math.max(0, Math.floor(secs));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const pad = (n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(r)}` : `${pad(m)}:${pad(r)}`;
}

// A clock's time left now: its state as of `asOf`, the running one ticking.
export function remaining(clock, asOf) {
  if (!clock) return null;
  let main = seconds(clock.mainRemaining);
  let period = seconds(clock.periodRemaining || clock.periodTime);
  if (clock.running && asOf) {
    const elapsed = (Date.now() - Date.parse(asOf)) / 1000;
    if (elapsed > 0) {
      const fromMain = Math.min(main, elapsed);
      main -= fromMain;
      period -= elapsed - fromMain;
    }
  }
  return { main, period, periods: clock.periodsRemaining || 0, running: !!clock.running };
}

export function clockLabel(clock, asOf) {
  const r = remaining(clock, asOf);
  if (!r) return '—';
  if (r.main > 0 || !r.periods) return clockText(r.main);
  return `${clockText(r.period)} ×${r.periods}`;
}

// An offset east of UTC in minutes, as the pages and slips say it: "UTC",
// "UTC+8", "UTC-3:30" (venue_time.h's OffsetLabel, on the server).
export function offsetLabel(minutesEast) {
  if (minutesEast === 0) return 'UTC';
  const h = Math.floor(Math.abs(minutesEast) / 60), m = Math.abs(minutesEast) % 60;
  return `UTC${minutesEast > 0 ? '+' : '-'}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

// A clock that says instants in one zone: the hall's (`serve --time-zone`,
// the session's timeZone), or the device's when `zone` is undefined. One
// Intl formatter a clock: making one costs more than formatting, and a
// timeline formats two times an event on every live update.
export class ZoneClock {
  constructor(zone) {
    this.format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  }

  // The instant `at` (ms, or anything Date takes) in the zone: its date,
  // time to the second, minutes east of UTC, and that offset said ("UTC+8").
  // The offset is the wall time's distance from UTC (Intl's "longOffset"
  // names would do, but phones' browsers before 2022 lack them).
  zoned(at) {
    const ms = new Date(at).getTime();
    const p = Object.fromEntries(this.format.formatToParts(ms).map((x) => [x.type, x.value]));
    const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
    const east = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60000);
    return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}`, east, offset: offsetLabel(east) };
  }

  // The instant as a refusal says it beside another: "17:05:15 UTC+8", the
  // date first ("2026-06-01 23:59:50 UTC+8") when it is not today's here.
  said(at) {
    if (Number.isNaN(new Date(at).getTime())) return String(at);
    const z = this.zoned(at);
    const today = this.zoned(Date.now()).date;
    return `${z.date === today ? '' : `${z.date} `}${z.time} ${z.offset}`;
  }

  // "2026-06-02T17:05:00": the instant as a datetime-local field shows it.
  wall(at) {
    const z = this.zoned(at);
    return `${z.date}T${z.time}`;
  }

  // The instant (ms) a wall time of the zone ("2026-06-02T17:05" or with
  // seconds) names; NaN for one that is not a time. The offset is the
  // zone's at that instant (found again once, across a change of offset).
  instant(wall) {
    const asUtc = Date.parse(`${wall}Z`);
    if (Number.isNaN(asUtc)) return NaN;
    const first = asUtc - this.zoned(asUtc).east * 60000;
    return asUtc - this.zoned(first).east * 60000;
  }
}

// The tournaments' placements of the hall's games ({game: {tournament, title,
// round, board}}) as hall.js last read them, for the page's other modules:
// start-round.js suggests a tournament and its next round from them.
let placementsSeen = null;
const placementsChanged = new EventTarget();
export function sharePlacements(placements) {
  placementsSeen = placements;
  placementsChanged.dispatchEvent(new Event('change'));
}
export function onPlacements(callback) {
  if (placementsSeen) callback(placementsSeen);
  placementsChanged.addEventListener('change', () => callback(placementsSeen));
}

export function player(p) {
  if (!p) return '';
  return p.rank ? `${p.name} ${p.rank}` : (p.name || '');
}
