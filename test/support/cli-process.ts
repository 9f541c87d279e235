import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

/** The repository root, the built demo and the built CLI (`npm test` builds before it tests). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEMO_MAIN = `${ROOT}dist/src/main.js`;
export const CLI_MAIN = `${ROOT}libs/mcp-tasks-client/dist/cli/main.js`;

/** Fails (never skips) when the build the CLI tests run is missing. */
export function requireBuild(): void {
  for (const file of [DEMO_MAIN, CLI_MAIN])
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (npm test does)`);
}

export interface DemoProcess {
  url: string;
  stop(): Promise<void>;
}

/** Starts the built demo (`node dist/src/main.js`) on a free loopback port and waits for its endpoint line. */
export async function startDemoProcess(env: Record<string, string> = {}, timeoutMs = 60_000): Promise<DemoProcess> {
  requireBuild();
  const port = await freePort();
  const child = spawn(process.execPath, [DEMO_MAIN], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = `http://127.0.0.1:${port}/mcp`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start in ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes(`MCP endpoint on ${url}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the demo exited (${code}) before it listened:\n${log}`));
    });
  });
  return { url, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running CLI with pipes for stdio (no terminal): its output so far, and its end. */
export interface CliChild {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves when `stderr` matches (rejects after `ms` with what was printed). */
  waitForStderr(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  done: Promise<CliRun>;
}

/** Starts the built CLI with `args`, stdio piped (so stdout and stderr are not terminals). */
export function spawnCli(args: string[], env: Record<string, string> = {}): CliChild {
  requireBuild();
  const { MCP_TOKEN: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [CLI_MAIN, ...args], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin!.end();
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout!.on('data', (c: Buffer) => void (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
    for (const w of watchers) w();
  });
  const done = new Promise<CliRun>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    child,
    output: () => ({ stdout, stderr }),
    done,
    waitForStderr: (pattern, ms = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stderr);
          if (!match) return;
          cleanup();
          resolve(match);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`stderr did not match ${pattern} in ${ms} ms:\n${stderr}`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          watchers.delete(check);
        };
        watchers.add(check);
        void done.then(() => setTimeout(check, 0));
        check();
      }),
  };
}

/** Runs the built CLI to its end (piped stdio). */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return spawnCli(args, env).done;
}
