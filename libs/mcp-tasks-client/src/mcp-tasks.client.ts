import type {
  CallToolResult,
  Client,
  CompleteResult,
  GetPromptResult,
  PromptReference,
  ReadResourceResult,
  ResourceTemplateReference,
} from '@modelcontextprotocol/client';
import { resultFromTaskOutcome, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import { taskId as asTaskId, type JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { rethrowAuth } from './auth-failure.lookup.js';
import type { CompleteOptions, ReadResourceOptions } from './content-request-options.interface.js';
import { McpTaskError } from './mcp-task.error.js';
import { taskFromView } from './mcp-task.mapper.js';
import type { AwaitTaskOptions, RunToolOptions } from './await-task-options.interface.js';
import type { McpTask, ToolCallOutcome } from './mcp-task.interface.js';
import type { PollCadence } from './poll-cadence.policy.js';
import { assertPollFactor } from './poll-factor.rule.js';
import { paramHeaders, toolSchemas } from './param-headers.js';
import { sendRawRequest } from './raw.request.js';
import { rethrowRpc } from './rpc-failure.mapper.js';
import type {
  ListenTasksOptions,
  RawRequestOptions,
  TaskListenStream,
  TaskNotificationListener,
} from './raw-request.interface.js';
import { openTaskListen } from './task-listen.stream.js';
import type { TaskNotificationTap } from './task-notification.tap.js';
import { firstSnapshot } from './task-first.snapshot.js';
import { followTask, readTask } from './task.follow.js';
import { TaskUpdateFeed } from './task-update.feed.js';
import { TasksUnavailableError } from './tasks-unavailable.error.js';
import type { WireFraming } from './wire-framing.js';

type JsonArgs = Readonly<Record<string, JsonValue>>;

/** @internal What a 2026-07-28 connection follows tasks with; a legacy connection has none. */
export interface TaskMachinery {
  session: TaskEnabledSession;
  cadence: PollCadence;
  tap: TaskNotificationTap;
}

/**
 * A connected client (see `connect`). Tool calls and task follow-ups go through the official
 * ext-tasks session; everything else is available on `sdk`, the official `Client`.
 * @publicApi
 */
export class McpTasksClient {
  /** Whether the Tasks extension is declared and usable (`ConnectOptions.tasks`; never on a legacy connection). */
  readonly tasks: boolean;
  /** Whether `connect` fell back to a 2025-era server (`ConnectOptions.legacy`): synchronous tool calls only. */
  readonly legacy: boolean;

  /** @internal Built by `connect`. */
  constructor(
    /** The official SDK `Client`, connected: `listTools()`, `listen()`, … */
    readonly sdk: Client,
    /** The negotiated revision: `2026-07-28`, or a 2025 one on a legacy connection. */
    readonly protocolVersion: string,
    private readonly machinery: TaskMachinery | undefined,
    tasks: boolean,
    /** How this connection frames requests it sends itself (`request`, `listenTasks`); absent on a legacy one. */
    private readonly framing?: WireFraming,
  ) {
    this.legacy = machinery === undefined;
    this.tasks = tasks && !this.legacy;
  }

  /**
   * Calls a tool. Its questions in a synchronous run (MRTR rounds) are answered by the handlers
   * before this resolves. A task is returned as created and is not followed until `awaitTask`,
   * so `getTask` / `updateTask` can drive it by hand instead. A JSON-RPC error rejects.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<ToolCallOutcome> {
    // ext-tasks always declares the extension on tools/call, so the plain path is the SDK's own.
    if (!this.tasks)
      return { kind: 'result', result: await this.sdk.callTool({ name, arguments: args }, { signal: options.signal }) };
    const session = this.need('callTool').session;
    const execution = await session.callTool(name, args as JsonArgs, { signal: options.signal }).catch(rethrowAuth);
    if (execution.kind === 'immediate')
      return { kind: 'result', result: resultFromTaskOutcome(await execution.result()) as CallToolResult };
    const created = await firstSnapshot(execution);
    // Stop ext-tasks' driver (no request was sent yet) and wait for it to give up the task id, which
    // `awaitTask` takes over with its own cadence.
    await execution.detach();
    await execution.result();
    return { kind: 'task', task: taskFromView(created) };
  }

  /**
   * Calls a tool and, when it runs as a task, follows it to its end: one step for callers that only want
   * the result. A task that ends `failed` or `cancelled` rejects with `McpTaskError`; `onUpdate` sees the
   * task as created first. See `RunToolOptions` for what `signal` does.
   */
  async runTool(
    name: string,
    args: Record<string, unknown> = {},
    options: RunToolOptions = {},
  ): Promise<CallToolResult> {
    assertPollFactor('runTool', options.fallbackPollFactor);
    const { signal, ...follow } = options;
    const call = await this.callTool(name, args, { signal });
    if (call.kind === 'result') return call.result;
    const feed = new TaskUpdateFeed(options.onUpdate);
    try {
      await feed.offer(call.task);
      const done = await this.follow(call.task.taskId, { ...follow, signal }, feed).catch(rethrowAuth);
      if (done.status === 'completed' && done.result) return done.result;
      throw new McpTaskError(done);
    } catch (error) {
      // The caller never held the task, so nobody else would stop it.
      if (signal?.aborted) await this.cancelTask(call.task.taskId).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Follows a task to its end and returns it (`completed` with `result`, `failed` with `error`, or
   * `cancelled`); `input_required` is answered by the handlers through `tasks/update`, each key
   * once (unless `answer: false`). Polls at the server's `pollIntervalMs`, or with `listen` mostly
   * waits for notifications. One `awaitTask` per task at a time. Rejects when the task is unknown,
   * the wait was aborted or `onUpdate` threw.
   */
  awaitTask(task: Pick<McpTask, 'taskId'>, options: AwaitTaskOptions = {}): Promise<McpTask> {
    return this.follow(task.taskId, options, new TaskUpdateFeed(options.onUpdate)).catch(rethrowAuth);
  }

  private async follow(taskId: string, options: AwaitTaskOptions, feed: TaskUpdateFeed): Promise<McpTask> {
    assertPollFactor('awaitTask', options.fallbackPollFactor);
    return followTask(this.sdk, this.need('awaitTask'), this.tasks, taskId, options, feed);
  }

  /** One `tasks/get`: the task as it is now. */
  async getTask(taskId: string): Promise<McpTask> {
    return readTask(this.need('getTask'), taskId).catch(rethrowAuth);
  }

  /**
   * One `tasks/update`: answers outstanding input keys,
   * e.g. `{ confirm: { action: 'accept', content: { confirm: true } } }`.
   */
  async updateTask(taskId: string, inputResponses: Record<string, unknown>): Promise<void> {
    await this.need('updateTask').session.task(asTaskId(taskId)).updateJson(inputResponses).catch(rethrowAuth);
  }

  /** One `tasks/cancel`. Cancellation is cooperative: the task reads `cancelled` once the server has stopped it. */
  async cancelTask(taskId: string): Promise<void> {
    await this.need('cancelTask').session.task(asTaskId(taskId)).cancel().catch(rethrowAuth);
  }

  /**
   * One `resources/read` (either era): the contents of the resource at `uri`, each `text` or base64 `blob`. Its
   * questions (MRTR rounds) go to the handlers. A JSON-RPC error (e.g. an unknown URI: `-32602` at 2026-07-28,
   * `-32002` before) rejects with `McpRpcError`, a 401/403 with `UnauthorizedError` / `ForbiddenError`.
   */
  readResource(uri: string, options: ReadResourceOptions = {}): Promise<ReadResourceResult> {
    const { cacheMode, signal } = options;
    return this.sdk.readResource({ uri }, { cacheMode, signal }).catch(rethrowRpc);
  }

  /**
   * One `prompts/get` (either era): the prompt's `messages` for `args` (strings, as the spec has them). Its
   * questions go to the handlers; errors as `readResource` (an unknown prompt or refused arguments: `-32602`).
   */
  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<GetPromptResult> {
    const params = { name, ...(Object.keys(args).length ? { arguments: args } : {}) };
    return this.sdk.getPrompt(params, { signal: options.signal }).catch(rethrowRpc);
  }

  /**
   * One `completion/complete` (either era): values for `argument` of a prompt (`{ type: 'ref/prompt', name }`) or
   * a resource template's URI variable (`{ type: 'ref/resource', uri: uriTemplate }`), as `completion.values`
   * (at most 100), `total` and `hasMore`. Errors as `readResource`.
   */
  complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    options: CompleteOptions = {},
  ): Promise<CompleteResult> {
    const context = options.context ? { context: { arguments: options.context } } : {};
    return this.sdk.complete({ ref, argument, ...context }, { signal: options.signal }).catch(rethrowRpc);
  }

  /**
   * Sends one request as it is and returns the server's raw `result` — for code that relays requests, such as a
   * gateway: an MRTR round comes back as `{ resultType: 'input_required', inputRequests, requestState }` and a
   * task as `{ resultType: 'task', taskId, … }`, for the caller to pass on; nothing is answered or followed here.
   * `options` replace the connection's token and capabilities for this request and add `_meta` entries (e.g.
   * `traceparent`). A JSON-RPC error rejects with `McpRpcError`; any other failure (no connection, an answer
   * that is not JSON-RPC) with what caused it. Needs a 2026-07-28 connection.
   */
  async request<T extends object = Record<string, any>>(
    method: string,
    params: Record<string, unknown> = {},
    options: RawRequestOptions = {},
  ): Promise<T> {
    // A tool's x-mcp-header arguments go in Mcp-Param-* headers, as the SDK's own callTool sends them.
    const name = method === 'tools/call' ? params.name : undefined;
    const schema = typeof name !== 'string' ? undefined : (options.inputSchema ?? (await toolSchemas(this.sdk)(name)));
    const mirrored = schema === undefined ? {} : paramHeaders(schema, params.arguments);
    return (await sendRawRequest(this.wire('request'), method, params, options, mirrored)) as T;
  }

  /**
   * Opens `subscriptions/listen` for `taskIds` on a stream of its own and calls `onTask` with each task a
   * `notifications/tasks` carries (as `tasks/get` would return it). Resolves once the server acknowledged, with
   * the ids it agreed to; a refusal rejects with `McpRpcError`. Needs a 2026-07-28 connection with `tasks: true`.
   */
  async listenTasks(
    taskIds: string[],
    onTask: TaskNotificationListener,
    options: ListenTasksOptions = {},
  ): Promise<TaskListenStream> {
    if (!this.tasks) throw new TypeError('listenTasks needs a client connected with tasks: true');
    return openTaskListen(this.wire('listenTasks'), taskIds, onTask, options);
  }

  /** Stops following tasks (they keep running on the server) and closes the connection. */
  async close(): Promise<void> {
    this.framing?.poster.close();
    await this.machinery?.session.close();
    await this.sdk.close();
  }

  private wire(feature: string): WireFraming {
    if (!this.framing)
      throw new Error(`${feature} needs a 2026-07-28 connection; this one was made at ${this.protocolVersion}`);
    return this.framing;
  }

  /** The task machinery, or the error a legacy connection answers every task feature with. */
  private need(feature: string): TaskMachinery {
    if (!this.machinery) throw new TasksUnavailableError(feature, this.protocolVersion);
    return this.machinery;
  }
}
