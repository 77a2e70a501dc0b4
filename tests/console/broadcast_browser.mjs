// The public broadcast's pages (issue 46.4, `arbiter serve --broadcast`) in a
// real browser (Debian's chromium, headless, puppeteer-core) at a phone's
// width (390x844, touch), against a real server: the rounds, a round's
// boards and a board, in Chinese and in English. Each page is in the
// language asked for (its <html lang> and its words), never scrolls
// sideways, shows a round's every column (clocks, result) without scrolling
// its table, and axe-core finds no serious or critical violation; no sign-in
// is asked. broadcast.js follows the broadcast's events: moves recorded on
// the board shown (a capture among them) are drawn from the move events,
// the page not read again, and the board is the one the server draws. A
// browser that puts English first is taken to the English page from a URL
// without ?lang, and a viewer's choice of Chinese is kept.
//
//   node broadcast_browser.mjs --arbiter build/bin/arbiter [--screenshots DIR]
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

const work = mkdtempSync(path.join(tmpdir(), 'console-broadcast-'));
const data = path.join(work, 'data');
let server;
let browser;

const cli = cliOf(arbiter, () => server);

const line = eventLine;
const phone = { width: 390, height: 844, isMobile: true, hasTouch: true };

// What a page must say in each language, and must not.
const WORDS = {
  '/broadcast': { zh: ['直播', '正在进行的轮次'], en: ['Live broadcast', 'Rounds being played'] },
  '/broadcast/cup/1': { zh: ['台次', '黑方'], en: ['Board', 'Black'] },
  '/broadcast/cup/1/1': { zh: ['黑方', '手数'], en: ['Black', 'Move'] },
};

async function lookAt(url, lang, name) {
  const page = await browser.newPage();
  await page.setBypassCSP(true);  // axe-core is injected as a script
  await page.setViewport(phone);
  const answer = await page.goto(`${server.http}${url}${lang === 'en' ? '?lang=en' : ''}`);
  const what = `${url} in ${lang} at 390 px`;
  check(answer.status() === 200, `${what}: served without sign-in (${answer.status()})`);
  const htmlLang = await page.evaluate(() => document.documentElement.lang);
  check(htmlLang === (lang === 'zh' ? 'zh-Hans' : 'en'), `${what}: <html lang="${htmlLang}">`);
  const text = await page.evaluate(() => document.body.innerText);
  const [want, other] = lang === 'zh' ? [WORDS[url].zh, WORDS[url].en] : [WORDS[url].en, WORDS[url].zh];
  check(want.every((w) => text.includes(w)), `${what}: says ${want.join(', ')}`);
  check(!other.some((w) => text.includes(w)),
    `${what}: none of the other language's words (${other.join(', ')})`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= phone.width, `${what}: no wider than the screen (${width} px)`);
  // A round's table scrolls in its box when it must; at 390 px with these
  // names every column, the result too, is in sight without scrolling.
  const table = await page.evaluate(() => document.querySelector('main table')?.getBoundingClientRect().right ?? 0);
  check(table <= phone.width, `${what}: every column in sight (the table ends at ${Math.round(table)} px)`);
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `broadcast-${name}-${lang}-390.png`), fullPage: true });
  }
  const found = await seriousViolations(page, axeSource);
  check(found.length === 0, `${what}: axe-core finds no serious or critical violation${found.length ? ` (${found.join('; ')})` : ''}`);
  await page.close();
}

