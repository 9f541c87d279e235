import { randomBytes } from 'node:crypto';
import { MemoryTaskStore } from '../store/memory/memory-task.store.js';
import type { McpTasksModuleOptions } from './mcp-tasks-options.interface.js';
import { OPTION_DEFAULTS } from './option.defaults.js';
import { validateOptions } from './options.validator.js';
import type { ResolvedOptions } from './resolved-options.interface.js';

/** The module's options, checked (a bad one fails startup, named) and completed with the defaults. */
export function resolveOptions(raw: McpTasksModuleOptions | undefined): ResolvedOptions {
  validateOptions(raw);
  return applyDefaults(raw);
}

function applyDefaults(raw: McpTasksModuleOptions): ResolvedOptions {
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)) as McpTasksModuleOptions;
  const o = { ...OPTION_DEFAULTS, ...given };
  return {
    server: o.server,
    path: o.path.length > 1 ? o.path.replace(/\/+$/, '') : o.path,
    store: o.store ?? new MemoryTaskStore(),
    bus: o.bus,
    lease: o.lease,
    shutdownGrace: o.shutdownGrace,
    ttl: o.ttl,
    pollInterval: o.pollInterval,
    maxPerPrincipal: o.maxPerPrincipal,
    maxTasks: o.maxTasks,
    tasks: o.tasks,
    auth: o.auth,
    subject: o.subject,
    guards: o.guards ?? {},
    telemetry: o.telemetry,
    requestStateSecret: o.requestStateSecret ? Buffer.from(o.requestStateSecret) : randomBytes(32),
    requestStateTtl: o.requestStateTtl,
    questionTimeout: o.questionTimeout,
    allowedHosts: o.allowedHosts,
    allowedOrigins: o.allowedOrigins,
    fastPath: o.fastPath,
    trustProxy: o.trustProxy,
    include: o.include,
    serializer: o.serializer ?? {},
    upstreams: o.upstreams ?? [],
  };
}
