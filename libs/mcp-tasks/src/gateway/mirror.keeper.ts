import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { TraceContext } from '../common/trace-context.js';
import { InjectTaskEventBus, InjectTaskStore } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { followTopic } from '../events/task-event.topics.js';
import { MCP_TASKS_OPTIONS, RpcCode } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { isTerminal } from '../protocol/wire.interface.js';
import type { TaskMirrors } from '../store/capabilities/task-mirrors.interface.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { runEndOf } from '../tasks/task-ending.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { McpTelemetryInterceptor } from '../telemetry/mcp-telemetry.interceptor.js';
import { McpTracing } from '../telemetry/tracing.js';
import { TaskMirror } from './task-mirror.js';
import type { UpstreamTask } from './upstream-client.api.js';
import { UpstreamRegistry } from './upstream.registry.js';
import { UpstreamTaskRelay } from './upstream-task.relay.js';

const BATCH = 100;

/** The call that created a mirrored task, for its telemetry. */
export interface MirrorCaller {
  requestId: string | number;
  traceContext: TraceContext;
}

/**
 * Holds this instance's mirrors of upstream tasks, as the runner holds its runs: it renews their leases (every
 * `lease/3`), takes over the mirrors whose holder stopped renewing (every `lease/2`, on any instance: the upstream
 * task still runs, so it is followed on, not failed), wakes a mirror when the bus says its task changed, and on
 * shutdown hands its mirrors over at once.
 */
@Injectable()
export class MirrorKeeper implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private readonly mirrors = new Map<string, TaskMirror>();
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe?: () => void;
  private stopping = false;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    // A store without mirrors failed startup when there are upstreams (see checkStoreRequirements).
    @InjectTaskStore() private readonly store: TaskStore & TaskMirrors,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
    private readonly runner: TaskRunner,
    private readonly registry: UpstreamRegistry,
    private readonly relay: UpstreamTaskRelay,
    private readonly telemetry: McpTelemetryInterceptor,
    private readonly tracing: McpTracing,
  ) {}

  onModuleInit(): void {
    if (!this.registry.active) return;
    this.unsubscribe = this.bus.subscribe((e) => {
      if (e.type !== 'input-answered') this.mirrors.get(e.taskId)?.wake();
    });
    const every = (ms: number, work: () => Promise<void>) => {
      const timer = setInterval(() => void work(), Math.max(100, Math.floor(ms)));
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.lease / 3, () => this.renew());
    every(this.options.lease / 2, () => this.adopt());
  }

  /**
   * Starts mirroring `task` here (this instance holds its lease); `first` is the upstream task as created, `caller`
   * the call that created it (a mirror taken over from another instance has neither).
   */
  hold(task: TaskRecord, first?: UpstreamTask, caller?: MirrorCaller): void {
    if (this.stopping || this.mirrors.has(task.id) || !task.upstream) return;
    const upstream = this.registry.upstream(task.upstream.name);
    if (!upstream) return void this.orphan(task);
    const id = task.id;
    const from = { principal: task.upstream.principal };
    const mirror = new TaskMirror(
      task,
      upstream,
      {
        read: () => this.store.get(id, Date.now()),
        apply: (change) => this.runner.apply(id, change),
        cancelUpstream: () => this.relay.cancel(task.upstream!, from),
        holds: (current) => current.leaseOwner === this.runner.instanceId,
      },
      this.options.pollInterval,
    );
    this.mirrors.set(id, mirror);
    // Its task's changes and cancel, from any instance, while it is mirrored here.
    const unfollow = followTopic(this.bus, id);
    // Telemetry as for a task run: start now, stop with the status the store holds once the mirror is done.
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const run = {
      tool: task.tool,
      taskId: id,
      requestId: caller?.requestId ?? '',
      traceContext: caller?.traceContext ?? this.tracing.active(),
      signal: mirror.signal,
      runEnded: finished.then(() => this.endOf(id)),
    };
    void this.telemetry
      .observeRun(run, () => mirror.run(first))
      .finally(() => {
        unfollow();
        this.mirrors.delete(id);
        done();
      });
  }

  /** How a mirrored task ended, as the store holds it; `null` while it is live (handed over to another instance). */
  private async endOf(id: string) {
    const task = await this.store.get(id, Date.now()).catch(() => null);
    if (task === undefined) return runEndOf(undefined);
    return task && isTerminal(task.status) ? runEndOf(task) : null;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribe?.();
    const ids = [...this.mirrors.keys()];
    for (const mirror of this.mirrors.values()) mirror.stop();
    // A lease that ends now: another instance takes these mirrors over on its next round.
    if (ids.length > 0) await this.store.renewLeases(ids, this.runner.instanceId, Date.now()).catch(() => undefined);
  }

  private async renew(): Promise<void> {
    if (this.mirrors.size === 0) return;
    const until = Date.now() + this.options.lease;
    try {
      await this.store.renewLeases([...this.mirrors.keys()], this.runner.instanceId, until);
    } catch (err) {
      this.logger.warn(`mirror lease renewal failed: ${(err as Error).message}`);
    }
  }

  private async adopt(): Promise<void> {
    if (this.stopping) return;
    try {
      await this.registry.ready;
      const now = Date.now();
      // This server's mirrors only: another server sharing the table follows its own upstreams.
      const { instanceId } = this.runner;
      const until = now + this.options.lease;
      const tasks = await this.store.adoptLapsedMirrors(now, BATCH, instanceId, until, this.options.server.name);
      for (const task of tasks) {
        this.logger.log(
          `task ${task.id}: its mirror's holder stopped; following upstream "${task.upstream?.name}" here`,
        );
        this.hold(task);
      }
    } catch (err) {
      this.logger.warn(`taking over mirrors failed: ${(err as Error).message}`);
    }
  }

  /** A mirror of an upstream this instance does not know: nobody can follow it, so it ends. */
  private async orphan(task: TaskRecord): Promise<void> {
    const message = `Upstream "${task.upstream?.name}" is not configured on the instance that took the task over`;
    await this.runner
      .apply(task.id, { kind: 'finish', status: 'failed', error: { code: RpcCode.InternalError, message } })
      .catch(() => undefined);
  }
}
