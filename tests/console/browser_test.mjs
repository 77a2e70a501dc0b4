// The console in a real browser: Debian's chromium, headless, driven by
// puppeteer-core against a real `arbiter serve --http` on free loopback
// ports, with games recorded through gRPC by the real CLI.
//
//   node browser_test.mjs --arbiter build/bin/arbiter [--screenshots DIR]
//
// Exit 0 when every check holds, 1 at the first that does not, 77 (skipped)
// when chromium or the npm packages (npm ci) are missing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM, arbiterBinary, browserOrSkip, flag, repo, startServer } from './arbiter_serve.mjs';

const arbiter = arbiterBinary();
const shots = flag('screenshots', '');
const puppeteer = await browserOrSkip();

const work = mkdtempSync(path.join(tmpdir(), 'console-browser-'));
const data = path.join(work, 'data');
let server;
let browser;
let failures = 0;

function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
  return ok;
}

function cli(args, { input = '', token = '' } = {}) {
  return execFileSync(arbiter, args, {
    input,
    env: { ...process.env, ARBITER_SERVER: server?.grpc || '', ARBITER_TOKEN: token },
    encoding: 'utf8',
  });
}

// Event lines moved in time so that `last` (a line number, 1-based) falls at
// `when`: the games look as if they were being played now, clocks and all.
function rebase(lines, last, when) {
  const delta = when - Date.parse(JSON.parse(lines[last - 1]).at);
  const shift = (s) => new Date(Date.parse(s) + delta).toISOString();
  return lines.map((line) => {
    const e = JSON.parse(line);
    e.at = shift(e.at);
    if (e.gameCreated?.scheduledStart) e.gameCreated.scheduledStart = shift(e.gameCreated.scheduledStart);
    return JSON.stringify(e);
  });
}

async function signIn(context, token) {
  const page = await context.newPage();
  page.on('dialog', async (d) => { check(false, `no script runs (a dialog opened: ${d.message()})`); await d.dismiss(); });
  await page.goto(`${server.http}/login`);
  await page.type('#token', token);
  await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
  return page;
}

async function shot(page, name, fullPage = false) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage });
}

