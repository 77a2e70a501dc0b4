// One game: the board as SVG, clocks, the event timeline, the ruling
// history with each clause's text, and the pending rulings with their
// options as buttons for the roles that may decide them. Live: the feed says
// when the game changed, and the page reads it again.
import { api, post, session, follow, showLive, el, clockLabel, player, signOut, ZoneClock } from './live.js';
import { t, lang, applyLang, langSwitch } from './i18n.js';
import { eventWords, isIncident, sanctionWords, sideWord, enumWord, resultWords, unfinishedWords, actorWords } from './words.js';
import { decisionConsequence, confirmTwice } from './confirm.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const SVG = 'http://www.w3.org/2000/svg';
const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';  // GTP: no I
let current;  // { game, record }
let me;

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function lastMove(record) {
  const events = record?.events || [];
  for (let i = events.length - 1; i >= 0; --i) {
    if (events[i].event?.move) return events[i].event.move.point;
  }
  return null;
}

function drawBoard(game, record, replayed) {
  const rows = replayed?.rows || game.state?.board || [];
  const n = rows.length || game.created?.boardSize || 19;
  const cell = 24, pad = 28, size = pad * 2 + cell * (n - 1);
  const root = svg('svg', { viewBox: `0 0 ${size} ${size}`, class: 'goban', role: 'img', 'aria-label': `${n}×${n}` });
  root.append(svg('rect', { x: 0, y: 0, width: size, height: size, class: 'wood' }));
  for (let i = 0; i < n; ++i) {
    const p = pad + i * cell;
    root.append(svg('line', { x1: pad, y1: p, x2: pad + cell * (n - 1), y2: p, class: 'grid' }));
    root.append(svg('line', { x1: p, y1: pad, x2: p, y2: pad + cell * (n - 1), class: 'grid' }));
    root.append(svg('text', { x: p, y: pad - 14, class: 'coord' }, LETTERS[i]));
    root.append(svg('text', { x: pad - 18, y: p + 4, class: 'coord' }, String(n - i)));
  }
  const last = replayed ? replayed.last : lastMove(record);
  // The stones agreed dead once the board is counted: crossed where they stand (the live board only).
  const dead = new Set(replayed ? [] : game.state?.deadStones || []);
  rows.forEach((row, r) => {
    [...row].forEach((c, x) => {
      if (c !== 'X' && c !== 'O') return;
      const cx = pad + x * cell, cy = pad + r * cell;
      const point = `${LETTERS[x]}${n - r}`;
      root.append(svg('circle', { cx, cy, r: cell * 0.46, class: c === 'X' ? 'stone black' : 'stone white', 'data-point': point }));
      if (point === last && !dead.has(point)) root.append(svg('circle', { cx, cy, r: cell * 0.2, class: `last ${c === 'X' ? 'on-black' : 'on-white'}`, 'data-last': point }));
      if (dead.has(point)) {
        const d = cell * 0.28;
        root.append(svg('path', { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`, class: 'dead', 'data-dead': point }));
      }
    });
  });
  document.getElementById('board').replaceChildren(root);
}

function mayDecide(ruling) {
  if (!me.secured) return true;
  if (me.role === 'CHIEF_ARBITER') return true;
  return me.role === 'ARBITER' && ruling.decidedBy !== 'CHIEF_ARBITER';
}

// An option by its title; its id only where there is none.
function optionTitle(o) {
  return (lang() === 'zh' ? o.titleZh : o.titleEn) || o.id;
}

// The title of the option `choice` of ruling `number` ("警告一次"), else the id.
function choiceTitle(number, choice) {
  const ruling = (current.record.rulings || []).find((r) => Number(r.number) === Number(number));
  const o = (ruling?.options || []).find((x) => x.id === choice);
  return o ? optionTitle(o) : (choice || '');
}

function pendingSection(game) {
  const out = [];
  for (const r of game.pendingRulings || []) {
    const allowed = mayDecide(r);
    const why = allowed ? null : el('p', { class: 'refused' },
      r.decidedBy === 'CHIEF_ARBITER' ? t('notYours') : t('cannotDecide'));
    const note = el('input', { type: 'text', class: 'note', placeholder: t('note'), 'aria-label': t('note') });
    const message = el('p', { class: 'message', role: 'status' });
    const buttons = (r.options || []).map((o) => el('button', {
      type: 'button', class: 'decide', title: o.id, 'data-ruling': r.number, 'data-choice': o.id, disabled: !allowed,
      onclick: async (e) => {
        const button = e.currentTarget;
        const consequence = decisionConsequence(r, o);
        if (consequence && !(await confirmTwice(message.parentNode, consequence))) return;
        button.disabled = true;
        try {
          await post(`/api/games/${encodeURIComponent(id)}/rulings/${r.number}/decide`, { choice: o.id, note: note.value });
          await load();
        } catch (err) {
          message.textContent = err.message;
          button.disabled = false;
        }
      },
    }, optionTitle(o)));
    out.push(el('div', { class: 'pending-ruling', id: `pending-${r.number}` },
      el('h3', {}, `${t('pending')} #${r.number} · ${r.clause}`),
      el('p', { lang: 'zh' }, r.textZh || ''), el('p', { lang: 'en' }, r.textEn || ''),
      el('p', { class: 'may-decide' }, `${t('mayDecide')}: ${enumWord(r.decidedBy, lang()) || '—'}`), why, note, el('div', { class: 'options' }, buttons), message));
  }
  document.getElementById('pending').replaceChildren(...out);
}

// The ruling that decided `r` (its `resolves`), and who took it.
function resolution(r) {
  const d = (current.record.rulings || []).find((x) => x.resolves === r.number);
  if (!d) return null;
  const ev = (current.record.events || []).find((e) => Number(e.revision) === d.event)?.event || {};
  return { ruling: d, actor: ev.actor || '', authority: ev.authority || '' };
}

function rulingItem(r) {
  const l = lang();
  const d = r.pending ? resolution(r) : null;
  const sanctions = (r.sanctions || []).length ? sanctionWords(r.sanctions, l, r.timeDeducted) : t('noSanction');
  let state;
  if (d) {
    const who = actorWords(d.actor, l);
    state = el('span', { class: 'state decided', title: d.actor || null }, `${t('decided')}: ${choiceTitle(r.number, d.ruling.choice)}`,
      who ? ` · ${t('decidedBy')} ${who}` : '');
  } else if (r.pending) {
    state = el('span', { class: 'state pending' }, `⚑ ${t('pendingRuling')} · ${t('mayDecide')}: ${enumWord(r.decidedBy, l)}`);
  } else if (r.resolves) {
    state = el('span', { class: 'state' }, `${t('decision')} #${r.resolves}: ${choiceTitle(r.resolves, r.choice)}`);
  } else {
    state = null;
  }
  const open = r.pending && !d;
  return el('li', { id: `ruling-${r.number}`, class: open ? 'ruling pending' : 'ruling', 'data-state': open ? 'pending' : (d ? 'decided' : 'given') },
    el('div', { class: 'head' },
      el('strong', {}, `#${r.number} ${r.clause}`),
      (r.alsoCites || []).length ? ` (${t('also')} ${r.alsoCites.join(', ')})` : '',
      ` · ${t('against')}: ${r.against ? sideWord(r.against, l) : '—'} · ${t('sanctions')}: ${sanctions} `,
      state,
      r.note ? el('span', { class: 'note' }, ` — ${r.note}`) : null,
      ' · ', el('a', { href: `/games/${encodeURIComponent(id)}/rulings/${r.number}/slip`, class: 'slip-link' }, t('slip'))),
    el('p', { lang: 'zh', class: 'clause-zh' }, r.textZh || ''),
    el('p', { lang: 'en' }, r.textEn || ''));
}

// The hall's clock (`serve --time-zone`, the session's timeZone; UTC by
// default), as the slip says times: hh:mm:ss in the timeline, the date and
// the offset ("UTC+8") on hover and in the timeline's heading.
let hallClock = new ZoneClock('UTC');
function zoned(at) {
  return hallClock.zoned(at);
}
function clockTime(at) {
  return at ? zoned(at).time : '';
}
function fullTime(at) {
  if (!at) return '';
  const z = zoned(at);
  return `${z.date} ${z.time} ${z.offset}`;
}
function timelineHeading() {
  const heading = document.querySelector('h2[data-i18n="timeline"]');
  if (heading) heading.textContent = t('timeline').replace('{zone}', zoned(Date.now()).offset);
}

// A decision names the option chosen by its title, not its id.
function withTitles(ev) {
  const d = ev.arbiterDecision;
  if (!d) return ev;
  return { ...ev, arbiterDecision: { ...d, choice: choiceTitle(d.ruling, d.choice) } };
}

function eventItem(e) {
  const ev = withTitles(e.event || {});
  const incident = isIncident(ev);
  return el('li', { 'data-revision': e.revision, class: incident ? 'incident' : null },
    el('span', { class: 'rev' }, e.revision), ' ', el('time', { datetime: ev.at || '', title: fullTime(ev.at) || null }, clockTime(ev.at)), ' ',
    incident ? el('span', { class: 'badge pending' }, el('span', { 'aria-hidden': 'true' }, '⚑'), ` ${t('incident')}`) : null, ' ',
    el('span', { class: 'words' }, eventWords(ev, lang())),
    (e.rulings || []).length ? el('span', { class: 'gave' }, ` → ${(e.rulings || []).map((r) => `#${r.number} ${r.clause}`).join(', ')}`) : null,
    ev.actor ? el('span', { class: 'actor', title: ev.actor }, ` — ${actorWords(ev.actor, lang())}`) : null);
}

// The board after each move, from the record: stones placed, captures
// taken (a group without liberties after a move is removed); a pass is a
// move too (the state's move number counts it), the board unchanged.
const LETTERS_GTP = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
function positions(game, record) {
  const n = game.created?.boardSize || 19;
  const board = Array.from({ length: n }, () => Array(n).fill('.'));
  const at = (p) => { const x = LETTERS_GTP.indexOf(p[0].toUpperCase()); const y = n - Number(p.slice(1)); return [x, y]; };
  for (const p of game.created?.setup?.black || []) { const [x, y] = at(p); if (board[y]) board[y][x] = 'X'; }
  for (const p of game.created?.setup?.white || []) { const [x, y] = at(p); if (board[y]) board[y][x] = 'O'; }
  const snap = (last) => ({ rows: board.map((r) => r.join('')), last });
  const out = [snap(null)];
  const group = (x, y) => {
    const c = board[y][x], seen = new Set([`${x},${y}`]), stack = [[x, y]];
    let libs = 0;
    while (stack.length) {
      const [a, b] = stack.pop();
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const u = a + dx, v = b + dy;
        if (u < 0 || v < 0 || u >= n || v >= n || seen.has(`${u},${v}`)) continue;
        if (board[v][u] === '.') { libs++; seen.add(`${u},${v}`); } else if (board[v][u] === c) { seen.add(`${u},${v}`); stack.push([u, v]); }
      }
    }
    return { libs, stones: [...seen].map((k) => k.split(',').map(Number)).filter(([u, v]) => board[v][u] === c) };
  };
  for (const e of record.events || []) {
    if (e.event?.pass) out.push(snap(null));
    const m = e.event?.move;
    if (!m?.point) continue;
    const [x, y] = at(m.point);
    if (!board[y] || board[y][x] === undefined) continue;
    const c = m.color === 'WHITE' ? 'O' : 'X';
    board[y][x] = c;
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const u = x + dx, v = y + dy;
      if (u < 0 || v < 0 || u >= n || v >= n || board[v][u] === '.' || board[v][u] === c) continue;
      const g = group(u, v);
      if (g.libs === 0) for (const [a, b] of g.stones) board[b][a] = '.';
    }
    out.push(snap(m.point));
  }
  return out;
}

let replayAt = null;  // null: the live board; else a move number
function replay(game, record) {
  const boards = positions(game, record);
  const last = boards.length - 1;
  const at = replayAt === null ? last : Math.min(replayAt, last);
  const go = (k) => { replayAt = k >= last ? null : Math.max(0, k); render(); };
  const range = el('input', { type: 'range', min: 0, max: last, value: at, id: 'replay-range', 'aria-label': t('replay'),
    oninput: (e) => go(Number(e.target.value)) });
  document.getElementById('replay').replaceChildren(
    el('strong', {}, `${t('replay')} `),
    el('button', { type: 'button', id: 'replay-first', onclick: () => go(0) }, `« ${t('first')}`),
    el('button', { type: 'button', id: 'replay-prev', onclick: () => go(at - 1) }, `◀ ${t('previous')}`),
    range,
    el('button', { type: 'button', id: 'replay-next', onclick: () => go(at + 1) }, `${t('next')} ▶`),
    el('button', { type: 'button', id: 'replay-last', onclick: () => go(last) }, `${t('last')} »`),
    el('span', { id: 'replay-at' }, ` ${t('atMove').replace('{n}', at)}`));
  return replayAt === null ? null : boards[at];
}

function render() {
  const { game, record } = current;
  document.title = `arbiter · ${game.gameId}`;
  const table = game.created?.table;
  document.getElementById('title').textContent =
    table ? `${t('board')} ${table} · ${game.gameId}` : game.gameId;
  drawBoard(game, record, replay(game, record));
  const s = game.state || {};
  document.getElementById('players').replaceChildren(
    el('tr', {}, el('th', {}, t('black')), el('td', { class: 'player' }, player(game.created?.black)),
      el('td', { class: 'clock', id: 'clock-black', title: game.created?.timeControl ? null : t('untimed') }, clockOf(game, 'black')),
      el('td', {}, `${t('warnings')} ${s.warnings?.black || 0} · ${t('penalty')} ${s.penaltyStones?.black || 0}`)),
    el('tr', {}, el('th', {}, t('white')), el('td', { class: 'player' }, player(game.created?.white)),
      el('td', { class: 'clock', id: 'clock-white', title: game.created?.timeControl ? null : t('untimed') }, clockOf(game, 'white')),
      el('td', {}, `${t('warnings')} ${s.warnings?.white || 0} · ${t('penalty')} ${s.penaltyStones?.white || 0}`)),
    el('tr', {}, el('th', {}, t('move')), el('td', { id: 'move-number' }, s.moveNumber || 0)));
  // No null in the list: replaceChildren writes it as "null", unlike el().
  document.getElementById('result').replaceChildren(
    game.result ? el('p', { class: 'result' }, `${t('result')}: ${resultWords(game.result, lang())}`) : el('p', {}, unfinishedWords(s, lang())),
    ...(s.deadStones?.length ? [el('p', { class: 'dead-stones' }, `${t('deadStones')}: ${s.deadStones.join(' ')}`)] : []));
  pendingSection(game);
  document.getElementById('rulings').replaceChildren(...(record.rulings || []).map(rulingItem));
  document.getElementById('timeline').replaceChildren(...(record.events || []).map(eventItem).reverse());
  const audit = document.getElementById('audit-link');
  audit.href = `/games/${encodeURIComponent(id)}/audit`;
  document.body.dataset.revision = game.revision;
}

let source;
async function load() {
  const data = await api(`/api/games/${encodeURIComponent(id)}`);
  current = data;
  render();
  if (!source) {
      source = follow(data.feed, (g) => { if (g.gameId === id) load(); }, load, (up) => {
      showLive(up);
    });
  }
}

// A side's clock as the hall says it: "—" in a game without a time control, whose clocks run no time.
function clockOf(game, side) {
  return game.created?.timeControl ? clockLabel(game.state?.clocks?.[side], game.state?.asOf) : '—';
}

function tick() {
  if (!current || current.game.result) return;
  const b = document.getElementById('clock-black'), w = document.getElementById('clock-white');
  if (b) b.textContent = clockOf(current.game, 'black');
  if (w) w.textContent = clockOf(current.game, 'white');
}

// Who is signed in, the language switch and sign-out, in the page's language.
function header() {
  timelineHeading();
  const who = document.getElementById('who');
  who.textContent = me.secured ? actorWords(me.actor, lang()) : t('open');
  who.title = me.secured ? me.actor : '';
  const tools = document.getElementById('tools');
  tools.replaceChildren(langSwitch(() => { header(); render(); showLive(); }));
  if (me.secured) tools.append(el('button', { type: 'button', id: 'logout', onclick: signOut }, t('signOut')));
}

async function start() {
  me = await session();
  if (me.timeZone) hallClock = new ZoneClock(me.timeZone);
  header();
  applyLang();
  timelineHeading();  // applyLang wrote the heading with its {zone} unsaid
  await load();
  document.body.dataset.loaded = '1';
  setInterval(tick, 1000);
}
start();
