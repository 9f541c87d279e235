import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import { InjectTaskStore } from '../decorators/inject.decorators.js';
import { TaskLookup } from '../dispatcher/task.lookup.js';
import { LEGACY_LIST_PAGE, LEGACY_PROTOCOL_VERSION, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { RpcError } from '../protocol/rpc-error.js';
import { isTerminal } from '../protocol/wire.types.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { McpTracing } from '../telemetry/tracing.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacySession } from './legacy-session.js';
import { LegacyStreams } from './legacy-streams.js';
import { legacyOutcome, toLegacyTask, type LegacyTask } from './legacy-task.view.js';
import { ListCursorCodec } from './list-cursor.js';
import { RequestCancels } from './request-cancels.js';

/** A 2025-11-25 `tasks/*` request. */
export interface LegacyTaskRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
  principal: Principal;
  session?: LegacySession;
}

type Answer = Record<string, unknown>;

/**
 * `tasks/get`, `tasks/cancel`, `tasks/list` and `tasks/result` of 2025-11-25, each shaped as that revision has it,
 * for any task of the caller's (whichever wire created it). Lookups and guards are those of 2026-07-28: anyone but
 * the owner gets exactly the answer for an unknown task.
 */
@Injectable()
export class LegacyTaskMethods {
  private readonly get: TaskHandler<Promise<LegacyTask>>;
  private readonly cancel: TaskHandler<Promise<LegacyTask>>;
  private readonly follow: TaskHandler<Promise<TaskRecord>>;
  private readonly listed: TaskHandler<Promise<TaskRecord>>;
  private readonly cursors: ListCursorCodec;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    private readonly runner: TaskRunner,
    private readonly tasks: TaskLookup,
    private readonly streams: LegacyStreams,
    private readonly cancels: RequestCancels,
    private readonly tracing: McpTracing,
    guards: TaskGuards,
  ) {
    this.get = guards.protect(this, 'get', (task) => this.view(task));
    this.cancel = guards.protect(this, 'cancel', (task) => this.cancelled(task));
    this.follow = guards.protect(this, 'result', (task) => task);
    this.listed = guards.protect(this, 'list', (task) => task);
    this.cursors = new ListCursorCodec(options.requestStateSecret);
  }

  /** Whether this server offers `tasks/list` (the store must list by owner). */
  get lists(): boolean {
    return typeof this.store.listByOwner === 'function';
  }

  /** Answers the request on `x` (`tasks/result` may stream), in a light span as on 2026-07-28. */
  serve(req: LegacyTaskRequest, x: LegacyExchange): Promise<void> {
    if (!this.options.telemetry) return this.answer(req, x);
    const taskId = typeof req.params.taskId === 'string' ? req.params.taskId : '';
    const attributes = {
      'mcp.method.name': req.method,
      'mcp.task.id': taskId,
      'jsonrpc.request.id': String(req.id),
      'mcp.protocol.version': LEGACY_PROTOCOL_VERSION,
    };
    const parent = this.tracing.callerContext(req.params._meta as Record<string, unknown>, x.req.headers);
    return this.tracing.inSpan({ name: req.method, kind: 'server', attributes }, parent, () => this.answer(req, x));
  }

  private async answer(req: LegacyTaskRequest, x: LegacyExchange): Promise<void> {
    const reply = x.reply(req.id);
    if (req.method === 'tasks/list') return reply.result(await this.list(req));
    const task = await this.tasks.lookup(req.params.taskId, req.session?.id);
    if (req.method === 'tasks/get') return reply.result({ ...(await this.get(task, req.principal)) });
    if (req.method === 'tasks/cancel') return reply.result({ ...(await this.cancel(task, req.principal)) });
    const followed = await this.follow(task, req.principal);
    if (isTerminal(followed.status)) {
      const outcome = legacyOutcome(followed);
      return 'result' in outcome ? reply.result(outcome.result) : reply.error(rpcErrorOf(outcome.error));
    }
    const stream = this.streams.openResult(task.id, req.id, req.principal.key, x.res);
    const forget = this.cancels.register(req.principal, req.session?.id, req.id, () => void stream.end());
    x.res.once('close', forget);
  }

  private view(task: TaskRecord): Promise<LegacyTask> {
    return Promise.resolve(toLegacyTask(task, this.options.pollInterval));
  }

  /** Final before the answer (the bus stops the run wherever it is); a task that already ended is `-32602`. */
  private async cancelled(task: TaskRecord): Promise<LegacyTask> {
    const terminal = (t: TaskRecord) =>
      RpcError.invalidParams(`Cannot cancel task: already in terminal status '${toLegacyTask(t, 0).status}'`);
    if (isTerminal(task.status)) throw terminal(task);
    const outcome = await this.runner.cancel(task.id);
    if (!outcome) throw RpcError.taskNotFound();
    if (outcome.task.status !== 'cancelled') throw terminal(outcome.task);
    return toLegacyTask(outcome.task, this.options.pollInterval);
  }

  /** The caller's tasks, newest first, a page at a time; the session binding applies as it does to `tasks/get`. */
  private async list(req: LegacyTaskRequest): Promise<Answer> {
    const owner = req.principal.key;
    const session = this.options.auth ? undefined : (req.session?.id ?? null);
    const cursor = req.params.cursor;
    const after = cursor === undefined ? undefined : this.cursors.open(cursor, owner, session);
    const page = await this.store.listByOwner!({ owner, session, after, limit: LEGACY_LIST_PAGE + 1 }, Date.now());
    const tasks: LegacyTask[] = [];
    for (const task of page.slice(0, LEGACY_LIST_PAGE)) {
      // What the guards would refuse on tasks/get (scopes since lost, an app's own rule) is not listed either.
      const seen = await this.listed(task, req.principal).catch(() => undefined);
      if (seen) tasks.push(toLegacyTask(seen, this.options.pollInterval));
    }
    const last = page[LEGACY_LIST_PAGE - 1];
    const more = page.length > LEGACY_LIST_PAGE && last;
    return { tasks, ...(more ? { nextCursor: this.cursors.seal(last, owner, session) } : {}) };
  }
}

const rpcErrorOf = (e: { code: number; message: string; data?: unknown }): RpcError =>
  new RpcError(e.code, e.message, e.data);
