// The chief arbiter's "start round" button on the hall, in a real browser
// (Debian's chromium, headless, puppeteer-core) against a real `arbiter
// serve --http`: the button asks for a confirmation naming the round, then
// creates the round's games (read back with the CLI); a second press
// creates none; a floor arbiter is not offered the button.
//
//   node start_round_browser.mjs --arbiter build/bin/arbiter
//
// Exit 0 when every check holds, 1 otherwise, 77 (skipped) when chromium or
// the npm packages (npm ci) are missing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM, arbiterBinary, browserOrSkip, cliOf, startServer } from './arbiter_serve.mjs';

const arbiter = arbiterBinary();
const puppeteer = await browserOrSkip();

const work = mkdtempSync(path.join(tmpdir(), 'console-start-round-'));
const data = path.join(work, 'data');
let server;
let browser;
let failures = 0;

function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
  return ok;
}

const cli = cliOf(arbiter, () => server);

async function signIn(token, lang = 'en') {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.evaluateOnNewDocument((l) => localStorage.setItem('arbiter.lang', l), lang);
  await page.goto(`${server.http}/login`);
  await page.type('#token', token);
  await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
  return page;
}

async function main() {
  const chief = cli(['token', 'create', '--role', 'CHIEF_ARBITER', '--name', 'Wang Ru', '--db', data]).trim();
  const referee = cli(['token', 'create', '--role', 'ARBITER', '--name', 'Li Wei', '--game', '*', '--db', data]).trim();
  server = await startServer(arbiter, data);
  cli(['tournament', 'create', '--id', 'cup', '--system', 'swiss', '--rounds', '3', '--main-time', '1h',
    '--player', 'A:Li,Wei:5D', '--player', 'B:Wang,Ming:4D', '--player', 'C:Chen,Jie:1K', '--player', 'D:Zhou,Yu:2K'], chief);
  cli(['tournament', 'pair', 'cup', '--round', '1', '--board', 'A,B', '--board', 'C,D'], chief);
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });

  const page = await signIn(chief);
  await page.waitForSelector('#start-round-button');
  await page.type('#start-tournament', 'cup');
  await page.type('#start-round-no', '1');
  await page.click('#start-round-button');
  await page.waitForSelector('#start-round-confirm');
  const question = await page.$eval('.start-confirm', (e) => e.textContent);
  check(question.includes('round 1') && question.includes('cup'), `the confirmation names the round (${question.trim()})`);
  let shown = cli(['tournament', 'show', 'cup', '--json'], chief);
  check(!shown.includes('cup-r1-b1'), 'nothing is created before the confirmation');
  await page.click('#start-round-confirm');
  await page.waitForFunction(() => document.querySelector('.start-status')?.textContent.includes('created'));
  const said = await page.$eval('.start-status', (e) => e.textContent);
  check(said.includes('2 game(s) created'), `the page says what it did (${said})`);
  shown = cli(['tournament', 'show', 'cup', '--json'], chief);
  check(shown.includes('cup-r1-b1') && shown.includes('cup-r1-b2'), 'both boards name their games');
  check(cli(['show', 'cup-r1-b2', '--json'], chief).includes('"table":2'), 'board 2 is played at table 2');

  await page.click('#start-round-button');
  await page.click('#start-round-confirm');
  await page.waitForFunction(() => document.querySelector('.start-status')?.textContent.includes('already there') &&
    document.querySelector('.start-status')?.textContent.includes('0 game(s)'));
  check(true, 'pressed again: 0 game(s) created, 2 already there');

  // A start refused is said in the page's language from the refusal's
  // reason, not the server's English sentence.
  const zh = await signIn(chief, 'zh');
  const refused = async (tournament, round) => {
    await zh.$eval('#start-tournament', (i, v) => { i.value = v; }, tournament);
    await zh.$eval('#start-round-no', (i, v) => { i.value = v; }, String(round));
    await zh.$eval('.start-status', (e) => { e.textContent = ''; });
    await zh.click('#start-round-button');
    await zh.click('#start-round-confirm');
    await zh.waitForFunction(() => document.querySelector('.start-status')?.textContent);
    return zh.$eval('.start-status', (e) => e.textContent);
  };
  await zh.waitForSelector('#start-round-button');
  // The tournaments the hall has games of are offered as the id is typed, and
  // a known one fills an empty round with its next: round 1 started, so 2.
  await zh.waitForFunction(() => [...document.querySelectorAll('#start-tournaments option')].some((o) => o.value === 'cup'));
  await zh.type('#start-tournament', 'cup');
  await zh.keyboard.press('Tab');
  const suggested = await zh.$eval('#start-round-no', (i) => i.value);
  check(suggested === '2', `the hall offers "cup" and fills its next round (${suggested})`);
  const unpaired = await refused('cup', 2);
  check(unpaired.startsWith('第2轮尚未编排') && !/not paired/.test(unpaired), `an unpaired round, in Chinese (${unpaired})`);
  const looks = await zh.$eval('.start-status', (e) => ({ refused: e.classList.contains('refused'), color: getComputedStyle(e).color }));
  check(looks.refused && looks.color === 'rgb(180, 35, 24)', `the refusal is shown as one, in the alert colour (${JSON.stringify(looks)})`);
  const beyond = await refused('cup', 9);
  check(beyond === '本比赛共3轮，没有第9轮', `a round past the last, in Chinese (${beyond})`);
  const nobody = await refused('nope', 1);
  check(nobody.startsWith('没有名为“nope”的比赛'), `an unknown tournament, in Chinese (${nobody})`);

  const floor = await signIn(referee);
  // hall.js names who is signed in, and start-round.js decides on the
  // button, each on the page's one /api/session answer (live.js): the
  // second's step runs right after the first's, before the next frame, so
  // once the page names the referee the button is there or never will be.
  await floor.waitForFunction(() => document.getElementById('who')?.textContent.includes('Li Wei'));
  check((await floor.$('#start-round-button')) === null, 'a floor arbiter is not offered the button');
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
