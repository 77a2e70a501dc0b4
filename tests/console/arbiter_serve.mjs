// A real `arbiter serve --http` on free loopback ports, for the browser test
// and the console's browser benchmark (tests/bench/console_render.mjs).
import { spawn } from 'node:child_process';
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
