import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { setLongTimeout } from '../common/long-timeout.js';
import type { ToolCallOrigin } from '../context/base-tool.context.js';
import { stopNote } from '../context/stop.note.js';
import { TaskRunHandle, type TaskRunEnd } from '../context/task-run.handle.js';
import { TaskToolContext, type RunChange } from '../context/task-tool.context.js';
import { InjectTaskStore, InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { followTopic } from '../events/task-event.topics.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import { isTerminal } from '../protocol/wire.interface.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { ToolPipeline } from '../pipeline/tool.invoker.js';
import { hasResumableTasks, type ResumableTasks } from '../store/capabilities/resumable-tasks.interface.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskChange, TaskRecord, UpdateOutcome } from '../store/task.record.js';
import { RunLeasesRenewal } from './run-leases.renewal.js';
import { RunningTasksWatcher } from './running-tasks.watcher.js';
import { handedOverEnd, intended, runEndOf, stoppedChange } from './task-ending.js';
import { newTaskRecord, type TaskCreation, type TaskOrigin } from './task-record.factory.js';
import { completion, failureOf } from './task.outcome.js';
import { endOnShutdown, releaseOnShutdown } from './shutdown.ending.js';

/**
 * Creates tasks, runs their tools in the background on this instance, and applies cancel and
 * answers from any instance (relayed by the event bus, and noticed in the store every `pollInterval`).
 * Every run leaves its task in a final state, whatever stopped it — or, for a resumable task, hands it on: a run
 * writes only at its attempt, and one whose task another instance took over stops without writing.
 */
@Injectable()
export class TaskRunner implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private readonly running = new Map<string, TaskRunHandle>();
  /** Names this instance in the leases it holds on the tasks it runs. */
  readonly instanceId = randomUUID();
  private unsubscribe?: () => void;
  private readonly renewal: RunLeasesRenewal;
  private readonly watcher: RunningTasksWatcher;
  /** The store, when it can resume tasks: `create` records `resume` for the tools that ask for it. */
  private readonly resumable?: ResumableTasks;
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
    this.renewal = new RunLeasesRenewal(store, this.running, this.instanceId, options.lease, this.logger);
    this.resumable = hasResumableTasks(store) ? store : undefined;
  }

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe((e) => {
      const handle = this.running.get(e.taskId);
      if (!handle) return;
      if (e.type === 'cancel-requested') handle.abort('cancelled');
      if (e.type === 'input-answered') handle.wake();
    });
    this.renewal.start();
    this.watcher.start();
  }

  /** Whether runs are still taken: not once shutdown began. */
  get accepting(): boolean {
    return !this.stopping;
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
    const task = newTaskRecord(origin, answers, requiredScopes, from, this.options, this.instanceId, !!this.resumable);
    const limits = { maxPerOwner: this.options.maxPerPrincipal, maxTotal: this.options.maxTasks };
    const outcome = await this.store.create(task, limits);
    return outcome === 'created' ? { created: task } : { refused: outcome };
  }

  /**
   * Runs the tool for a stored task (a new one, or a resumable one this instance took over: its `attempt`), in the
   * background; never throws.
   */
  run(task: TaskRecord, tool: ToolPipeline, args: object, origin: ToolCallOrigin): void {
    const handle = new TaskRunHandle(task.attempt ?? 1, !!task.resume);
    // Cancel and answers from other instances reach this one while the run lasts (for its task only); those sent
    // before the follow took effect on the broker are read from the store once it did.
    const unfollow = followTopic(this.bus, task.id, () => this.watcher.recheck(task.id, handle));
    // An earlier attempt here (this instance stalled past its lease and took the task back): it stops.
    this.running.get(task.id)?.handOver('lease-lost');
    this.running.set(task.id, handle);
    const write = (c: RunChange) => this.write(task.id, c, handle);
    const ctx = new TaskToolContext(origin, task, this.store, write, handle, this.options.pollInterval);
    // Any ttl: Node's own timers fire at once past 2^31-1 ms.
    const cancelExpiry =
      task.expiresAt === null ? undefined : setLongTimeout(() => handle.abort('expired'), task.expiresAt - Date.now());
    setImmediate(() => {
      void this.execute(task.id, () => tool.run(args, ctx), handle).finally(() => {
        cancelExpiry?.();
        unfollow();
        if (this.running.get(task.id) === handle) this.running.delete(task.id);
      });
    });
  }

  /** Runs the tool, writes how it ended, and tells the run's handle what the store then holds. Never throws. */
  private async execute(id: string, call: () => Promise<unknown>, handle: TaskRunHandle): Promise<void> {
    let change: RunChange | undefined;
    try {
      change = await this.outcome(id, call, handle);
      // The task went on elsewhere: what this run made of it is dropped.
      if (handle.handedOver) {
        const task = await this.store.get(id, Date.now()).catch(() => null);
        return handle.end(handedOverEnd(task, handle.attempt));
      }
      handle.end(await this.settle(id, change, handle));
    } catch (err) {
      this.logger.error(`task ${id}: its end could not be recorded: ${(err as Error).message}`);
    } finally {
      handle.end(runEndOf(change && intended(change)));
    }
  }

  /** What the run's end makes of the task: its result or error — or, stopped without either, its final state. */
  private async outcome(id: string, call: () => Promise<unknown>, handle: TaskRunHandle): Promise<RunChange> {
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
   * crash the process); the store's answer says how the task ended (a cancel may have come first, or another
   * attempt). Gives up when the task expired, or once a stopping server's grace is over (shutdown then ends it).
   */
  private async settle(id: string, change: RunChange, handle: TaskRunHandle): Promise<TaskRunEnd | null> {
    for (let wait = 100; ; wait = Math.min(wait * 2, 5_000)) {
      try {
        const task = (await this.write(id, change, handle))?.task;
        return handle.handedOver ? handedOverEnd(task, handle.attempt) : runEndOf(task);
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
   * A change a run makes, at its attempt (fenced: it applies only while the task is at that attempt). Refused with
   * the task at another attempt, the run stops: another instance took the task over. A run handed over writes
   * nothing (`undefined`).
   */
  private async write(id: string, change: RunChange, handle: TaskRunHandle): Promise<UpdateOutcome | undefined> {
    if (handle.handedOver) return undefined;
    const outcome = await this.apply(id, Object.assign({ attempt: handle.attempt }, change));
    if (outcome && !outcome.changed && (outcome.task.attempt ?? 1) !== handle.attempt) handle.handOver('lease-lost');
    return outcome;
  }

  /**
   * Graceful shutdown: take no new tasks, give running ones `shutdownGrace` ms to finish (their leases still
   * renewed), then hand resumable tasks over — their leases released for another instance to resume at once, their
   * runs stopped and their outcomes dropped — and end the rest `failed`: no task is left `working` with no one
   * running it. (Before the HTTP server closes, so clients can still read the outcome.)
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const deadline = (this.deadline = Date.now() + this.options.shutdownGrace);
    try {
      while (this.running.size > 0 && Date.now() < deadline)
        await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
      this.renewal.stop();
      this.watcher.stop();
      const retryUntil = deadline + Math.max(this.options.shutdownGrace, 1_000);
      // Resumable runs are handed over — but one that returned is writing its outcome: let it (if it cannot, its
      // lease lapses and the task resumes then).
      const store = this.resumable;
      const resumes = ([, h]: [string, TaskRunHandle]) => !!store && h.resumable;
      const handOver = [...this.running].filter((run) => resumes(run) && !run[1].returned);
      const end = [...this.running].filter((run) => !resumes(run));
      const writeOf = (id: string, h: TaskRunHandle) => (c: RunChange) => this.write(id, c, h);
      await Promise.all([
        store ? releaseOnShutdown(store, handOver, this.instanceId, this.logger) : undefined,
        ...end.map(([id, h]) => endOnShutdown(id, h, writeOf(id, h), retryUntil, this.logger)),
      ]);
    } finally {
      this.unsubscribe?.();
      this.markStopped();
    }
  }
}
