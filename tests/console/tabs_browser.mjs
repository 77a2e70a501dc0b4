// Many console tabs in one browser (Debian's chromium, headless,
// puppeteer-core) against a real `arbiter serve --http`. A browser gives a
// host 6 HTTP/1.1 connections: with a feed held per page the 7th tab never
// loaded. The tabs now share one feed (static/feed.js): 9 tabs of one
// browser context (one connection pool) all load and show live through one
// /api/feed; an event recorded with the CLI shows in every tab; tabs that
// join late are sent what they missed; a message after a gap is not taken;
// the leading tab closed, another leads and the next event still shows in
// every tab;
// the server stopped, every tab says it is offline.
//
//   node tabs_browser.mjs --arbiter build/bin/arbiter
//
// Exit 0 when every check holds, 1 otherwise, 77 (skipped) when chromium or
// the npm packages (npm ci) are missing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM, arbiterBinary, browserOrSkip, checks, cliOf, eventLine, startServer } from './arbiter_serve.mjs';

const arbiter = arbiterBinary();
const puppeteer = await browserOrSkip();
const { check, finish } = checks();

const work = mkdtempSync(path.join(tmpdir(), 'console-tabs-'));
const data = path.join(work, 'data');
let server;
let browser;
const cli = cliOf(arbiter, () => server);
const GAMES = ['t1', 't2', 't3', 't4', 't5', 't6'];  // at tables 1-6

// Whether a tab shows `n` warnings in each of `games` (run in the page):
// the hall's and /tables' count for each game, table 1's page for its game,
// a game page's timeline grown by `n` events since it loaded.
function showsWarnings(games, n) {
  const sum = (text) => (text.match(/\d+/g) || []).reduce((k, d) => k + Number(d), 0);
  const at = location.pathname;
  let shown;
  if (at === '/') shown = games.map((g) => sum(document.querySelector(`tr[data-game="${g}"] td.warnings`)?.textContent || ''));
  else if (at === '/tables') shown = games.map((g) => sum(document.querySelector(`li[data-game="${g}"] .badges`)?.textContent || ''));
  // Each seat's "Warnings W · Penalty stones P": the first number.
  else if (at === '/tables/1') shown = [sum([...document.querySelectorAll('.seat span:nth-child(3)')].map((s) => s.textContent.match(/\d+/)?.[0] || '').join(' '))];
  else shown = [document.querySelectorAll('#timeline > *').length - Number(document.body.dataset.timelineAtLoad)];
  return shown.every((k) => k === n);
}

// (Each wait polls on a timer: requestAnimationFrame, puppeteer's default,
// does not run in a tab in the background.)
// Whether a tab has loaded and shows itself following: live (the
// console's pages), online (the floor's); or says it does not.
function loadedLive() {
  const b = document.body;
  return b?.dataset.loaded === '1' && (b.dataset.live === '1' || b.dataset.online === '1');
}
function saysOffline() {
  return document.body.dataset.live === '0' || document.body.dataset.online === '0';
}

