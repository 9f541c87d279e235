import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './support/free-port.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** The built demo (`npm run build`) on a free loopback port, with `env`; resolves once it answers. */
async function demo(env: Record<string, string>): Promise<{ port: number; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}/mcp-console`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the demo exited (${child.exitCode})`);
    if (
      await fetch(`${base}/`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { port, base };
    await sleep(100);
  }
  throw new Error('the demo did not start in 60 s');
}

/** The secret the auth-mode demo is started with, which `npm run token` needs too. */
const SECRET = randomBytes(32).toString('base64url');
const token = (port: number, scope: string) =>
  execFileSync(process.execPath, ['scripts/dev-token.mjs', '--sub', 'ops', '--scope', scope], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', MCP_JWT_SECRET: SECRET },
    encoding: 'utf8',
  }).trim();

describe('the demo mounts the console at /mcp-console', () => {
  it('without auth: open to this machine (LoopbackGuard)', async () => {
    const { base } = await demo({});
    const res = await fetch(`${base}/api/overview`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { server: { name: string } }).server.name).toBe('mcp-tasks-demo');
  }, 90_000);

  it('with MCP_AUTH=1: only tokens with the mcp:admin scope', async () => {
    const { port, base } = await demo({ MCP_AUTH: '1', MCP_JWT_SECRET: SECRET });
    const get = (headers: Record<string, string> = {}) => fetch(`${base}/api/overview`, { headers });
    expect((await get()).status).toBe(401);
    const user = await get({ authorization: `Bearer ${token(port, 'export deploy')}` });
    expect(user.status).toBe(403);
    expect(user.headers.get('www-authenticate')).toMatch(/scope="mcp:admin"/);
    expect((await get({ authorization: `Bearer ${token(port, 'mcp:admin')}` })).status).toBe(200);
  }, 90_000);
});
