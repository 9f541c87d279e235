import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const APP = join(import.meta.dirname, 'fixtures/peers/peer-app.mjs');
const OPTIONAL = [
  'pg',
  'passport',
  'passport-jwt',
  'jwks-rsa',
  'typeorm',
  '@nestjs/typeorm',
  '@nestjs/event-emitter',
  '@opentelemetry/api',
  '@mcp-tasks/client',
  'ioredis',
  'nats',
];
const PUBLIC_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' });
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

interface Started {
  child: ChildProcess;
  /** `listening <port>` or `startup failed: <message>`. */
  line: string;
  /** Optional peers the library asked Node for, in order. */
  requested: () => string[];
}

const children: ChildProcess[] = [];
const dirs: string[] = [];

/** Starts the fixture app on the built package in a fresh process, with `block` resolving as "not installed". */
async function start(
  options: Record<string, unknown>,
  block: string[] = OPTIONAL,
  more: Record<string, string> = {},
): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'peers-'));
  dirs.push(dir);
  const log = join(dir, 'requested.log');
  const env = {
    ...process.env,
    PEERS_LOG: log,
    PEERS_BLOCK: block.join(','),
    APP_OPTIONS: JSON.stringify(options),
    ...more,
  };
  const child = spawn(process.execPath, [APP], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture app did not start in 60 s; stderr: ${err}`)), 60_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const first = out.split('\n')[0];
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(first);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(out.split('\n')[0] || `exited ${code}; stderr: ${err}`);
    });
  });
  const requested = () => {
    try {
      return readFileSync(log, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  return { child, line, requested };
}

async function callTool(
  port: number,
  caps: Record<string, unknown>,
  authorization?: string,
): Promise<Record<string, any>> {
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: {
      ...(authorization ? { authorization } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'echo',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': caps,
        },
      },
    }),
  });
  return (await res.json()) as Record<string, any>;
}

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// Runs the built package (dist) in a child process, as an installed app would: `npm test` builds first.
describe('optional peer dependencies', () => {
  it('an app on the memory store without auth or telemetry asks for none of them, and works', async () => {
    const app = await start({ telemetry: false });
    expect(app.line).toMatch(/^listening \d+$/);
    const port = Number(app.line.split(' ')[1]);
    expect((await callTool(port, {})).result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'echoed' }],
    });
    expect((await callTool(port, TASKS)).result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(app.requested()).toEqual([]);
  });

  it('bus nats loads nats alone and starts while NATS is down; a missing ioredis fails startup', async () => {
    const bus = { type: 'nats', connection: 'nats://127.0.0.1:1' };
    const nats = await start(
      { telemetry: false, bus },
      OPTIONAL.filter((p) => p !== 'nats'),
    );
    expect(nats.line).toMatch(/^listening \d+$/);
    expect(nats.requested()).toEqual(['nats']);
    const redis = await start({ telemetry: false, bus: { type: 'redis', connection: 'redis://127.0.0.1:1' } });
    expect(redis.line).toContain('bus { type: "redis" } needs the package "ioredis" — install it: npm install ioredis');
    expect(redis.requested()).toEqual(['ioredis']);
  });

  it('upstreams load @mcp-tasks/client and nothing else; an upstream that is down does not stop startup', async () => {
    const upstreams = [{ name: 'files', url: 'http://127.0.0.1:1/mcp' }];
    const app = await start(
      { telemetry: false, upstreams },
      OPTIONAL.filter((p) => p !== '@mcp-tasks/client'),
    );
    expect(app.line).toMatch(/^listening \d+$/);
    expect((await callTool(Number(app.line.split(' ')[1]), {})).result).toMatchObject({ resultType: 'complete' });
    expect(app.requested()).toEqual(['@mcp-tasks/client']);
  });

  it('upstreams with an @mcp-tasks/client too old for them fail at startup, saying to update it', async () => {
    const upstreams = [{ name: 'files', url: 'http://127.0.0.1:1/mcp' }];
    const app = await start({ telemetry: false, upstreams }, [], { PEERS_OLD_CLIENT: '1' });
    expect(app.line).toBe(
      'startup failed: McpTasksModule: upstreams need a newer @mcp-tasks/client' +
        ' (with McpTasksClient.request): update it',
    );
  });

  it('the ./testing entry (the TaskStore contract suite) asks for none of them either', async () => {
    const app = await start({ telemetry: false }, OPTIONAL, { PEERS_IMPORT_TESTING: '1' });
    expect(app.line).toMatch(/^listening \d+$/);
    expect(app.requested()).toEqual([]);
  });

  it('auth with a shared secret needs none of the auth packages: tokens are checked, the call runs', async () => {
    const secret = 'x'.repeat(32);
    const auth = { authorizationServers: ['https://as.invalid'], issuer: 'https://as.invalid', secretOrKey: secret };
    const app = await start({ telemetry: false, auth: { ...auth, resource: 'http://127.0.0.1/mcp' } });
    expect(app.line).toMatch(/^listening \d+$/);
    const port = Number(app.line.split(' ')[1]);
    const token = jwt.sign({ sub: 'ann', iss: auth.issuer, aud: 'http://127.0.0.1/mcp' }, secret, { expiresIn: 60 });
    expect((await callTool(port, {}, `Bearer ${token}`)).result).toMatchObject({ resultType: 'complete' });
    const refused = await callTool(port, {}, `Bearer ${jwt.sign({ sub: 'ann', iss: auth.issuer }, 'another-secret')}`);
    expect(refused.error).toMatchObject({ code: -32600 });
    expect(app.requested()).toEqual([]);
  });

  it('telemetry on (the default) only looks for OpenTelemetry and the event emitter; works without them', async () => {
    const app = await start({});
    expect(app.line).toMatch(/^listening \d+$/);
    expect((await callTool(Number(app.line.split(' ')[1]), {})).result).toMatchObject({ resultType: 'complete' });
    expect(new Set(app.requested())).toEqual(new Set(['@opentelemetry/api', '@nestjs/event-emitter']));
  });

  it.each([
    ['store { type: "typeorm" }', { store: { type: 'typeorm' } }, ['typeorm'], 'typeorm'],
    [
      'store { type: "typeorm" } without @nestjs/typeorm',
      { store: { type: 'typeorm' } },
      ['@nestjs/typeorm'],
      '@nestjs/typeorm',
    ],
    ['store { type: "redis" }', { store: { type: 'redis', url: 'redis://127.0.0.1:1' } }, ['ioredis'], 'ioredis'],
    [
      'bus { type: "postgres" }',
      { bus: { type: 'postgres', connection: 'postgres://127.0.0.1:1/none' } },
      ['pg'],
      'pg',
    ],
    [
      'auth (built-in JWT, a public key)',
      {
        auth: {
          resource: 'http://127.0.0.1/mcp',
          authorizationServers: ['https://as.invalid'],
          issuer: 'https://as.invalid',
          secretOrKey: PUBLIC_KEY,
          algorithms: ['ES256'],
        },
      },
      ['passport-jwt'],
      'passport-jwt',
    ],
    [
      'auth.jwksUri',
      {
        auth: {
          resource: 'http://127.0.0.1/mcp',
          authorizationServers: ['https://as.invalid'],
          issuer: 'https://as.invalid',
          jwksUri: 'https://as.invalid/jwks',
        },
      },
      ['jwks-rsa'],
      'jwks-rsa',
    ],
    [
      'upstreams',
      { upstreams: [{ name: 'files', url: 'http://127.0.0.1:1/mcp' }] },
      ['@mcp-tasks/client'],
      '@mcp-tasks/client',
    ],
    [
      'auth.strategy',
      { auth: { resource: 'http://127.0.0.1/mcp', authorizationServers: ['https://as.invalid'], strategy: 'app-jwt' } },
      ['passport'],
      'passport',
    ],
  ])('%s with its package missing fails at startup naming the package', async (_case, options, block, pkg) => {
    const app = await start(options, block);
    expect(app.line).toContain('startup failed: McpTasksModule:');
    expect(app.line).toContain(`needs the package "${pkg}"`);
    expect(app.line).toContain(`npm install ${pkg}`);
    expect(app.requested()).toContain(pkg);
  });
});
