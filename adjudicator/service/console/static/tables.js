// The floor arbiter's pages, for a phone in one hand:
//   /tables      the round's tables (games with a table: in play, or finished
//                in the last ROUND_HOURS) and what needs attention at each
//   /tables/{n}  table n's game and a button per incident (floor-words.js);
//                ?game=ID names the game where two events number a table
//                alike, and without it such a table asks which game first
// An incident: its form (only what its event needs, the time prefilled as
// now), then the ruling the engine would derive (a dry run, nothing
// stored), one confirm (two when it loses, voids or cancels a game), then
// the ruling as recorded with its slip.
// Hall Wi-Fi drops: a confirmed entry goes to an outbox in localStorage with
// its idempotency key first, and is sent from there, in order, until the
// server has answered it; a retry of an entry already recorded is answered
// with the first record (the ledger's idempotency), so nothing doubles.
import { el, follow, clockLabel, remaining, player, ZoneClock } from './live.js';
import { lang, applyLang, langSwitch } from './i18n.js';
import { w, pick, INCIDENTS, incidentTitle, partyWord } from './floor-words.js';
import { appendConsequence, confirmTwice } from './confirm.js';
import { countAwaited, countDueWords, refusalWords, resultWords, sanctionWords, unfinishedWords } from './words.js';

const ROUND_HOURS = 6;       // a finished game stays on /tables this long
const LOW_SECONDS = 300;     // a live clock under this (or in byo-yomi) needs attention
const RETRY_MS = 2000;
const OUTBOX = 'arbiter.floor.outbox';
const DONE = 'arbiter.floor.recorded';

const tableNo = Number((location.pathname.match(/^\/tables\/(\d+)/) || [])[1] || 0);
const chosenGame = new URLSearchParams(location.search).get('game');
let games = new Map();  // gameId -> Game
let me = null;          // { secured, role, actor, csrf }
let online = true;
let open = null;        // the incident whose form is open: { incident, node }
let lastRecorded = null;

// ---- the server --------------------------------------------------------

class Unreachable extends Error {}

async function call(path, options = {}) {
  let res;
  try {
    res = await fetch(path, { credentials: 'same-origin', cache: 'no-store', ...options });
  } catch (e) {
    throw new Unreachable(e.message);
  }
  if (res.status === 401) { location.href = '/login'; throw new Unreachable('sign in'); }
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  if (res.status >= 500 || res.status === 429 || (!body && !res.ok)) throw new Unreachable(body?.error?.message || res.statusText);
  if (!res.ok) {
    const said = refusalWords(body?.error, lang(), (at) => clock.said(at));
    throw Object.assign(new Error(said || res.statusText), { status: res.status });
  }
  return body;
}

async function refreshSession() {
  me = await call('/api/session');
  useHallClock(me.timeZoneGiven ? me.timeZone : null);
  return me;
}

// A write with the session's CSRF token; a server restarted since the page
// loaded knows no session: one new session, one retry.
async function write(path, body) {
  if (!me) await refreshSession();
  const send = () => call(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf }, body: JSON.stringify(body) });
  try {
    return await send();
  } catch (e) {
    if (e.status !== 403 || !/CSRF/.test(e.message)) throw e;
    await refreshSession();
    return send();
  }
}

// ---- the outbox ----------------------------------------------------------

