// Process helpers for run.mjs: commands with timeouts, app processes, and killing all of them.
import { spawn } from 'node:child_process';
import net from 'node:net';

/** Every child still running, so that a timeout, an error or Ctrl-C can kill what we started. */
const live = new Set();

/**
 * The environment for child processes. `npm run test:adopt` exports npm_* variables describing
 * the repository (its package, its log level, workspaces); the apps' own npm must not see them.
 */
export function childEnv(extra = {}) {
  const env = {
    ...process.env,
    NO_COLOR: '1',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  for (const key of Object.keys(env))
    if (
      /^npm_(package_|lifecycle_|command$|config_(loglevel|workspaces?|include_workspace_root|local_prefix|allow_scripts)$)/.test(
        key,
      )
    )
      delete env[key];
  return { ...env, ...extra };
}

/**
 * Runs a command to its end and resolves `{ code, out }` (stdout and stderr interleaved); never
 * rejects. It gets its own process group, so a timeout kills npm/npx together with their children.
 */
export function exec(cmd, args, { cwd, env, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: env ?? childEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.ownGroup = true;
    live.add(child);
    let out = `$ ${cmd} ${args.join(' ')}  (in ${cwd})\n`;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      out += `\n[killed after ${timeoutMs} ms]\n`;
      killGroup(child);
    }, timeoutMs);
    child.on('error', (err) => (out += `\n${err.message}\n`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ code: code ?? signal, out });
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** A loopback port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `node dist/main.js` in `dir` on a free port and waits until `GET /` answers. Resolves a
 * handle `{ base, log(), stop() }`; rejects (after killing it) when it exits or does not answer in time.
 */
export async function startApp(dir, env, timeoutMs) {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: dir,
    env: childEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const exited = new Promise((r) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      r(code ?? signal);
    }),
  );
  const handle = {
    base: `http://127.0.0.1:${port}`,
    log: () => log,
    /** SIGKILL, as a crash: no shutdown hook runs. */
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if ((await Promise.race([exited.then(() => true), sleep(10_000)])) !== true) child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw Object.assign(new Error(`exited (${child.exitCode ?? child.signalCode}) before answering`), { log });
    const answered = await fetch(`${handle.base}/`, { signal: AbortSignal.timeout(2_000) }).then(
      () => true,
      () => false,
    );
    if (answered) return handle;
    await sleep(300);
  }
  await handle.stop();
  throw Object.assign(new Error(`did not answer GET / within ${timeoutMs} ms`), { log });
}

/** Kills every child still running (apps by pid, commands by process group). */
export function killAll() {
  for (const child of live) {
    if (child.ownGroup) killGroup(child);
    else child.kill('SIGKILL');
  }
  live.clear();
}

/** The last `n` lines of a text, indented, for a failure's explanation. */
export function tail(text, n = 40) {
  const lines = String(text ?? '')
    .trimEnd()
    .split('\n')
    .slice(-n);
  return lines.map((l) => `    | ${l}`).join('\n');
}
