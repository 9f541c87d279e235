import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { insufficientScope } from '../auth/auth-challenge.error.js';
import type { Principal } from '../common/principal.interface.js';
import { InjectTaskStore, InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { followTopic } from '../events/task-event.topics.js';
import { MCP_TASKS_OPTIONS, META, TASKS_EXTENSION } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { declaresTasks, tasksNotDeclared } from '../protocol/capabilities.js';
import { RpcError } from '../protocol/rpc.error.js';
import { SSE_HEADERS, sseMessage } from '../protocol/sse.js';
import { readStatuses } from '../store/read-statuses.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { isBoundElsewhere } from '../tasks/task-binding.js';
import { isPlausibleTaskId } from '../tasks/task-id.js';
import { FeatureListenHandler } from './feature-listen.handler.js';
import { namesTasks } from './listen-claims.js';
import { ListenStream } from './listen.stream.js';
import { MAX_LISTEN_TASKS } from './subscriptions.constants.js';

const KEEP_ALIVE_MS = 15_000;

export interface ListenRequest {
  id: string | number;
  taskIds: unknown;
  clientCapabilities: Record<string, any>;
  principal: Principal;
}

/** What `stream` reads of the request (an `McpRequest`, not imported: the dispatcher's table imports this). */
type ListenCall = Pick<ListenRequest, 'id' | 'clientCapabilities' | 'principal'> & { params: Record<string, any> };

/**
 * `subscriptions/listen` with `notifications.taskIds`: an SSE stream that acknowledges the ids the
 * caller may see (others dropped silently, as if unknown; an owned task without the tool's scopes refuses
 * the whole request with 403, as `tasks/get` would), then sends `notifications/tasks` with the full task
 * whenever one of them changes status (or asks for more input) — on this instance or, through the event
 * bus, on another. It ends when the client closes it; nothing of it outlives the connection.
 */
@Injectable()
export class TaskListenHandler implements BeforeApplicationShutdown {
  /** Following one task: the handler behind the task guards (a refusal leaves the task out). */
  private readonly follow: TaskHandler<Promise<TaskRecord>>;
  /** Open streams, ended gracefully when the app stops. */
  private readonly open = new Map<ServerResponse, string | number>();

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
    guards: TaskGuards,
    private readonly features: FeatureListenHandler,
  ) {
    this.follow = guards.protect(this, 'follow', (task) => task);
  }

  /** How many streams are open (for diagnostics and tests). */
  get openStreams(): number {
    return this.open.size;
  }

  /** `subscriptions/listen` naming tasks, as the dispatcher hands it over (an `McpRequest`); else resources/prompts. */
  async stream(req: ListenCall, res: ServerResponse): Promise<void> {
    if (!namesTasks(req.params, this.options)) return this.features.stream(req, res);
    const { id, clientCapabilities, principal } = req;
    const listen: ListenRequest = { id, taskIds: req.params.notifications.taskIds, clientCapabilities, principal };
    await this.serve(listen, this.check(listen), res);
  }

  /** Validates the request; throws an `RpcError` before anything is written. */
  private check(req: ListenRequest): string[] {
    if (!declaresTasks(req.clientCapabilities)) {
      throw tasksNotDeclared(`Listening to tasks needs the ${TASKS_EXTENSION} extension declared`);
    }
    const ids = req.taskIds;
    if (!Array.isArray(ids) || ids.some((t) => typeof t !== 'string'))
      throw RpcError.invalidParams('notifications.taskIds must be an array of task ids');
    if (ids.length > MAX_LISTEN_TASKS)
      throw RpcError.invalidParams(`notifications.taskIds may name at most ${MAX_LISTEN_TASKS} tasks`);
    return [...new Set(ids as string[])];
  }

  private async serve(req: ListenRequest, ids: string[], res: ServerResponse): Promise<void> {
    const follows = new Map<string, () => void>();
    const unfollow = (id: string): void => {
      follows.get(id)?.();
      follows.delete(id);
    };
    const read = (id: string) => this.store.get(id, Date.now());
    const statuses = (some: string[]) => readStatuses(this.store, some, Date.now());
    const stream = new ListenStream(res, req.id, read, statuses, this.options.pollInterval, unfollow);
    // Each task's events from other instances while the listen may send of it: all asked, from before the reads
    // (re-read once the follow is in effect); then those acknowledged, until they end or the stream closes.
    const active = (id: string) => () => stream.followActive(id);
    for (const id of ids.filter(isPlausibleTaskId)) follows.set(id, followTopic(this.bus, id, active(id)));
    // Subscribe before reading, so a change between the read and the ack is not missed.
    const unsubscribe = this.bus.subscribe((e) => {
      if (e.type === 'status-changed') stream.changed(e.taskId);
    });
    let keepAlive: NodeJS.Timeout | undefined;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      clearInterval(keepAlive);
      stream.stop();
      unsubscribe();
      for (const id of follows.keys()) unfollow(id);
      this.open.delete(res);
    };
    // From the start: the client may leave while the first reads are in flight.
    res.once('close', release);
    try {
      await this.readVisible(ids, req.principal, stream, () => released);
    } catch (err) {
      release();
      throw err;
    }
    if (released || res.destroyed) return release();
    const acknowledged = new Set(stream.taskIds);
    for (const id of follows.keys()) if (!acknowledged.has(id)) unfollow(id);
    res.writeHead(200, SSE_HEADERS);
    res.write(
      sseMessage({
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: { [META.subscriptionId]: req.id }, notifications: { taskIds: stream.taskIds } },
      }),
    );
    stream.start();
    keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.open.set(res, req.id);
  }

  /**
   * A stopping server closes each stream with the listen request's result, as the spec asks (before the HTTP server
   * waits for its connections).
   */
  beforeApplicationShutdown(): void {
    for (const [res, id] of this.open) {
      if (res.writableEnded || res.destroyed) continue;
      res.end(sseMessage({ id, result: { resultType: 'complete', _meta: { [META.subscriptionId]: id } } }));
    }
    this.open.clear();
  }

  /**
   * Follows each task the caller may see; an owned task whose scopes the caller lacks refuses the whole listen.
   * Stops reading once the client has gone.
   */
  private async readVisible(
    ids: string[],
    principal: Principal,
    stream: ListenStream,
    gone: () => boolean,
  ): Promise<void> {
    const refused: RpcError[] = [];
    for (const id of ids) {
      if (gone()) return;
      const seen = await this.visible(id, principal);
      if (seen instanceof RpcError) refused.push(seen);
      else if (seen) stream.follow(seen);
    }
    if (refused.length === 1 || (refused.length > 0 && !this.options.auth)) throw refused[0];
    if (refused.length > 1) {
      const needed = [...new Set(refused.flatMap((r) => (r.data as { requiredScopes: string[] }).requiredScopes))];
      throw insufficientScope(principal.resource ?? this.options.auth!.resource!, needed);
    }
  }

  /** The task if this caller may follow it; unknown, foreign or refused ids read as absent; a scope refusal. */
  private async visible(id: string, principal: Principal): Promise<TaskRecord | RpcError | undefined> {
    if (!isPlausibleTaskId(id)) return undefined;
    const task = await this.store.get(id, Date.now()).catch(() => undefined);
    if (!task || isBoundElsewhere(task, undefined, !!this.options.auth)) return undefined;
    return this.follow(task, principal).catch((err: unknown) => (isScopeRefusal(err) ? err : undefined));
  }
}

/** The ownership guard's answer to an owner whose token lacks the task's scopes (403 `insufficient_scope`). */
const isScopeRefusal = (err: unknown): err is RpcError =>
  err instanceof RpcError &&
  err.httpStatus === 403 &&
  Array.isArray((err.data as { requiredScopes?: unknown } | undefined)?.requiredScopes);