function readList(key) { try { return JSON.parse(localStorage.getItem(key) || '[]'); } catch { return []; } }
function outbox() { return readList(OUTBOX); }
function saveOutbox(list) { localStorage.setItem(OUTBOX, JSON.stringify(list)); }

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `floor-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

let flushing = false;
let retryTimer = null;
// Sends the outbox's entries in order, each until the server has answered
// it: recorded (removed), refused (kept, marked, with the server's reason,
// until the arbiter discards it), or unreachable (everything waits).
async function flush() {
  if (flushing) return;
  flushing = true;
  try {
    for (;;) {
      const entry = outbox().find((e) => e.state === 'queued');
      if (!entry) break;
      let answer = null, refusal = null;
      try {
        answer = await write(`/api/games/${encodeURIComponent(entry.game)}/events`, { events: [entry.event] });
      } catch (e) {
        if (e instanceof Unreachable) { setOnline(false); schedule(); return; }
        refusal = e.message;
      }
      setOnline(true);
      const list = outbox();
      const i = list.findIndex((e) => e.key === entry.key);
      if (answer) {
        if (i >= 0) list.splice(i, 1);
        saveOutbox(list);
        lastRecorded = { entry, answer };
        applyRecorded(entry.game, answer);
      } else if (i >= 0) {
        list[i].state = 'refused';
        list[i].error = refusal;
        saveOutbox(list);
      }
      render();
    }
  } finally {
    flushing = false;
  }
}

function schedule() {
  if (retryTimer) return;
  retryTimer = setTimeout(() => { retryTimer = null; flush(); }, RETRY_MS);
}

function enqueue(game, table, incident, event) {
  const list = outbox();
  list.push({ key: event.idempotencyKey, game, table, incident: incident.id, event, state: 'queued', queuedAt: new Date().toISOString() });
  saveOutbox(list);
}

function applyRecorded(gameId, answer) {
  // The feed brings the game as the commit left it; until it does, the result.
  const g = games.get(gameId);
  if (g && answer.result) g.result = answer.result;
}

function setOnline(up) {
  online = up;
  const status = document.getElementById('status');
  status.textContent = up ? w('live') : w('offline');
  status.className = up ? 'status up' : 'status down';
  document.body.dataset.online = up ? '1' : '0';
  renderOutbox();
}

// ---- what the pages show ---------------------------------------------------

function inRound(g) {
  // A game cancelled as created by mistake has left the hall (gameCancelled).
  if (!g.created?.table || g.state?.cancelled) return false;
  if (!g.result) return true;
  const at = Date.parse(g.result.at || '');
  return !at || Date.now() - at < ROUND_HOURS * 3600 * 1000;
}

function lowClocks(g) {
  if (g.result || !g.created?.live || !g.created?.timeControl) return [];
  const s = g.state || {};
  const out = [];
  for (const side of ['black', 'white']) {
    const r = remaining(s.clocks?.[side], s.asOf);
    if (r && r.main < LOW_SECONDS) out.push(side);
  }
  return out;
}

function attention(g) {
  const s = g.state || {};
  const badges = [];
  const pending = (s.pendingRulings || []).length;
  if (pending) badges.push(el('span', { class: 'badge alert' }, `${w('pending')} ${pending}`));
  const warned = (s.warnings?.black || 0) + (s.warnings?.white || 0);
  if (warned) badges.push(el('span', { class: 'badge' }, `${w('warnings')} ${w('black')}${s.warnings?.black || 0} ${w('white')}${s.warnings?.white || 0}`));
  for (const side of lowClocks(g)) badges.push(el('span', { class: 'badge alert' }, `${w(side)} ${w('lowClock')}`));
  const unsent = outbox().filter((e) => e.game === g.gameId).length;
  if (unsent) badges.push(el('span', { class: 'badge alert' }, `${w('outbox')} ${unsent}`));
  if (g.result) badges.push(el('span', { class: 'badge done', title: g.result.sgf || null }, resultWords(g.result, lang())));
  // Play ended with two passes and no count yet: the arbiter is wanted at the board.
  const awaiting = countAwaited(g);
  if (awaiting) badges.push(el('span', { class: 'badge alert' }, countDueWords(lang())));
  return { badges, urgent: pending > 0 || lowClocks(g).length > 0 || unsent > 0 || awaiting };
}

function byTable() {
  return [...games.values()].filter(inRound).sort((a, b) => a.created.table - b.created.table || (a.result ? 1 : 0) - (b.result ? 1 : 0));
}

// Two events in one hall may both have a table 1: such a table's cards name
// their game, and link to it, so an incident is never recorded against the
// other event's game.
function shared(list) {
  const count = new Map();
  for (const g of list) count.set(g.created.table, (count.get(g.created.table) || 0) + 1);
  return (g) => count.get(g.created.table) > 1;
}

function tableHref(g, isShared) {
  return `/tables/${g.created.table}${isShared ? `?game=${encodeURIComponent(g.gameId)}` : ''}`;
}

function renderList(main) {
  const list = byTable();
  const isShared = shared(list);
  const rows = list.map((g) => {
    const { badges, urgent } = attention(g);
    return el('li', { class: urgent ? 'attention' : '', 'data-table': g.created.table, 'data-game': g.gameId },
      el('a', { class: 'card', href: tableHref(g, isShared(g)) },
        el('span', { class: 'no' }, g.created.table),
        `${player(g.created.black)} — ${player(g.created.white)}`,
        isShared(g) ? el('span', { class: 'game-id' }, g.gameId) : null,
        el('div', { class: 'badges' }, badges)));
  });
  main.replaceChildren(
    el('h2', {}, w('tables')),
    rows.length ? el('ul', { class: 'tables' }, rows) : el('p', {}, w('noTables')));
}

// The games table n may mean: those in play there, else those finished.
function candidatesAt(n) {
  const here = [...games.values()].filter((g) => inRound(g) && g.created.table === n);
  const playing = here.filter((g) => !g.result);
  return playing.length ? playing : here;
}

// The game at table n: the one ?game= names, else the only candidate; null
// when there is none or more than one (renderTable then asks which).
function gameAt(n) {
  if (chosenGame !== null) return [...games.values()].find((g) => inRound(g) && g.gameId === chosenGame && g.created.table === n) || null;
  const candidates = candidatesAt(n);
  return candidates.length === 1 ? candidates[0] : null;
}

function seat(g, side) {
  const s = g.state || {};
  const clock = g.created?.timeControl ? clockLabel(s.clocks?.[side], s.asOf) : '';
  const low = lowClocks(g).includes(side);
  return el('div', { class: 'seat', 'data-side': side },
    el('span', { class: 'name' }, `${w(side)} ${player(g.created?.[side])}`),
    el('span', { class: low ? 'clock low' : 'clock', id: `clock-${side}` }, clock),
    el('span', {}, `${w('warnings')} ${s.warnings?.[side] || 0} · ${w('penalty')} ${s.penaltyStones?.[side] || 0}`));
}

function rulingBlock(r, gameId, recorded) {
  const text = lang() === 'zh' ? r.textZh : r.textEn;
  // Said as the slip says them (words.json): the preview and the slip agree.
  const sanctions = (r.sanctions || []).length ? sanctionWords(r.sanctions, lang(), r.timeDeducted) : '';
  const head = [`${w('clause')} ${r.clause}`, partyWord(r.against), sanctions, r.pending ? w('pending') : ''].filter(Boolean).join(' · ');
  return el('div', { class: 'ruling-line', 'data-clause': r.clause },
    el('strong', {}, head),
    el('p', { lang: lang() === 'zh' ? 'zh-Hans' : 'en' }, text || ''),
    recorded && r.number ? el('a', { class: 'slip-link button', href: `/games/${encodeURIComponent(gameId)}/rulings/${r.number}/slip` }, `${w('slip')} #${r.number}`) : null,
    recorded && r.pending ? el('a', { class: 'pending-link', href: `/games/${encodeURIComponent(gameId)}` }, ` ${w('decideAt')}`) : null);
}

