// Live team matches on the console's tournament page (issue 31.4), in a real
// browser (Debian's chromium, headless, puppeteer-core) against a real
// `arbiter serve --http`: a match of four boards whose games are recorded
// one by one with the CLI; after each, the page (following the live feed)
// shows the match's score as its boards finish — 1:0, 2:0, then 2:1 with one
// board still playing — in Chinese and English, and the standings count the
// match once its last board ends (2:2, drawn: one match point each), the
// tie between the two teams named as broken by board 1 (第1台).
// With a board finished and three playing, the page at a floor arbiter's
// phone (390x844, touch) and at the chief arbiter's desk (1280x800), in
// Chinese and in English: it never scrolls sideways, shows the language
// chosen only, names the match above its boards, and axe-core finds no
// serious or critical violation.
//
//   node team_match_browser.mjs --arbiter build/bin/arbiter [--screenshots DIR]
//
// Exit 0 when every check holds, 1 otherwise, 77 (skipped) when chromium or
// the npm packages (npm ci) are missing.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CHROMIUM, arbiterBinary, axeOrSkip, browserOrSkip, checks, cliOf, eventLine, flag, now,
  seriousViolations, startServer,
} from './arbiter_serve.mjs';

const arbiter = arbiterBinary();
const puppeteer = await browserOrSkip();
const { check, finish } = checks();
const shots = flag('screenshots', '');
const axeSource = axeOrSkip();

const work = mkdtempSync(path.join(tmpdir(), 'console-team-match-'));
const data = path.join(work, 'data');
let server;
let browser;

const cli = cliOf(arbiter, () => server);

const line = eventLine;

// The match's row: its data and its text.
async function matchRow(page) {
  return page.$eval('#round table.matches tr.match', (tr) => ({
    score: tr.dataset.score,
    finished: tr.dataset.finished,
    text: tr.textContent,
  }));
}

// The page at `viewport` in `lang` ('zh' or 'en'), signed in through `context`.
async function lookAt(context, viewport, lang) {
  const seen = await context.newPage();
  await seen.setBypassCSP(true);  // axe-core is injected as a script
  await seen.setViewport(viewport);
  await seen.evaluateOnNewDocument((l) => localStorage.setItem('arbiter.lang', l), lang);
  await seen.goto(`${server.http}/tournaments/league`);
  await seen.waitForSelector('body[data-loaded="1"]');
  const what = `${viewport.width}x${viewport.height} in ${lang}`;
  const width = await seen.evaluate(() => document.documentElement.scrollWidth);
  check(width <= viewport.width, `${what}: the page is no wider than the screen (${width} px)`);
  const row = await seen.$eval('#round table.matches tr.match', (tr) => tr.innerText);
  const shown = lang === 'zh' ? '3台进行中' : '3 board(s) still playing';
  const hidden = lang === 'zh' ? 'still playing' : '台进行中';
  check(row.includes(shown) && !row.includes(hidden), `${what}: the match's state in the language chosen only (${row})`);
  const standingsHead = await seen.$eval('#standings h2', (h) => h.innerText.trim());
  check(lang === 'zh' ? /1\s*轮$/.test(standingsHead) : /1 round$/.test(standingsHead),
    `${what}: the standings count their round in the language chosen (${standingsHead})`);
  const facts = await seen.$eval('main .facts', (p) => p.innerText.trim());
  check(!/·\s*(·|$)/.test(facts), `${what}: no separator around a fact not given (${facts})`);
  const heads = await seen.$$eval('#round table.pairings tr.match-head', (rows) => rows.map((r) => r.innerText.trim()));
  check(JSON.stringify(heads) === '["Xiamen – Yunnan"]', `${what}: the boards under their match's name (${heads})`);
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await seen.screenshot({ path: path.join(shots, `team-match-${lang}-${viewport.width}.png`), fullPage: true });
  }
  const found = await seriousViolations(seen, axeSource);
  check(found.length === 0, `${what}: axe-core finds no serious or critical violation${found.length ? ` (${found.join('; ')})` : ''}`);
  await seen.close();
}

