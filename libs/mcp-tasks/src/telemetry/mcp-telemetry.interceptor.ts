import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnModuleInit,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { defer, lastValueFrom, type Observable } from 'rxjs';
import type { BaseToolContext } from '../context/base-tool.context.js';
import { InputRequiredSignal } from '../context/input-required.signal.js';
import type { ToolContext } from '../common/tool-context.interface.js';
import type { TaskRunEnd } from '../context/task-run.handle.js';
import { McpExecutionContext } from '../context/mcp-execution-context.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { promised } from '../common/promised.js';
import { cjsExports, probePeer } from '../peers/optional-peer.js';
import { ToolError } from '../tools/tool.error.js';
import { RunEvents, type Emitter } from './run.events.js';
import { McpTaskEvents, type McpRunOutcome } from './telemetry.events.js';
import { McpTracing, type McpSpan, type SpanAttributes, type SpanSpec } from './tracing.js';

/** What the telemetry reads of a run: a tool's context has it, and so does the gateway's mirror of an upstream task. */
export interface ObservedRun extends Pick<
  BaseToolContext,
  'tool' | 'requestId' | 'taskId' | 'traceContext' | 'signal'
> {
  /** A task run's attempt (1 for the first; a resumable task's later runs count on); absent for a mirror. */
  attempt?: number;
  /** A task run's end as the store holds it; `null`: the run moved to another instance, which reports its end. */
  runEnded?: Promise<TaskRunEnd | null>;
}

const EVENT_NAMES = Object.values(McpTaskEvents);

/**
 * Wraps every tool run (in the request or as a task): `mcp.task.start|stop|exception` events, and an
 * `execute_tool <tool>` span that is the child of the `tools/call` span even when the task runs after
 * the response was sent. Added by the library in front of a tool's own interceptors.
 * @publicApi
 */
@Injectable()
export class McpTelemetryInterceptor implements NestInterceptor, OnModuleInit {
  private events?: Emitter;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly tracing: McpTracing,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** Events go to the app's `EventEmitterModule` when it has one (`@nestjs/event-emitter` is optional). */
  async onModuleInit(): Promise<void> {
    if (!this.options.telemetry) return;
    const ns = await probePeer<unknown>('@nestjs/event-emitter');
    const token = ns === undefined ? undefined : cjsExports<{ EventEmitter2?: new () => Emitter }>(ns).EventEmitter2;
    if (!token) return;
    try {
      this.events = this.moduleRef.get(token, { strict: false });
    } catch {
      // Installed, but the app did not import EventEmitterModule: nobody to tell.
    }
  }

  /**
   * Whether anyone would see a run now: a recording tracer (an OpenTelemetry SDK), or a listener for
   * `mcp.task.*`. Asked per run (an SDK or a listener may arrive later); when nobody would, the tool invoker
   * runs the tool without this interceptor at all.
   */
  observing(): boolean {
    return this.tracing.recording() || this.listening();
  }

  /** Whether the emitter has a listener for one of our events (or for every event); unknown emitters are assumed to. */
  private listening(): boolean {
    const events = this.events;
    if (!events) return false;
    if (typeof events.hasListeners !== 'function') return true;
    return EVENT_NAMES.some((name) => events.hasListeners!(name)) || (events.listenersAny?.().length ?? 0) > 0;
  }

  intercept(ec: ExecutionContext, next: CallHandler): Observable<unknown> {
    const ctx = McpExecutionContext.toolContext(ec) as BaseToolContext;
    return defer(() => this.observe(ctx, () => lastValueFrom(next.handle())));
  }

  /**
   * A task run outside a tool's pipeline — the gateway's mirror of an upstream task: the same events and span as a
   * task run, ending with the status `run.runEnded` reads from the store. Just `work` when telemetry is off.
   */
  observeRun(
    run: ObservedRun & Required<Pick<ObservedRun, 'runEnded'>>,
    work: () => Promise<unknown>,
  ): Promise<unknown> {
    return this.options.telemetry ? this.observe(run, work) : work();
  }

  /**
   * What `intercept` does, for a pipeline in which no other interceptor and no exception filter runs: `run` is the
   * rest of it (pipes, the method). Without Nest's interceptor machinery (its `defer`s, an `AsyncResource` per layer,
   * two `lastValueFrom`s): the same span, events and outcome at a fraction of the cost.
   */
  around(ctx: ToolContext, run: () => Promise<unknown>): Promise<unknown> {
    return this.observe(ctx as BaseToolContext, run);
  }