function answerBlock(cls, title, answer, gameId, recorded) {
  const rulings = (answer.events || []).flatMap((e) => e.rulings || []);
  const result = answer.result;
  return el('div', { class: cls, role: 'status' },
    el('h3', {}, title),
    rulings.length ? rulings.map((r) => rulingBlock(r, gameId, recorded)) : el('p', {}, w('noRuling')),
    result ? el('p', { class: 'result' }, `${w('result')}: ${resultWords(result, lang())} (${result.clause || ''})`) : null);
}

function renderTable(main) {
  const g = gameAt(tableNo);
  document.getElementById('heading').textContent = `${w('table')} ${tableNo}`;
  const candidates = candidatesAt(tableNo);
  if (!g && chosenGame === null && candidates.length > 1) {
    // Nothing can be recorded until the arbiter says which game is meant.
    main.replaceChildren(el('p', { class: 'error', role: 'alert' }, w('whichGame')),
      el('ul', { class: 'tables' }, candidates.map((c) => el('li', { 'data-game': c.gameId },
        el('a', { class: 'card', href: tableHref(c, true) },
          `${player(c.created.black)} — ${player(c.created.white)}`,
          el('span', { class: 'game-id' }, c.gameId))))),
      el('a', { class: 'button', href: '/tables' }, w('allTables')));
    return;
  }
  if (!g) {
    // A game just cancelled leaves the table: what was recorded still shows.
    const done = lastRecorded?.entry.table === tableNo
      ? answerBlock('recorded', w('recorded'), lastRecorded.answer, lastRecorded.entry.game, true) : null;
    main.replaceChildren(done || '', el('p', { class: 'error' }, `${w('noSuchTable')} (${tableNo})`), el('a', { class: 'button', href: '/tables' }, w('allTables')));
    return;
  }
  document.body.dataset.game = g.gameId;
  const parts = [
    el('a', { class: 'button', href: '/tables' }, `← ${w('allTables')}`),
    seat(g, 'black'), seat(g, 'white'),
    el('p', { class: 'result', id: 'result' }, g.result ? `${w('result')}: ${resultWords(g.result, lang())} (${g.result.clause || ''})` : unfinishedWords(g.state, lang())),
  ];
  const pending = g.pendingRulings || [];
  if (pending.length) parts.push(el('p', {}, el('a', { class: 'pending-link', href: `/games/${encodeURIComponent(g.gameId)}` }, `${w('pending')}: ${pending.map((r) => `#${r.number} ${r.clause}`).join(', ')} — ${w('decideAt')}`)));
  if (lastRecorded && lastRecorded.entry.game === g.gameId) {
    const inc = INCIDENTS.find((i) => i.id === lastRecorded.entry.incident);
    parts.push(answerBlock('recorded', `${w('recorded')}: ${inc ? incidentTitle(inc) : ''}`, lastRecorded.answer, g.gameId, true));
  }
  if (open) {
    parts.push(open.node);
  } else {
    const buttons = INCIDENTS.filter((i) => !i.chief || !me?.secured || me.role === 'CHIEF_ARBITER').map((i) =>
      el('button', { type: 'button', class: i.chief ? 'incident grave' : 'incident', 'data-incident': i.id, onclick: () => openForm(g, i) }, incidentTitle(i)));
    parts.push(el('div', { class: 'incidents' }, buttons));
  }
  main.replaceChildren(...parts);
}

function renderOutbox() {
  const list = outbox();
  const box = document.getElementById('outbox');
  const note = online ? null : el('p', { class: 'error' }, w('offlineNote'));
  if (!list.length) { box.replaceChildren(...(note ? [note] : [])); return; }
  box.replaceChildren(...(note ? [note] : []), el('h2', {}, `${w('outbox')} (${list.length})`), el('ol', {}, list.map((e) => {
    const inc = INCIDENTS.find((i) => i.id === e.incident);
    const ev = e.event[Object.keys(e.event).find((k) => !['at', 'idempotencyKey'].includes(k))] || {};
    const who = ev.color || ev.byColor;
    const at = clock.zoned(e.event.at);
    return el('li', { class: e.state, 'data-key': e.key },
      `${w('atTable')} ${e.table} · ${inc ? incidentTitle(inc) : e.incident}${who ? ` · ${partyWord(who)}` : ''} · ${at.time} ${at.offset} · `,
      e.state === 'refused' ? el('span', {}, `${w('refused')}: ${e.error} `) : w('waiting'),
      e.state === 'refused' ? el('button', { type: 'button', class: 'discard', onclick: () => { saveOutbox(outbox().filter((x) => x.key !== e.key)); render(); } }, w('discard')) : null);
  })));
}

function render() {
  const main = document.getElementById('main');
  if (tableNo) renderTable(main); else { document.getElementById('heading').textContent = w('tables'); renderList(main); }
  renderOutbox();
}

// ---- one incident's form ---------------------------------------------------

const POINT = /^[A-HJ-T](1[0-9]|[1-9])$/;

// The floor's clock: the hall's when the server was given one (`serve
// --time-zone`: the slips and the game page say the same times), else the
// phone's. The hall's is kept on the phone, so a page opened with the hall's
// Wi-Fi down still enters times in it.
const HALL_ZONE = 'arbiter.floor.hallZone';
let clock = new ZoneClock();
let hallZone = null;
function useHallClock(zone) {
  if (zone) localStorage.setItem(HALL_ZONE, zone); else localStorage.removeItem(HALL_ZONE);
  if (zone === hallZone) return;
  try {
    clock = new ZoneClock(zone || undefined);
    hallZone = zone;
  } catch {
    // A zone this browser's Intl does not know: the phone's, named as such.
    clock = new ZoneClock();
    hallZone = null;
  }
}
useHallClock(localStorage.getItem(HALL_ZONE));

// "UTC+8", "UTC-3:30", "UTC": the floor's clock's offset at `date`.
function zoneName(date = new Date()) {
  return clock.zoned(date).offset;
}

function fieldInput(f, i) {
  const id = `f-${f.key}`;
  const label = f.zh ? pick(f.zh, f.en) : (f.type === 'color' ? pick('哪一方', 'Which player') : f.key);
  const radios = (choices) => el('fieldset', { 'data-field': f.key }, el('legend', {}, label),
    el('div', { class: 'choice' }, choices.map(([value, zh, en], k) =>
      el('label', {}, el('input', { type: 'radio', name: id, value, id: `${id}-${k}` }), pick(zh, en)))));
  switch (f.type) {
    case 'color': return radios([['BLACK', '黑方', 'Black'], ['WHITE', '白方', 'White']]);
    case 'bool': return radios([['true', '是', 'yes'], ['false', '否', 'no']]);
    case 'choice': return radios(f.choices);
    case 'count': return el('div', { 'data-field': f.key }, el('label', { for: id }, label),
      el('input', { type: 'number', id, inputmode: 'decimal', step: '0.5', min: '0', max: '361' }));
    case 'minutes': return el('div', { 'data-field': f.key }, el('label', { for: id }, label),
      el('input', { type: 'number', id, inputmode: 'numeric', step: '1', min: '0' }));
    case 'displacement': return el('div', { 'data-field': f.key }, el('label', { for: id }, label),
      el('input', { type: 'text', id, autocapitalize: 'characters', placeholder: 'D4 D5, Q16 Q17' }));
    case 'points': return el('div', { 'data-field': f.key }, el('label', { for: id }, label),
      el('input', { type: 'text', id, autocapitalize: 'characters', placeholder: 'D4 D5' }));
    case 'point': return el('div', { 'data-field': f.key }, el('label', { for: id }, label),
      el('input', { type: 'text', id, autocapitalize: 'characters', placeholder: 'Q16' }));
    default: return el('div', { 'data-field': f.key }, el('label', { for: id }, label), el('input', { type: 'text', id }));
  }
}

class Bad extends Error {}

function readField(form, f) {
  const label = f.zh ? pick(f.zh, f.en) : pick('哪一方', 'Which player');
  const need = () => { throw new Bad(`${label}: ${w('required')}`); };
  if (['color', 'bool', 'choice'].includes(f.type)) {
    const v = form.querySelector(`input[name="f-${f.key}"]:checked`)?.value;
    if (!v) need();
    return f.type === 'bool' ? v === 'true' : v;
  }
  const raw = form.querySelector(`#f-${f.key}`).value.trim();
  if (!raw && f.optional) return [];  // an optional list (no dead stones): empty
  if (!raw) need();
  const points = () => raw.toUpperCase().split(/[\s,，]+/).filter(Boolean);
  const checkPoint = (p) => { if (!POINT.test(p)) throw new Bad(`${label}: ${pick(`"${p}" 不是棋盘上的点（如 Q16，无 I 列）`, `"${p}" is not a point of the board (such as Q16; there is no column I)`)}`); return p; };
  switch (f.type) {
    case 'point': return checkPoint(raw.toUpperCase());
    case 'points': return points().map(checkPoint);
    case 'displacement': {
      const ps = points().map(checkPoint);
      if (ps.length % 2) throw new Bad(`${label}: ${pick('须成对填写：原位置 现位置', 'in pairs: from, then to')}`);
      const out = [];
      for (let k = 0; k < ps.length; k += 2) out.push({ from: ps[k], to: ps[k + 1] });
      return out;
    }
    case 'count': {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0 || n > 361 || Math.round(n * 2) !== n * 2) throw new Bad(`${label}: ${pick('0 到 361 之间、0.5 的倍数', 'a multiple of 0.5 from 0 to 361')}`);
      return n;
    }
    case 'minutes': {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0) throw new Bad(`${label}: ${pick('非负整数分钟', 'whole minutes, not negative')}`);
      return `${n * 60}s`;
    }
    default: return raw;
  }
}

// The event the form describes; Bad with a message for the page if it is not one.
// A time left as prefilled is now, to the millisecond (the field shows
// seconds): an entry made in the second after the last one is not "earlier".
function eventOf(form, incident) {
  const field = form.querySelector('#f-at');
  const when = field.value;
  const at = field.dataset.edited ? clock.instant(when) : Date.now();
  if (!when || Number.isNaN(at)) throw new Bad(`${w('time')}: ${w('required')}`);
  if (at > Date.now() + 60000) throw new Bad(`${w('time')}: ${pick('不能晚于现在', 'cannot be later than now')}`);
  const body = { ...(incident.fixed || {}) };
  for (const f of incident.fields) body[f.key] = readField(form, f);
  return { at: new Date(at).toISOString(), [incident.kind]: body };
}

function openForm(g, incident) {
  const message = el('p', { class: 'error', role: 'alert', id: 'form-error' });
  const result = el('div', { id: 'form-result' });
  const form = el('form', { class: 'form', id: 'incident-form', 'data-incident': incident.id, novalidate: true },
    el('h2', { tabindex: '-1' }, `${w('table')} ${g.created.table} · ${incidentTitle(incident)}`),
    incident.fields.map((f, i) => fieldInput(f, i)),
    el('div', {}, el('label', { for: 'f-at' }, hallZone ? pick(`${w('time')}（赛场时间，${zoneName()}）`, `${w('time')} (the hall's, ${zoneName()})`)
        : pick(`${w('time')}（本机时间，${zoneName()}）`, `${w('time')} (this device's, ${zoneName()})`)),
      el('input', { type: 'datetime-local', id: 'f-at', step: '1', value: clock.wall(Date.now()), oninput: (e) => { e.target.dataset.edited = '1'; } })),
    message, result);
  let event = null;
  const close = () => { open = null; render(); };
  const actions = el('div', { class: 'actions' });
  const toPreview = () => actions.replaceChildren(
    el('button', { type: 'submit', class: 'primary', id: 'preview' }, w('check')),
    el('button', { type: 'button', id: 'cancel', onclick: close }, w('cancel')));
  toPreview();
  form.append(actions);
  form.addEventListener('input', () => { if (event) { event = null; result.replaceChildren(); toPreview(); } });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.textContent = '';
    try {
      event = eventOf(form, incident);
    } catch (err) {
      if (!(err instanceof Bad)) throw err;
      message.textContent = err.message;
      return;
    }
    event.idempotencyKey = newKey();
    let preview = null;
    actions.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    try {
      preview = await write(`/api/games/${encodeURIComponent(g.gameId)}/events/preview`, { events: [event] });
      setOnline(true);
    } catch (err) {
      if (!(err instanceof Unreachable)) { message.textContent = err.message; event = null; toPreview(); return; }
      setOnline(false);
    }
    result.replaceChildren(preview ? answerBlock('preview', w('wouldRule'), preview, g.gameId, false) : el('p', { class: 'error' }, w('unreachable')));
    // Offline the engine cannot be asked: an incident that may end the game
    // is confirmed twice all the same.
    const consequence = preview ? appendConsequence(incident.kind, preview, g.result)
      : (appendConsequence(incident.kind, null, null) || (incident.grave ? `${w('mayEnd')}: ${incidentTitle(incident)}` : null));
    actions.replaceChildren(
      el('button', { type: 'button', class: consequence ? 'danger' : 'primary', id: 'confirm', onclick: async (e) => {
        const button = e.currentTarget;
        button.disabled = true;
        if (consequence && !(await confirmTwice(actions.parentNode, consequence))) { button.disabled = false; return; }
        enqueue(g.gameId, g.created.table, incident, event);
        open = null;
        render();
        flush();
      } }, preview ? w('confirm') : w('keep')),
      el('button', { type: 'button', id: 'cancel', onclick: close }, w('cancel')));
    actions.querySelector('#confirm').focus();
  });
  open = { incident, node: form };
  lastRecorded = null;
  render();
  form.querySelector('h2').focus();
}

