import { Inject, Injectable, Logger } from '@nestjs/common';
import type { TraceContext } from '../common/trace-context.js';
import { callOrigin, type ToolCallOrigin } from '../context/base-tool.context.js';
import { SyncToolContext } from '../context/sync-tool.context.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import type { TaskCallVariant } from '../dispatcher/task-call.variant.js';
import { digestOf } from '../input/request-state.binding.js';
import { MCP_TASKS_OPTIONS, RpcCode, TASKS_EXTENSION } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { declaresTasks } from '../protocol/capabilities.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { CallToolResult } from '../protocol/wire.interface.js';
import { taskLimitError } from '../tasks/task-limit.error.js';
import { toWireTask } from '../tasks/task.mapper.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { McpTracing } from '../telemetry/tracing.js';
import { localTtl } from './mirror-ttl.js';
import { MirrorKeeper } from './mirror.keeper.js';
import { traceCarrier } from './trace-carrier.js';
import type { UpstreamTask } from './upstream-client.api.js';
import type { UpstreamCallOptions } from './upstream.connection.js';
import { UpstreamRegistry, type ServedUpstreamTool } from './upstream.registry.js';
import { upstreamCapabilitiesOf } from './upstream-capabilities.js';
import { eraRefusal } from './upstream-refusal.js';
import type { Era, ProxiedCall } from './proxied-call.interface.js';
import { pastRounds } from './upstream-rounds.js';
import { UpstreamStateCodec } from './upstream-state.codec.js';
import { UpstreamTaskRelay } from './upstream-task.relay.js';
import { UpstreamToolPipeline, type ProxiedStep } from './upstream-tool.pipeline.js';
import { UpstreamAnsweredError } from './upstream-answered.error.js';
import { UpstreamUnreachableError } from './upstream-unreachable.error.js';

type Answer = Record<string, unknown>;

/**
 * `tools/call` of a served upstream tool: the guards (global, scopes) run here, then the call goes upstream with
 * the caller's capabilities and trace. A result comes back as is; an MRTR round passes through (same keys, the
 * upstream's `requestState` sealed inside ours); a task becomes a local task that mirrors it — or, at the owner's
 * or the server's cap, is cancelled upstream and the caller gets `-32600`. A 2025-era caller, which has no MRTR,
 * is asked the upstream's questions on its call's stream instead, and gets a task exactly when it asked for one and
 * the upstream's listing allows it, as for a local tool.
 */
