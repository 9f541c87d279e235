// npm run bench [-- --quick] [-- --profile] [-- --only=<phase substring>] [-- --scale]
// Measures the module against a bare node:http limit, the official SDK and MCP-Nest, each in its own
// process, and writes bench/results/<date>[-quick].{md,svg,json}. See docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, type TestPostgres } from '../test/support/postgres.js';
import { planFor } from './config.js';
import { stealSince } from './support/host-steal.js';
import { sampleLoad } from './support/machine-load.js';
import { versionOf } from './contestants/registry.js';
import { PHASES } from './phases.js';
import { chart } from './report/svg.js';
import { markdown } from './report/markdown.js';
import { method } from './report/method.js';
import { Results, type RunInfo } from './report/results.js';
import { judge } from './report/targets.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const profile = args.includes('--profile');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const scale = args.includes('--scale');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..'); // dist/bench/run.js → repo
const workDir = join(root, 'bench', '.work');
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });

const started = Date.now();
const load = sampleLoad();
const steal = stealSince();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const plan = planFor(quick);
const results = new Results();
let cluster: Promise<TestPostgres> | undefined;
const postgres = () => (cluster ??= startPostgres().then((pg) => (log(`  PostgreSQL cluster at ${pg.url}`), pg)));
const ctx = { plan, o: { root, workDir, profile }, results, log, postgres };

log(`bench: ${quick ? 'quick' : 'full'} run${profile ? ', with CPU profiles' : ''}`);
for (const phase of PHASES) {
  if (only && !phase.name.includes(only)) continue;
  if (phase.scale && !scale) {
    phase.scale.skipped(ctx, 'a --scale run only');
    continue;
  }
  log(phase.name);
  try {
    await phase.run(ctx);
  } catch (err) {
    // A phase that breaks must not cost the figures of the others.
    results.notes.push(`phase "${phase.name}" stopped early: ${(err as Error).message}`);
    log(`  phase stopped early: ${(err as Error).stack}`);
  }
}

await cluster?.then((pg) => pg.stop()).catch(() => undefined);

const machineLoad = load();
const date = new Date().toISOString().slice(0, 10);
const base = `${date}${quick ? '-quick' : ''}${only ? '-partial' : ''}`;
const info: RunInfo = {
  date,
  quick,
  startedAt: new Date(started).toISOString(),
  seconds: (Date.now() - started) / 1000,
  node: process.version,
  cpus: `${cpus().length} × ${cpus()[0]?.model.trim() ?? '?'}`,
  load: machineLoad,
  steal: steal(),
  commit:
    git(['rev-parse', '--short', 'HEAD']) +
    (git(['status', '--porcelain', '--untracked-files=no']) ? ' + local changes' : ''),
  versions: {
    server: versionOf(root, '@modelcontextprotocol/server'),
    node: versionOf(root, '@modelcontextprotocol/node'),
    mcpNest: versionOf(root, '@rekog/mcp-nest'),
    nest: versionOf(root, '@nestjs/core'),
    postgres: tool('pg_config', ['--version']).replace(/^PostgreSQL\s*/, ''),
    redis: tool('redis-server', ['--version']).match(/v=(\S+)/)?.[1] ?? '?',
  },
};
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const files = { md: `${base}.md`, svg: `${base}.svg`, json: `${base}.json` };
writeFileSync(
  join(outDir, files.svg),
  chart(results, `MCP tasks module vs limit and peers — ${date}${quick ? ' (quick)' : ''}`),
);
writeFileSync(join(outDir, files.json), `${JSON.stringify({ info, plan, ...results.toJSON() }, null, 2)}\n`);
writeFileSync(join(outDir, files.md), markdown(results, info, files, method(plan)));

const profiles = profile ? '; CPU profiles in bench/.work/profiles/' : '';
log(`wrote bench/results/${files.md}, ${files.svg}, ${files.json}${profiles}`);
for (const v of judge(results)) {
  const mark = v.pass === null ? (v.target.met ? '  -- ' : '  .. ') : v.pass ? '  ok ' : '  MISS';
  console.log(`${mark} ${v.target.text}: ${v.shown}`);
}

function git(a: string[]): string {
  return tool('git', a, root);
}

function tool(cmd: string, a: string[], cwd = root): string {
  try {
    return execFileSync(cmd, a, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '?';
  }
}
