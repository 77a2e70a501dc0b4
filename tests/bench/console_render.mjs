// The console in a real browser under a tournament's load (issue 16, point 6):
// what console_bench measures on the server side, here as a chief arbiter
// sees it, in Debian's chromium (headless, driven by puppeteer-core from
// tests/console/node_modules) against a real `arbiter serve --http`.
//
//   node tests/bench/console_render.mjs --arbiter build/bin/arbiter \
//        [--games 500] [--pages 50] [--rounds 5] [--events 10]
//
//   hall_render   a hall of GAMES games in play opened ROUNDS times: from the
//                 navigation's start to the first frame painted after every
//                 row is drawn (performance.now() in the page)
//   followers     PAGES open pages of one game, each in its own browser
//                 context; EVENTS moves recorded one at a time by `arbiter
//                 record`: from the recording (the CLI's process start) until
//                 every page marks the move as the last on its board
//
// Every game is the tournament sample's first 40 events
// (cli/examples/tournament-round3.jsonl), moved in time to end a minute ago,
// so each is in play with running clocks, a warning and a pending ruling.
// Prints one line per figure; exit 77 when chromium or puppeteer-core is
// missing (npm ci in tests/console).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { arbiterBinary, flag, repo, startServer } from '../console/arbiter_serve.mjs';

const arbiter = arbiterBinary();
const GAMES = Number(flag('games', 500));
const PAGES = Number(flag('pages', 50));
const ROUNDS = Number(flag('rounds', 5));
const EVENTS = Number(flag('events', 10));
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CREATED = 40;  // events per game before the bench

let puppeteer;
try {
  // The browser test's packages: one package-lock.json for both.
  const require = createRequire(path.join(repo, 'tests/console/package.json'));
  puppeteer = (await import(require.resolve('puppeteer-core'))).default;
} catch {
  console.log('SKIP: puppeteer-core is not installed (npm ci in tests/console)');
  process.exit(77);
}
if (!existsSync(CHROMIUM)) {
  console.log(`SKIP: no browser at ${CHROMIUM}`);
  process.exit(77);
}

const work = mkdtempSync(path.join(tmpdir(), 'console-render-'));
let server;
let browser;

// `arbiter record [--game GAME] -` with `lines` on stdin, against the server.
function record(lines, game = '') {
  return new Promise((resolve, reject) => {
    const args = ['record', '--server', server.grpc, ...(game ? ['--game', game] : []), '-'];
    const child = execFile(arbiter, args, { maxBuffer: 1 << 26 },
      (err) => (err ? reject(err) : resolve()));
    child.stdin.end(lines.join('\n') + '\n');
  });
}

const sample = readFileSync(path.join(repo, 'cli/examples/tournament-round3.jsonl'), 'utf8').trim().split('\n');
const sampleId = JSON.parse(sample[0]).gameCreated.gameId;

// The sample's lines for game `id`, moved in time so that line `last`
// (1-based) falls at `when`.
function game(id, last, when) {
  const delta = when - Date.parse(JSON.parse(sample[last - 1]).at);
  const shift = (s) => new Date(Date.parse(s) + delta).toISOString();
  return sample.map((line) => {
    const e = JSON.parse(line.replaceAll(sampleId, id));
    e.at = shift(e.at);
    if (e.gameCreated?.scheduledStart) e.gameCreated.scheduledStart = shift(e.gameCreated.scheduledStart);
    return e;
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  server = await startServer(arbiter, path.join(work, 'data'), ['--write-rate', '0', '--read-rate', '0']);
  const now = Date.now() - 60000;
  const board1 = game('board-1', CREATED, now);
  // Four recorders at once: the server takes them in parallel.
  const streams = [[], [], [], []];
  for (let g = 0; g < GAMES; ++g) {
    const lines = (g === 0 ? board1 : game(`board-${g + 1}`, CREATED, now)).slice(0, CREATED);
    streams[g % 4].push(...lines.map((e) => JSON.stringify(e)));
  }
  const seeded = Date.now();
  await Promise.all(streams.map(record));
  console.log(`seeded ${GAMES} games x ${CREATED} events in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    protocolTimeout: 600000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling', '--disable-backgrounding-occluded-windows'],
    defaultViewport: { width: 1280, height: 800 },
  });

  // Opens the hall and waits for every row and the frame after them.
  async function openHall(page) {
    await page.goto(`${server.http}/`);
    await page.waitForFunction((n) => document.body.dataset.loaded === '1' &&
      document.querySelectorAll('#games tbody tr').length === n, { timeout: 60000 }, GAMES);
    return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now())))));
  }

  const renders = [];
  for (let i = 0; i < ROUNDS; ++i) {
    const page = await browser.newPage();
    renders.push(await openHall(page));
    await page.close();
  }
  console.log(`hall_render/${GAMES}  median ${median(renders).toFixed(0)} ms  min ${Math.min(...renders).toFixed(0)} ms` +
    `  max ${Math.max(...renders).toFixed(0)} ms  (${ROUNDS} loads: navigation start -> every row painted)`);

  // The followers: PAGES pages of board 1, each in a browser context of its
  // own, as if on its own machine (a browser keeps at most 6 connections to
  // one host, and every page following the feed holds one). Every page gets
  // every commit of the hall from the feed and redraws when it is its game's.
  const pages = [];
  for (let i = 0; i < PAGES; ++i) {
    const page = await (await browser.createBrowserContext()).newPage();
    await page.goto(`${server.http}/games/board-1`);
    await page.waitForSelector('body[data-loaded="1"][data-live="1"]', { timeout: 60000 });
    pages.push(page);
  }
  const latencies = [];
  for (let line = CREATED; line < board1.length && latencies.length < EVENTS; ++line) {
    const e = board1[line];
    if (!e.move) {  // only moves change the mark the pages are watched on
      await record([JSON.stringify(e)], 'board-1');
      continue;
    }
    const waits = pages.map((p) => p.waitForFunction((point) => document.querySelector('[data-last]')?.dataset.last === point,
      { timeout: 60000, polling: 'mutation' }, e.move.point));
    const start = Date.now();
    await record([JSON.stringify(e)], 'board-1');
    await Promise.all(waits);
    latencies.push(Date.now() - start);
  }
  console.log(`followers/${PAGES}  median ${median(latencies)} ms  max ${Math.max(...latencies)} ms` +
    `  (${latencies.length} moves: \`arbiter record\` started -> shown on all ${PAGES} pages)`);
}

try {
  await main();
} catch (e) {
  console.log(`FAIL: ${e.stack || e}`);
  process.exitCode = 1;
} finally {
  await browser?.close();
  server?.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
