// The hall: the games in play, pending rulings first, then by table; a
// pending ruling, a fresh warning and a clock in its last period each stand
// out by colour, icon and words, counted at the top. Finished games are
// folded below (the server opens them for `/?all=1`). `?round=N` keeps one
// round; `?screen=1` is the wall screen: large type, no controls, 40 tables
// on 1920×1080. Updated from the live feed without reloading; the running
// clocks tick every second.
import { api, session, follow, showLive, el, clockLabel, remaining, player, signOut, sharePlacements } from './live.js';
import { t, lang, applyLang, langSwitch } from './i18n.js';
import { actorWords, countAwaited, countDueWords, resultWords, sideWord, unfinishedWords } from './words.js';

// A warning stays "fresh" this long after the ruling that gave it.
const FRESH_MS = 10 * 60 * 1000;

const params = new URLSearchParams(location.search);
const screen = params.get('screen') === '1';
const games = new Map();  // game id -> game
let placements = {};      // game id -> { tournament, title, round, board }
const roundSelect = document.getElementById('round');

const tableOf = (g) => g.created?.table || placements[g.gameId]?.board || 0;

function lastPeriod(game, colour) {
  const tc = game.created?.timeControl;
  const r = remaining(game.state?.clocks?.[colour], game.state?.asOf);
  return !!(tc?.byoYomi && r && r.main <= 0 && r.periods === 1);
}

function freshWarning(game) {
  const at = game.lastWarningAt && Date.parse(game.lastWarningAt);
  return at && Date.now() - at < FRESH_MS ? game.lastWarningAgainst || 'BOTH' : null;
}

// What needs an arbiter, each as { kind, icon, text }.
function alerts(game) {
  const out = [];
  const l = lang();
  for (const r of game.pendingRulings || []) {
    out.push({ kind: 'pending', icon: '⚑', text: `${t('pendingRuling')} #${r.number} ${r.clause}`, href: `#ruling-${r.number}` });
  }
  const warned = freshWarning(game);
  if (warned) out.push({ kind: 'warning', icon: '⚠', text: `${t('newWarning')}: ${sideWord(warned, l)}` });
  for (const c of ['BLACK', 'WHITE']) {
    if (!game.result && lastPeriod(game, c.toLowerCase())) {
      out.push({ kind: 'period', icon: '◷', text: `${sideWord(c, l)} ${t('lastPeriod')}` });
    }
  }
  // Play ended with two passes and no count yet: an arbiter is wanted at the board.
  if (countAwaited(game)) {
    out.push({ kind: 'count', icon: '▣', text: countDueWords(l) });
  }
  return out;
}

function badges(game) {
  return alerts(game).map((a) => el(a.href ? 'a' : 'span',
    { class: `badge ${a.kind}`, href: a.href ? `/games/${encodeURIComponent(game.gameId)}${a.href}` : null },
    el('span', { 'aria-hidden': 'true', class: 'icon' }, a.icon), ' ', a.text));
}

function clocks(game) {
  if (!game.created?.timeControl) return [el('span', { class: 'clock untimed', title: t('untimed') }, '—')];
  const c = game.state?.clocks || {}, asOf = game.state?.asOf;
  // No null in the list: replaceChildren (the tick) writes it as "null", unlike el().
  return ['black', 'white'].flatMap((side, i) => [...(i ? [' / '] : []),
    el('span', { class: `clock ${side}`, 'data-running': c[side]?.running ? '1' : null,
      'data-last-period': lastPeriod(game, side) ? '1' : null }, clockLabel(c[side], asOf))]);
}

// Warnings or penalty stones: each colour named, nothing when none.
function tally(counts) {
  const l = lang();
  const parts = [];
  for (const c of ['black', 'white']) if (counts?.[c]) parts.push(`${sideWord(c.toUpperCase(), l)} ${counts[c]}`);
  return parts.length ? parts.join(' · ') : '—';
}

// A player's name may wrap; the rank stays beside it ("Zhou Rui 6d", not "6d" alone below).
function playerCell(p) {
  return el('td', { class: 'player' }, p?.name || '', p?.rank ? el('span', { class: 'rank' }, ` ${p.rank}`) : null);
}

function gameLink(game) {
  return el('a', { href: `/games/${encodeURIComponent(game.gameId)}` }, game.gameId);
}

function row(game) {
  const s = game.state || {};
  const table = tableOf(game);
  const a = alerts(game);
  const tr = el('tr', { 'data-game': game.gameId, class: a.map((x) => `has-${x.kind}`).join(' ') || null },
    el('td', { class: 'table' }, table ? [el('strong', { class: 'table-no' }, table), ' '] : null, gameLink(game)),
    el('td', { class: 'alerts' }, badges(game)),
    playerCell(game.created?.black),
    playerCell(game.created?.white),
    el('td', { class: 'num' }, s.moveNumber || 0),
    el('td', { class: 'clocks' }, clocks(game)),
    el('td', { class: 'num warnings' }, tally(s.warnings)),
    el('td', { class: 'num' }, tally(s.penaltyStones)),
    el('td', { class: 'result' }, game.result ? resultWords(game.result, lang()) : unfinishedWords(game.state, lang())));
  return tr;
}

