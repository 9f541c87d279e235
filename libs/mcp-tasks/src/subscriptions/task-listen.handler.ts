import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { Principal } from '../common/principal.interface.js';
import { InjectTaskStore, InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { MAX_LISTEN_TASKS, MCP_TASKS_OPTIONS, META, TASKS_EXTENSION } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { declaresTasks, tasksNotDeclared } from '../protocol/capabilities.js';
import { RpcError } from '../protocol/rpc-error.js';
import { SSE_HEADERS, sseMessage } from '../protocol/sse.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { isBoundElsewhere } from '../tasks/task-binding.js';
import { isPlausibleTaskId } from '../tasks/task-id.js';
import { toDetailedWireTask } from '../tasks/task.mapper.js';

const KEEP_ALIVE_MS = 15_000;

export interface ListenRequest {
  id: string | number;
  taskIds: unknown;
  clientCapabilities: Record<string, any>;
  principal: Principal;
}

/**
 * `subscriptions/listen` with `notifications.taskIds`: an SSE stream that acknowledges the ids the
 * caller may see (others dropped silently, as if unknown), then sends `notifications/tasks` with the
 * full task whenever one of them changes status (or asks for more input) — on this instance or,
 * through the event bus, on another. It ends when the client closes it.
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
  ) {
    this.follow = guards.protect(this, 'follow', (task) => task);
  }

  /** Validates the request; throws an `RpcError` before anything is written. */
  check(req: ListenRequest): string[] {
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

  async serve(req: ListenRequest, ids: string[], res: ServerResponse): Promise<void> {
    const subscriptionId = req.id;
    const last = new Map<string, string>();
    // Subscribe before reading, so a change between the read and the ack is not missed.
    const queue: string[] = [];
    let ready = false;
    const unsubscribe = this.bus.subscribe((e) => {
      if (e.type !== 'status-changed' || !last.has(e.taskId)) return;
      if (ready) void this.push(e.taskId, last, subscriptionId, res);
      else queue.push(e.taskId);
    });
    for (const id of ids) {
      const task = await this.visible(id, req.principal);
      if (task) last.set(id, signature(task));
    }
    res.writeHead(200, SSE_HEADERS);
    send(res, {
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [META.subscriptionId]: subscriptionId }, notifications: { taskIds: [...last.keys()] } },
    });
    ready = true;
    for (const id of queue.splice(0)) void this.push(id, last, subscriptionId, res);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.open.set(res, subscriptionId);
    res.once('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
      this.open.delete(res);
    });
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

  private async push(
    id: string,
    last: Map<string, string>,
    subscriptionId: string | number,
    res: ServerResponse,
  ): Promise<void> {
    // A failed read only skips this change; the next one (or the client's poll) catches up.
    const task = await this.store.get(id, Date.now()).catch(() => undefined);
    if (!task || res.writableEnded || res.destroyed) return;
    const sig = signature(task);
    if (last.get(id) === sig) return;
    last.set(id, sig);
    send(res, {
      method: 'notifications/tasks',
      params: {
        ...toDetailedWireTask(task, this.options.pollInterval),
        _meta: { [META.subscriptionId]: subscriptionId },
      },
    });
  }

  /** The task if this caller may follow it; unknown, foreign or out-of-scope ids read as absent. */
  private async visible(id: string, principal: Principal): Promise<TaskRecord | undefined> {
    if (!isPlausibleTaskId(id)) return undefined;
    const task = await this.store.get(id, Date.now()).catch(() => undefined);
    if (!task || isBoundElsewhere(task, undefined, !!this.options.auth)) return undefined;
    return this.follow(task, principal).catch(() => undefined);
  }
}

/** What a client sees change: the status, or the set of outstanding input keys. */
const signature = (t: TaskRecord): string => `${t.status}|${Object.keys(t.inputRequests).sort().join(',')}`;

const send = (res: ServerResponse, message: Record<string, unknown>): void => {
  if (!res.writableEnded && !res.destroyed) res.write(sseMessage(message));
};