async function main() {
  const chief = cli(['token', 'create', '--role', 'CHIEF_ARBITER', '--name', 'Wang Ru', '--db', data]).trim();
  server = await startServer(arbiter, data);
  const at = new Date(Date.now() - 60000).toISOString();
  const lines = GAMES.flatMap((gameId, i) => [
    { at, gameCreated: { gameId, ruleset: 'cn-2002', boardSize: 19, table: i + 1, venue: 'SAME_SITE',
      black: { name: `Black ${gameId}`, rank: '3d' }, white: { name: `White ${gameId}`, rank: '3d' } } },
    { at, gameStarted: {} }]);
  cli(['record', '-'], chief, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  // One context: one cookie jar, one pool of connections to the server.
  const context = await browser.createBrowserContext();
  const feeds = new Map();  // each tab's /api/feed requests still open
  const tabs = [];
  const track = (page) => {
    feeds.set(page, new Set());
    page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/feed') feeds.get(page)?.add(r); });
    const done = (r) => feeds.get(page)?.delete(r);
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  };
  const openFeeds = () => [...feeds.values()].reduce((n, s) => n + s.size, 0);

  const first = await context.newPage();
  track(first);
  await first.goto(`${server.http}/login`);
  await first.type('#token', chief);
  await Promise.all([first.waitForNavigation(), first.click('#sign-in')]);
  tabs.push({ page: first, url: '/' });
  for (const url of ['/tables', '/tables/1', ...GAMES.map((g) => `/games/${g}`)]) {
    const page = await context.newPage();
    track(page);
    // Not awaited: on a browser out of connections the page never loads.
    page.goto(`${server.http}${url}`).catch(() => {});
    tabs.push({ page, url });
  }
  check(tabs.length >= 8, `${tabs.length} tabs open in one browser context`);
  const loaded = await Promise.all(tabs.map(({ page }) => page.waitForFunction(loadedLive, { timeout: 20000, polling: 250 })
    .then(() => true, () => false)));
  const all = check(loaded.every(Boolean), `every tab loads and shows live (${tabs.map((t, i) => `${t.url} ${loaded[i] ? 'ok' : 'NOT'}`).join(', ')})`);
  check(openFeeds() === 1, `the browser holds one /api/feed connection for all ${tabs.length} tabs (${openFeeds()})`);
  if (!all) return;  // what follows needs every tab (a page's own requests queue behind the feeds)
  for (const { page, url } of tabs) {
    if (url.startsWith('/games/')) await page.evaluate(() => { document.body.dataset.timelineAtLoad = document.querySelectorAll('#timeline > *').length; }).catch(() => {});
  }
  const roles = async () => Promise.all(tabs.map(({ page }) => page.evaluate(() => document.body.dataset.feed).catch(() => 'gone')));
  let said = await roles();
  check(said.filter((r) => r === 'leader').length === 1 && said.filter((r) => r === 'follower').length === tabs.length - 1,
    `one tab leads, the others follow it (${said})`);

  // Each of the tabs `which` shows `n` warnings per game, within 10 s.
  const allShow = async (n, which) => {
    const shown = await Promise.all(which.map(({ page, url }) => page.waitForFunction(showsWarnings,
      { timeout: 10000, polling: 250 }, url === '/tables/1' ? ['t1'] : GAMES, n).then(() => true, () => false)));
    return which.map((t, i) => `${t.url} ${shown[i] ? 'ok' : 'NOT'}`).join(', ') + (shown.every(Boolean) ? '' : ' MISSED');
  };
  const before = Number(await first.evaluate(() => fetch('/api/games').then((r) => r.json()).then((b) => b.feed)));
  for (const g of GAMES) cli(['record', '--game', g, '-'], chief, eventLine({ phoneRang: { color: 'WHITE' } }));
  let shown = await allShow(1, tabs);
  check(!shown.includes('MISSED'), `a warning recorded with the CLI in each game shows in every tab (${shown})`);

  // A tab that joins having read its data at an older position: its hall
  // is answered as it stood then (the warnings not yet given, the feed
  // position of then). From within the leader's ring it is sent what it
  // missed, and reads nothing again; from before the ring it reads its data
  // again (a reload): either way it ends showing every warning.
  const late = async (label, position) => {
    const page = await context.newPage();
    await track(page);
    await page.setRequestInterception(true);
    const cookie = (await page.cookies(server.http)).map((c) => `${c.name}=${c.value}`).join('; ');
    let reads = 0;
    page.on('request', async (r) => {
      if (new URL(r.url()).pathname !== '/api/games') return r.continue();
      if (++reads > 1) return r.continue();
      const then = await (await fetch(r.url(), { headers: { cookie } })).json();
      for (const g of then.games) delete g.state.warnings;
      then.feed = String(position);
      return r.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(then) });
    });
    await page.goto(`${server.http}/`);
    const tab = { page, url: `/ (${label})` };
    const ok = await page.waitForFunction(loadedLive, { timeout: 10000, polling: 250 }).then(() => true, () => false);
    shown = await allShow(1, [tab]);
    return { tab, ok: ok && !shown.includes('MISSED'), reads };
  };
  const inRing = await late('joined from within the ring', before);
  check(inRing.ok && inRing.reads === 1, `a tab joining from position ${before} is sent the warnings it missed, reading nothing again (${inRing.reads} read(s))`);
  const tooOld = await late('joined from before the ring', 0);
  check(tooOld.ok && tooOld.reads === 2, `a tab joining from position 0, before the ring, reads its data again and shows them (${tooOld.reads} read(s))`);
  tabs.push(inRing.tab, tooOld.tab);

  // A message after a gap (forged here on the tabs' channel: no leader sent
  // the ones before it, and it says game t1 has 7 warnings a side) is not
  // taken: a following tab asks the leader for what it missed instead and
  // goes on with the real messages, so the next warnings below show in every
  // tab as 2 a game (taken, the forged message would have moved the tabs past
  // every real one, and shown 14 at t1).
  await inRing.tab.page.evaluate(() => {
    const channel = new BroadcastChannel('arbiter-feed');
    const data = JSON.stringify({ gameId: 't1', created: { gameId: 't1', table: 1 }, state: { warnings: { black: 7, white: 7 } } });
    channel.postMessage({ type: 'msg', m: { id: 1e12, prev: 1e12 - 1, kind: 'game', data } });
    channel.close();
  });

  // The leading tab goes: another takes the lead, and the feed, over.
  const leading = tabs[said.indexOf('leader')];
  await leading?.page.close();
  feeds.delete(leading?.page);
  const rest = tabs.filter((t) => t !== leading);
  const led = await Promise.any(rest.map(({ page }, i) => page.waitForFunction(() => document.body.dataset.feed === 'leader', { timeout: 10000, polling: 250 })
    .then(() => i))).catch(() => -1);
  said = await Promise.all(rest.map(({ page }) => page.evaluate(() => document.body.dataset.feed).catch(() => 'gone')));
  check(led >= 0 && said.filter((r) => r === 'leader').length === 1, `the leading tab (${leading?.url}) closed, another leads (${said})`);
  for (const g of GAMES) cli(['record', '--game', g, '-'], chief, eventLine({ phoneRang: { color: 'BLACK' } }));
  shown = await allShow(2, rest);
  check(!shown.includes('MISSED'), `the next warning in each game shows in each of the ${rest.length} tabs left, the message after a gap not taken (${shown})`);
  check(openFeeds() === 1, `still one /api/feed connection for the browser (${openFeeds()})`);

  // The server stops: every tab says so, not only the leading one.
  server.child.kill('SIGTERM');
  const down = await Promise.all(rest.map(({ page }) => page.waitForFunction(saysOffline, { timeout: 10000, polling: 250 })
    .then(() => true, () => false)));
  check(down.every(Boolean), `the server stopped, every tab shows offline (${rest.map((t, i) => `${t.url} ${down[i] ? 'ok' : 'NOT'}`).join(', ')})`);
}

await finish(main, async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});
