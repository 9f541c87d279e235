#!/usr/bin/env node
// Adoption test: packs @mcp-tasks/nestjs and @mcp-tasks/client, generates fresh Nest apps with the
// Nest CLI in a temp dir, installs the nestjs tarball into each the way a user would, adds a tool
// (fixtures/), builds and starts each app, and checks it over HTTP with the client tarball installed
// in a plain Node project (one of the apps runs on Fastify). One line per case, then "N passed, N failed"; exit 1 on any failure.
//
//   node test/adopt/run.mjs                  # all apps (from the repository root)
//   node test/adopt/run.mjs --only nest11    # apps whose name contains "nest11" (comma-separated list)
//   node test/adopt/run.mjs --keep           # keep the temp dir (apps, tarballs, logs) and print it
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsSampleDrift } from './docs-samples.mjs';
import { addModuleToObserveApp, startCollector } from './observe.mjs';
import { childEnv, exec, killAll, startApp, tail } from './support.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const FIXTURES = path.join(HERE, 'fixtures');
const argv = process.argv.slice(2);
const keep = argv.includes('--keep');
const only = argv.flatMap((a, i) => (argv[i - 1] === '--only' ? a.split(',') : []));

// Generous: installs and builds compete with everything else on a loaded 2-core machine.
const MIN = 60_000;
const T = { npm: 15 * MIN, generate: 5 * MIN, build: 5 * MIN, start: 2 * MIN, checks: 5 * MIN };
const CLI12 = '@nestjs/cli@12';
const CLI11 = '@nestjs/cli@11';
const NEW12_BASE = ['--package-manager', 'npm', '--skip-git', '--skip-install'];
// `--no-observe`: without a terminal `nest new` (12.x) answers its "observability?" question yes and writes an
// @nestjs/observe module into app.module.ts (`createObserveModule()`, `ObserveModule.forRoot(…)`) and
// `instrument: ObserveInstrument` into main.ts. The overlays replace app.module.ts with the app's module as this test
// writes it, so those apps answer no (as a user may); `nest12-observe` is the app made the default way, edited.
const NEW12_FLAGS = [...NEW12_BASE, '--no-observe'];
// Must match the issuer in fixtures/nest11/src/app.module.ts.
const JWT_ISSUER = 'https://adopt-issuer.invalid';
const JWT_SECRET = 'adopt-test-secret-adopt-test-secret-0123456789';

// ---- The apps ----------------------------------------------------------------------------------
/** `@nestjs/cli@12`'s application schematic with type=cjs: what `nest new` makes when CJS is answered. */
const cjsApp = (name) => [
  'npx',
  [
    '-y',
    '-p',
    CLI12,
    'schematics',
    '@nestjs/schematics:application',
    `--name=${name}`,
    '--type=cjs',
    '--package-manager=npm',
  ],
];

