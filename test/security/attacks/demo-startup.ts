import { spawn } from 'node:child_process';
import { freePort } from '../../support/free-port.js';

interface Exit {
  code: number | null;
  output: string;
}

/** Runs the built demo with `env` until it exits or `ms` pass (then it is killed: `code` null). */
async function runDemo(env: Record<string, string>, ms: number): Promise<Exit> {
  const base = { ...process.env };
  delete base.MCP_JWT_SECRET;
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...base, PORT: String(await freePort()), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (c: string) => (output += c));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The demo refuses to serve tokens signed with a secret anyone can read when it is reachable from elsewhere. */
export async function demoStartup(check: (attack: string, ok: boolean, detail?: string) => void): Promise<void> {
  const off = await runDemo({ HOST: '0.0.0.0', MCP_AUTH: '1' }, 60_000);
  check(
    'demo: with auth, off loopback and no MCP_JWT_SECRET it refuses to start, naming the variable',
    off.code !== null && off.code !== 0 && off.output.includes('MCP_JWT_SECRET'),
    `exit ${off.code}: ${off.output.trim().split('\n').at(-1)?.slice(0, 160)}`,
  );
}
