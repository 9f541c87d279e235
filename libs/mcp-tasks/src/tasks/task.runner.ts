import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { setLongTimeout } from '../common/long-timeout.js';
import type { ToolCallOrigin } from '../context/base-tool.context.js';
import { stopNote } from '../context/stop.note.js';
import { TaskRunHandle, type TaskRunEnd } from '../context/task-run.handle.js';
import { TaskToolContext } from '../context/task-tool.context.js';
import { InjectTaskStore, InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import { isTerminal } from '../protocol/wire.interface.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { ToolPipeline } from '../pipeline/tool.invoker.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskChange, TaskGeneration, TaskRecord, TaskUpstream, UpdateOutcome } from '../store/task.record.js';
import { RunningTasksWatcher } from './running-tasks.watcher.js';
import { intended, runEndOf, stoppedChange } from './task-ending.js';
import { newTaskId } from './task-id.js';
import { completion, failureOf } from './task.outcome.js';

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
}

/**
 * Creates tasks, runs their tools in the background on this instance, and applies cancel and
 * answers from any instance (relayed by the event bus, and noticed in the store every `pollInterval`).
 * Every run leaves its task in a final state, whatever stopped it.
 */
@Injectable()
export class TaskRunner implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private readonly running = new Map<string, TaskRunHandle>();
  /** Names this instance in the leases it holds on the tasks it runs. */
  readonly instanceId = randomUUID();
  private unsubscribe?: () => void;
  private renewal?: NodeJS.Timeout;
  private readonly watcher: RunningTasksWatcher;
  private stopping = false;
  private markStopped!: () => void;
  /** Resolves once shutdown has given every task it ran its final state (streams waiting on results may then end). */
  readonly stopped = new Promise<void>((resolve) => (this.markStopped = resolve));
  /** Once stopping: when running tasks' grace ends. */
  private deadline = Infinity;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
  ) {
    this.watcher = new RunningTasksWatcher(store, this.running, options.pollInterval, this.logger);
  }

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
    this.watcher.start();
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
    from: TaskOrigin = {},
  ): Promise<TaskCreation> {
    if (this.stopping) return { refused: 'server-limit' };
    const now = Date.now();
    const ttl = from.ttl === undefined ? this.options.ttl : from.ttl;
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
      ...(from.generation ? { generation: from.generation } : {}),
      ...(from.session !== undefined ? { session: from.session } : {}),
      ...(from.upstream ? { upstream: from.upstream } : {}),
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
    // Any ttl: Node's own timers fire at once past 2^31-1 ms.
    const cancelExpiry =
      task.expiresAt === null ? undefined : setLongTimeout(() => handle.abort('expired'), task.expiresAt - Date.now());
    setImmediate(() => {
      void this.execute(task.id, () => tool.run(args, ctx), handle).finally(() => {
        cancelExpiry?.();
        this.running.delete(task.id);
      });
    });
  }

  /** Runs the tool, writes how it ended, and tells the run's handle what the store then holds. Never throws. */
  private async execute(id: string, call: () => Promise<unknown>, handle: TaskRunHandle): Promise<void> {
    let change: TaskChange | undefined;
    try {
      change = await this.outcome(id, call, handle);
      handle.end(await this.settle(id, change, handle));
    } catch (err) {
      this.logger.error(`task ${id}: its end could not be recorded: ${(err as Error).message}`);
    } finally {
      handle.end(runEndOf(change && intended(change)));
    }
  }

  /** What the run's end makes of the task: its result or error — or, stopped without either, its final state. */
  private async outcome(id: string, call: () => Promise<unknown>, handle: TaskRunHandle): Promise<TaskChange> {
    try {
      return completion(await call());
    } catch (err) {
      const reason = handle.abortReason;
      if (!reason) return failureOf(id, err);
      // Stopped: whatever it threw then (the abort passed on, or an error in its clean-up), the stop decides.
      this.logger.debug(stopNote(`task ${id}`, reason, err));
      return stoppedChange(reason);
    } finally {
      handle.returned = true;
    }
  }

  /**
   * Writes a run's outcome, retrying while the store is unreachable (a database restart must not lose a result nor
   * crash the process); the store's answer says how the task ended (a cancel may have come first). Gives up when
   * the task expired, or once a stopping server's grace is over (shutdown then ends the task).
   */
  private async settle(id: string, change: TaskChange, handle: TaskRunHandle): Promise<TaskRunEnd> {
    for (let wait = 100; ; wait = Math.min(wait * 2, 5_000)) {
      try {
        return runEndOf((await this.apply(id, change))?.task);
      } catch (err) {
        if (this.stopping && Date.now() >= this.deadline) return this.lastKnownEnd(id, change);
        this.logger.warn(`task ${id}: outcome not stored yet (${(err as Error).message}); retrying in ${wait} ms`);
        await sleep(wait);
        if (handle.abortReason === 'expired') return this.lastKnownEnd(id, change);
      }
    }
  }

  /** How a run ended when its outcome could not be written: as the store holds it, if it can be read. */
  private async lastKnownEnd(id: string, change: TaskChange): Promise<TaskRunEnd> {
    const task = await this.store.get(id, Date.now()).catch(() => null);
    return runEndOf(task && isTerminal(task.status) ? task : task === undefined ? undefined : intended(change));
  }

  /** Marks the task cancelled at once (final) and stops its run wherever it is. Idempotent. */
  async cancel(id: string): Promise<UpdateOutcome | undefined> {
    const outcome = await this.apply(id, { kind: 'finish', status: 'cancelled' });
    await this.bus.publish({ type: 'cancel-requested', taskId: id });
    return outcome;
  }

  /** Records answers to outstanding requests (others are ignored) and wakes the waiting run. */
  async answer(id: string, responses: Record<string, unknown>): Promise<void> {
    const outcome = await this.apply(id, { kind: 'answer', responses });
    if (outcome?.changed) await this.bus.publish({ type: 'input-answered', taskId: id });
  }

  /** Every change to a task goes through here, so every instance hears of it (also the gateway's mirrors). */
  async apply(id: string, change: TaskChange): Promise<UpdateOutcome | undefined> {
    const outcome = await this.store.update(id, change, Date.now());
    if (outcome?.changed) {
      const { status, session } = outcome.task;
      await this.bus.publish({ type: 'status-changed', taskId: id, status, ...(session ? { session } : {}) });
    }
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
    this.watcher.stop();
    const deadline = (this.deadline = Date.now() + this.options.shutdownGrace);
    try {
      while (this.running.size > 0 && Date.now() < deadline)
        await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
      const retryUntil = deadline + Math.max(this.options.shutdownGrace, 1_000);
      await Promise.all([...this.running].map(([id, handle]) => this.endOnShutdown(id, handle, retryUntil)));
    } finally {
      this.unsubscribe?.();
      this.markStopped();
    }
  }

  /**
   * Ends one task `failed` on shutdown, on its own: a store error is logged and the write retried until `until`;
   * what still cannot be written is left to another instance's lease reaper. Never throws.
   */
  private async endOnShutdown(id: string, handle: TaskRunHandle, until: number): Promise<void> {
    for (let wait = 50; ; wait = Math.min(wait * 2, 1_000)) {
      try {
        await this.apply(id, stoppedChange('shutdown'));
        break;
      } catch (err) {
        const why = (err as Error).message;
        if (Date.now() + wait > until) {
          this.logger.error(`task ${id}: not ended on shutdown (${why}); the lease reaper of another instance will`);
          break;
        }
        this.logger.warn(`task ${id}: not ended on shutdown yet (${why}); retrying in ${wait} ms`);
        await sleep(wait);
      }
    }
    handle.abort('shutdown');
  }
}