// overlays: fixture folders copied over the generated app (later ones win); patch(dir, fixtures): edits after them.
// extras: optional peers the app's cases need, next to the tarball in the same `npm install`.
const APPS = [
  {
    name: 'nest12-esm',
    via: `${CLI12} new --no-observe (ESM, as generated)`,
    generate: (name) => ['npx', ['-y', CLI12, 'new', name, ...NEW12_FLAGS]],
    overlays: ['common'],
    extras: [],
    runs: [memoryRun, internalsRun],
  },
  {
    // `nest new` as run without a terminal: @nestjs/observe wraps every provider (its instrument). The tools of
    // fixtures/common/src/adopt/ are added by editing the generated app.module.ts (observe.mjs); main.ts stays.
    name: 'nest12-observe',
    via: `${CLI12} new (ESM, with @nestjs/observe as generated), app.module.ts edited`,
    generate: (name) => ['npx', ['-y', CLI12, 'new', name, ...NEW12_BASE]],
    overlays: [],
    patch: addModuleToObserveApp,
    extras: [],
    runs: [observeRun],
  },
  {
    // The ESM app of `nest new` moved to Fastify (`@nestjs/platform-fastify`, its main.ts as the Nest docs write it).
    name: 'nest12-fastify',
    via: `${CLI12} new --no-observe (ESM) on @nestjs/platform-fastify`,
    generate: (name) => ['npx', ['-y', CLI12, 'new', name, ...NEW12_FLAGS]],
    overlays: ['common', 'fastify'],
    extras: ['@nestjs/platform-fastify@^12'],
    runs: [memoryRun],
  },
  {
    // `nest new` (12) asks "Which module system?" (ESM | CJS) when it has a terminal and takes ESM
    // without one; answering CJS runs the same application schematic with type=cjs, as done here.
    name: 'nest12-cjs',
    via: `${CLI12}'s application schematic with --type=cjs (the CJS answer of nest new)`,
    generate: cjsApp,
    overlays: ['common'],
    extras: [],
    runs: [memoryRun],
  },
  {
    // The app's own code as the Nest docs write it (CommonJS, as the docs' samples are): TypeORM users whose
    // service methods are tools, the JWT login route and passport-jwt strategy, the MCP endpoint behind that
    // strategy (fixtures/docs/).
    name: 'nest12-docs',
    via: `${CLI12}'s application schematic with --type=cjs, with the Nest docs' TypeORM and passport-jwt code`,
    generate: cjsApp,
    overlays: ['docs'],
    extras: [
      '@nestjs/typeorm@^12',
      'typeorm',
      'better-sqlite3@^12',
      '@nestjs/passport@^12',
      'passport',
      'passport-jwt@^4',
      '@types/passport-jwt@^4', // the docs install it; the generated tsconfig is strict
      '@nestjs/jwt@^12',
      'class-transformer',
    ],
    allowScripts: ['better-sqlite3'],
    runs: [docsRun],
  },
  {
    name: 'nest11-cjs',
    via: `${CLI11} new (CommonJS)`,
    generate: (name) => ['npx', ['-y', CLI11, 'new', name, '--package-manager', 'npm', '--skip-git', '--skip-install']],
    overlays: ['common', 'nest11'],
    // @nestjs/typeorm 12 wants Nest 12; a bare `typeorm` is 1.x, inside the library's peer range.
    extras: ['@nestjs/typeorm@^11', 'typeorm', 'better-sqlite3@^12', 'passport-jwt@^4'],
    allowScripts: ['better-sqlite3'], // npm 11 asks packages with install scripts to be allowed
    runs: [memoryRun, node10Run, internalsRun, sqliteRun, authRun],
  },
];

// ---- Reporting ---------------------------------------------------------------------------------
let passed = 0;
let failed = 0;
function pass(name, what) {
  passed++;
  console.log(`PASS ${name}: ${what}`);
}
function fail(name, what, why, log) {
  failed++;
  console.log(`FAIL ${name}: ${what}: ${why}`);
  if (log) console.log(tail(log));
}
const note = (msg) => console.log(`adopt: ${msg}`);

