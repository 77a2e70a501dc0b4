// The public broadcast's pages (/broadcast...): server-rendered; this
// follows the broadcast's events (DOMAIN.md "The public broadcast") from
// the position the page was made at (main's data-after) and updates the
// page itself: a `move` event puts its stone on the board and takes its
// captures off, a `board` event redraws the board, both set the move number
// and the clocks. What the page does not draw itself (a result, a
// cancellation, penalty stones: data-outcome) is read again with the page
// (through the HTTP cache in front, when there is one). The rounds' list
// reads itself again when a game is added or ends.
// The language. A page asked for without ?lang is Chinese (DOMAIN.md, "The
// public broadcast"); a viewer whose browser puts English before Chinese is
// taken to the English page, unless they chose Chinese with the page's switch
// (remembered here). Done in the page, not by the server by Accept-Language,
// so that a cache in front keeps one copy per URL (no Vary to split it).
const CHOICE = 'arbiter.broadcast.lang';
function remembered() {
  try { return localStorage.getItem(CHOICE); } catch { return null; }  // storage off
}
function browserLanguage() {
  for (const tag of navigator.languages?.length ? navigator.languages : [navigator.language || '']) {
    const t = tag.toLowerCase();
    if (t === 'zh' || t.startsWith('zh-')) return 'zh';
    if (t === 'en' || t.startsWith('en-')) return 'en';
  }
  return 'zh';
}
document.querySelector('a.lang')?.addEventListener('click', (e) => {
  try { localStorage.setItem(CHOICE, new URL(e.currentTarget.href).searchParams.get('lang') || 'zh'); } catch { /* storage off */ }
});
const query = new URLSearchParams(location.search);
const leaving = !query.has('lang') && (remembered() || browserLanguage()) === 'en';
if (leaving) {
  query.set('lang', 'en');
  location.replace(`${location.pathname}?${query}`);
}

const main = document.querySelector('main[data-games]');
const shown = new Set((main ? main.dataset.games : '').split(' ').filter(Boolean));
const periods = main?.dataset.periods ?? '{n}';
const SVG = 'http://www.w3.org/2000/svg';
const COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';  // GTP: no I

let reloading = false;
function reload() {
  if (reloading) return;
  reloading = true;
  // Several events in a burst: one read of the page.
  setTimeout(() => location.reload(), 500);
}

// As the server writes a clock (broadcast_pages.cc Clock): m:ss of main
// time, then the periods left once it is spent.
function clock(c) {
  const s = Math.floor(c.main_time / 1000);
  let out = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  if (s === 0 && c.periods_left > 0) out += ` ${periods.replace('{n}', c.periods_left)}`;
  return out;
}

// The same text as broadcast_pages.cc Outcome().
function outcome(d) {
  const result = d.result ? (d.result.sgf || 'result') : '';
  return `${result}|${d.cancelled ? 1 : 0}|${d.penaltyStones.black}|${d.penaltyStones.white}${d.counting ? '|counting' : ''}`;
}

function stone(svg, point, color) {
  const n = Number(svg.dataset.size);
  const cell = Number(svg.dataset.cell);
  const col = COLUMNS.indexOf(point[0].toUpperCase());
  const row = n - Number(point.slice(1));
  const c = document.createElementNS(SVG, 'circle');
  c.setAttribute('data-point', point);
  c.setAttribute('cx', (col + 1) * cell);
  c.setAttribute('cy', (row + 1) * cell);
  c.setAttribute('r', '9.3');
  c.setAttribute('fill', color === 'BLACK' ? '#000' : '#fff');
  c.setAttribute('stroke', '#000');
  c.setAttribute('stroke-width', '0.6');
  svg.appendChild(c);
}

function takeOff(svg, point) {
  svg.querySelector(`circle[data-point="${point}"]`)?.remove();
}

// Rows from the top (row n) down: 'X' Black, 'O' White, '.' empty.
function redraw(svg, rows) {
  for (const c of svg.querySelectorAll('circle[data-point]')) c.remove();
  const n = rows.length;
  rows.forEach((line, r) => [...line].forEach((p, col) => {
    if (p === 'X' || p === 'O') stone(svg, `${COLUMNS[col]}${n - r}`, p === 'X' ? 'BLACK' : 'WHITE');
  }));
}

// The move number and the clocks of a game's row (a round) or list (a board).
function numbers(el, d) {
  const move = el.querySelector('.move');
  if (move) move.textContent = String(d.moveNumber);
  const units = el.querySelectorAll('.clocks .unit');
  if (d.clocks && units.length === 2) {
    units[0].textContent = clock(d.clocks.black);
    units[1].textContent = clock(d.clocks.white);
  }
}

// Applies an event to each element of the page that shows its game: only
// one after what the element shows (an element is as of its data-position).
function apply(d, kind) {
  for (const el of document.querySelectorAll('[data-game]')) {
    if (el.dataset.game !== d.game || Number(d.position) <= Number(el.dataset.position)) continue;
    // A move that ended the game, or the pass that ended play (its count awaited), reads the page again.
    if (kind === 'move' ? Boolean(d.result || d.counting) : outcome(d) !== el.dataset.outcome) return reload();
    el.dataset.position = String(d.position);
    numbers(el, d);
    const svg = el.tagName === 'DL' ? document.querySelector('svg.goban') : null;
    if (!svg) continue;
    if (kind === 'move') {
      for (const p of d.captured) takeOff(svg, p);
      if (d.point) stone(svg, d.point, d.color);
    } else {
      redraw(svg, d.board);
    }
    svg.setAttribute('aria-label', svg.dataset.label.replace('{n}', d.moveNumber));
  }
}

function follow(after) {
  const events = new EventSource(`/broadcast/events${after ? `?after=${encodeURIComponent(after)}` : ''}`);
  for (const kind of ['move', 'board']) {
    events.addEventListener(kind, (e) => {
      const d = JSON.parse(e.data);
      if (shown.has('*')) {
        // The rounds' list: a game added (its creation is a board event) or ended.
        if (kind === 'board' || d.result) reload();
      } else if (shown.has(d.game)) {
        apply(d, kind);
      }
    });
  }
  events.addEventListener('reload', () => {
    if (shown.has('*')) return reload();
    // Behind what the server keeps: follow afresh from a snapshot of each game.
    events.close();
    follow('');
  });
  // Whether the page follows now (for tests and styles: body[data-live]).
  events.addEventListener('open', () => { document.body.dataset.live = '1'; });
  events.addEventListener('error', () => { document.body.dataset.live = '0'; });
}

if (!leaving) follow(main?.dataset.after ?? '');
