import type { Principal } from './principal.interface.js';

/**
 * What a running tool can see and do. The same shape inside a task and in a synchronous call.
 * @publicApi
 */
export interface ToolContext {
  /** Tool name. */
  readonly tool: string;
  /** Task id, when running as a task. */
  readonly taskId?: string;
  /** Protocol version the call arrived on. */
  readonly protocolVersion: string;
  /** Capabilities the client declared on the call that started this run. */
  readonly clientCapabilities: Record<string, any>;
  /** Client name/version, when the client sent them. */
  readonly clientInfo?: Record<string, unknown>;
  /** Who called. */
  readonly principal: Principal;
  /** Aborted when the task is cancelled (or expires, or the server shuts down). */
  readonly signal: AbortSignal;
  /** `signal.aborted`. */
  readonly cancelled: boolean;
  /** Reports progress: the task's `statusMessage`, or `notifications/progress` in a synchronous call. */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Asks the user (elicitation). `key` is unique over the run; asking it again returns the first answer. */
  elicit(key: string, message: string, requestedSchema: Record<string, unknown>): Promise<ElicitResult>;
  /** Asks the client's model (sampling/createMessage). */
  sample(key: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Asks the client for its roots (roots/list). */
  roots(key: string): Promise<{ roots: Array<{ uri: string; name?: string }> }>;
}

/**
 * The user's answer to `ctx.elicit`.
 * @publicApi
 */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  /** The form's values (the elicitation schema allows only these kinds). */
  content?: Record<string, string | number | boolean | string[]>;
}