async function main() {
  const chief = cli(['token', 'create', '--role', 'CHIEF_ARBITER', '--name', 'Wang Ru', '--db', data]).trim();
  const referee = cli(['token', 'create', '--role', 'ARBITER', '--name', 'Li Wei', '--game', '*', '--db', data]).trim();
  server = await startServer(arbiter, data);
  const now = Date.now();

  // Board 3: the tournament sample's first 60 events, as if now; its 61st
  // comes later, live. Boards 12 and 14: a clock fails in absolute time
  // (12.4.6, the chief arbiter's to decide); Black is named as a script.
  const sample = readFileSync(path.join(repo, 'cli/examples/tournament-round3.jsonl'), 'utf8')
    .trim().split('\n').map((l) => l.replaceAll('tournament-round3-board1', 'board-3'));
  // Played at table 3 of the hall (gameCreated.table).
  const board3 = rebase(sample.slice(0, 61), 61, now).map((l, i) => (i ? l : l.replace('"gameCreated":{', '"gameCreated":{"table":3,')));
  cli(['record', '-'], { input: board3.slice(0, 60).join('\n') + '\n', token: chief });
  const failing = readFileSync(path.join(repo, 'tests/data/scenarios/project/clock-failed-absolute-time.jsonl'), 'utf8')
    .trim().split('\n').slice(0, 4);
  for (const id of ['board-12', 'board-14']) {
    const lines = rebase(failing, 4, now - 20000).map((l) => l
      .replaceAll('clock-failed-absolute-time', id)
      .replace('"name":"Chen Hao"', '"name":"<script>alert(1)</script>"'));
    cli(['record', '-'], { input: lines.join('\n') + '\n', token: chief });
  }
  cli(['record', '-'], { input: readFileSync(path.join(repo, 'cli/examples/tournament-round3.jsonl'), 'utf8'), token: chief });
  // The sample is round 1, board 1 of a round robin at a named venue.
  cli(['tournament', 'create', '--id', 'city-cup', '--system', 'round-robin', '--cycles', '2', '--title', 'City Cup 2026',
    '--location', 'Hangzhou Qiyuan', '--dates', '2026-05-02', '--player', 'C:Chen Jie:6d', '--player', 'Z:Zhao Min:6d'], { token: chief });
  cli(['tournament', 'pair', 'city-cup', '--round', '1', '--board', 'C,Z,tournament-round3-board1'], { token: chief });
  cli(['tournament', 'pair', 'city-cup', '--round', '2', '--board', 'C,Z,board-3'], { token: chief });
  // Boards 20-56: untimed games just begun, 40 in play with 3, 12 and 14;
  // one stream (each gameCreated starts its game's lines).
  const wallLines = [];
  for (let table = 20; table < 57; ++table) {
    const created = { at: new Date(now - 60000).toISOString(), gameCreated: { gameId: `wall-${table}`, ruleset: 'cn-2002', boardSize: 19, table,
      black: { name: `Black ${table}`, rank: '3d' }, white: { name: `White ${table}`, rank: '3d' }, venue: 'SAME_SITE' } };
    // Board 22 plays byo-yomi with one period left: Black is in the last period.
    if (table === 22) created.gameCreated.timeControl = { byoYomi: { periods: 1, periodTime: '3600s' } };
    const lines = [created, { at: new Date(now - 60000).toISOString(), gameStarted: {} }];
    // On board 21 White's phone rang a moment ago: a warning (23.7).
    if (table === 21) lines.push({ at: new Date(now - 5000).toISOString(), phoneRang: { color: 'WHITE' } });
    wallLines.push(...lines.map((l) => JSON.stringify(l)));
  }
  cli(['record', '-'], { input: wallLines.join('\n') + '\n', token: chief });

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--font-render-hinting=none'],
    defaultViewport: { width: 1280, height: 800 },
  });
  const chiefContext = await browser.createBrowserContext();

  // The hall: pending rulings first, then the tables in order; finished games folded.
  const hall = await signIn(chiefContext, chief);
  await hall.waitForSelector('body[data-loaded="1"][data-live="1"]');
  // A refused feed (503: the console full) ends an EventSource for good; the
  // page asks again by itself, with a delay, until it follows. In a context
  // of its own: beside the hall it would follow through the hall's tab's
  // feed (static/feed.js) and ask the server nothing.
  // The sign-in's page is closed first: on it the hall has followed the feed
  // already, and its document's asks (as it goes) would count with the new
  // one's.
  const refusingContext = await browser.createBrowserContext();
  await (await signIn(refusingContext, chief)).close();
  const refusing = await refusingContext.newPage();
  await refusing.setRequestInterception(true);
  const feedAsks = [];
  refusing.on('request', (r) => {
    if (!new URL(r.url()).pathname.startsWith('/api/feed')) return r.continue();
    feedAsks.push(Date.now());
    if (feedAsks.length <= 2) return r.respond({ status: 503, contentType: 'application/json', body: '{"error":{"message":"busy"}}' });
    return r.continue();
  });
  await refusing.goto(`${server.http}/`);
  const followed = await refusing.waitForSelector('body[data-live="1"]', { timeout: 20000 }).then(() => true, () => false);
  check(followed && feedAsks.length === 3 && feedAsks[1] - feedAsks[0] >= 900,
    `a page refused the feed twice asks again, later, and follows (${feedAsks.length} asks, ${feedAsks.slice(1).map((t, i) => t - feedAsks[i])} ms apart)`);
  await refusing.close();
  const listed = await hall.$$eval('#games tbody tr', (rows) => rows.map((r) => r.dataset.game));
  const expected = ['board-12', 'board-14', 'board-3', ...Array.from({ length: 37 }, (_, i) => `wall-${20 + i}`)];
  check(JSON.stringify(listed) === JSON.stringify(expected), `the hall lists pending rulings first, then tables in order (${listed.slice(0, 5)}…)`);
  const folded = await hall.$$eval('#finished tbody tr', (rows) => rows.map((r) => r.dataset.game));
  check(!listed.includes('tournament-round3-board1') && folded.includes('tournament-round3-board1') &&
    await hall.$eval('#finished', (d) => !d.open), 'a finished game is folded away below');
  const tables = await hall.$$eval('#games tbody tr', (rows) => rows.map((r) => [r.dataset.game, r.querySelector('.table-no')?.textContent ?? '']));
  check(JSON.stringify(tables.filter(([g]) => g === 'board-3')) === '[["board-3","3"]]' &&
    tables.filter(([g]) => g.startsWith('board-1')).every(([, n]) => n === ''),
    `the hall shows the table where it is known, nothing where not (${JSON.stringify(tables.slice(0, 3))})`);
  const names = await hall.$$eval('tr[data-game="board-12"] td.player', (tds) => tds.map((td) => td.textContent));
  check(names.includes('<script>alert(1)</script> 6d'), `a player named <script> shows as text (${names})`);
  check(await hall.$$eval('td.player script, td.player :not(.rank)', (n) => n.length) === 0, 'and no element is made of it');
  const pendingBadge = await hall.$eval('tr[data-game="board-12"]', (tr) => [tr.classList.contains('has-pending'), tr.querySelector('.badge.pending')?.textContent || '']);
  check(pendingBadge[0] && /⚑/.test(pendingBadge[1]) && /(待裁定|ruling pending) #1 cn-2002\/12\.4\.6/.test(pendingBadge[1]),
    `a pending ruling stands out by colour, icon and words (${pendingBadge[1]})`);
  const pendingCount = await hall.$eval('#count-pending strong', (s) => s.textContent);
  check(pendingCount === '2', `the pending count at the top says 2 (${pendingCount})`);
  const warned = await hall.$eval('tr[data-game="wall-21"]', (tr) => [tr.classList.contains('has-warning'), tr.querySelector('.badge.warning')?.textContent || '']);
  check(warned[0] && /⚠ (新警告: 白方|new warning: White)/.test(warned[1]), `a fresh warning stands out by colour, icon and words (${warned[1]})`);
  const period = await hall.$eval('tr[data-game="wall-22"]', (tr) => [tr.classList.contains('has-period'), tr.querySelector('.badge.period')?.textContent || '']);
  check(period[0] && /◷ (黑方 最后一次读秒|Black in the last period)/.test(period[1]), `a clock in its last period stands out by colour, icon and words (${period[1]})`);
  const counted = await hall.$$eval('#counts .count strong', (n) => n.map((x) => x.textContent));
  check(JSON.stringify(counted) === '["2","1","1","40"]', `the counts at the top: pending, new warnings, last periods, in play (${counted})`);
  // The clocks after the one-second ticks, not only as first drawn: each tick
  // redraws the cell, and once drew "null" before the first clock (probe finding 1).
  const ticked = async (page) => {
    await new Promise((r) => setTimeout(r, 2200));
    return page.$$eval('.clocks', (cells) => cells.map((c) => c.textContent));
  };
  const hallClocks = await ticked(hall);
  check(hallClocks.some((c) => c.includes(' / ')) && !hallClocks.some((c) => c.includes('null')),
    `the hall's clocks after two ticks have no "null" in them (${hallClocks.slice(0, 3)})`);
  // The clocks count down: their column says time left, not time used (用时; probe finding 9).
  const clocksHead = await hall.$eval('th[data-i18n="clocks"]', (th) => th.textContent);
  check(['剩余时间', 'Time left'].includes(clocksHead), `the clocks' column is headed as time left (${clocksHead})`);
  const untimed = await hall.$eval('tr[data-game="wall-20"] .clocks', (td) => td.textContent);
  check(untimed === '—', `an untimed game shows "—" (${untimed})`);
  const result = await hall.$eval('#finished tr[data-game="tournament-round3-board1"] .result', (td) => td.textContent);
  check(['白胜（对方警告满限）', 'White wins on warnings'].includes(result), `a result in words (${result})`);
  await hall.select('#round', '1');
  const inRound = await hall.$$eval('#games tbody tr, #finished tbody tr', (rows) => rows.map((r) => r.dataset.game));
  check(JSON.stringify(inRound) === '["tournament-round3-board1"]' && /round=1/.test(hall.url()), `the round filter keeps round 1's games (${inRound})`);
  await hall.select('#round', '');

  // An event recorded through gRPC appears on the open page within a second.
  await hall.evaluate(() => { window.notReloaded = true; });
  const before = await hall.$eval('tr[data-game="board-3"] td:nth-child(5)', (td) => td.textContent);
  cli(['record', '--game', 'board-3', '-'], { input: board3[60] + '\n', token: chief });
  const recorded = Date.now();
  let arrived = true;
  try {
    await hall.waitForFunction((b) => document.querySelector('tr[data-game="board-3"] td:nth-child(5)').textContent !== b,
      { timeout: 1000, polling: 'mutation' }, before);
  } catch { arrived = false; }
  const after = await hall.$eval('tr[data-game="board-3"] td:nth-child(5)', (td) => td.textContent);
  check(arrived && Number(after) === Number(before) + 1, `a move recorded by \`arbiter record\` shows in the hall in ${Date.now() - recorded} ms (move ${before} -> ${after})`);
  check(await hall.evaluate(() => window.notReloaded === true), 'without reloading the page');
  await shot(hall, 'hall');
  // The layout a chief arbiter reads at a desk: the header's tools stand apart (the webhooks link
  // once touched the language button and "sign out"), a board's id on one line ("board-" over "12"
  // once), a rank beside its name.
  const gaps = await hall.$$eval('#tools > *', (tools) => tools.slice(1).map((t, i) =>
    Math.round(t.getBoundingClientRect().left - tools[i].getBoundingClientRect().right)));
  check(gaps.length === 2 && gaps.every((g) => g >= 4), `the header's language, webhooks and sign-out stand apart (${gaps} px)`);
  const split = await hall.$$eval('td.table a', (links) => links.filter((a) => a.getClientRects().length > 1).map((a) => a.textContent));
  check(split.length === 0, `every board's id is on one line (split: ${split})`);
  const ranked = await hall.$$eval('td.player', (tds) => tds.filter((td) => / \d+[dk]$/.test(td.textContent)).length);
  const orphans = await hall.$$eval('td.player .rank', (ranks) => ranks.filter((r) => {
    const name = r.previousSibling;
    const range = document.createRange();
    range.setStart(name, name.length - 1);
    range.setEnd(name, name.length);
    const rects = range.getClientRects();
    return Math.abs(rects[rects.length - 1].top - r.getClientRects()[0].top) > 2;
  }).map((r) => r.parentNode.textContent));
  check(ranked > 0 && ranked === await hall.$$eval('td.player .rank', (r) => r.length) && orphans.length === 0,
    `every rank stands beside its player's name (${ranked} ranks; alone on a line: ${orphans})`);

  // Languages: switched, and remembered across pages.
  const langBefore = await hall.evaluate(() => document.documentElement.lang);
  await hall.click('#lang');
  await hall.reload();
  await hall.waitForSelector('body[data-loaded="1"]');
  const langAfter = await hall.evaluate(() => document.documentElement.lang);
  check(langBefore !== langAfter, `the language switches and is remembered (${langBefore} -> ${langAfter})`);
  if (langAfter !== 'zh-Hans') { await hall.click('#lang'); await hall.reload(); }
  await hall.waitForSelector('body[data-loaded="1"]');
  const resultZh = await hall.$eval('#finished tr[data-game="tournament-round3-board1"] .result', (td) => td.textContent);
  check(resultZh === '白胜（对方警告满限）', `the result in Chinese words (${resultZh})`);

  // The wall screen: 40 tables on 1920x1080, large type, no controls.
  const wall = await chiefContext.newPage();
  await wall.setViewport({ width: 1920, height: 1080 });
  await wall.goto(`${server.http}/?screen=1`);
  await wall.waitForSelector('body[data-loaded="1"]');
  const fit = await wall.evaluate(() => {
    const cards = [...document.querySelectorAll('#wall .card')];
    return { cards: cards.length, w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight,
      bottom: Math.max(...cards.map((c) => c.getBoundingClientRect().bottom)),
      clipped: cards.filter((c) => c.scrollHeight > c.clientHeight + 1).map((c) => c.dataset.game),
      controls: [...document.querySelectorAll('button, select, input')].filter((e) => e.offsetParent !== null).length,
      font: parseFloat(getComputedStyle(cards[0]).fontSize) };
  });
  check(fit.cards === 40 && fit.w <= 1920 && fit.h <= 1080 && fit.bottom <= 1080 && fit.clipped.length === 0,
    `the wall screen fits 40 tables on 1920x1080 (${JSON.stringify(fit)})`);
  check(fit.controls === 0 && fit.font >= 20, `with large type and no controls (${fit.font}px, ${fit.controls} controls)`);
  const wallClocks = await ticked(wall);
  check(wallClocks.some((c) => c.includes(' / ')) && !wallClocks.some((c) => c.includes('null')),
    `nor the wall screen's (${wallClocks.slice(0, 3)})`);
  await shot(wall, 'hall-screen');
  // A card with no table number names its game: board-12's and board-14's once both read "·".
  const cardHeads = await wall.$$eval('#wall .card', (cards) => Object.fromEntries(cards.map((c) =>
    [c.dataset.game, c.querySelector('.card-head strong').textContent])));
  check(cardHeads['board-12'] === 'board-12' && cardHeads['board-14'] === 'board-14' && cardHeads['board-3'] === '3' && cardHeads['wall-21'] === '21',
    `each card is headed by its table, or by its game when no table is known (${cardHeads['board-12']}, ${cardHeads['board-14']}, ${cardHeads['board-3']})`);
  await wall.close();

  // The hall on a phone (probe finding 7): its table scrolls in its own box,
  // the page never sideways, in either language.
  const small = await chiefContext.newPage();
  await small.setViewport({ width: 360, height: 740, isMobile: true, hasTouch: true });
  await small.goto(`${server.http}/`);
  const chosen = await small.evaluate(() => localStorage.getItem('arbiter.lang'));
  for (const l of ['zh', 'en']) {
    await small.goto(`${server.http}/`);
    await small.evaluate((x) => localStorage.setItem('arbiter.lang', x), l);
    await small.reload();
    await small.waitForSelector('body[data-loaded="1"]');
    const fits = await small.evaluate(() => [document.documentElement.scrollWidth,
      document.querySelector('#games').closest('.scroll')?.scrollWidth || 0]);
    check(fits[0] <= 360 && fits[1] > 360, `the hall fits 360 px in ${l}, its table scrolling in its box (page ${fits[0]} px, table ${fits[1]} px)`);
  }
  await small.evaluate((x) => (x ? localStorage.setItem('arbiter.lang', x) : localStorage.removeItem('arbiter.lang')), chosen);
  await small.close();

  // A game: the board as SVG with the last move marked.
  const game = await chiefContext.newPage();
  await game.goto(`${server.http}/games/board-3`);
  await game.waitForSelector('body[data-loaded="1"]');
  const title = await game.$eval('#title', (h) => h.textContent);
  const resultBox = await game.$eval('#result', (r) => r.innerText.trim());
  check(['进行中', 'in play'].includes(resultBox), `a game in play says so beside the board, and nothing else ("${resultBox}")`);
  check(title.includes('3 · board-3'), `the game page names its table (${title})`);
  const last = await game.$eval('[data-last]', (c) => c.dataset.last).catch(() => '');
  const lastMove = JSON.parse(board3[60]).move?.point;
  check(last === lastMove, `the board marks the last move (${last}, recorded ${lastMove})`);
  // The timeline in words, in the page's language, times to the second.
  const first = board3.map((l) => JSON.parse(l)).find((e) => e.move);
  const words = async () => game.$$eval('#timeline li .words', (n) => n.map((x) => x.textContent));
  const zhWords = await words();
  const colourZh = first.move.color === 'BLACK' ? '黑' : '白', colourEn = first.move.color === 'BLACK' ? 'Black' : 'White';
  check(zhWords.includes(`${colourZh} ${first.move.point}`), `the timeline reads "${colourZh} ${first.move.point}"`);
  const times = await game.$$eval('#timeline time', (n) => n.map((x) => x.textContent));
  check(times.length > 0 && times.every((x) => /^\d\d:\d\d:\d\d$/.test(x)), `times to the second (${times[0]})`);
  // Said to be UTC, as the slip says, with the date on hover (probe finding 6).
  const utc = await game.evaluate(() => [document.querySelector('h2[data-i18n="timeline"]').textContent,
    document.querySelector('#timeline time')?.title || '']);
  check(/UTC/.test(utc[0]) && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/.test(utc[1]), `the timeline says its times are UTC (${utc})`);
  await game.click('#lang');
  await game.waitForFunction(() => document.documentElement.lang === 'en');
  const enWords = await words();
  check(enWords.includes(`${colourEn} ${first.move.point}`), `and "${colourEn} ${first.move.point}" in English`);
  const stray = await game.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const out = [];
    while (walker.nextNode()) {
      const n = walker.currentNode;
      if (n.parentElement.closest('[lang="zh"], #lang')) continue;
      if (/[\u3000-\u9fff\uff00-\uffef]/.test(n.textContent)) out.push(n.textContent.trim());
    }
    return out;
  });
  check(stray.length === 0, `in English every word is English but the clauses' Chinese text (${stray.slice(0, 5)})`);
  const players = await game.$$eval('#players th', (n) => n.map((x) => x.textContent));
  check(players.includes('Black') && players.includes('White'), `the colours translated (${players})`);
  await game.click('#lang');
  await game.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  // Two passes and no count yet: the hall says the game wants its count.
  const passedAt = (s) => new Date(now - 40000 + s * 1000).toISOString();
  cli(['record', '-'], { input: [
    { at: passedAt(0), gameCreated: { gameId: 'passed-9', ruleset: 'cn-2002', boardSize: 9, black: { name: 'He Yu' }, white: { name: 'Lu Ning' }, venue: 'SAME_SITE' } },
    { at: passedAt(0), gameStarted: {} }, { at: passedAt(1), move: { color: 'BLACK', point: 'E5' } },
    { at: passedAt(2), pass: { color: 'WHITE' } }, { at: passedAt(3), pass: { color: 'BLACK' } },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n', token: chief });
  await hall.waitForSelector('tr[data-game="passed-9"] .badge.count');
  const due = await hall.$eval('tr[data-game="passed-9"]', (tr) => [tr.querySelector('.badge.count').textContent, tr.querySelector('.result').textContent]);
  check(/(待数子|count due)/.test(due[0]) && /(待确认死子或数子|awaiting the dead stones or the count)/.test(due[1]),
    `a game whose play ended awaits its count in the hall (${due})`);
  // A counted game: the stones agreed dead are crossed where they stand, and named beside the result.
  const at = (s) => new Date(now - 30000 + s * 1000).toISOString();
  cli(['record', '-'], { input: [
    { at: at(0), gameCreated: { gameId: 'counted-9', ruleset: 'cn-2002', boardSize: 9, black: { name: 'Ma Li' }, white: { name: 'Xu Yan' }, venue: 'SAME_SITE' } },
    { at: at(0), gameStarted: {} }, { at: at(1), move: { color: 'BLACK', point: 'E5' } }, { at: at(2), move: { color: 'WHITE', point: 'D4' } },
    { at: at(3), pass: { color: 'BLACK' } }, { at: at(4), pass: { color: 'WHITE' } }, { at: at(5), deadStones: { points: ['D4'] } },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n', token: chief });
  await game.goto(`${server.http}/games/counted-9`);
  await game.waitForSelector('body[data-loaded="1"] #board svg');
  const crossed = await game.evaluate(() => ({ dead: [...document.querySelectorAll('[data-dead]')].map((d) => d.dataset.dead),
    stone: !!document.querySelector('.stone.white[data-point="D4"]'), said: document.querySelector('.dead-stones')?.textContent,
    clocks: [...document.querySelectorAll('#players .clock')].map((c) => c.textContent),
    replayAt: document.querySelector('#replay-at')?.textContent.trim(), moveNumber: document.querySelector('#move-number')?.textContent }));
  check(JSON.stringify(crossed.dead) === '["D4"]' && crossed.stone && crossed.said === '死子（棋盘上以×标出）: D4',
    `a counted game's dead stone is crossed on the board and named (${JSON.stringify(crossed)})`);
  // Without a time control its clocks say "—", as the hall's do, not "00:00" (time run out).
  check(JSON.stringify(crossed.clocks) === '["—","—"]', `an untimed game's clocks read "—" (${crossed.clocks})`);
  // Two moves and two passes: the replay's last step is move 4, as the move number says.
  check(crossed.replayAt === '第4手' && crossed.moveNumber === '4', `the replay counts passes as the move number does (${crossed.replayAt}, ${crossed.moveNumber})`);
  await shot(game, 'game-counted');
  await game.goto(`${server.http}/games/board-3`);
  await game.waitForSelector('body[data-loaded="1"]');
  // The webhooks page in the language chosen, its header too.
  const hooks = await chiefContext.newPage();
  await hooks.goto(`${server.http}/webhooks`);
  await hooks.waitForSelector('body[data-loaded="1"]');
  await hooks.click('#lang');
  await hooks.waitForFunction(() => document.documentElement.lang === 'en');
  const hooksEn = await hooks.$eval('header h1', (h) => h.innerText);
  check(!/[\u3000-\u9fff]/.test(hooksEn) && hooksEn.includes('Webhooks'), `the webhooks page's header in English reads in English only ("${hooksEn}")`);
  await hooks.click('#lang');
  await hooks.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  const hooksZh = await hooks.$eval('header h1', (h) => h.innerText);
  check(hooksZh.includes('推送') && !hooksZh.includes('Webhooks'), `and in Chinese in Chinese only ("${hooksZh}")`);
  await hooks.close();
  // A game that is not there: an error page in the language chosen, with a
  // way back, not a blank page and a script error (probe findings 3, 4).
  const missing = await chiefContext.newPage();
  const thrown = [];
  missing.on('pageerror', (e) => thrown.push(e.message));
  await missing.goto(`${server.http}/hall-missing`);  // any page of the console's origin, for its localStorage
  await missing.evaluate(() => localStorage.setItem('arbiter.lang', 'en'));
  const answer = await missing.goto(`${server.http}/games/nope`);
  await missing.waitForSelector('body[data-loaded="1"]');
  const seen = await missing.evaluate(() => ({ lang: document.documentElement.lang, title: document.title,
    text: document.querySelector('main').innerText, back: document.querySelector('a.back')?.getAttribute('href') }));
  check(answer.status() === 404 && seen.lang === 'en' && seen.title === 'Not found' && /No game 'nope'/.test(seen.text) &&
    !/[\u3000-\u9fff]/.test(seen.text) && seen.back === '/' && thrown.length === 0,
    `/games/nope: a 404 page in English, titled, with a link to the hall (${answer.status()}, ${JSON.stringify(seen)}, ${thrown})`);
  await missing.click('#lang');
  await missing.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  const seenZh = await missing.evaluate(() => [document.title, document.querySelector('main').innerText]);
  check(seenZh[0] === '找不到' && /没有对局「nope」/.test(seenZh[1]) && !/No game/.test(seenZh[1]), `and in Chinese once switched (${seenZh})`);
  await missing.close();
  // A move-by-move replay of the board.
  await game.click('#replay-first');
  const empty = await game.$$eval('#board .stone', (n) => n.length);
  await game.click('#replay-next');
  const one = await game.$$eval('#board .stone', (n) => n.map((c) => c.dataset.point));
  check(empty === 0 && JSON.stringify(one) === JSON.stringify([first.move.point]), `the replay steps from the empty board to ${first.move.point} (${empty}, ${one})`);
  await game.click('#replay-last');
  await shot(game, 'game');

  // A chief arbiter decides the pending 12.4.6 ruling by clicking.
  await game.goto(`${server.http}/games/board-12`);
  await game.waitForSelector('button.decide[data-choice="BLACK_LOSES"]:not([disabled])');
  // Options by their titles, without the code in brackets (probe finding 8).
  const optionTexts = await game.$$eval('button.decide', (b) => b.map((x) => x.textContent));
  check(optionTexts.length > 0 && optionTexts.every((x) => !/[A-Z]{2,}/.test(x)), `the options are named in words only (${optionTexts})`);
  await game.click('button.decide[data-choice="BLACK_LOSES"]');
  // A loss is confirmed twice, the second time naming it (confirm.js).
  await game.waitForSelector('.second-confirm button.confirm-again');
  await game.click('.second-confirm button.confirm-again');
  await game.waitForFunction(() => !document.querySelector('#pending .pending-ruling'), { timeout: 5000 });
  const decided = JSON.parse(cli(['history', 'board-12', '--json'], { token: chief }));
  const decision = decided.events.find((e) => e.event.arbiterDecision);
  check(decision?.event.arbiterDecision.choice === 'BLACK_LOSES' && /^Wang Ru \(CHIEF_ARBITER, token /.test(decision.event.actor),
    `the ledger holds the chief arbiter's arbiterDecision (${decision?.event.actor})`);

  // The incident among the moves, and the ruling shown as decided, with who decided.
  await game.waitForSelector('#ruling-1[data-state="decided"]');
  const incident = await game.$$eval('#timeline li.incident .words', (n) => n.map((x) => x.textContent));
  check(incident.includes('计时钟故障'), `the clock malfunction is marked as an incident (${incident})`);
  check(incident.includes('裁定 #1：判黑方超时负'), 'the decision names the option chosen by its title');
  const decidedText = await game.$eval('#ruling-1', (li) => li.textContent);
  check(/已裁定/.test(decidedText) && /Wang Ru/.test(decidedText) && /裁判长/.test(decidedText), `a decided ruling shows as decided, with who decided (${decidedText.slice(0, 120)})`);
  // No code name anywhere a reader looks: the decision's ruling names the
  // option by its title, people by role in words, no token (probe finding 8).
  const shown = await game.evaluate(() => document.body.innerText);
  const codes = shown.match(/\b(BLACK_LOSES|CHIEF_ARBITER|ARBITER|WARNING|token [0-9a-f]+)\b/g) || [];
  check(codes.length === 0, `the game page shows no enum code or token (${codes.slice(0, 5)})`);
  const decisionRuling = await game.$$eval('#rulings li .state', (n) => n.map((x) => x.textContent).find((x) => x.startsWith('裁定 #1')) || '');
  check(decisionRuling === '裁定 #1: 判黑方超时负', `the decision's ruling names the option chosen ("${decisionRuling}")`);
  const whoText = await game.$eval('#who', (n) => n.textContent);
  check(whoText === '裁判长 Wang Ru', `the header names who is signed in by role in words ("${whoText}")`);

  // An ARBITER session cannot: the buttons are off, and the write is refused.
  const refereeContext = await browser.createBrowserContext();
  const other = await signIn(refereeContext, referee);
  await other.goto(`${server.http}/games/board-14`);
  await other.waitForSelector('body[data-loaded="1"]');
  check(await other.$$eval('button.decide', (b) => b.length > 0 && b.every((x) => x.disabled)), "an ARBITER sees the chief arbiter's options disabled");
  const status = await other.evaluate(async () => {
    const s = await (await fetch('/api/session')).json();
    const r = await fetch('/api/games/board-14/rulings/1/decide', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf },
      body: JSON.stringify({ choice: 'BLACK_LOSES' }),
    });
    return r.status;
  });
  check(status === 403, `and its decision is refused (HTTP ${status})`);
  const untouched = JSON.parse(cli(['history', 'board-14', '--json'], { token: chief }));
  check(!untouched.events.some((e) => e.event.arbiterDecision), 'nothing is written');
  const mayText = await other.$eval('#ruling-1', (li) => li.textContent);
  check(/(可裁定者: 裁判长|May decide: the chief arbiter)/.test(mayText), `a pending ruling says who may decide (${mayText.slice(0, 100)})`);

  // The slip prints to PDF with the Chinese clause text rendered.
  const slip = await chiefContext.newPage();
  await slip.goto(`${server.http}/games/board-12/rulings/1/slip`);
  const textZh = await slip.$eval('.clause-zh', (p) => p.textContent);
  const pdf = path.join(work, 'slip.pdf');
  await slip.pdf({ path: pdf, preferCSSPageSize: true, printBackground: true });
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
  const squash = (s) => s.replace(/\s+/g, '');
  check(textZh.length > 8 && squash(text).includes(squash(textZh).slice(0, 12)), `the slip's PDF carries the Chinese clause text (${squash(textZh).slice(0, 12)}…)`);
  check(text.includes('<script>alert(1)</script>'), 'and the script-named player as text');
  const pages = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  check(/Page size:.*\(A5\)/.test(pages) && /Pages: +1\n/.test(pages), `on one A5 page (${(pages.match(/Page size:.*/) || [''])[0]})`);

  const a4 = path.join(work, 'a4.pdf');
  await slip.goto(`${server.http}/games/board-12/rulings/1/slip?paper=a4`);
  await slip.pdf({ path: a4, preferCSSPageSize: true, printBackground: true });
  const a4Info = execFileSync('pdfinfo', [a4], { encoding: 'utf8' });
  check(/Page size:.*\(A4\)/.test(a4Info) && /Pages: +1\n/.test(a4Info), `?paper=a4: one A4 page (${(a4Info.match(/Page size:.*/) || [''])[0]})`);

  // A slip a player is handed: ruling 4 of the sample, White's talking (23.5).
  const pdfText = async (url, name) => {
    await slip.goto(url);
    const file = path.join(work, name);
    await slip.pdf({ path: file, preferCSSPageSize: true, printBackground: true });
    return squash(execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }));
  };
  const handed = await pdfText(`${server.http}/games/tournament-round3-board1/rulings/4/slip`, 'handed.pdf');
  await shot(slip, 'slip', true);
  check(await slip.$('svg.qr path') !== null, 'the slip carries a QR code of its verification line');
  // A5 filled: the last line near the foot of the page; nothing printed behind it.
  const bbox = execFileSync('pdftotext', ['-bbox', path.join(work, 'handed.pdf'), '-'], { encoding: 'utf8' });
  const pageHeight = Number(bbox.match(/<page width="[\d.]+" height="([\d.]+)"/)[1]);
  const lowest = Math.max(...[...bbox.matchAll(/yMax="([\d.]+)"/g)].map((m) => Number(m[1])));
  check(lowest > 0.85 * pageHeight, `the slip fills its A5 page (last line at ${(100 * lowest / pageHeight).toFixed(0)}% of its height)`);
  const gray = execFileSync('pdftoppm', ['-gray', '-r', '20', '-singlefile', path.join(work, 'handed.pdf')]);
  const header = gray.toString('latin1').match(/^P5\s+(\d+)\s+(\d+)\s+255\s/);
  const pixels = gray.subarray(header[0].length);
  const width = Number(header[1]);
  const corners = [0, width - 1, pixels.length - width, pixels.length - 1].map((i) => pixels[i]);
  check(corners.every((p) => p === 255), `and no background prints (corner pixels ${corners})`);
  for (const words of ['City Cup 2026', '第1轮', 'Round 1', '第1台', 'Table 1', 'Hangzhou Qiyuan',
    '白方 Zhao Min, 6d', 'White: Zhao Min, 6d', '警告一次，罚一子', 'a warning, one penalty stone',
    'arbiter verify tournament-round3-board1 ruling 4', 'The decision on ruling #3', 'by the chief arbiter Wang Ru']) {
    check(handed.includes(squash(words)), `the slip's PDF says "${words}"`);
  }
  check(!/WARNING,PENALTY_STONE|"color"|Against:WHITE/.test(handed), 'and no code names or JSON');
  const decidedPdf = await pdfText(`${server.http}/games/board-12/rulings/1/slip`, 'decided.pdf');
  for (const words of ['已裁定', 'Decided', '裁判长 Wang Ru', 'by the chief arbiter Wang Ru', '计时钟故障', 'clock malfunction']) {
    check(decidedPdf.includes(squash(words)), `a decided ruling's slip says "${words}"`);
  }
  check(!decidedPdf.includes(squash('待定')), 'and not that it is pending');

  // The tournament page: standings with each criterion named, the cross-table, the round.
  const cup = await chiefContext.newPage();
  await cup.goto(`${server.http}/tournaments/city-cup`);
  const heads = await cup.$$eval('#standings th.criterion', (n) => n.map((x) => x.textContent));
  check(heads.includes('积分 pts') && heads.includes('胜者小分 A') && heads.includes('警告 B') && !heads.some((h) => /总得分/.test(h)),
    `the standings name each criterion of a round robin (${heads})`);
  const cross = await cup.$$eval('#cross-table tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td.mark, td.self')].map((td) => td.textContent).join('')));
  check(JSON.stringify(cross) === '["×+·","−·×"]', `the cross-table marks the result and the game to come (${JSON.stringify(cross)})`);
  await cup.goto(`${server.http}/tournaments/city-cup?round=1`);
  const pairing = await cup.$eval('#round tbody tr', (tr) => tr.textContent);
  check(/Chen Jie 6d/.test(pairing) && /Zhao Min 6d/.test(pairing) && /白胜（对方警告满限）/.test(pairing) && /White wins on warnings/.test(pairing),
    `the round's pairing and its result in words (${pairing})`);
  await shot(cup, 'tournament', true);
  const cupPdf = path.join(work, 'cup.pdf');
  await cup.pdf({ path: cupPdf, preferCSSPageSize: true });
  const cupInfo = execFileSync('pdfinfo', [cupPdf], { encoding: 'utf8' });
  check(/Page size:.*\(A4\)/.test(cupInfo) && /Pages: +3\n/.test(cupInfo),
    `the tournament page prints standings, cross-table and round each on an A4 sheet (${(cupInfo.match(/Page size:.*/) || [''])[0]}, ${(cupInfo.match(/Pages:.*/) || [''])[0]})`);
  // Live: a game of the tournament changes, the page reads itself again.
  await cup.goto(`${server.http}/tournaments/city-cup?round=2`);
  await cup.waitForSelector('body[data-live="1"]');
  const reloaded = cup.waitForNavigation({ timeout: 5000 }).then(() => true, () => false);
  cli(['record', '--game', 'board-3', '-'], { input: JSON.stringify({ at: new Date().toISOString(), leftSeat: { color: 'WHITE', permitted: true } }) + '\n', token: chief });
  check(await reloaded, 'the tournament page follows its games live');
  const round2 = await cup.$eval('#round tbody tr', (tr) => tr.textContent);
  check(/board-3/.test(round2) && /未完成/.test(round2), `round 2's game in play (${round2})`);

  // A hall in Beijing (`serve --time-zone Asia/Shanghai`): the game page
  // says its times in the hall's clock, with the offset, as its slips do.
  server.child.kill('SIGTERM');
  server = await startServer(arbiter, path.join(work, 'beijing'), ['--time-zone', 'Asia/Shanghai']);
  const beijing = [
    { at: '2026-06-02T09:00:00Z', gameCreated: { gameId: 'beijing', ruleset: 'cn-2002', boardSize: 19, black: { name: 'Chen Jie', rank: '6d' }, white: { name: 'Zhao Min', rank: '6d' }, venue: 'SAME_SITE' } },
    { at: '2026-06-02T09:00:00Z', gameStarted: {} },
    { at: '2026-06-02T09:00:10Z', move: { color: 'BLACK', point: 'Q16' } },
  ];
  cli(['record', '-'], { input: beijing.map((e) => JSON.stringify(e)).join('\n') + '\n' });
  const zoned = await (await browser.createBrowserContext()).newPage();
  await zoned.evaluateOnNewDocument(() => localStorage.setItem('arbiter.lang', 'zh'));
  await zoned.goto(`${server.http}/games/beijing`);
  await zoned.waitForSelector('body[data-loaded="1"] #timeline time');
  const said = await zoned.evaluate(() => ({
    heading: document.querySelector('h2[data-i18n="timeline"]').textContent,
    times: [...document.querySelectorAll('#timeline time')].map((n) => [n.textContent, n.title]),
  }));
  check(said.heading === '事件记录（UTC+8时间）', `the timeline's heading names the hall's offset (${said.heading})`);
  check(said.times.some(([text, title]) => text === '17:00:10' && title === '2026-06-02 17:00:10 UTC+8'),
    `a move at 09:00:10 UTC reads 17:00:10 in Beijing, its date and offset on hover (${JSON.stringify(said.times)})`);
}

try {
  await main();
} catch (e) {
  console.log(`FAIL ${e.stack || e}`);
  failures += 1;
} finally {
  await browser?.close();
  server?.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
