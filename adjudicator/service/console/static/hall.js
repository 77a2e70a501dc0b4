// The hall: every game in play (or all), one row each, updated from the live
// feed without reloading; the running clocks tick every second.
import { api, session, follow, el, clockLabel, player, resultText, signOut } from './live.js';
import { t, applyLang, langSwitch } from './i18n.js';

const rows = new Map();  // game id -> { game, tr }
const tbody = document.querySelector('#games tbody');
const all = document.getElementById('all');
all.checked = new URLSearchParams(location.search).get('all') === '1';

function cells(game) {
  const s = game.state || {};
  const c = s.clocks || {};
  const pending = game.pendingRulings || [];
  const w = s.warnings || {}, p = s.penaltyStones || {};
  const asOf = s.asOf;
  const table = game.created?.table;  // 0 (absent in JSON): not known
  return [
    el('td', { class: 'table' }, table ? [el('strong', { class: 'table-no' }, table), ' '] : null,
      el('a', { href: `/games/${encodeURIComponent(game.gameId)}` }, game.gameId)),
    el('td', { class: 'player' }, player(game.created?.black)),
    el('td', { class: 'player' }, player(game.created?.white)),
    el('td', { class: 'num' }, s.moveNumber || 0),
    el('td', { class: 'clocks' },
      el('span', { class: 'clock black', 'data-running': c.black?.running ? '1' : null }, clockLabel(c.black, asOf)),
      ' / ',
      el('span', { class: 'clock white', 'data-running': c.white?.running ? '1' : null }, clockLabel(c.white, asOf))),
    el('td', { class: 'num' }, `${w.black || 0} / ${w.white || 0}`),
    el('td', { class: 'num' }, `${p.black || 0} / ${p.white || 0}`),
    el('td', { class: pending.length ? 'pending' : '' },
      pending.map((r) => el('a', { href: `/games/${encodeURIComponent(game.gameId)}#ruling-${r.number}` }, `#${r.number} ${r.clause}`))),
    el('td', { class: 'result' }, game.result ? resultText(game.result) : t('inPlay')),
  ];
}

function show(game) {
  if (game.state?.cancelled) {  // cancelled by the chief arbiter: it leaves the hall
    rows.get(game.gameId)?.tr.remove();
    rows.delete(game.gameId);
    return;
  }
  if (!all.checked && game.result && !rows.has(game.gameId)) return;
  let row = rows.get(game.gameId);
  if (!row) {
    row = { tr: el('tr', { 'data-game': game.gameId }) };
    rows.set(game.gameId, row);
    tbody.append(row.tr);
  }
  row.game = game;
  row.tr.classList.toggle('has-pending', (game.pendingRulings || []).length > 0);
  row.tr.classList.toggle('finished', !!game.result);
  row.tr.replaceChildren(...cells(game));
}

function tick() {
  for (const { game, tr } of rows.values()) {
    const c = game.state?.clocks;
    if (!c || game.result) continue;
    const spans = tr.querySelectorAll('.clock');
    if (spans.length === 2) {
      spans[0].textContent = clockLabel(c.black, game.state.asOf);
      spans[1].textContent = clockLabel(c.white, game.state.asOf);
    }
  }
}

let source;
async function load() {
  const data = await api(`/api/games${all.checked ? '?all=1' : ''}`);
  rows.clear();
  tbody.replaceChildren();
  for (const g of data.games) show(g);
  document.body.dataset.loaded = '1';
  source?.close();
  const status = document.getElementById('status');
  source = follow(data.feed, show, load, (up) => {
    status.textContent = up ? t('live') : t('offline');
    status.className = up ? 'status up' : 'status down';
    document.body.dataset.live = up ? '1' : '0';
  });
}

async function header() {
  const s = await session();
  const who = document.getElementById('who');
  who.textContent = s.secured ? s.actor : t('open');
  const tools = document.getElementById('tools');
  tools.replaceChildren(langSwitch(() => { header(); for (const r of rows.values()) show(r.game); }));
  if (s.secured) tools.append(el('button', { type: 'button', id: 'logout', onclick: signOut }, t('signOut')));
}

all.addEventListener('change', () => {
  history.replaceState(null, '', all.checked ? '/?all=1' : '/');
  load();
});
applyLang();
header();
load();
setInterval(tick, 1000);