// The wall screen's card: table, players, clocks, what needs an arbiter.
function card(game) {
  const s = game.state || {};
  const a = alerts(game);
  return el('div', { class: `card ${a.map((x) => `has-${x.kind}`).join(' ')}`, 'data-game': game.gameId },
    // A game with no table known is named by its id: two such cards must not read alike.
    el('div', { class: 'card-head' }, tableOf(game) ? el('strong', { class: 'table-no' }, tableOf(game))
      : el('strong', { class: 'card-id', title: game.gameId }, game.gameId),
      el('span', { class: 'card-move' }, `${t('move')} ${s.moveNumber || 0}`), el('span', { class: 'clocks' }, clocks(game))),
    el('div', { class: 'card-players' }, el('span', { class: 'player' }, `● ${player(game.created?.black)}`),
      el('span', { class: 'player' }, `○ ${player(game.created?.white)}`)),
    el('div', { class: 'alerts' }, badges(game)));
}

function order(a, b) {
  const pa = (a.pendingRulings || []).length ? 0 : 1, pb = (b.pendingRulings || []).length ? 0 : 1;
  if (pa !== pb) return pa - pb;
  const ta = tableOf(a) || Infinity, tb = tableOf(b) || Infinity;
  if (ta !== tb) return ta - tb;
  return a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0;
}

function inRound(game) {
  const round = roundSelect.value;
  return !round || String(placements[game.gameId]?.round || '') === round;
}

function counts(list) {
  const inPlay = list.filter((g) => !g.result);
  const pending = inPlay.reduce((n, g) => n + (g.pendingRulings || []).length, 0);
  const warned = inPlay.filter(freshWarning).length;
  const period = inPlay.filter((g) => lastPeriod(g, 'black') || lastPeriod(g, 'white')).length;
  const item = (id, kind, icon, label, n) => el('span', { id, class: `count ${kind}${n ? ' some' : ''}` },
    el('span', { 'aria-hidden': 'true', class: 'icon' }, icon), ' ', label, ' ', el('strong', {}, n));
  document.getElementById('counts').replaceChildren(
    item('count-pending', 'pending', '⚑', t('pendingRulings'), pending),
    item('count-warning', 'warning', '⚠', t('newWarnings'), warned),
    item('count-period', 'period', '◷', t('lastPeriods'), period),
    item('count-play', 'play', '▶', t('inPlay'), inPlay.length));
}

function render() {
  const list = [...games.values()].filter(inRound).sort(order);
  const playing = list.filter((g) => !g.result), done = list.filter((g) => g.result);
  counts(list);
  if (screen) {
    document.getElementById('wall').replaceChildren(...playing.map(card));
  } else {
    document.querySelector('#games tbody').replaceChildren(...playing.map(row));
  }
  document.querySelector('#finished tbody').replaceChildren(...done.map(row));
  document.getElementById('finished-count').textContent = done.length;
}

function fillRounds() {
  const rounds = [...new Set(Object.values(placements).map((p) => p.round).filter(Boolean))].sort((a, b) => a - b);
  const wanted = params.get('round') || roundSelect.value;
  roundSelect.replaceChildren(el('option', { value: '' }, t('allRounds')),
    ...rounds.map((r) => el('option', { value: r }, `${t('roundN').replace('{n}', r)}`)));
  roundSelect.value = rounds.map(String).includes(wanted) ? wanted : '';
}

let source;
async function load() {
  const data = await api('/api/games?all=1');
  games.clear();
  for (const g of data.games) games.set(g.gameId, g);
  placements = data.placements || {};
  sharePlacements(placements);
  fillRounds();
  render();
  document.body.dataset.loaded = '1';
  source?.close();
  source = follow(data.feed, (g) => {
    if (g.state?.cancelled) {  // cancelled by the chief arbiter (main's h29count): it leaves the hall
      games.delete(g.gameId);
      return render();
    }
    if (!games.has(g.gameId) && !placements[g.gameId]) return load();  // a new game: read its placement
    games.set(g.gameId, g);
    render();
  }, load, (up) => {
    showLive(up);
  });
}

function tick() {
  for (const g of games.values()) {
    if (g.result || !g.created?.timeControl) continue;
    const node = document.querySelector(`[data-game="${CSS.escape(g.gameId)}"] .clocks`);
    if (node) node.replaceChildren(...clocks(g));
  }
}

async function header() {
  const s = await session();
  const who = document.getElementById('who');
  who.textContent = s.secured ? actorWords(s.actor, lang()) : t('open');
  who.title = s.secured ? s.actor : '';
  const tools = document.getElementById('tools');
  tools.replaceChildren(langSwitch(() => { header(); fillRounds(); render(); showLive(); }));
  // The webhooks' page (what failed for good) is the chief arbiter's.
  if (!s.secured || s.role === 'CHIEF_ARBITER') tools.append(el('a', { href: '/webhooks', id: 'webhooks-link', class: 'button' }, t('webhooks')));
  if (s.secured) tools.append(el('button', { type: 'button', id: 'logout', onclick: signOut }, t('signOut')));
}

if (screen) document.body.classList.add('screen');
roundSelect.addEventListener('change', () => {
  const q = new URLSearchParams(location.search);
  if (roundSelect.value) q.set('round', roundSelect.value); else q.delete('round');
  history.replaceState(null, '', `/${q.size ? `?${q}` : ''}`);
  render();
});
applyLang();
header();
load();
setInterval(tick, 1000);
setInterval(render, 30000);  // a warning stops being fresh
