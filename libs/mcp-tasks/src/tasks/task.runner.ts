import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolCallOrigin } from '../context/base-tool.context.js';
import { TaskCancelledError } from '../context/task-cancelled.error.js';
import { TaskAbortedError, TaskRunHandle } from '../context/task-run.handle.js';
import { TaskToolContext } from '../context/task-tool.context.js';
import { InjectTaskStore, InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { MCP_TASKS_OPTIONS, RpcCode } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { ToolPipeline } from '../pipeline/tool.invoker.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskChange, TaskRecord, TaskUpstream, UpdateOutcome } from '../store/task.record.js';
import { newTaskId } from './task-id.js';
import { completion, failureOf } from './task-outcome.js';

/** A task `create` stored for a call, or why it stored none: the owner's or the server's cap. */
export type TaskCreation = { created: TaskRecord } | { refused: 'owner-limit' | 'server-limit' };

/** For a task that mirrors an upstream task (the gateway): its upstream, and a ttl no longer than the upstream's. */
export interface TaskMirrorSpec {
  upstream?: TaskUpstream;
  /** ms, or `null` for no expiry. @default the `ttl` option */
  ttl?: number | null;
}

/**
 * Creates tasks, runs their tools in the background on this instance, and applies cancel and
 * answers from any instance (relayed by the event bus).
 */
@Injectable()
export class TaskRunner implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private readonly running = new Map<string, TaskRunHandle>();
  /** Names this instance in the leases it holds on the tasks it runs. */
  readonly instanceId = randomUUID();
  private unsubscribe?: () => void;
  private renewal?: NodeJS.Timeout;
  private stopping = false;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe((e) => {
      const handle = this.running.get(e.taskId);
      if (!handle) return;
      if (e.type === 'cancel-requested') handle.abort('cancelled');
      if (e.type === 'input-answered') handle.wake();
    });
    // Renew well within the lease, so one slow or lost renewal does not cost a live task.
    this.renewal = setInterval(() => void this.renewLeases(), Math.max(100, Math.floor(this.options.lease / 3)));
    this.renewal.unref();
  }

  private async renewLeases(): Promise<void> {
    if (this.running.size === 0) return;
    try {
      await this.store.renewLeases([...this.running.keys()], this.instanceId, Date.now() + this.options.lease);
    } catch (err) {
      this.logger.warn(`lease renewal failed: ${(err as Error).message}`);
    }
  }

  /**
   * Stores a new task for the call (caps checked atomically) and hands it back to answer with, before `run`; or
   * says why not. A stopping server takes no new tasks: it behaves as if at the cap.
   */
  async create(
    origin: ToolCallOrigin,
    answers: Record<string, unknown>,
    requiredScopes: string[],
    mirror: TaskMirrorSpec = {},
  ): Promise<TaskCreation> {
    if (this.stopping) return { refused: 'server-limit' };
    const now = Date.now();
    const ttl = mirror.ttl !== undefined ? mirror.ttl : this.options.ttl;
    const task: TaskRecord = {
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
      leaseOwner: this.instanceId,
      leaseExpiresAt: now + this.options.lease,
      ...(mirror.upstream ? { upstream: mirror.upstream } : {}),
    };
    const limits = { maxPerOwner: this.options.maxPerPrincipal, maxTotal: this.options.maxTasks };
    const outcome = await this.store.create(task, limits);
    return outcome === 'created' ? { created: task } : { refused: outcome };
  }

  /** Runs the tool for a stored task, in the background; never throws. */
  run(task: TaskRecord, tool: ToolPipeline, args: object, origin: ToolCallOrigin): void {
    const handle = new TaskRunHandle();
    this.running.set(task.id, handle);
    const ctx = new TaskToolContext(
      origin,
      task,
      this.store,
      (c) => this.apply(task.id, c),
      handle,
      this.options.pollInterval,
    );
    const expiry =
      task.expiresAt === null ? undefined : setTimeout(() => handle.abort('expired'), task.expiresAt - Date.now());
    expiry?.unref();
    setImmediate(() => {
      void this.execute(task.id, () => tool.run(args, ctx), handle).finally(() => {
        clearTimeout(expiry);
        this.running.delete(task.id);
      });
    });
  }

  private async execute(id: string, call: () => Promise<unknown>, handle: TaskRunHandle): Promise<void> {
    let change: TaskChange;
    try {
      change = completion(await call());
    } catch (err) {
      if (handle.abortReason && (err instanceof TaskCancelledError || isAbort(err))) return;
      change = failureOf(id, err);
    }
    await this.settle(id, change, handle);
  }

  /**
   * Writes a run's outcome, retrying while the store is unreachable (a database restart must not
   * lose a result nor crash the process). Gives up when the task is gone, or on shutdown.
   */
  private async settle(id: string, change: TaskChange, handle: TaskRunHandle): Promise<void> {
    for (let wait = 100; ; wait = Math.min(wait * 2, 5_000)) {
      try {
        await this.apply(id, change);
        return;
      } catch (err) {
        if (this.stopping) return;
        this.logger.warn(`task ${id}: outcome not stored yet (${(err as Error).message}); retrying in ${wait} ms`);
        await sleep(wait);
        if (handle.abortReason === 'expired') return;
      }
    }
  }

  /** Marks the task cancelled at once (final) and stops its run wherever it is. Idempotent. */
  async cancel(id: string): Promise<void> {
    await this.apply(id, { kind: 'finish', status: 'cancelled' });
    await this.bus.publish({ type: 'cancel-requested', taskId: id });
  }

  /** Records answers to outstanding requests (others are ignored) and wakes the waiting run. */
  async answer(id: string, responses: Record<string, unknown>): Promise<void> {
    const outcome = await this.apply(id, { kind: 'answer', responses });
    if (outcome?.changed) await this.bus.publish({ type: 'input-answered', taskId: id });
  }

  /** Every change to a task goes through here, so every instance hears of it (also the gateway's mirrors). */
  async apply(id: string, change: TaskChange): Promise<UpdateOutcome | undefined> {
    const outcome = await this.store.update(id, change, Date.now());
    if (outcome?.changed) await this.bus.publish({ type: 'status-changed', taskId: id, status: outcome.task.status });
    return outcome;
  }

  /**
   * Graceful shutdown: take no new tasks, give running ones `shutdownGrace` ms to finish, then end the
   * rest `failed` — no task is left `working` with no one running it. (Before the HTTP server closes,
   * so clients can still read the outcome.)
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.renewal);
    const deadline = Date.now() + this.options.shutdownGrace;
    while (this.running.size > 0 && Date.now() < deadline)
      await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
    const error = { code: RpcCode.InternalError, message: 'The task was interrupted: the server shut down' };
    await Promise.all(
      [...this.running.entries()].map(async ([id, handle]) => {
        await this.apply(id, { kind: 'finish', status: 'failed', error });
        handle.abort('shutdown');
      }),
    );
    this.unsubscribe?.();
  }
}

/** What a tool throws when its run was stopped: the reason passed on, or an `AbortError` (fetch, timers, streams). */
const isAbort = (err: unknown): boolean =>
  err instanceof TaskAbortedError || (err instanceof Error && err.name === 'AbortError');
