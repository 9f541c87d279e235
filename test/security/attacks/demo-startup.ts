import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import jwt from 'jsonwebtoken';
import { DEMO_ISSUER } from '../../../src/demo-auth.js';
import { AppProcess } from '../../support/app-process.js';
import { freePort } from '../../support/free-port.js';
import { modernRequest, sendRaw } from '../../reliability/support/http.js';

/** The secret the demo signed with before it had to be given one: printed in the repository's history. */
const OLD_DEMO_SECRET = 'demo-secret-change-me-demo-secret-change-me';
const TOKEN_LINE = /Development token \([^)]*\): (\S+)/;

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
  let output = '';
  const base = { ...process.env };
  delete base.MCP_JWT_SECRET;
  const local = await AppProcess.start({
    script: 'dist/src/main.js',
    env: { ...base, MCP_AUTH: '1', MCP_JWT_SECRET: undefined },
    onOutput: (chunk) => (output += chunk),
  });
  try {
    const resource = `http://127.0.0.1:${local.port}/mcp`;
    const old = jwt.sign({ sub: 'mallory', scope: 'mcp:admin export', aud: resource }, OLD_DEMO_SECRET, {
      issuer: DEMO_ISSUER,
    });
    const status = async (token: string) =>
      (await sendRaw({ host: '127.0.0.1', port: local.port }, modernRequest('tools/list', {}, { token }))).status;
    const refused = await status(old);
    check(
      'demo: on loopback without a secret, a token signed with the old repository secret is 401',
      refused === 401,
      `${refused}`,
    );
    for (let i = 0; i < 50 && !TOKEN_LINE.test(output); i++) await new Promise((r) => setTimeout(r, 100));
    // The log is coloured: the token ends where the colour code starts.
    const printed = TOKEN_LINE.exec(stripVTControlCharacters(output))?.[1];
    const served = printed ? await status(printed) : undefined;
    check(
      'demo: on loopback without a secret, the development token it printed is served',
      served === 200,
      `${served}`,
    );
  } finally {
    await local.stop();
  }
}