// ---- start -------------------------------------------------------------------

async function load() {
  const data = await call('/api/games?all=1');
  games = new Map(data.games.map((g) => [g.gameId, g]));
  return data.feed;
}

function tick() {
  for (const side of ['black', 'white']) {
    const node = document.getElementById(`clock-${side}`);
    const g = tableNo ? gameAt(tableNo) : null;
    if (node && g && !g.result && g.created?.timeControl) node.textContent = clockLabel(g.state?.clocks?.[side], g.state?.asOf);
  }
}

async function start() {
  const tools = document.getElementById('tools');
  tools.replaceChildren(langSwitch(() => { if (open) { open = null; } render(); }));
  applyLang();
  let feed = null;
  try {
    await refreshSession();
    feed = await load();
    setOnline(true);
  } catch (e) {
    if (!(e instanceof Unreachable)) throw e;
    setOnline(false);
  }
  render();
  document.body.dataset.loaded = '1';
  if (feed !== null) {
    // Closed as the page goes: a phone walking from table to table must not
    // leave feeds holding the browser's few connections to the server.
    const source = follow(feed, (g) => { games.set(g.gameId, g); if (!open) render(); }, async () => { await load(); if (!open) render(); }, (up) => {
      setOnline(up);
      if (up) flush();
    });
    window.addEventListener('pagehide', () => source.close());
  }
  window.addEventListener('online', () => flush());
  setInterval(tick, 1000);
  flush();
}
start();