/** Keeps every command's and app's output under <tmp>/logs, for --keep. */
let logCount = 0;
function saveLog(label, text) {
  const file = path.join(
    tmp,
    'logs',
    `${String(++logCount).padStart(2, '0')}-${label.replace(/[^\w.-]+/g, '_').slice(0, 60)}.log`,
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** A setup step as a case: `fn` returns nothing or throws an Error with an optional `log`. */
async function step(name, what, fn) {
  try {
    await fn();
    pass(name, what);
    return true;
  } catch (err) {
    fail(name, what, err.message, err.log);
    return false;
  }
}

/** Runs a command; a non-zero exit throws with its output as the failure's log. */
async function must(cmd, args, opts) {
  const { code, out } = await exec(cmd, args, opts);
  saveLog(`${path.basename(opts.cwd)}-${path.basename(cmd)}-${args[0]}`, out);
  if (code !== 0) throw Object.assign(new Error(`${cmd} ${args.slice(0, 3).join(' ')}… exited ${code}`), { log: out });
  return out;
}

/** Peer-dependency complaints npm printed about our package (e.g. a peer range the app's version misses). */
function peerComplaints(out) {
  const lines = out.split('\n').filter((l) => /\bpeer\w*\s+\S+\s+from\s+@mcp-tasks\//.test(l));
  return [...new Set(lines.map((l) => l.replace(/^npm (warn|error)\s*/, '').trim()))];
}

/** Installs into `dir` and fails on a non-zero exit or a peer complaint about @mcp-tasks/*. */
async function npmInstall(dir, specs) {
  const out = await must('npm', ['install', '--no-audit', '--no-fund', ...specs], { cwd: dir, timeoutMs: T.npm });
  const peers = peerComplaints(out);
  if (peers.length) throw Object.assign(new Error(`npm reported peer conflicts: ${peers.join('; ')}`), { log: out });
}

// ---- Running an app and the client checks ------------------------------------------------------
let tmp;
let clientDir;
let nestTarball;

/** Starts the built app with `env`, runs `fn(handle)`, always stops it. False when it did not start. */
async function withApp(name, dir, env, fn) {
  let handle;
  try {
    handle = await startApp(dir, env, T.start);
  } catch (err) {
    saveLog(`${name}-app`, err.log ?? '');
    fail(name, 'node dist/main.js starts and answers GET /', err.message, err.log);
    return false;
  }
  try {
    return await fn(handle);
  } finally {
    await handle.stop();
    saveLog(`${name}-app`, handle.log());
  }
}

/** Runs fixtures/client/check.mjs in the client project; one case per line it prints. True if all passed. */
async function clientChecks(name, app, args) {
  const { code, out } = await exec(process.execPath, ['check.mjs', ...args], { cwd: clientDir, timeoutMs: T.checks });
  saveLog(`${name}-check-${args[0]}`, out);
  const lines = out.split('\n').filter((l) => /^(PASS|FAIL) /.test(l));
  if (!lines.length) {
    fail(
      name,
      `client checks "${args[0]}"`,
      `check.mjs printed no result (exit ${code})`,
      `${out}\n--- app log ---\n${app.log()}`,
    );
    return false;
  }
  const lastFail = lines.findLastIndex((l) => l.startsWith('FAIL '));
  lines.forEach((line, i) => {
    if (line.startsWith('PASS ')) return pass(name, line.slice(5));
    const [what, ...why] = line.slice(5).split(': ');
    fail(name, what, why.join(': '), i === lastFail ? app.log() : undefined); // the app's log once, after the last failure
  });
  // It exits 0 after its last check, failed or not: anything else cut the checks short (a later command's lines).
  if (code !== 0) {
    fail(name, `client checks "${args[0]}"`, `check.mjs exited ${code}`, `${out}\n--- app log ---\n${app.log()}`);
    return false;
  }
  return lastFail < 0;
}

/** The basic and features checks; then `more(app)` while the app still runs. */
async function memoryRun(name, dir, env = {}, more = async () => {}) {
  // One check process for both (each start of it loads the client package again).
  await withApp(name, dir, env, async (app) => {
    await clientChecks(name, app, ['basic,features', app.base]);
    await more(app);
  });
}

/** A case: `logged` (an app's output) holds no ERROR line (but those `tolerated` matches). */
function noErrorLine(name, what, logged, tolerated) {
  const errors = logged.split('\n').filter((line) => /\bERROR\b/.test(line) && !tolerated?.test(line));
  if (errors.length) fail(name, what, `${errors.length} ERROR line(s)`, logged);
  else pass(name, what);
}

// Observe (0.3) drops a request's trace whose spans are still open 1 s after its response, and logs this as each of
// them ends: a task run that outlived its tools/call by that much (a 300 ms echo can, on a loaded machine).
const OBSERVE_TRACE_GONE = /\[OperationTraceRegistry\] No snapshot found for traceId/;

/**
 * memoryRun's checks in the app made with @nestjs/observe, its agent sending to a stand-in collector (nothing leaves
 * the machine; without one it logs an ERROR per batch it cannot send). Then: the agent reported the tool's method,
 * which its instrument wrapped (so the library called the method through the wrapper), and the app logged no ERROR.
 */
async function observeRun(name, dir) {
  const collector = await startCollector();
  try {
    await memoryRun(name, dir, { OBSERVE_ENDPOINT: collector.url }, async (app) => {
      await step(name, "Observe's agent reported a span of the tool's method (EchoService)", async () => {
        const deadline = Date.now() + 30_000; // it flushes every 5 s
        while (!collector.text().includes('"EchoService"')) {
          if (Date.now() > deadline) throw new Error('no batch sent to the collector named EchoService within 30 s');
          await new Promise((r) => setTimeout(r, 500));
        }
      });
      noErrorLine(
        name,
        "the app logged no ERROR (but Observe's for a task run that outlived its trace)",
        app.log(),
        OBSERVE_TRACE_GONE,
      );
    });
  } finally {
    await collector.close();
  }
}

/** Type-check only: the library's subpath entry must resolve without `exports` support too. */
async function node10Run(name, dir) {
  await step(
    name,
    'type-checks with the tsconfig of apps generated before Nest 11 (module commonjs, node10 resolution)',
    () =>
      must(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.node10.json'], {
        cwd: dir,
        timeoutMs: T.build,
      }),
  );
}

/** What the library reads of Nest that Nest does not export is still there in the app's Nest (fixtures/probe/). */
async function internalsRun(name, dir) {
  await step(name, "the library's Nest-internals probe passes on the app's Nest", () =>
    must(process.execPath, [path.join(FIXTURES, 'probe', 'nest-internals.mjs')], { cwd: dir, timeoutMs: T.checks }),
  );
}

/** A task completes, the app stops, a new process on the same SQLite file still returns it. */
async function sqliteRun(name, dir) {
  const sub = `${name}/sqlite`;
  const env = { ADOPT_STORE: 'sqlite', ADOPT_SQLITE_FILE: path.join(tmp, `${name}.sqlite`) };
  const state = path.join(tmp, `${name}-task.json`);
  const created = await withApp(sub, dir, env, (app) => clientChecks(sub, app, ['create', app.base, state]));
  if (created) await withApp(sub, dir, env, (app) => clientChecks(sub, app, ['reread', app.base, state]));
  // A resumable task of the installed package: the app crashes mid-run (SIGKILL), a new process on the file resumes it.
  const resumed = path.join(tmp, `${name}-resume.json`);
  const started = await withApp(sub, dir, env, async (app) => {
    const ok = await clientChecks(sub, app, ['resume-start', app.base, resumed]);
    await app.kill();
    return ok;
  });
  if (started) await withApp(sub, dir, env, (app) => clientChecks(sub, app, ['resume-finish', app.base, resumed]));
}

async function authRun(name, dir) {
  const sub = `${name}/auth`;
  await withApp(sub, dir, { ADOPT_AUTH: '1', ADOPT_JWT_SECRET: JWT_SECRET }, (app) =>
    clientChecks(sub, app, ['auth', app.base, JWT_SECRET, JWT_ISSUER]),
  );
}

/**
 * The Nest docs' app: its entity tools; the CLI across token expiries; a cancel, after which the app's output
 * (stdout and stderr) must hold no ERROR line.
 */
async function docsRun(name, dir) {
  const env = { ADOPT_SQLITE_FILE: path.join(tmp, `${name}.sqlite`) };
  await withApp(name, dir, env, async (app) => {
    await clientChecks(name, app, ['entities,refresh', app.base]);
    const from = app.log().length;
    if (!(await clientChecks(name, app, ['cancel', app.base]))) return;
    noErrorLine(name, 'the cancelled run logged no ERROR', app.log().slice(from));
  });
}

// ---- Setup steps -------------------------------------------------------------------------------
async function pack() {
  const dest = path.join(tmp, 'tarballs');
  fs.mkdirSync(dest);
  // prepack builds each package with the repository's TypeScript: install it on a fresh checkout.
  if (!fs.existsSync(path.join(ROOT, 'node_modules/typescript/bin/tsc')))
    await must('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, timeoutMs: T.npm });
  await must('npm', ['pack', '-w', 'libs/mcp-tasks', '-w', 'libs/mcp-tasks-client', '--pack-destination', dest], {
    cwd: ROOT,
    timeoutMs: T.npm,
  });
  const find = (prefix) => {
    const file = fs.readdirSync(dest).find((f) => f.startsWith(prefix) && f.endsWith('.tgz'));
    if (!file) throw new Error(`no ${prefix}*.tgz in ${dest}`);
    return path.join(dest, file);
  };
  return { nest: find('mcp-tasks-nestjs-'), client: find('mcp-tasks-client-') };
}

async function setUpClient(clientTarball) {
  clientDir = path.join(tmp, 'client');
  fs.mkdirSync(clientDir);
  await must('npm', ['init', '-y'], { cwd: clientDir, timeoutMs: T.npm });
  await npmInstall(clientDir, [clientTarball, 'jsonwebtoken@^9']);
  for (const file of ['check.mjs', 'token.mjs', 'features.mjs', 'wire.mjs'])
    fs.copyFileSync(path.join(FIXTURES, 'client', file), path.join(clientDir, file));
}

async function adopt(app) {
  const dir = path.join(tmp, app.name);
  const started = Date.now();
  note(`${app.name}: generating and installing…`);
  const installed = await step(
    app.name,
    `generated by ${app.via}; npm install adds @mcp-tasks/nestjs from its tarball`,
    async () => {
      const [cmd, args] = app.generate(app.name);
      await must(cmd, args, { cwd: tmp, timeoutMs: T.generate });
      for (const overlay of app.overlays) fs.cpSync(path.join(FIXTURES, overlay), dir, { recursive: true });
      app.patch?.(dir, FIXTURES);
      // This machine's npm registry has @babel/core 7.29.16 but not the @babel/helper-module-transforms 7.29.16 it
      // needs, so the generated apps' jest (via babel-jest) cannot install; 7.29.13 is whole there. Adoption does not
      // run the apps' jest, and an override only matters where @babel/core is installed at all.
      await must('npm', ['pkg', 'set', 'overrides.@babel/core=7.29.13'], { cwd: dir, timeoutMs: T.npm });
      for (const pkg of app.allowScripts ?? [])
        await must('npm', ['pkg', 'set', `allowScripts.${pkg}=true`, '--json'], { cwd: dir, timeoutMs: T.npm });
      // One install: the generated dependencies, our tarball (its required peers come with it) and the extras.
      await npmInstall(dir, [nestTarball, ...app.extras]);
    },
  );
  if (!installed) return;
  note(`${app.name}: building…`);
  const built = await step(
    app.name,
    'nest build (the app\'s own "build" script) compiles against the package',
    async () => {
      await must('npm', ['run', 'build'], { cwd: dir, timeoutMs: T.build });
      if (!fs.existsSync(path.join(dir, 'dist/main.js'))) throw new Error('no dist/main.js after the build');
    },
  );
  if (!built) return;
  for (const run of app.runs) await run(app.name, dir);
  note(`${app.name}: done in ${Math.round((Date.now() - started) / 1000)} s`);
}

// ---- Main --------------------------------------------------------------------------------------
function cleanUp() {
  killAll();
  if (!tmp) return;
  if (keep) note(`kept ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    note(`${sig}: stopping everything started`);
    cleanUp();
    process.exit(130);
  });
}

const t0 = Date.now();
try {
  const apps = APPS.filter((a) => !only.length || only.some((o) => a.name.includes(o)));
  if (!apps.length) throw new Error(`--only ${only.join(',')} matches none of ${APPS.map((a) => a.name).join(', ')}`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-tasks-adopt-'));
  note(
    `working in ${tmp}; npm ${(await exec('npm', ['-v'], { cwd: tmp, env: childEnv(), timeoutMs: MIN })).out.split('\n')[1]}, node ${process.version}`,
  );
  await step(
    'docs',
    "the samples of docs/resources.md, prompts.md and tools.md's header tool are fixture files",
    () => {
      const drift = docsSampleDrift(ROOT, FIXTURES);
      if (drift.length) throw new Error(drift.join('; '));
    },
  );
  let tarballs;
  const packed = await step('pack', 'npm pack builds @mcp-tasks/nestjs and @mcp-tasks/client', async () => {
    tarballs = await pack();
  });
  if (packed) {
    nestTarball = tarballs.nest;
    const client = await step('client', 'a plain Node project installs @mcp-tasks/client from its tarball', () =>
      setUpClient(tarballs.client),
    );
    if (client) for (const app of apps) await adopt(app);
  }
} catch (err) {
  fail('adopt', 'runner', err.stack ?? String(err));
} finally {
  cleanUp();
}
note(`total ${Math.round((Date.now() - t0) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
