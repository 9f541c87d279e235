import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';
import { resumedOrigin } from '../context/resumed-call.js';
import type { RunChange } from '../context/task-tool.context.js';
import { InjectTaskEventBus, InjectTaskStore } from '../decorators/inject.decorators.js';
import { ToolRegistry } from '../discovery/tool.registry.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { parseOwnerKey } from '../owner/owner-key.js';
import { ToolInvoker } from '../pipeline/tool.invoker.js';
import { hasResumableTasks, type ResumableTasks } from '../store/capabilities/resumable-tasks.interface.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord, TaskResume } from '../store/task.record.js';
import { failureOf } from '../tasks/task.outcome.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { McpTracing } from '../telemetry/tracing.js';
import { validateArguments } from '../tools/arguments.validator.js';
import { RESUME_NOTES, toolGone } from './resume.notes.js';
import { resumedHttp } from './resumed-request.js';
import { withPrepare } from './with-prepare.js';

/** Tasks taken over per look. */
const BATCH = 100;

/**
 * Resumes the tasks of tools with `resume` whose instance stopped. Every `pollInterval` (at most `lease/2`) it takes
 * over those whose lease lapsed (`ResumableTasks.adoptLapsedRuns`: each task goes to one instance, its attempt one
 * more, or ends `failed` past `maxAttempts`) and runs each again here: a dispatcher of stored calls, as
 * `ToolCallHandler` is of calls that arrive. The tool is found by name, its arguments are validated again, and its
 * pipeline is built through the `ToolInvoker` on stand-in HTTP objects (`resumedHttp`) — its run half only: the
 * guards ran for the first attempt, and the task has been the caller's since. On a store that cannot resume, it
 * says once at startup which tools asked.
 */
@Injectable()
export class TaskResumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('McpTasks');
  private timer?: NodeJS.Timeout;
  /** The look under way, if any. */
  private look?: Promise<void>;
  private closing = false;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
    private readonly registry: ToolRegistry,
    private readonly invoker: ToolInvoker,
    private readonly runner: TaskRunner,
    private readonly tracing: McpTracing,
  ) {}

  onApplicationBootstrap(): void {
    const store = this.store;
    if (!hasResumableTasks(store)) return this.warnCannotResume();
    // As often as clients are told to poll: a task is taken over within lease + pollInterval of its instance's
    // death, and at once (one period) after a shutdown hands it over. One indexed read per look.
    const { lease, pollInterval } = this.options;
    const every = Math.max(100, Math.min(pollInterval, Math.floor(lease / 2)));
    this.timer = setInterval(() => void this.resume(store), every);
    this.timer.unref();
  }

  /**
   * No look after this one, which ends first. Before any `beforeApplicationShutdown` (Nest runs every
   * `onModuleDestroy` first), so before the runner hands this instance's tasks over: a takeover query still under
   * way then (slow under load) would land after that release and take those very tasks back, an attempt spent on
   * none. What it takes now runs here until the runner hands it over with the rest.
   */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    await this.look;
  }

  /** One look: takes over the resumable tasks whose lease lapsed, and runs each here. Never throws. */
  resume(store: ResumableTasks, now = Date.now()): Promise<void> {
    if (this.look || this.closing || !this.runner.accepting) return Promise.resolve();
    const look = this.takeOver(store, now).finally(() => (this.look = undefined));
    this.look = look;
    return look;
  }

  private async takeOver(store: ResumableTasks, now: number): Promise<void> {
    try {
      const until = now + this.options.lease;
      const { instanceId } = this.runner;
      // This server's tasks only: another server sharing the table resumes its own (its tools are not ours).
      const lapsed = await store.adoptLapsedRuns(now, BATCH, instanceId, until, RESUME_NOTES, this.options.server.name);
      for (const id of lapsed.exhausted)
        await this.bus.publish({ type: 'status-changed', taskId: id, status: 'failed' });
      for (const task of lapsed.adopted) {
        const { id: taskId, status, session } = task;
        await this.bus.publish({ type: 'status-changed', taskId, status, ...(session ? { session } : {}) });
        // One task's trouble is its own: the others still start (else their leases lapse and cost an attempt).
        await this.start(store, task, task.resume!).catch((err: Error) =>
          this.logger.warn(`task ${taskId}: not resumed here (${err.message}); it resumes once its lease lapses`),
        );
      }
    } catch (err) {
      this.logger.warn(`resuming tasks failed: ${(err as Error).message}`);
    }
  }

  /** Runs a task taken over again here; one that cannot run ends `failed` (at its new attempt), saying why. */
  private async start(store: ResumableTasks, task: TaskRecord, resume: TaskResume): Promise<void> {
    // Another registration's task in a shared store, or taken as shutdown began: given back at once.
    const server = parseOwnerKey(task.owner)?.server;
    if (!this.runner.accepting || (server !== undefined && server !== this.options.server.name))
      return store.releaseLeases([task.id], this.runner.instanceId);
    const tool = this.registry.get(task.tool);
    if (!tool) return this.fail(task, { kind: 'finish', status: 'failed', error: toolGone(task.tool) });
    this.logger.log(`task ${task.id}: resuming ${tool.name} (attempt ${task.attempt} of ${resume.maxAttempts})`);
    try {
      const args = await validateArguments(tool, resume.args);
      const { call } = resume;
      const mcpCall: McpCall = {
        method: 'tools/call',
        id: call.requestId,
        params: { name: tool.name, arguments: resume.args },
        principal: call.principal,
      };
      const http = resumedHttp(this.options.path, call.requestId, tool.name, resume.args);
      const pipeline = await this.invoker.pipelineFor(tool, http, mcpCall);
      // A 2025-11-25 task ran its `prepare` inside the task: it runs again there.
      const run = task.generation === '2025-11-25' && pipeline.prepare ? withPrepare(pipeline) : pipeline;
      this.runner.run(task, run, args, resumedOrigin(task, call, this.tracing.active()));
    } catch (err) {
      // Arguments a deploy's DTO no longer accepts (`ArgumentsInvalidError`: the task fails with that -32602, as
      // no model reads a resumed attempt's result), a request-scoped provider that cannot be made, …
      await this.fail(task, failureOf(task.id, err));
    }
  }

  /** Ends a task taken over that cannot run, at its new attempt. */
  private async fail(task: TaskRecord, change: RunChange): Promise<void> {
    await this.runner.apply(task.id, Object.assign({ attempt: task.attempt }, change));
  }

  /** On a store without `ResumableTasks`, the tools asking to resume are named once. */
  private warnCannotResume(): void {
    const tools = this.registry.list().filter((t) => t.resume);
    if (tools.length === 0 || !this.options.tasks) return;
    const [tool, asks, its] = tools.length === 1 ? ['tool', 'asks', 'its'] : ['tools', 'ask', 'their'];
    this.logger.warn(
      `${tool} ${tools.map((t) => t.name).join(', ')} ${asks} to resume after ${its} instance stops (resume: ` +
        `true), but the store ${this.store.constructor.name} cannot resume tasks (it does not implement ` +
        `ResumableTasks: adoptLapsedRuns, releaseLeases): ${its} tasks end failed when ${its} instance stops, as ` +
        "other tasks do. A store that can: store: { type: 'typeorm' } (SQLite or PostgreSQL).",
    );
  }
}