@Injectable()
export class UpstreamToolCall {
  private readonly logger = new Logger('McpTasks');
  private readonly states: UpstreamStateCodec;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly registry: UpstreamRegistry,
    private readonly pipeline: UpstreamToolPipeline,
    private readonly runner: TaskRunner,
    private readonly keeper: MirrorKeeper,
    private readonly relay: UpstreamTaskRelay,
    private readonly tracing: McpTracing,
  ) {
    this.states = new UpstreamStateCodec(options.requestStateSecret, options.requestStateTtl);
  }

  /** Whether `name` is a served upstream tool. */
  serves(name: unknown): boolean {
    return typeof name === 'string' && this.registry.find(name) !== undefined;
  }

  async call(req: ProxiedCall, traceContext: TraceContext): Promise<Answer> {
    const served = this.registry.find(req.params.name)!;
    const origin = callOrigin(req, served.name, traceContext);
    const call = { method: 'tools/call', id: req.id, params: req.params, principal: req.principal };
    const raw: unknown = req.params.arguments;
    const context = new SyncToolContext(origin, req.signal);
    // Guards first, as for a local tool: they see the arguments as sent, and a caller they refuse learns nothing
    // of what the arguments should be.
    await this.pipeline.authorize(served, {
      http: req.http,
      call,
      args: raw && typeof raw === 'object' ? raw : {},
      context,
    });
    const args = argumentsOf(raw);
    // The variant reads only the tool's name and policy; the caller called it by its served name.
    const tool = { name: served.name, policy: served.policy } as ToolDefinition;
    const era: Era = req.variant && { variant: req.variant, task: req.variant.mode(tool, served.policy) === 'task' };
    const step: ProxiedStep = { http: req.http, call, args, context };
    return this.pipeline.run(served, step, () => this.forward(served, req, args, origin, traceContext, era));
  }

  /** Past the guards: the call upstream, and what its answer makes of it here. */
  private async forward(
    served: ServedUpstreamTool,
    req: ProxiedCall,
    args: Answer,
    origin: ToolCallOrigin,
    traceContext: TraceContext,
    era: Era,
  ): Promise<Answer> {
    // What a sealed `requestState` is bound to; the digest only when a state is opened or sealed (most calls neither).
    const bind = () => ({ tool: served.name, owner: req.principal.key, args: digestOf(req.params.arguments ?? {}) });
    const params: Record<string, unknown> = { name: served.tool.name, arguments: args };
    // The 2025 era has no MRTR: a `requestState` there is a field it does not define, ignored.
    if (req.params.requestState !== undefined && !era) {
      const round = this.states.open(req.params.requestState, bind());
      const given = req.inputResponses ?? {};
      params.inputResponses = Object.fromEntries(
        round.asked.flatMap((k) => (Object.hasOwn(given, k) ? [[k, given[k]]] : [])),
      );
      if (round.state !== undefined) params.requestState = round.state;
    }
    const upstreamCall: UpstreamCallOptions = {
      principal: req.principal,
      capabilities: era
        ? upstreamCapabilitiesOf(req.clientCapabilities, era.task)
        : this.capabilities(req.clientCapabilities),
      meta: traceCarrier(this.tracing, req.params, traceContext),
      signal: req.signal,
      inputSchema: served.tool.inputSchema,
    };
    const sentAt = Date.now();
    const wire = era && req.protocolVersion;
    let answer = await this.send(served, params, upstreamCall, wire);
    if (answer.resultType === 'input_required' && era) {
      answer = await pastRounds(answer, {
        questions: era.task ? undefined : req.questions,
        signal: req.signal,
        refuse: () => era.variant.inputInRequest(served.name),
        again: (inputResponses, requestState) =>
          this.send(served, { ...params, inputResponses, requestState }, upstreamCall, wire),
      });
    }
    if (answer.resultType === 'input_required') {
      const inputRequests = (answer.inputRequests ?? {}) as Answer;
      const round = { ...bind(), asked: Object.keys(inputRequests), state: answer.requestState };
      return { resultType: 'input_required', inputRequests, requestState: this.states.seal(round) };
    }
    if (answer.resultType === 'task')
      return this.mirror(served, answer as unknown as UpstreamTask, origin, upstreamCall, sentAt, era?.variant);
    const { _meta: _, resultType: __, ...result } = answer;
    if (!era) return { resultType: 'complete', ...result };
    // The 2025 era's results always have `content`.
    const complete = { content: [], ...result } as CallToolResult;
    if (era.task) return this.ranAlready(served, complete, origin, era.variant);
    return { ...complete, resultType: 'complete' };
  }

  /**
   * A task asked for, that the upstream ran in the request anyway (an optional tool at its cap): a local task that
   * holds the result at once, as the caller expects a task.
   */
  private async ranAlready(
    served: ServedUpstreamTool,
    result: CallToolResult,
    origin: ToolCallOrigin,
    variant: TaskCallVariant,
  ): Promise<Answer> {
    const creation = await this.runner.create(origin, {}, served.upstream.config.scopes, variant.origin);
    if ('refused' in creation) throw taskLimitError(creation.refused);
    const done = await this.runner.apply(creation.created.id, { kind: 'finish', status: 'completed', result });
    return variant.created(done?.task ?? creation.created);
  }

  /** The caller's capabilities, without the Tasks extension when this server has tasks off. */
  private capabilities(caps: Record<string, any>): Record<string, unknown> {
    if (this.options.tasks || !declaresTasks(caps)) return caps ?? {};
    const { [TASKS_EXTENSION]: _, ...extensions } = caps.extensions as Record<string, unknown>;
    return { ...caps, extensions };
  }

  /** The call upstream; `era`: the 2025 revision of the caller, whose wire has no `-32021`. */
  private async send(
    served: ServedUpstreamTool,
    params: Answer,
    call: UpstreamCallOptions,
    era?: string,
  ): Promise<Answer> {
    try {
      return await served.upstream.callTool(params, call);
    } catch (err) {
      if (err instanceof UpstreamAnsweredError && era) throw eraRefusal(err.toRpcError(), served.name, era);
      if (err instanceof UpstreamAnsweredError) throw err.toRpcError();
      // Why is for the server log only: the caller learns that it may try again.
      if (err instanceof UpstreamUnreachableError) {
        this.logger.warn(`tools/call: ${err.message}`);
        throw err.toRpcError();
      }
      throw err;
    }
  }

  /** A local task mirroring the upstream's, answered once stored; refused at a cap (and cancelled upstream). */
  private async mirror(
    served: ServedUpstreamTool,
    up: UpstreamTask,
    origin: ToolCallOrigin,
    call: UpstreamCallOptions,
    sentAt: number,
    variant?: TaskCallVariant,
  ): Promise<Answer> {
    const upstream = { name: served.upstream.name, taskId: up.taskId, principal: origin.principal };
    const cancelUpstream = () => this.relay.cancel(upstream, { principal: origin.principal, meta: call.meta });
    if (typeof up.taskId !== 'string' || !declaresTasks(call.capabilities ?? {})) {
      if (typeof up.taskId === 'string') await cancelUpstream();
      throw new RpcError(
        RpcCode.InternalError,
        `Upstream "${served.upstream.name}" answered with a task it should not`,
      );
    }
    // A 2025-11-25 task records its wire and session, and the ttl its client asked for (up to ours).
    const from = variant?.origin ?? {};
    const ttl = localTtl(from.ttl !== undefined ? from.ttl : this.options.ttl, up.ttlMs, sentAt);
    const creation = await this.runner
      .create(origin, {}, served.upstream.config.scopes, { ...from, upstream, ttl })
      .catch(async (err: unknown) => {
        await cancelUpstream();
        throw err;
      });
    if ('refused' in creation) {
      await cancelUpstream();
      throw taskLimitError(creation.refused);
    }
    this.keeper.hold(creation.created, up, { requestId: origin.requestId, traceContext: origin.traceContext });
    if (variant) return variant.created(creation.created);
    return { resultType: 'task', ...toWireTask(creation.created, this.options.pollInterval) };
  }
}

function argumentsOf(value: unknown): Answer {
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw RpcError.invalidParams('arguments must be an object');
  return value as Answer;
}
