import { randomUUID } from 'node:crypto';
import type { TaskError } from '../protocol/wire.interface.js';
import type { TaskLimits, TaskRecord } from '../store/task.record.js';

/**
 * Fixed clock: stores take `now` as an argument, so tests never depend on wall time.
 * @publicApi
 */
export const T0 = 1_800_000_000_000;
/**
 * The ttl of a `newTask`: it expires at `T0 + TTL`.
 * @publicApi
 */
export const TTL = 60_000;
/**
 * Caps that never bind, for a `create` whose test is not about them.
 * @publicApi
 */
export const NO_LIMITS: TaskLimits = { maxPerOwner: Infinity, maxTotal: Infinity };
export const LOST: TaskError = { code: -32603, message: 'Task runner lost', data: { reason: 'lease' } };

/**
 * A fresh `working` task owned by `alice`, created at T0 and expiring at T0 + TTL.
 * @publicApi
 */
export function newTask(over: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id: randomUUID(),
    owner: 'alice',
    tool: 'demo',
    status: 'working',
    inputRequests: {},
    inputResponses: {},
    requiredScopes: [],
    createdAt: T0,
    updatedAt: T0,
    expiresAt: T0 + TTL,
    ...over,
  };
}

export const elicit = (message: string) => ({ method: 'elicitation/create' as const, params: { message } });

/** Code-unit order, for sorting ids before comparing lists. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** How many of `xs` equal `x`. */
export const count = <T>(xs: T[], x: T): number => xs.filter((y) => y === x).length;