async function main() {
  const chief = cli(['token', 'create', '--role', 'CHIEF_ARBITER', '--name', 'Wang Ru', '--db', data]).trim();
  server = await startServer(arbiter, data);
  const create = ['tournament', 'create', '--id', 'league', '--title', 'Team League', '--teams',
    '--system', 'round-robin', '--team', 'X:Xiamen', '--team', 'Y:Yunnan'];
  for (const team of ['X', 'Y']) {
    for (let b = 1; b <= 4; b += 1) create.push('--player', `${team}${b}:${team}${b}:5D:${team}:${b}`);
  }
  cli(create, chief);
  // Xiamen Black on boards 1 and 3, Yunnan on 2 and 4.
  const boards = [['X1', 'Y1'], ['Y2', 'X2'], ['X3', 'Y3'], ['Y4', 'X4']];
  cli(['tournament', 'pair', 'league', '--round', '1',
    ...boards.flatMap(([b, w], i) => ['--board', `${b},${w},m${i + 1}`])], chief);
  // The four games start.
  cli(['record', '-'], chief, boards.map(([b, w], i) => line({
    gameCreated: {
      gameId: `m${i + 1}`, ruleset: 'cn-2002', boardSize: 19, black: { name: b }, white: { name: w },
      venue: 'SAME_SITE', scheduledStart: now(),
    },
  }) + line({ gameStarted: {} })).join(''));

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const context = await browser.createBrowserContext();
  const login = await context.newPage();
  await login.goto(`${server.http}/login`);
  await login.type('#token', chief);
  await Promise.all([login.waitForNavigation(), login.click('#sign-in')]);
  const page = await context.newPage();
  await page.goto(`${server.http}/tournaments/league`);
  let row = await matchRow(page);
  check(row.score === '0:0' && /4台进行中/.test(row.text) && /4 board\(s\) still playing/.test(row.text),
    `before any result: 0:0, four boards playing (${row.text})`);

  // Each game's result, and the page that follows it live.
  const finish = async (game, loser, score, words) => {
    await page.waitForSelector('body[data-live="1"]');
    const reloaded = page.waitForNavigation({ timeout: 10000 }).then(() => true, () => false);
    cli(['record', '--game', game, '-'], chief, line({ resign: { color: loser } }));
    check(await reloaded, `${game} ends: the page follows it live`);
    row = await matchRow(page);
    check(row.score === score && words.every((w) => row.text.includes(w)),
      `${game} ends: the match stands ${score} (${row.text})`);
  };
  await finish('m1', 'WHITE', '1:0', ['3台进行中', '3 board(s) still playing']);
  // A board finished, three playing: the page at a phone and at a desk.
  for (const lang of ['zh', 'en']) {
    await lookAt(context, { width: 390, height: 844, isMobile: true, hasTouch: true }, lang);
    await lookAt(context, { width: 1280, height: 800 }, lang);
  }
  await finish('m2', 'BLACK', '2:0', ['2台进行中']);
  await finish('m3', 'BLACK', '2:1', ['4:2', '1台进行中', '1 board(s) still playing']);
  // A match still playing counts no match points yet.
  const mp = await page.$$eval('#standings tbody tr', (rows) => rows.map((r) => r.children[2].textContent));
  check(JSON.stringify(mp) === '["0","0"]', `no match points while a board plays (${mp})`);
  await finish('m4', 'WHITE', '2:2', ['平局', 'drawn']);
  const after = await page.$$eval('#standings tbody tr', (rows) => rows.map((r) => r.children[2].textContent));
  check(JSON.stringify(after) === '["1","1"]', `the drawn match: one match point each (${after})`);
  // Level on match points and board points (4 each): board 1 decides, X1's
  // win (2 to 0), and the line names it in the text's words.
  const tie = await page.$$eval('#standings tbody tr', (rows) => rows.map((r) => r.querySelector('td.decided-by').textContent));
  check(JSON.stringify(tie) === '["","board 1 第1台"]', `the tie broken by board 1, named (${tie})`);
}

await finish(main, async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});
