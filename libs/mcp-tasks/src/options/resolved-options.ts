import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MemoryTaskStore } from '../store/memory-task.store.js';
import type { TaskEventBus } from '../events/task-event-bus.interface.js';
import type { TaskStore } from '../store/task-store.interface.js';
import type { McpAuthOptions } from '../auth/mcp-auth-options.interface.js';
import type { McpServerIdentity, McpTasksModuleOptions } from './mcp-tasks-options.interface.js';

/** Options with every default applied; what the rest of the library injects. */
export interface ResolvedOptions {
  server: McpServerIdentity;
  path: string;
  /** A store, or the app's TypeORM connection to build one on. */
  store: TaskStore | { type: 'typeorm'; dataSource?: string };
  bus?: McpTasksModuleOptions['bus'];
  lease: number;
  shutdownGrace: number;
  ttl: number | null;
  pollInterval: number;
  maxPerPrincipal: number;
  maxTasks: number;
  tasks: boolean;
  auth?: McpAuthOptions;
  /** The host-scope resolver (`scope`, or its older name `principal`). */
  scope?: (req: IncomingMessage) => string | Promise<string>;
  guards: NonNullable<McpTasksModuleOptions['guards']>;
  telemetry: boolean;
  requestStateSecret: Buffer;
  requestStateTtl: number;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  fastPath: boolean;
}

export const MCP_TASKS_OPTIONS = Symbol('MCP_TASKS_OPTIONS');

const fail = (msg: string): never => {
  throw new Error(`McpTasksModule: invalid options: ${msg}`);
};

const positive = (name: string, value: unknown, allowInfinity: boolean): void => {
  const ok =
    typeof value === 'number' && value > 0 && (Number.isInteger(value) || (allowInfinity && value === Infinity));
  if (!ok) fail(`${name} must be a positive integer${allowInfinity ? ' or Infinity' : ''} (got ${String(value)})`);
};

/** Applies defaults and rejects bad options at startup, with a message naming the option. */
export function resolveOptions(raw: McpTasksModuleOptions | undefined): ResolvedOptions {
  if (!raw || typeof raw !== 'object') return fail('options are required');
  const { server } = raw;
  if (
    !server ||
    typeof server.name !== 'string' ||
    !server.name ||
    typeof server.version !== 'string' ||
    !server.version
  ) {
    fail('server.name and server.version are required strings');
  }
  const o = {
    path: '/mcp',
    ttl: 3_600_000,
    pollInterval: 1_000,
    maxPerPrincipal: 100,
    maxTasks: Infinity,
    tasks: true,
    requestStateTtl: 600_000,
    ...Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)),
  } as McpTasksModuleOptions &
    Required<
      Pick<
        McpTasksModuleOptions,
        'path' | 'pollInterval' | 'maxPerPrincipal' | 'maxTasks' | 'tasks' | 'requestStateTtl'
      >
    >;
  if (typeof o.path !== 'string' || !o.path.startsWith('/')) fail(`path must start with "/" (got ${String(o.path)})`);
  if (o.ttl !== null) positive('ttl', o.ttl, false);
  positive('pollInterval', o.pollInterval, false);
  positive('maxPerPrincipal', o.maxPerPrincipal, true);
  positive('maxTasks', o.maxTasks, true);
  positive('requestStateTtl', o.requestStateTtl, false);
  if (typeof o.tasks !== 'boolean') fail('tasks must be a boolean');
  if (o.fastPath !== undefined && typeof o.fastPath !== 'boolean') fail('fastPath must be a boolean');
  if (o.telemetry !== undefined && typeof o.telemetry !== 'boolean') fail('telemetry must be a boolean');
  if (o.principal !== undefined && typeof o.principal !== 'function') fail('principal must be a function');
  if (o.scope !== undefined && typeof o.scope !== 'function') fail('scope must be a function');
  if (o.auth !== undefined) checkAuth(o.auth);
  if (o.store !== undefined && !isStore(o.store) && (o.store as { type?: string }).type !== 'typeorm') {
    fail(
      'store must implement TaskStore (create, get, update, sweep, renewLeases, reclaimExpiredLeases)' +
        ' or be { type: "typeorm" }',
    );
  }
  if (o.bus !== undefined && !isBus(o.bus) && (o.bus as { type?: string }).type !== 'postgres')
    fail('bus must implement TaskEventBus (publish, subscribe) or be { type: "postgres" }');
  if (o.lease !== undefined) positive('lease', o.lease, false);
  if (o.shutdownGrace !== undefined && !(Number.isInteger(o.shutdownGrace) && o.shutdownGrace >= 0))
    fail('shutdownGrace must be a non-negative integer');
  if (
    o.requestStateSecret !== undefined &&
    (typeof o.requestStateSecret !== 'string' || o.requestStateSecret.length < 16)
  ) {
    fail('requestStateSecret must be a string of at least 16 characters');
  }
  return {
    server: o.server,
    path: o.path.length > 1 ? o.path.replace(/\/+$/, '') : o.path,
    store: o.store ?? new MemoryTaskStore(),
    bus: o.bus,
    lease: o.lease ?? 30_000,
    shutdownGrace: o.shutdownGrace ?? 10_000,
    ttl: o.ttl ?? null,
    pollInterval: o.pollInterval,
    maxPerPrincipal: o.maxPerPrincipal,
    maxTasks: o.maxTasks,
    tasks: o.tasks,
    auth: o.auth,
    scope: o.scope ?? o.principal,
    guards: o.guards ?? {},
    telemetry: o.telemetry ?? true,
    requestStateSecret: o.requestStateSecret ? Buffer.from(o.requestStateSecret) : randomBytes(32),
    requestStateTtl: o.requestStateTtl,
    allowedHosts: o.allowedHosts,
    allowedOrigins: o.allowedOrigins,
    fastPath: o.fastPath ?? false,
  };
}

function checkAuth(auth: McpAuthOptions): void {
  if (!auth || typeof auth !== 'object') fail('auth must be an object');
  try {
    new URL(auth.resource);
  } catch {
    fail(`auth.resource must be an absolute URL (got ${String(auth.resource)})`);
  }
  if (!Array.isArray(auth.authorizationServers) || auth.authorizationServers.length === 0)
    fail('auth.authorizationServers must list at least one server');
  if (!auth.strategy && !auth.secretOrKey && !auth.jwksUri) fail('auth needs secretOrKey, jwksUri or strategy');
  if (!auth.strategy && !auth.issuer) fail('auth.issuer is required with the built-in JWT strategy');
  if (auth.cacheTtl !== undefined && !(Number.isInteger(auth.cacheTtl) && auth.cacheTtl >= 0))
    fail('auth.cacheTtl must be a non-negative integer');
}

export const isStore = (s: unknown): s is TaskStore =>
  !!s &&
  ['create', 'get', 'update', 'sweep', 'renewLeases', 'reclaimExpiredLeases'].every(
    (m) => typeof (s as Record<string, unknown>)[m] === 'function',
  );

export const isBus = (b: unknown): b is TaskEventBus =>
  !!b && ['publish', 'subscribe'].every((m) => typeof (b as Record<string, unknown>)[m] === 'function');
