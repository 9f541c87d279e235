import { HttpException, Inject, Injectable } from '@nestjs/common';
import { internalError } from '../protocol/internal.error.js';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { TraceContext } from '../common/trace-context.js';
import { callOrigin, type ToolCallOrigin } from '../context/base-tool.context.js';
import { InputRequiredSignal } from '../context/input-required.signal.js';
import { stoppedCall } from '../context/stopped-call.js';
import { SyncToolContext } from '../context/sync-tool.context.js';
import type { TaskPolicy } from '../decorators/mcp-tool.decorator.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import { ToolRegistry } from '../discovery/tool.registry.js';
import { UpstreamToolCall } from '../gateway/upstream-tool.call.js';
import { digestOf } from '../input/request-state.binding.js';
import { RequestStateCodec, type RequestStatePayload } from '../input/request-state.codec.js';
import { askedIn, roundAnswers } from '../input/round-answers.js';
import { MCP_TASKS_OPTIONS, TASKS_EXTENSION } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { AppEnhancers } from '../pipeline/app-enhancers.js';
import { ToolInvoker, type ToolPipeline } from '../pipeline/tool.invoker.js';
import { declaresTasks, tasksNotDeclared } from '../protocol/capabilities.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { CallToolResult } from '../protocol/wire.interface.js';
import { taskLimitError } from '../tasks/task-limit.error.js';
import { toWireTask } from '../tasks/task.mapper.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { McpTracing } from '../telemetry/tracing.js';
import { ToolError } from '../tools/tool.error.js';
import { toolErrorResult } from '../tools/tool-result.normalizer.js';
import { checkedArguments } from './checked-arguments.js';
import type { McpAnswerHandler } from './method-handler.interface.js';
import type { McpRequest } from './mcp-request.interface.js';
import type { TaskCallVariant } from './task-call.variant.js';
import { withPrepare } from './with-prepare.js';

type Answer = Record<string, unknown>;

/** What guards see of the arguments: the object as sent (validation comes after them). */
const rawArguments = (raw: unknown): object => (raw && typeof raw === 'object' ? raw : {});
/** What a `requestState` is bound to: the tool, the caller and the arguments. */
type StateBinding = Omit<RequestStatePayload, 'answers' | 'asked' | 'exp'>;

/**
 * `tools/call`: authorize (guards, as Nest runs them before pipes), validate (arguments that fail the DTO are answered
 * with a tool error result), choose sync or task, then answer with a result, an MRTR round, or a task handle (only
 * once the store holds the task).
 */
