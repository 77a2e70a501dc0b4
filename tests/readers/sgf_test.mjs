// The SGF that `arbiter export --format sgf` writes, read by another
// program's reader rather than arbiter's own importer: Sabaki's SGF parser
// (@sabaki/sgf) and go board (@sabaki/go-board). Every public scenario and a
// dozen real games are recorded on a real `arbiter serve`, exported, and
// checked against SGF FF[4] as that reader sees it: one game tree; FF, GM,
// CA, SZ, KM as numbers; RE in the specification's syntax; every move on
// the board and legal (no stone on a stone, no suicide, no simple ko
// retake) when replayed on Sabaki's board; and for the real games, the
// same moves as the record they were imported from, read by the same parser.
//
//   node tests/readers/sgf_test.mjs --arbiter build/bin/arbiter
//
// Exit 0: all read as above; 1: a file did not (each problem is printed);
// 77: the npm packages are not installed here (`npm ci`), so nothing was
// checked.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { arbiterBinary, repo, startServer } from '../console/arbiter_serve.mjs';

const require = createRequire(import.meta.url);
let sgf, Board;
try {
  sgf = require('@sabaki/sgf');
  Board = require('@sabaki/go-board');
} catch {
  console.log('skipped: the npm packages are not installed (npm ci in tests/readers)');
  process.exit(77);
}

const arbiter = arbiterBinary();
const problems = [];
const problem = (file, why) => problems.push(`${path.basename(file)}: ${why}`);

// FF[4] RE: 0/Draw, B+/W+ with a score or R(esign), T(ime), F(orfeit), Void, ?.
const kResult = /^(0|Draw|Void|\?|[BW]\+(\d+(\.\d+)?|R|Resign|T|Time|F|Forfeit)?)$/;

// The main line's moves as [color, vertex or null for a pass].
function mainLine(root) {
  const moves = [];
  for (let node = root; node; node = node.children[0]) {
    for (const color of ['B', 'W']) {
      if (node.data[color] !== undefined) moves.push([color, node.data[color][0]]);
    }
  }
  return moves;
}

function check(file, original) {
  let roots;
  try {
    roots = sgf.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    return problem(file, `does not parse: ${e.message}`);
  }
  if (roots.length !== 1) return problem(file, `${roots.length} game trees`);
  const root = roots[0];
  const prop = (id) => (root.data[id] || [])[0];
  if (prop('FF') !== '4' || prop('GM') !== '1' || prop('CA') !== 'UTF-8') {
    problem(file, `FF ${prop('FF')} GM ${prop('GM')} CA ${prop('CA')}`);
  }
  const size = Number(prop('SZ'));
  if (![9, 13, 19].includes(size)) return problem(file, `SZ ${prop('SZ')}`);
  if (prop('KM') !== undefined && !Number.isFinite(Number(prop('KM')))) {
    problem(file, `KM ${prop('KM')} is not a number`);
  }
  if (prop('RE') !== undefined && !kResult.test(prop('RE'))) problem(file, `RE ${prop('RE')}`);

  // A move's value with FF[3]'s pass, tt (boards up to 19), written as FF[4]'s empty one.
  const asPlayed = (v) => (v === 'tt' && size <= 19 ? '' : v);
  let board = Board.fromDimensions(size);
  for (const [id, sign] of [['AB', 1], ['AW', -1]]) {  // handicap and setup stones
    for (const v of (root.data[id] || []).flatMap((x) => sgf.parseCompressedVertices(x))) {
      board = board.set(v, sign);
    }
  }
  const moves = mainLine(root);
  moves.forEach(([color, value], i) => {
    if (asPlayed(value) === '') return;  // a pass
    const vertex = sgf.parseVertex(value);
    if (!board.has(vertex)) return problem(file, `move ${i + 1} ${color}[${value}] is off the board`);
    try {
      board = board.makeMove(color === 'B' ? 1 : -1, vertex,
        { preventOverwrite: true, preventSuicide: true, preventKo: true });
    } catch (e) {
      problem(file, `move ${i + 1} ${color}[${value}] is illegal on Sabaki's board: ${e.message}`);
    }
  });

  if (original) {
    const want = mainLine(sgf.parse(fs.readFileSync(original, 'utf8'))[0])
      .map(([c, v]) => `${c}[${asPlayed(v)}]`);
    const got = moves.map(([c, v]) => `${c}[${asPlayed(v)}]`);
    const at = got.findIndex((m, i) => m !== want[i]);
    if (got.length !== want.length || at >= 0) {
      problem(file, `its ${got.length} moves are not the original's ${want.length}` +
        (at >= 0 ? ` (first difference at move ${at + 1}: ${got[at]} against ${want[at]})` : ''));
    }
  }
  return moves.length;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-sgf-readers-'));
const server = await startServer(arbiter, path.join(work, 'data'));
const cli = (args, input) =>
  execFileSync(arbiter, ['--server', server.grpc, ...args], { input, stdio: ['pipe', 'pipe', 'pipe'] });
// Records event lines and exports the game they create; the SGF's path.
function recordAndExport(lines, name) {
  const id = JSON.parse(lines.split('\n')[0]).gameCreated.gameId;
  cli(['record', '--replay', '-'], lines);
  const out = path.join(work, `${name}.sgf`);
  cli(['export', id, '--format', 'sgf', '--out', out]);
  return out;
}

let files = 0;
let moves = 0;
try {
  const scenarios = path.join(repo, 'tests/data/scenarios/public');
  for (const f of fs.readdirSync(scenarios).filter((f) => f.endsWith('.jsonl')).sort()) {
    const out = recordAndExport(fs.readFileSync(path.join(scenarios, f), 'utf8'), f.slice(0, -6));
    moves += check(out) || 0;
    ++files;
  }
  const games = path.join(repo, 'tests/data/sgf');
  for (const f of fs.readdirSync(games).filter((f) => f.endsWith('.sgf')).sort().slice(0, 12)) {
    const original = path.join(games, f);
    const lines = execFileSync(arbiter, ['import-sgf', original]).toString();
    const out = recordAndExport(lines, `real-${f.slice(0, -4)}`);
    moves += check(out, original) || 0;
    ++files;
  }
} catch (e) {
  problems.push(`the recording failed: ${e.message}\n${e.stderr || ''}`);
} finally {
  server.child.kill('SIGTERM');
}

for (const p of problems) console.log(p);
console.log(`${files} exported SGF files, ${moves} moves, read by @sabaki/sgf and replayed on ` +
  `@sabaki/go-board: ${problems.length} problem(s)`);
fs.rmSync(work, { recursive: true, force: true });
process.exit(problems.length === 0 && files > 0 ? 0 : 1);
