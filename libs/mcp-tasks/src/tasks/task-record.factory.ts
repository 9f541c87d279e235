import type { ToolCallOrigin } from '../context/base-tool.context.js';
import { resumedCallOf } from '../context/resumed-call.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { TaskGeneration, TaskRecord, TaskUpstream } from '../store/task.record.js';
import { newTaskId } from './task-id.js';

/** A task `create` stored for a call, or why it stored none: the owner's or the server's cap. */
export type TaskCreation = { created: TaskRecord } | { refused: 'owner-limit' | 'server-limit' };

/**
 * Where a task comes from when not a plain 2026-07-28 call: another wire's call (its generation and session), or
 * the gateway (the upstream task it mirrors, with a ttl no longer than the upstream's).
 */
export interface TaskOrigin {
  /** The wire that created it; absent: 2026-07-28. */
  generation?: TaskGeneration;
  /** The session that created it (without `auth`, only that session sees it). */
  session?: string;
  /** The upstream task this one mirrors (the gateway). */
  upstream?: TaskUpstream;
  /** ms the task stays readable (`null`: no expiry). @default the `ttl` option */
  ttl?: number | null;
  /**
   * The tool may run again elsewhere (`resume`): the arguments as sent, and the attempts allowed. Recorded only when
   * the store can resume (`ResumableTasks`).
   */
  resume?: { args: object; maxAttempts: number };
}

/**
 * The record of a new task for a call, leased to `instance`; `resume` only on a store that can resume (`resumable`):
 * elsewhere such a task ends `failed` when its instance stops, as any other.
 */
export function newTaskRecord(
  origin: ToolCallOrigin,
  answers: Record<string, unknown>,
  requiredScopes: string[],
  from: TaskOrigin,
  options: Pick<ResolvedOptions, 'ttl' | 'lease'>,
  instance: string,
  resumable: boolean,
): TaskRecord {
  const now = Date.now();
  const ttl = from.ttl === undefined ? options.ttl : from.ttl;
  const resume = from.resume && resumable ? { ...from.resume, call: resumedCallOf(origin) } : undefined;
  return {
    id: newTaskId(),
    owner: origin.principal.key,
    tool: origin.tool,
    status: 'working',
    inputRequests: {},
    inputResponses: answers,
    requiredScopes,
    createdAt: now,
    updatedAt: now,
    expiresAt: ttl === null ? null : now + ttl,
    leaseOwner: instance,
    leaseExpiresAt: now + options.lease,
    ...(from.generation ? { generation: from.generation } : {}),
    ...(from.session !== undefined ? { session: from.session } : {}),
    ...(from.upstream ? { upstream: from.upstream } : {}),
    ...(resume ? { attempt: 1, resume } : {}),
  };
}