@Injectable()
export class ToolCallHandler implements McpAnswerHandler {
  private readonly states: RequestStateCodec;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly invoker: ToolInvoker,
    private readonly runner: TaskRunner,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly tracing: McpTracing,
    private readonly enhancers: AppEnhancers,
    private readonly upstreams: UpstreamToolCall,
  ) {
    this.states = new RequestStateCodec(options.requestStateSecret, options.requestStateTtl);
  }

  /** The whole call inside a `tools/call <tool>` span that continues the caller's trace. */
  handle(req: McpRequest): Promise<Answer> {
    if (!this.options.telemetry) return this.call(req, req.traceContext);
    const name = typeof req.params.name === 'string' ? req.params.name : '';
    const attributes = {
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': name,
      'jsonrpc.request.id': String(req.id),
      'mcp.protocol.version': req.protocolVersion,
    };
    return this.tracing.inSpan(
      { name: `tools/call ${name}`, kind: 'server', attributes },
      req.traceContext,
      // `then`, not an async function: each promise costs more once an SDK's context manager tracks every one.
      (span, traceContext) =>
        this.call(req, traceContext).then((result) => {
          const taskId = result.taskId ?? (result.task as { taskId?: unknown } | undefined)?.taskId;
          if (typeof taskId === 'string') span.setAttribute('mcp.task.id', taskId);
          const resultType = typeof result.resultType === 'string' ? result.resultType : undefined;
          span.setAttribute('mcp.result.type', resultType ?? (taskId ? 'task' : 'complete'));
          // A tool error result (arguments that fail the DTO included) is a successful response: say what it is.
          if (result.isError === true) span.setAttribute('error.type', 'tool_error');
          return result;
        }),
    );
  }

  private async call(req: McpRequest, traceContext: TraceContext): Promise<Answer> {
    // A tool of an upstream server (the `upstreams` option); a local tool of the same name wins.
    const name: unknown = req.params.name;
    if (typeof name === 'string' && !this.registry.get(name) && this.upstreams.serves(name))
      return this.upstreams.call(req, traceContext);
    const call: McpCall = { method: 'tools/call', id: req.id, params: req.params, principal: req.principal };
    // Steps that return a value when they have nothing to wait for are not awaited then: every `await` and `async`
    // call is a promise, and each costs more once an OpenTelemetry SDK's context manager tracks every one.
    const tool = (typeof name === 'string' && this.registry.get(name)) || (await this.unknownTool(req, call));
    const origin = callOrigin(req, tool.name, traceContext);
    const ctx = new SyncToolContext(origin, req.signal, req.progress, req.questions, req.log, req.closeStream);
    const built = this.invoker.pipelineFor(tool, req.http, call);
    const pipeline = built instanceof Promise ? await built : built;
    // Guards first (the scopes guard among them), as for a controller method: they see the arguments as sent; a
    // caller they refuse learns nothing of the tool's schema or its MRTR state.
    await pipeline.authorize(rawArguments(req.params.arguments), ctx);
    const checking = checkedArguments(tool, req.params.arguments);
    const checked = checking instanceof Promise ? await checking : checking;
    if ('answer' in checked) return checked.answer;
    const { args } = checked;
    const bind = stateBinding(tool.name, req.principal.key, req.params.arguments ?? {});
    ctx.receive(this.answersSoFar(req, bind));
    const policy = typeof tool.policy === 'function' ? await tool.policy(args, ctx) : tool.policy;
    const mode = this.mode(tool, policy, req);
    // Without MRTR (2025-11-25) a task's `prepare` can only ask inside the task.
    const prepareInTask = !!pipeline.prepare && !!req.variant && mode !== 'sync';
    if (pipeline.prepare && !prepareInTask) {
      const prepared = await this.runInRequest(() => pipeline.prepare!(args, ctx), ctx, bind, req.variant);
      if ('answer' in prepared) return prepared.answer;
    }
    if (mode !== 'sync') {
      const run = prepareInTask ? withPrepare(pipeline) : pipeline;
      const handle = await this.startTask(mode, tool, run, args, ctx, origin, req);
      if (handle) return handle;
    }
    const ran = await this.runInRequest(() => pipeline.run(args, ctx), ctx, bind, req.variant);
    // The pipeline made the method's value a CallToolResult.
    return 'answer' in ran ? ran.answer : { resultType: 'complete', ...(ran.value as CallToolResult) };
  }

  /** A tool this server does not have is refused, after the app-wide guards (they protect every MCP request). */
  private async unknownTool(req: McpRequest, call: McpCall): Promise<never> {
    const name: unknown = req.params.name;
    await this.enhancers.run(req.http, call, () => Promise.resolve());
    // Never String(name): an object whose toString is not a function would throw here.
    throw RpcError.invalidParams(typeof name === 'string' ? `Unknown tool: ${name}` : 'params.name must be a string');
  }

  /**
   * Answers from earlier MRTR rounds (the sealed `requestState`), plus this round's `inputResponses` to what the
   * previous round asked. A call without `requestState` asked nothing yet: it carries no answers. Another wire's
   * call (2025-11-25) has no MRTR: a `requestState` there is a field that wire does not define, ignored.
   */
  private answersSoFar(req: McpRequest, bind: StateBinding): Record<string, unknown> {
    if (req.variant || req.params.requestState === undefined) return {};
    const { answers, asked } = this.states.open(req.params.requestState, bind);
    return roundAnswers(answers, asked, req.inputResponses);
  }

  /**
   * The task handle, sent once the store holds the task. At a cap an optional tool gets `undefined` (it then runs
   * in the request); a required one cannot run at all.
   */
  private async startTask(
    mode: TaskPolicy,
    tool: ToolDefinition,
    pipeline: ToolPipeline,
    args: object,
    ctx: SyncToolContext,
    origin: ToolCallOrigin,
    req: McpRequest,
  ): Promise<Answer | undefined> {
    const variant = req.variant;
    // A later attempt validates the arguments as sent again, as the first did.
    const from = tool.resume
      ? { ...variant?.origin, resume: { args: rawArguments(req.params.arguments), ...tool.resume } }
      : variant?.origin;
    const creation = await this.runner.create(origin, ctx.answers, tool.requiredScopes, from);
    if ('created' in creation) {
      this.runner.run(creation.created, pipeline, args, origin);
      if (variant) return variant.created(creation.created);
      return { resultType: 'task', ...toWireTask(creation.created, this.options.pollInterval) };
    }
    if (mode === 'optional') return undefined;
    throw taskLimitError(creation.refused);
  }

  /** `sync`, or the policy to run as a task with, for this call (`policy`: the tool's, for these arguments). */
  private mode(tool: ToolDefinition, policy: TaskPolicy, req: McpRequest): TaskPolicy {
    // A variant's task never falls back to the request at a cap: as if required.
    if (req.variant) return req.variant.mode(tool, policy) === 'task' ? 'required' : 'sync';
    if (policy === 'sync' || !this.options.tasks) return 'sync';
    if (declaresTasks(req.clientCapabilities)) return policy;
    if (policy === 'optional') return 'sync';
    throw tasksNotDeclared(`Tool ${tool.name} runs only as a task: declare the ${TASKS_EXTENSION} extension`);
  }

  /**
   * Runs a step (the method, or its `prepare`) in the request. Either it returned `value`, or the call
   * ends here with `answer`: an MRTR round (its sealed state carries every answer so far) or a tool
   * error result. JSON-RPC and HTTP errors propagate; anything else is an internal error.
   */
  private async runInRequest(
    step: () => Promise<unknown>,
    ctx: SyncToolContext,
    bind: StateBinding,
    variant?: TaskCallVariant,
  ): Promise<{ value: unknown } | { answer: Answer }> {
    try {
      return { value: await step() };
    } catch (err) {
      if (ctx.signal.aborted) throw stoppedCall(ctx, err);
      if (err instanceof InputRequiredSignal && variant) throw variant.inputInRequest(ctx.tool);
      if (err instanceof InputRequiredSignal) {
        return {
          answer: {
            resultType: 'input_required',
            inputRequests: ctx.pending,
            requestState: this.states.seal({ ...bind, answers: ctx.answers, asked: askedIn(ctx.pending) }),
          },
        };
      }
      if (err instanceof ToolError) return { answer: { resultType: 'complete', ...toolErrorResult(err) } };
      if (err instanceof RpcError || err instanceof HttpException) throw err;
      throw internalError('tool call failed', err);
    }
  }
}

/**
 * What a `requestState` is bound to. The arguments' digest is computed when first read: only a call that carries a
 * `requestState` or asks for input needs it (hashing every call's arguments was 2–3 % of a tools/call).
 */
function stateBinding(tool: string, owner: string, args: unknown): StateBinding {
  let digest: string | undefined;
  return {
    tool,
    owner,
    get args() {
      return (digest ??= digestOf(args));
    },
  };
}
