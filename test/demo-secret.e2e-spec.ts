import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { stripVTControlCharacters } from 'node:util';
import jwt from 'jsonwebtoken';
import { DEMO_ISSUER } from '../src/demo-auth.js';
import { AppProcess } from './support/app-process.js';
import { freePort } from './support/free-port.js';
import { until } from './support/until.js';

/**
 * The demo's auth mode (`MCP_AUTH=1`) never signs with a secret written in the repository: off loopback it needs
 * `MCP_JWT_SECRET`; on loopback without one it makes a random secret per start and prints a development token.
 * Runs the built demo (`npm run build`).
 */

/** The secret the demo signed with when none was set, before: anyone could read it here and mint tokens. */
const OLD_REPOSITORY_SECRET = 'demo-secret-change-me-demo-secret-change-me';
/** This process's environment without MCP_JWT_SECRET (the demo must not inherit one). */
const NO_SECRET = { MCP_JWT_SECRET: undefined };

/** Runs the built demo with `env` until it exits, or kills it after `ms` (then `code` is null). */
async function runToExit(env: Record<string, string | undefined>, ms = 60_000) {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: String(await freePort()), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (c: string) => (output += c));
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const TOKEN_LINE = /Development token \(sub dev, scopes export deploy mcp:admin, 12 h\): (\S+)/;

/** The demo on a loopback port in auth mode (on `port`, if given); `output()` is what it has printed so far. */
async function authDemo(env: Record<string, string | undefined> = NO_SECRET, port?: number) {
  let output = '';
  const app = await AppProcess.start({
    script: 'dist/src/main.js',
    env: { MCP_AUTH: '1', MCP_TELEMETRY: '0', NO_COLOR: '1', ...env },
    port,
    onOutput: (chunk) => (output += stripVTControlCharacters(chunk)),
  });
  started.push(app);
  return { app, output: () => output };
}

/** The development token the demo printed at start. */
const printedToken = (demo: { output: () => string }) =>
  until('the development token in the log', () => TOKEN_LINE.exec(demo.output())?.[1]);

const started: AppProcess[] = [];
afterAll(async () => {
  for (const app of started) await app.stop();
});

/** Status of the console's overview and of an MCP `tools/list` with `token`. */
async function answers(port: number, token: string): Promise<{ console: number; mcp: number }> {
  const headers = { authorization: `Bearer ${token}` };
  const overview = await fetch(`http://127.0.0.1:${port}/mcp-console/api/overview`, { headers });
  const mcp = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  return { console: overview.status, mcp: mcp.status };
}

describe('demo: the secret of its auth mode', () => {
  it('off loopback with auth and no MCP_JWT_SECRET, it exits non-zero naming MCP_JWT_SECRET', async () => {
    for (const host of ['0.0.0.0', '::']) {
      const { code, output } = await runToExit({ ...NO_SECRET, MCP_AUTH: '1', HOST: host });
      expect([host, code]).toEqual([host, 1]);
      expect(output).toContain(`MCP_AUTH=1 with HOST=${host} (reachable from other machines) needs MCP_JWT_SECRET`);
      expect(output).not.toMatch(/MCP endpoint on/);
    }
  }, 120_000);

  it('on loopback without a secret: the repository’s old secret is refused, the printed token works', async () => {
    const first = await authDemo();
    const printed = await printedToken(first);
    expect(first.output()).toContain('MCP_JWT_SECRET is not set, so this run signs with a random secret');
    const { port } = first.app;
    const forged = jwt.sign(
      { sub: 'mallory', scope: 'export deploy mcp:admin', azp: 'dev-cli', aud: `http://127.0.0.1:${port}/mcp` },
      OLD_REPOSITORY_SECRET,
      { algorithm: 'HS256', issuer: DEMO_ISSUER, expiresIn: 600 },
    );
    expect(await answers(port, forged)).toEqual({ console: 401, mcp: 401 });
    expect(await answers(port, printed)).toEqual({ console: 200, mcp: 200 });

    // The next start, on the same address, makes another secret: the last run's token is worthless there.
    await first.app.stop();
    const second = await authDemo(NO_SECRET, port);
    const next = await printedToken(second);
    expect(next).not.toBe(printed);
    expect(await answers(port, printed)).toEqual({ console: 401, mcp: 401 });
    expect(await answers(port, next)).toEqual({ console: 200, mcp: 200 });
  }, 180_000);

  it('with MCP_JWT_SECRET it prints no token, and npm run token mints with that secret only', async () => {
    const secret = randomBytes(32).toString('base64url');
    const { app, output } = await authDemo({ MCP_JWT_SECRET: secret });
    const mint = (env: Record<string, string | undefined>) =>
      spawnSync(process.execPath, ['scripts/dev-token.mjs', '--sub', 'ops', '--scope', 'mcp:admin'], {
        env: { ...process.env, PORT: String(app.port), HOST: '127.0.0.1', ...env },
        encoding: 'utf8',
      });
    const refused = mint(NO_SECRET);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^dev-token: set MCP_JWT_SECRET to the secret the demo was started with/);
    const minted = mint({ MCP_JWT_SECRET: secret });
    expect(minted.status).toBe(0);
    expect((await answers(app.port, minted.stdout.trim())).console).toBe(200);
    expect(output()).toContain('MCP endpoint on');
    expect(output()).not.toContain('Development token');
  }, 120_000);
});
