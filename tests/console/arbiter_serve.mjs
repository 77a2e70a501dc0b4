// A real `arbiter serve --http` on free loopback ports, for the browser test
// and the console's browser benchmark (tests/bench/console_render.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// The repository's root.
export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// `--name VALUE` from the script's command line, else `fallback`.
export function flag(name, fallback) {
  const argv = process.argv.slice(2);
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
}

// The `arbiter` binary: --arbiter PATH, default build/bin/arbiter.
export const arbiterBinary = () => path.resolve(flag('arbiter', path.join(repo, 'build/bin/arbiter')));

// Starts `arbiter serve --db DATA --listen 127.0.0.1:0 --http HTTP
// EXTRA...` and resolves, once both are listening, to { child, grpc, http }
// (the gRPC address and the console's URL, as the server prints them).
// HTTP is 127.0.0.1:0 (any free port) unless a test restarts the server
// under an open page, on the port it had.
export function startServer(arbiter, data, extra = [], http = '127.0.0.1:0') {
  return new Promise((resolve, reject) => {
    const child = spawn(arbiter, ['serve', '--db', data, '--listen', '127.0.0.1:0', '--http', http, ...extra],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    const found = { child };
    createInterface({ input: child.stdout }).on('line', (line) => {
      let m = line.match(/^listening on (\S+)/);
      if (m) found.grpc = m[1];
      m = line.match(/^console on (http:\/\/\S+?)\/?$/);
      if (m) {
        found.http = m[1];
        resolve(found);
      }
    });
    child.on('exit', (code) => reject(new Error(`arbiter serve exited with ${code}`)));
  });
}

// Debian's chromium, driven through puppeteer-core (which downloads no
// browser): { puppeteer, chromium }. Without either the calling test is
// skipped (exit 77), never silently passed.
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export async function browserOrSkip() {
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
  return puppeteer;
}

// axe-core's script, to inject into a page (the page needs setBypassCSP);
// without it the calling test is skipped (exit 77).
export function axeOrSkip() {
  try {
    return readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules/axe-core/axe.min.js'), 'utf8');
  } catch {
    console.log('SKIP: axe-core is not installed (npm ci in tests/console)');
    process.exit(77);
  }
}

// axe-core's serious and critical violations on `page`, in words (none: []).
export async function seriousViolations(page, axeSource) {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
}

// A browser test's tally: check(ok, what) prints "ok" or "FAIL" with what
// it checked and counts the failures; finish(main, cleanup) runs the test
// (an exception is one more failure), always cleans up, prints the tally and
// exits 0 when every check held, else 1.
export function checks() {
  let failures = 0;
  const check = (ok, what) => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures += 1;
    return ok;
  };
  const finish = async (main, cleanup) => {
    try {
      await main();
    } catch (e) {
      check(false, e.stack || e);
    } finally {
      await cleanup();
    }
    console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
    process.exit(failures ? 1 : 0);
  };
  return { check, finish };
}

// `arbiter ARGS...` as the holder of `token`, against the server `server()`
// returns (none before it started), `input` on its standard input; its output.
export function cliOf(arbiter, server) {
  return (args, token, input) => execFileSync(arbiter, args, {
    env: { ...process.env, ARBITER_SERVER: server()?.grpc || '', ARBITER_TOKEN: token },
    encoding: 'utf8',
    input,
  });
}

// The time now, as an event's `at`; one line of a JSONL record stamped now.
export const now = () => new Date().toISOString();
export const eventLine = (o) => `${JSON.stringify({ at: now(), ...o })}\n`;
