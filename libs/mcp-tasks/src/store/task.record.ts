import type { Principal } from '../common/principal.interface.js';
import type { CallToolResult, InputRequests, TaskError, TaskStatus } from '../protocol/wire.interface.js';

/**
 * The protocol revision whose wire created a task: 2026-07-28 (the Tasks extension) or 2025-11-25.
 * @publicApi
 */
export type TaskGeneration = '2025-11-25' | '2026-07-28';

/**
 * Which open stream sends a 2025-11-25 task's input requests to its client, and until when (epoch ms).
 * @publicApi
 */
export interface InputChannel {
  stream: string;
  until: number;
}

/**
 * Where the work of a task that mirrors an upstream server's task runs (see the `upstreams` option).
 * @publicApi
 */
export interface TaskUpstream {
  /** The upstream's `name`, as configured. */
  name: string;
  /** The task's id on the upstream. */
  taskId: string;
  /** Who called: an upstream whose token is exchanged per caller needs it wherever the task is mirrored from. */
  principal: Principal;
}

/**
 * A task as stores keep it. Times are epoch milliseconds.
 * @publicApi
 */
export interface TaskRecord {
  id: string;
  /** Opaque owner key (see `PrincipalResolver`); tasks are only ever served to the same owner (`ownerKeyForms`). */
  owner: string;
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  /** Requests the tool is waiting on, by key. */
  inputRequests: InputRequests;
  /** Every answer received over the task's life, by key (keys are never reused). */
  inputResponses: Record<string, unknown>;
  result?: CallToolResult;
  error?: TaskError;
  /** Scopes the tool required when the task started; reading the task needs them too. */
  requiredScopes: string[];
  createdAt: number;
  updatedAt: number;
  /** `createdAt + ttl`, or `null` when tasks never expire. */
  expiresAt: number | null;
  /** Instance running the tool. Only that instance renews the lease; nobody else runs the task. */
  leaseOwner?: string | null;
  /** When the lease lapses unless renewed; a non-terminal task past it has lost its runner. */
  leaseExpiresAt?: number | null;
  /** The wire that created the task; absent means 2026-07-28. */
  generation?: TaskGeneration;
  /** The 2025-11-25 session (`Mcp-Session-Id`) that created it, if any: without `auth`, only that session sees it. */
  session?: string;
  /** The stream holding the claim to deliver the task's input requests (2025-11-25), if one does. */
  inputChannel?: InputChannel;
  /**
   * Set (at creation, never changed) when the task mirrors a task of an upstream server: the instance holding
   * the lease follows that task, and when it stops another instance takes the mirror over instead of failing it.
   */
  upstream?: TaskUpstream | null;
  /**
   * Which run of the tool this is (1 for the first; absent: 1). Each takeover of a resumable task adds one, and a
   * run's own writes carry its number: a write from an earlier attempt changes nothing (fencing).
   */
  attempt?: number;
  /** The last value the tool stored with `ctx.checkpoint` (JSON), read by the next attempt. */
  checkpoint?: unknown;
  /** Set at creation when the tool may run again from the start after its instance stops (`resume: true`). */
  resume?: TaskResume | null;
}

/**
 * What another instance needs to run a resumable task's tool again: the call as it arrived, and the bound.
 * @publicApi
 */
export interface TaskResume {
  /** The tool's arguments, as validated for the first attempt. */
  args: object;
  /** Attempts allowed in all; the takeover after the last one ends the task `failed`. */
  maxAttempts: number;
  /** The `tools/call` the task came from, without its HTTP objects. */
  call: ResumedCall;
}

/**
 * The parts of a call's origin a later attempt runs with (what `ToolCallOrigin` holds but the trace context).
 * @publicApi
 */
export interface ResumedCall {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: Record<string, unknown>;
  principal: Principal;
  requestId: string | number;
}

/**
 * A change to a live task. Stores apply it atomically, and only while the task is not terminal.
 * @publicApi
 */
export type TaskChange =
  | ({ kind: 'progress'; statusMessage: string } & Fenced)
  | ({ kind: 'ask'; requests: InputRequests } & Fenced)
  | { kind: 'answer'; responses: Record<string, unknown> }
  | ({
      kind: 'finish';
      status: 'completed' | 'failed' | 'cancelled';
      result?: CallToolResult;
      error?: TaskError;
    } & Fenced)
  /** Stores the run's checkpoint (a JSON value); never moves `updatedAt` nor the status. */
  | ({ kind: 'checkpoint'; value: unknown } & Fenced)
  /** Claims the input channel for `stream` (free, lapsed, or already its own); never moves `updatedAt`. */
  | { kind: 'claim-input'; stream: string; until: number }
  /** Gives the channel up, if `stream` holds it; never moves `updatedAt`. */
  | { kind: 'release-input'; stream: string };

/**
 * A change a run makes carries its attempt: it applies only while the task is at that attempt, so a run that lost
 * its task to another instance cannot change it. Changes from clients (answers, cancel) carry none.
 * @publicApi
 */
export interface Fenced {
  attempt?: number;
}

/**
 * Limits checked atomically with the insert.
 * @publicApi
 */
export interface TaskLimits {
  maxPerOwner: number;
  maxTotal: number;
}

/**
 * What `create` reports: stored, or refused at the owner's cap (`maxPerOwner`) or the server's (`maxTotal`).
 * @publicApi
 */
export type CreateOutcome = 'created' | 'owner-limit' | 'server-limit';

/**
 * What `update` reports: the task after the call, and whether the change took effect.
 * @publicApi
 */
export interface UpdateOutcome {
  task: TaskRecord;
  changed: boolean;
}
