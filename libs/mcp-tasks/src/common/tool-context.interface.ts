import type { LoggingLevel } from './logging-level.js';
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
  /**
   * Which run of the task this is: 1 for the first, one more each time another instance took a resumable task over
   * (`@McpTool({ resume: true })`) after the one running it stopped. Always 1 in a request.
   */
  readonly attempt: number;
  /**
   * The last value `checkpoint` stored, by this attempt or an earlier one (as JSON gives it back: a `Date` is a
   * string); `undefined` when none was. A later attempt reads it to skip the work already done.
   */
  readonly checkpointed: unknown;
  /**
   * Stores a small JSON value with the task for a later attempt to read (`checkpointed`); each call replaces the
   * last. At most `MAX_CHECKPOINT_BYTES` (64 KiB) as JSON: a larger value, or one JSON cannot hold (a BigInt, a
   * cycle, a function), rejects with an Error saying why. In a task it is stored durably before the promise
   * resolves, and only while this attempt still holds the task (otherwise it rejects with `signal.reason` and the
   * signal aborts); in a request it is only kept in memory, for this run.
   */
  checkpoint(value: unknown): Promise<void>;
  /** Reports progress: the task's `statusMessage`, or `notifications/progress` in a synchronous call. */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /**
   * Logs to the client: `notifications/message` (`level`, `data`: any JSON value, `logger`: a name) on the stream of
   * the call, before its result, when the client asked for messages at that level or above — on 2026-07-28 through
   * the call's `_meta["io.modelcontextprotocol/logLevel"]` (none sent without it); on the 2025 revisions through
   * `logging/setLevel` in its session (everything until it sets one). Inside a task there is no call stream to send
   * on: the message is dropped (the task's state is what its client reads; `progress` sets its `statusMessage`).
   * A level that is not one of RFC 5424's eight throws a TypeError.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the user (elicitation). `key` is unique over the run; asking it again returns the first answer. */
  elicit(key: string, message: string, requestedSchema: Record<string, unknown>): Promise<ElicitResult>;
  /** Asks the client's model (sampling/createMessage). */
  sample(key: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Asks the client for its roots (roots/list). */
  roots(key: string): Promise<{ roots: Array<{ uri: string; name?: string }> }>;
  /**
   * Closes the call's HTTP connection while the call goes on (SEP-1699 polling), so a long call holds none: only on
   * 2025-11-25 in a session, whose client resumes the call's SSE stream with `GET` + `Last-Event-ID` after the
   * stream's `retry` and gets the rest (the result) there. Elsewhere (2026-07-28, earlier revisions, a task) it does
   * nothing. Whether it closed one.
   */
  closeStream(): boolean;
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
