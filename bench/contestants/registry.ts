import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_JWT_SECRET } from '../support/tokens.js';
import type { ProcessSpec } from './process.js';

/** Who takes part: the limit, the two peers, and the module on each store. */
export interface Contestant {
  /** Column / series name in the results. */
  name: string;
  spec: ProcessSpec;
  /** What `bench_stats` must report for a module contestant (the demo really runs on that store/bus). */
  expect?: { store: RegExp; bus?: RegExp };
  /** The demo's JWT auth is on (MCP_AUTH=1): a token is minted once its port is known. */
  auth?: boolean;
  /** Bearer token to send (auth on). */
  token?: string;
  /** With auth on: the CPU figures send a never-seen token with every request (no verified-token cache hits). */
  freshTokens?: boolean;
}

export const LIMIT = 'limit';
export const PG_LIMIT = 'limit/PostgreSQL (node:http + pg)';
export const SDK = 'SDK peer';
export const MCP_NEST = 'MCP-Nest peer';

/** The database's own limit on `url` (see pg-limit-server.ts). */
export const pgLimit = (url: string): Contestant => ({
  name: PG_LIMIT,
  spec: { id: 'pg-limit', script: 'dist/bench/contestants/pg-limit-server.js', env: { DATABASE_URL: url } },
});

/** The demo with the bench's fixture tools (`bench/fixture-app/`). */
const DEMO = 'dist/bench/fixture-app/main.js';

export function versionOf(root: string, pkg: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return '?';
  }
}

export const limit = (): Contestant => ({
  name: LIMIT,
  spec: { id: 'limit', script: 'dist/bench/contestants/limit-server.js' },
});
/** The gateway's limit: a bare node:http relay in front of `env.MCP_UPSTREAM_URL` (contestants/limit-proxy.ts). */
export const limitProxy = (name: string, id: string, env: Record<string, string>): Contestant => ({
  name,
  spec: { id, script: 'dist/bench/contestants/limit-proxy.js', env },
});
export const sdkPeer = (): Contestant => ({
  name: SDK,
  spec: { id: 'sdk-peer', script: 'dist/bench/contestants/sdk-peer.js' },
});
export const mcpNestPeer = (): Contestant => ({
  name: MCP_NEST,
  spec: { id: 'mcp-nest-peer', script: 'dist/bench/contestants/mcp-nest-peer.js' },
});

/** The demo app with the bench fixtures loaded, on the given store (env contract of src/demo-storage.ts). */
export function demo(name: string, id: string, env: Record<string, string>, expect: Contestant['expect']): Contestant {
  return {
    name,
    // MCP_JWT_SECRET: used when a phase turns the demo's auth on (MCP_AUTH=1); the bench mints tokens with it.
    spec: {
      id,
      script: DEMO,
      nodeArgs: ['--expose-gc'],
      env: { MCP_STORE: 'memory', MCP_JWT_SECRET: BENCH_JWT_SECRET, ...env },
    },
    expect,
  };
}

export const onMemory = (name = 'module/memory', id = 'module-memory', env: Record<string, string> = {}) =>
  demo(name, id, { MCP_STORE: 'memory', ...env }, { store: /^MemoryTaskStore$/ });

export const onSqlite = (file: string, id = 'module-sqlite') =>
  demo('module/SQLite', id, { MCP_STORE: 'sqlite', MCP_SQLITE_FILE: file }, { store: /sqlite/i });

export const onPostgres = (url: string, id: string, name = 'module/PostgreSQL', env: Record<string, string> = {}) =>
  demo(
    name,
    id,
    {
      MCP_STORE: 'postgres',
      DATABASE_URL: url,
      MCP_BUS: 'postgres',
      MCP_STATE_SECRET: 'bench-shared-request-state-secret',
      ...env,
    },
    { store: /postgres/i, bus: /postgres/i },
  );

/** The demo on the Redis store and bus at `url` (`MCP_STORE=redis`, `MCP_BUS=redis`), as several instances run. */
export const onRedis = (url: string, id: string, name = 'module/Redis', env: Record<string, string> = {}) =>
  demo(
    name,
    id,
    {
      MCP_STORE: 'redis',
      REDIS_URL: url,
      MCP_BUS: 'redis',
      MCP_STATE_SECRET: 'bench-shared-request-state-secret',
      ...env,
    },
    { store: /^RedisTaskStore$/, bus: /redis/i },
  );