async function main() {
  const chief = cli(['token', 'create', '--role', 'CHIEF_ARBITER', '--name', 'Wang Ru', '--db', data]).trim();
  server = await startServer(arbiter, data, ['--broadcast']);
  cli(['tournament', 'create', '--id', 'cup', '--title', 'Hangzhou Cup 杭州杯', '--system', 'swiss',
    '--rounds', '3', '--main-time', '1h', '--player', 'A:Li,Wei:5D', '--player', 'B:Wang,Ming:4D',
    '--player', 'C:Chen,Jie:1K', '--player', 'D:Zhou,Yu:2K'], chief);
  cli(['tournament', 'pair', 'cup', '--round', '1', '--board', 'A,B,g1', '--board', 'C,D,g2'], chief);
  const players = [['Li Wei', 'Wang Ming'], ['Chen Jie', 'Zhou Yu']];
  cli(['record', '-'], chief, players.map(([b, w], i) => line({
    gameCreated: {
      gameId: `g${i + 1}`, ruleset: 'cn-2002', boardSize: 19, black: { name: b, rank: '5d' },
      white: { name: w, rank: '4d' }, venue: 'SAME_SITE', scheduledStart: now(),
      timeControl: { mainTime: '3600s', byoYomi: { periods: 3, periodTime: '30s' } },
    },
  }) + line({ gameStarted: {} })).join(''));
  cli(['record', '--game', 'g1', '-'], chief,
    line({ move: { color: 'BLACK', point: 'Q16' } }) + line({ move: { color: 'WHITE', point: 'D4' } }));

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // A Chinese viewer's browser (headless chromium says en-US otherwise).
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--accept-lang=zh-CN,zh'],
  });
  for (const lang of ['zh', 'en']) {
    await lookAt('/broadcast', lang, 'rounds');
    await lookAt('/broadcast/cup/1', lang, 'round');
    await lookAt('/broadcast/cup/1/1', lang, 'board');
  }

  // broadcast.js: the board's page follows the events and applies each
  // move itself, without reading the page again: the stone drawn, the
  // captured stone taken off, the move number set.
  const page = await browser.newPage();
  await page.setViewport(phone);
  await page.goto(`${server.http}/broadcast/cup/1/1?lang=en`);
  const moveShown = () => page.$eval('dl.players', (dl) => {
    const terms = [...dl.querySelectorAll('dt')];
    const at = terms.findIndex((t) => t.textContent === 'Move');
    return at >= 0 ? dl.querySelectorAll('dd')[at].textContent : '';
  });
  const stones = (p) => p.$$eval('svg.goban circle',
    (cs) => cs.map((c) => `${c.getAttribute('cx')},${c.getAttribute('cy')},${c.getAttribute('fill')}`).sort().join(' '));
  check(await moveShown() === '2', `the board shows move 2 (${await moveShown()})`);
  // broadcast.js marks the page once its stream is open: a move recorded
  // after that is sent to it.
  await page.waitForSelector('body[data-live="1"]', { timeout: 10000 });
  await page.evaluate(() => { window.notReloaded = true; });
  let navigated = false;
  page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) navigated = true; });
  // Black takes White's D4 with D3 (move 9).
  cli(['record', '--game', 'g1', '-'], chief, [['BLACK', 'D5'], ['WHITE', 'K10'], ['BLACK', 'C4'],
    ['WHITE', 'K11'], ['BLACK', 'E4'], ['WHITE', 'K12'], ['BLACK', 'D3']]
    .map(([color, point]) => line({ move: { color, point } })).join(''));
  const moved = await page.waitForFunction(
    () => document.querySelector('dl.players dd.move')?.textContent === '9', { timeout: 15000 })
    .then(() => true, () => false);
  check(moved, `the board shows move 9 from the move events (${await moveShown()})`);
  check(!navigated && await page.evaluate(() => window.notReloaded === true),
    'the page applied the moves itself, without being read again (broadcast.js)');
  const at = (x, y, fill) => page.$$eval('svg.goban circle', (cs, want) =>
    cs.some((c) => c.getAttribute('cx') === want[0] && c.getAttribute('cy') === want[1] && c.getAttribute('fill') === want[2]),
  [x, y, fill]);
  // 20 px a line: D is the 4th column; row 4 is the 16th line from the top.
  check(!(await at('80', '320', '#fff')), 'the captured white stone on D4 is taken off');
  check(await at('80', '340', '#000'), 'the black stone on D3 is drawn');
  const label = await page.$eval('svg.goban', (svg) => svg.getAttribute('aria-label'));
  check(label === 'The board after move 9', `the board's label follows (${label})`);
  const followed = await stones(page);
  const fresh = await browser.newPage();
  await fresh.goto(`${server.http}/broadcast/cup/1/1?lang=en`);
  check(followed === await stones(fresh), 'the board built from the events is the one the server draws');
  await fresh.close();

  // The round's page updates the row of the board moved on, in place.
  const round = await browser.newPage();
  await round.setViewport(phone);
  await round.goto(`${server.http}/broadcast/cup/1`);
  await round.waitForSelector('body[data-live="1"]', { timeout: 10000 });
  let roundNavigated = false;
  round.on('framenavigated', (frame) => { if (frame === round.mainFrame()) roundNavigated = true; });
  const cell = () => round.$eval('tr[data-game="g2"] td.move', (td) => td.textContent);
  check(await cell() === '0', `the round shows board 2 at move 0 (${await cell()})`);
  cli(['record', '--game', 'g2', '-'], chief, line({ move: { color: 'BLACK', point: 'Q16' } }));
  const rowMoved = await round.waitForFunction(
    () => document.querySelector('tr[data-game="g2"] td.move')?.textContent === '1', { timeout: 15000 })
    .then(() => true, () => false);
  check(rowMoved && !roundNavigated,
    `the round's row of board 2 shows move 1 from the move event, the page not read again (${await cell()})`);
  await round.close();
  await page.close();

  // A viewer whose browser puts English first, asking for a page with no
  // ?lang, is taken to its English page; one who then picks 中文 with the
  // page's switch keeps Chinese, on this page and the next without ?lang.
  const english = await (await browser.createBrowserContext()).newPage();
  await english.evaluateOnNewDocument(() => Object.defineProperty(navigator, 'languages', { get: () => ['en-GB', 'en', 'zh-CN'] }));
  await english.goto(`${server.http}/broadcast/cup/1/1`);
  await english.waitForFunction(() => location.search === '?lang=en' && document.documentElement.lang === 'en', { timeout: 10000 });
  await english.waitForSelector('body[data-live="1"]', { timeout: 10000 });
  check(/Move/.test(await english.evaluate(() => document.body.innerText)), 'an English browser is taken to the English page, which follows the events');
  await Promise.all([english.waitForNavigation(), english.click('header a.lang')]);
  check(await english.evaluate(() => document.documentElement.lang) === 'zh-Hans', 'its switch gives the Chinese page');
  await english.goto(`${server.http}/broadcast/cup/1`);
  await english.waitForSelector('body[data-live="1"]', { timeout: 10000 });
  const kept = await english.evaluate(() => [location.search, document.documentElement.lang]);
  check(kept[0] === '' && kept[1] === 'zh-Hans', `and the choice is kept on the next page asked without ?lang (${kept})`);
  await english.close();
}

await finish(main, async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});
