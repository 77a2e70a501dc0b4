// The console in a real browser: Debian's chromium, headless, driven by
// puppeteer-core against a real `arbiter serve --http` on free loopback
// ports, with games recorded through gRPC by the real CLI.
//
//   node browser_test.mjs --arbiter build/bin/arbiter [--screenshots DIR]
//
// Exit 0 when every check holds, 1 at the first that does not, 77 (skipped)
// when chromium or the npm packages (npm ci) are missing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { arbiterBinary, flag, repo, startServer } from './arbiter_serve.mjs';

const arbiter = arbiterBinary();
const shots = flag('screenshots', '');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

let puppeteer;
try {
  puppeteer = (await import('puppeteer-core')).default;
} catch {
  console.log('SKIP: puppeteer-core is not installed (npm ci in tests/console)');
  process.exit(77);
}
if (!existsSync(CHROMIUM)) {
  console.log(`SKIP: no browser at ${CHROMIUM} (apt-get install chromium)`);
  process.exit(77);
}

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

async function shot(page, name) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: false });
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

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--font-render-hinting=none'],
    defaultViewport: { width: 1280, height: 800 },
  });
  const chiefContext = await browser.createBrowserContext();

  // The hall lists the games in play; the script-named player is text.
  const hall = await signIn(chiefContext, chief);
  await hall.waitForSelector('body[data-loaded="1"][data-live="1"]');
  const listed = await hall.$$eval('#games tbody tr', (rows) => rows.map((r) => r.dataset.game));
  check(['board-3', 'board-12', 'board-14'].every((g) => listed.includes(g)), `the hall lists the games in play (${listed})`);
  check(!listed.includes('tournament-round3-board1'), 'a finished game is left out unless asked for');
  const tables = await hall.$$eval('#games tbody tr', (rows) => rows.map((r) => [r.dataset.game, r.querySelector('.table-no')?.textContent ?? '']));
  check(JSON.stringify(tables.filter(([g]) => g === 'board-3')) === '[["board-3","3"]]' &&
    tables.filter(([g]) => g !== 'board-3').every(([, n]) => n === ''),
    `the hall shows the table where it is known, nothing where not (${JSON.stringify(tables)})`);
  const names = await hall.$$eval('tr[data-game="board-12"] td.player', (tds) => tds.map((td) => td.textContent));
  check(names.includes('<script>alert(1)</script> 6d'), `a player named <script> shows as text (${names})`);
  check(await hall.$$eval('td.player script, td.player *', (n) => n.length) === 0, 'and no element is made of it');
  check(await hall.$eval('tr[data-game="board-12"]', (tr) => tr.classList.contains('has-pending')), 'a pending ruling stands out');

  // An event recorded through gRPC appears on the open page within a second.
  await hall.evaluate(() => { window.notReloaded = true; });
  const before = await hall.$eval('tr[data-game="board-3"] td:nth-child(4)', (td) => td.textContent);
  cli(['record', '--game', 'board-3', '-'], { input: board3[60] + '\n', token: chief });
  const recorded = Date.now();
  let arrived = true;
  try {
    await hall.waitForFunction((b) => document.querySelector('tr[data-game="board-3"] td:nth-child(4)').textContent !== b,
      { timeout: 1000, polling: 'mutation' }, before);
  } catch { arrived = false; }
  const after = await hall.$eval('tr[data-game="board-3"] td:nth-child(4)', (td) => td.textContent);
  check(arrived && Number(after) === Number(before) + 1, `a move recorded by \`arbiter record\` shows in the hall in ${Date.now() - recorded} ms (move ${before} -> ${after})`);
  check(await hall.evaluate(() => window.notReloaded === true), 'without reloading the page');
  await shot(hall, 'hall');

  // Languages: switched, and remembered across pages.
  const langBefore = await hall.evaluate(() => document.documentElement.lang);
  await hall.click('#lang');
  await hall.reload();
  await hall.waitForSelector('body[data-loaded="1"]');
  const langAfter = await hall.evaluate(() => document.documentElement.lang);
  check(langBefore !== langAfter, `the language switches and is remembered (${langBefore} -> ${langAfter})`);
  if (langAfter !== 'zh-Hans') { await hall.click('#lang'); await hall.reload(); }

  // A game: the board as SVG with the last move marked.
  const game = await chiefContext.newPage();
  await game.goto(`${server.http}/games/board-3`);
  await game.waitForSelector('body[data-loaded="1"]');
  const title = await game.$eval('#title', (h) => h.textContent);
  check(title.includes('3 · board-3'), `the game page names its table (${title})`);
  const last = await game.$eval('[data-last]', (c) => c.dataset.last).catch(() => '');
  const lastMove = JSON.parse(board3[60]).move?.point;
  check(last === lastMove, `the board marks the last move (${last}, recorded ${lastMove})`);
  await shot(game, 'game');

  // A chief arbiter decides the pending 12.4.6 ruling by clicking.
  await game.goto(`${server.http}/games/board-12`);
  await game.waitForSelector('button.decide[data-choice="BLACK_LOSES"]:not([disabled])');
  await game.click('button.decide[data-choice="BLACK_LOSES"]');
  // A loss is confirmed twice, the second time naming it (confirm.js).
  await game.waitForSelector('.second-confirm button.confirm-again');
  await game.click('.second-confirm button.confirm-again');
  await game.waitForFunction(() => !document.querySelector('#pending .pending-ruling'), { timeout: 5000 });
  const decided = JSON.parse(cli(['history', 'board-12', '--json'], { token: chief }));
  const decision = decided.events.find((e) => e.event.arbiterDecision);
  check(decision?.event.arbiterDecision.choice === 'BLACK_LOSES' && /^Wang Ru \(CHIEF_ARBITER, token /.test(decision.event.actor),
    `the ledger holds the chief arbiter's arbiterDecision (${decision?.event.actor})`);

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

  // The slip prints to PDF with the Chinese clause text rendered.
  const slip = await chiefContext.newPage();
  await slip.goto(`${server.http}/games/board-12/rulings/1/slip`);
  const textZh = await slip.$eval('.clause-zh', (p) => p.textContent);
  await shot(slip, 'slip');
  const pdf = path.join(work, 'slip.pdf');
  await slip.pdf({ path: pdf, preferCSSPageSize: true, printBackground: true });
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
  const squash = (s) => s.replace(/\s+/g, '');
  check(textZh.length > 8 && squash(text).includes(squash(textZh).slice(0, 12)), `the slip's PDF carries the Chinese clause text (${squash(textZh).slice(0, 12)}…)`);
  check(text.includes('<script>alert(1)</script>'), 'and the script-named player as text');
  const pages = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  check(/Page size:.*\(A5\)/.test(pages), `on A5 paper (${(pages.match(/Page size:.*/) || [''])[0]})`);
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