  /** One run: the start event; the run in its `execute_tool` span (active, so the tool's spans nest); the end. */
  private observe(ctx: ObservedRun, run: () => Promise<unknown>): Promise<unknown> {
    // No listener: no event objects either (the span may still be recorded).
    const events = this.listening() ? this.runEvents(ctx) : undefined;
    const ended = (span: McpSpan, status: McpRunOutcome, isError: boolean): void => {
      span.setAttribute('mcp.task.status', status);
      if (isError) span.setAttribute('error.type', 'tool_error');
      events?.stop(status, isError);
    };
    const threw = (err: unknown): void => {
      if (events && outcomeOf(err, ctx) === 'failed') events.exception(err);
    };
    if (ctx.runEnded) return this.observeTask(ctx, ctx.runEnded, run, ended, threw);
    const spec = executeToolSpan(ctx, (err) => outcomeOf(err, ctx) === 'failed');
    // `then`, not an async function: fewer promises, each of which an SDK's context manager tracks.
    return this.tracing.inSpan(spec, ctx.traceContext, (span) =>
      promised(run).then(
        (value) => {
          ended(span, 'completed', isErrorResult(value));
          return value;
        },
        (err: unknown) => {
          threw(err);
          ended(span, outcomeOf(err, ctx), err instanceof ToolError);
          throw err;
        },
      ),
    );
  }

  private runEvents(ctx: ObservedRun): RunEvents {
    return new RunEvents(this.events!, {
      tool: ctx.tool,
      server: this.options.server.name,
      requestId: ctx.requestId,
      ...(ctx.taskId ? { taskId: ctx.taskId } : {}),
      ...(ctx.taskId && ctx.attempt ? { attempt: ctx.attempt } : {}),
    });
  }

  /**
   * A task's run: the tool's value (or what it threw) goes back to the runner at once, but the span and the stop
   * event wait for the runner to write it, and carry the status the store then holds.
   */
  private observeTask(
    ctx: ObservedRun,
    runEnded: Promise<TaskRunEnd | null>,
    run: () => Promise<unknown>,
    ended: (span: McpSpan, status: McpRunOutcome, isError: boolean) => void,
    threw: (err: unknown) => void,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const spec = executeToolSpan(ctx, () => true);
      this.tracing
        .inSpan(spec, ctx.traceContext, async (span) => {
          let thrown: { err: unknown } | undefined;
          try {
            resolve(await run());
          } catch (err) {
            thrown = { err };
            threw(err);
            reject(err);
          }
          const end = await runEnded;
          // Moved to another instance (a mirror handed over, a resumable task taken over or released on shutdown):
          // the one running it then reports how it ends, once.
          if (!end) return;
          ended(span, end.status, end.isError);
          if (end.status === 'failed') throw thrown ? thrown.err : new Error(end.error?.message ?? 'The task failed');
        })
        // The span has recorded it; the runner has the tool's own outcome.
        .catch(() => undefined);
    });
  }
}

function executeToolSpan(ctx: ObservedRun, isFailure: SpanSpec['isFailure']): SpanSpec {
  const attributes: SpanAttributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': ctx.tool,
    'mcp.method.name': 'tools/call',
    'jsonrpc.request.id': String(ctx.requestId),
  };
  // Set, not spread in: conditional spreads made this ~2–3× slower (~0.1 µs a run; the SDK's copies cost more).
  if (ctx.taskId) {
    attributes['mcp.task.id'] = ctx.taskId;
    // Each attempt of a resumable task is a span of its own.
    if (ctx.attempt) attributes['mcp.task.attempt'] = ctx.attempt;
  }
  return { name: `execute_tool ${ctx.tool}`, kind: 'internal', isFailure, attributes };
}

/** How a run that threw ended: an MRTR round, a tool error (`completed`), a cancellation, or a failure. */
function outcomeOf(err: unknown, ctx: ObservedRun): McpRunOutcome {
  if (err instanceof InputRequiredSignal) return 'input_required';
  if (err instanceof ToolError) return 'completed';
  return ctx.signal.aborted ? 'cancelled' : 'failed';
}

const isErrorResult = (value: unknown): boolean =>
  !!value && typeof value === 'object' && (value as { isError?: unknown }).isError === true;
