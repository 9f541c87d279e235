import type { TaskPolicy } from '../decorators/mcp-tool.decorator.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import type { TaskCallVariant } from '../dispatcher/task-call.variant.js';
import { LEGACY_PROTOCOL_VERSION, RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { TaskRecord } from '../store/task.record.js';
import { toLegacyTask } from './legacy-task.view.js';
import { LEGACY_MIN_TTL } from './legacy.constants.js';

/** How a 2025-era `tools/call` may run. */
export interface LegacyCall {
  /** The `tasks` option: off, every tool runs in the request (as on 2026-07-28). */
  tasks: boolean;
  /** Tasks are on and the request speaks 2025-11-25 (earlier revisions have no tasks). */
  tasksOn: boolean;
  /** `params.task` when tasks are on (ignored otherwise, as the spec asks). */
  task?: { ttl?: number };
  session?: string;
  /** The server's `ttl` option. */
  serverTtl: number | null;
  pollInterval: number;
}

/**
 * The 2025-11-25 `tools/call`: a task exactly when the client asked for one (`params.task`) and the tool allows it,
 * in the request otherwise; the errors "Tool-Level Negotiation" names for a mismatch (-32601); the client's `ttl`
 * honoured up to the server's; the full 2025-11-25 task as the handle.
 */
export function legacyCallVariant(call: LegacyCall): TaskCallVariant {
  return {
    mode: (tool, resolved) => legacyMode(tool, resolved, call),
    origin: { generation: LEGACY_PROTOCOL_VERSION, session: call.session, ttl: ttlFor(call) },
    created: (task: TaskRecord) => ({ task: toLegacyTask(task, call.pollInterval) }),
    inputInRequest: (tool) => inputInRequest(tool, call.tasksOn),
  };
}

/**
 * Input a run in the request cannot ask (this call carries no way to ask its client): at 2025-11-25 with tasks on,
 * a task can; an earlier revision has no `params.task` to point to.
 */
function inputInRequest(tool: string, tasksOn: boolean): RpcError {
  const cannot = `Tool ${tool} asks for input, which cannot be asked during this call`;
  return new RpcError(
    RpcCode.InvalidRequest,
    tasksOn ? `${cannot}: call it with params.task and answer inside the task` : cannot,
  );
}

/** The decision table (docs/2025-11-25-clients.md, "Tools"): a function policy is advertised `optional`. */
export function legacyMode(tool: ToolDefinition, resolved: TaskPolicy, call: LegacyCall): 'task' | 'sync' {
  if (!call.tasks) return 'sync';
  if (!call.tasksOn) {
    if (resolved !== 'required') return 'sync';
    throw new RpcError(
      RpcCode.InvalidRequest,
      `Tool ${tool.name} runs only as a task: call it on protocol 2025-11-25 with params.task, ` +
        'or on 2026-07-28 with the Tasks extension',
    );
  }
  if (call.task) {
    if (tool.policy !== 'sync') return 'task';
    throw new RpcError(RpcCode.MethodNotFound, `Tool ${tool.name} does not support task-augmented execution`);
  }
  if (resolved !== 'required') return 'sync';
  throw new RpcError(
    RpcCode.MethodNotFound,
    `Tool ${tool.name} requires task augmentation (execution.taskSupport: required)`,
  );
}

/** `params.task`, checked: absent, or an object with an optional non-negative `ttl` (ms). */
export function taskParamOf(value: unknown): { ttl?: number } | undefined {
  if (value === undefined) return undefined;
  const ttl = (value as { ttl?: unknown } | null)?.ttl;
  if (!value || typeof value !== 'object' || Array.isArray(value) || !validTtl(ttl)) {
    throw RpcError.invalidParams('params.task must be an object with an optional ttl (ms, a number of at least 0)');
  }
  return ttl === undefined ? {} : { ttl: Math.floor(ttl) };
}

const validTtl = (ttl: unknown): ttl is number | undefined =>
  ttl === undefined || (typeof ttl === 'number' && Number.isFinite(ttl) && ttl >= 0);

/** The ttl the task gets: what the client asked for, up to the server's, never under a second; else the server's. */
function ttlFor(call: LegacyCall): number | null {
  const asked = call.task?.ttl;
  if (call.serverTtl === null) return asked === undefined ? null : Math.max(asked, LEGACY_MIN_TTL);
  const floor = Math.min(LEGACY_MIN_TTL, call.serverTtl);
  return Math.max(Math.min(asked ?? call.serverTtl, call.serverTtl), floor);
}
