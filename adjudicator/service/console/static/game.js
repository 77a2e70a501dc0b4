// One game: the board as SVG, clocks, the event timeline, the ruling
// history with each clause's text, and the pending rulings with their
// options as buttons for the roles that may decide them. Live: the feed says
// when the game changed, and the page reads it again.
import { api, post, session, follow, el, clockLabel, player, resultText, signOut } from './live.js';
import { t, lang, applyLang, langSwitch } from './i18n.js';
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

function drawBoard(game, record) {
  const rows = game.state?.board || [];
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
  const last = lastMove(record);
  rows.forEach((row, r) => {
    [...row].forEach((c, x) => {
      if (c !== 'X' && c !== 'O') return;
      const cx = pad + x * cell, cy = pad + r * cell;
      const point = `${LETTERS[x]}${n - r}`;
      root.append(svg('circle', { cx, cy, r: cell * 0.46, class: c === 'X' ? 'stone black' : 'stone white', 'data-point': point }));
      if (point === last) root.append(svg('circle', { cx, cy, r: cell * 0.2, class: `last ${c === 'X' ? 'on-black' : 'on-white'}`, 'data-last': point }));
    });
  });
  document.getElementById('board').replaceChildren(root);
}

function mayDecide(ruling) {
  if (!me.secured) return true;
  if (me.role === 'CHIEF_ARBITER') return true;
  return me.role === 'ARBITER' && ruling.decidedBy !== 'CHIEF_ARBITER';
}

function optionTitle(o) {
  const title = lang() === 'zh' ? o.titleZh : o.titleEn;
  return title ? `${title} (${o.id})` : o.id;
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
      type: 'button', class: 'decide', 'data-ruling': r.number, 'data-choice': o.id, disabled: !allowed,
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
      el('p', {}, `${t('decidedBy')}: ${r.decidedBy || '—'}`), why, note, el('div', { class: 'options' }, buttons), message));
  }
  document.getElementById('pending').replaceChildren(...out);
}

function rulingItem(r) {
  const sanctions = (r.sanctions || []).join(', ');
  const state = r.pending ? t('pending') : (r.choice ? `${t('decide')}: ${r.choice}` : '');
  return el('li', { id: `ruling-${r.number}`, class: r.pending ? 'ruling pending' : 'ruling' },
    el('div', { class: 'head' },
      el('strong', {}, `#${r.number} ${r.clause}`),
      (r.alsoCites || []).length ? ` (also ${r.alsoCites.join(', ')})` : '',
      ` · ${r.against || ''} · ${sanctions} ${state}`,
      r.note ? el('span', { class: 'note' }, ` — ${r.note}`) : null,
      ' · ', el('a', { href: `/games/${encodeURIComponent(id)}/rulings/${r.number}/slip`, class: 'slip-link' }, t('slip'))),
    el('p', { lang: 'zh', class: 'clause-zh' }, r.textZh || ''),
    el('p', { lang: 'en' }, r.textEn || ''));
}

function eventItem(e) {
  const ev = e.event || {};
  const kind = Object.keys(ev).find((k) => !['at', 'actor', 'authority', 'idempotencyKey'].includes(k)) || '?';
  const details = ev[kind] && Object.keys(ev[kind]).length ? JSON.stringify(ev[kind]) : '';
  return el('li', { 'data-revision': e.revision },
    el('span', { class: 'rev' }, e.revision), ' ', el('time', {}, ev.at || ''), ' ',
    el('strong', {}, kind), ' ', el('code', {}, details),
    ev.actor ? el('span', { class: 'actor' }, ` — ${ev.actor}`) : null);
}

function render() {
  const { game, record } = current;
  document.title = `arbiter · ${game.gameId}`;
  const table = game.created?.table;
  document.getElementById('title').textContent =
    table ? `${t('board')} ${table} · ${game.gameId}` : game.gameId;
  drawBoard(game, record);
  const s = game.state || {};
  const c = s.clocks || {};
  document.getElementById('players').replaceChildren(
    el('tr', {}, el('th', {}, t('black')), el('td', { class: 'player' }, player(game.created?.black)),
      el('td', { class: 'clock', id: 'clock-black' }, clockLabel(c.black, s.asOf)),
      el('td', {}, `${t('warnings')} ${s.warnings?.black || 0} · ${t('penalty')} ${s.penaltyStones?.black || 0}`)),
    el('tr', {}, el('th', {}, t('white')), el('td', { class: 'player' }, player(game.created?.white)),
      el('td', { class: 'clock', id: 'clock-white' }, clockLabel(c.white, s.asOf)),
      el('td', {}, `${t('warnings')} ${s.warnings?.white || 0} · ${t('penalty')} ${s.penaltyStones?.white || 0}`)),
    el('tr', {}, el('th', {}, t('move')), el('td', { id: 'move-number' }, s.moveNumber || 0)));
  document.getElementById('result').replaceChildren(
    game.result ? el('p', { class: 'result' }, `${t('result')}: ${resultText(game.result)}`) : el('p', {}, t('inPlay')));
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
    const status = document.getElementById('status');
    source = follow(data.feed, (g) => { if (g.gameId === id) load(); }, load, (up) => {
      status.textContent = up ? t('live') : t('offline');
      status.className = up ? 'status up' : 'status down';
      document.body.dataset.live = up ? '1' : '0';
    });
  }
}

function tick() {
  if (!current || current.game.result) return;
  const s = current.game.state || {};
  const b = document.getElementById('clock-black'), w = document.getElementById('clock-white');
  if (b) b.textContent = clockLabel(s.clocks?.black, s.asOf);
  if (w) w.textContent = clockLabel(s.clocks?.white, s.asOf);
}

async function start() {
  me = await session();
  document.getElementById('who').textContent = me.secured ? me.actor : t('open');
  const tools = document.getElementById('tools');
  tools.replaceChildren(langSwitch(() => { document.getElementById('who').textContent = me.secured ? me.actor : t('open'); render(); }));
  if (me.secured) tools.append(el('button', { type: 'button', id: 'logout', onclick: signOut }, t('signOut')));
  applyLang();
  await load();
  document.body.dataset.loaded = '1';
  setInterval(tick, 1000);
}
start();
