import { Inject, Injectable, Logger } from '@nestjs/common';
import { callOrigin } from '../context/base-tool.context.js';
import { SyncToolContext } from '../context/sync-tool.context.js';
import type { McpRequest } from '../dispatcher/mcp-request.interface.js';
import { digestOf } from '../input/request-state.binding.js';
import { MCP_TASKS_OPTIONS, MODERN_PROTOCOL_VERSION, RpcCode } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import { McpTracing } from '../telemetry/tracing.js';
import { traceCarrier } from './trace-carrier.js';
import { UpstreamAnsweredError } from './upstream-answered.error.js';
import { upstreamCapabilitiesOf } from './upstream-capabilities.js';
import type { UpstreamCallOptions, UpstreamConnection } from './upstream.connection.js';
import { UpstreamRegistry, type ServedUpstreamTool } from './upstream.registry.js';
import { pastRounds } from './upstream-rounds.js';
import { UpstreamStateCodec } from './upstream-state.codec.js';
import { UpstreamToolPipeline } from './upstream-tool.pipeline.js';
import { UpstreamUnreachableError } from './upstream-unreachable.error.js';
import { servedUri } from './upstream-uri.js';

type Answer = Record<string, unknown>;

/** One forwarded request: the upstream, the served name (what guards see), what goes upstream. */
interface Forwarded {
  upstream: UpstreamConnection;
  served: string;
  params: Answer;
}

/**
 * `resources/read` of a served upstream URI and `prompts/get` of a served upstream prompt (the handlers ask here
 * when the app has none of that URI or name): as a tool call is forwarded — the app's guards and the scopes guard
 * with the upstream's `scopes` first, then upstream with the caller's token (exchanged as configured), capabilities
 * and trace, its failures classified the same way. An MRTR round passes through with the upstream's `requestState`
 * sealed inside ours; a 2025-era caller is asked on its request's stream instead.
 */
@Injectable()
export class UpstreamFeatureCall {
  private readonly logger = new Logger('McpTasks');
  private readonly states: UpstreamStateCodec;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly registry: UpstreamRegistry,
    private readonly pipeline: UpstreamToolPipeline,
    private readonly tracing: McpTracing,
  ) {
    this.states = new UpstreamStateCodec(options.requestStateSecret, options.requestStateTtl);
  }

  /** Whether `uri` is a served URI of an upstream that lists resources or templates. */
  servesUri(uri: unknown): boolean {
    const found = typeof uri === 'string' ? this.registry.resource(uri) : undefined;
    const f = found?.upstream.features;
    return !!f && f.resources.length + f.resourceTemplates.length > 0;
  }

  /** Whether `name` is a served upstream prompt. */
  servesPrompt(name: unknown): boolean {
    return typeof name === 'string' && this.registry.prompt(name) !== undefined;
  }

  /** Whether some upstream lists prompts (then `prompts` is advertised, and `prompts/get` is no unknown method). */
  offersPrompts(): boolean {
    return this.registry.connections().some((u) => u.features.prompts.length > 0);
  }

  /** Whether some upstream advertises `completions` (then `completion/complete` is no unknown method). */
  offersCompletions(): boolean {
    return this.registry.connections().some((u) => u.features.completions);
  }

  /** The upstream a `completion/complete` ref names (a served prompt, a served template URI), and the ref there. */
  private completionTarget(ref: unknown): (Omit<Forwarded, 'params'> & { ref: Answer }) | undefined {
    const r = (ref && typeof ref === 'object' ? ref : {}) as Answer;
    if (r.type === 'ref/prompt' && this.servesPrompt(r.name)) {
      const { upstream, prompt } = this.registry.prompt(r.name as string)!;
      return { upstream, served: r.name as string, ref: { type: 'ref/prompt', name: prompt.name } };
    }
    const found = r.type === 'ref/resource' && typeof r.uri === 'string' ? this.registry.resource(r.uri) : undefined;
    if (!found?.upstream.features.completions) return undefined;
    return { upstream: found.upstream, served: `${found.upstream.name}+resources`, ref: { ...r, uri: found.uri } };
  }

  /** Whether `completion/complete` names a served upstream prompt or template of an upstream with completions. */
  servesCompletion(params: Answer): boolean {
    const target = this.completionTarget(params.ref);
    return !!target?.upstream.features.completions;
  }

  async complete(req: McpRequest): Promise<Answer> {
    const { ref, ...target } = this.completionTarget(req.params.ref)!;
    const { _meta: _, ...rest } = req.params;
    const answer = await this.forward(req, { ...target, params: { ...rest, ref } });
    if (req.protocolVersion === MODERN_PROTOCOL_VERSION) return answer;
    const { resultType: __, ...result } = answer;
    return result;
  }

  async read(req: McpRequest): Promise<Answer> {
    const uri = req.params.uri as string;
    const { upstream, uri: own } = this.registry.resource(uri)!;
    // The stand-in that carries the upstream's scopes: one per upstream for all its URIs.
    const answer = await this.forward(req, { upstream, served: `${upstream.name}+resources`, params: { uri: own } });
    if (answer.resultType === 'input_required') return answer;
    const contents = Array.isArray(answer.contents) ? (answer.contents as Answer[]) : [];
    const result: Answer = {
      ...answer,
      contents: contents.map((c) => (typeof c?.uri === 'string' ? { ...c, uri: servedUri(upstream.name, c.uri) } : c)),
    };
    if (req.protocolVersion !== MODERN_PROTOCOL_VERSION) return { contents: result.contents };
    // What a cache may keep depends on our caller too: with authentication here, only that caller.
    return this.options.auth ? { ...result, cacheScope: 'private' } : result;
  }

  async getPrompt(req: McpRequest): Promise<Answer> {
    const name = req.params.name as string;
    const { upstream, prompt } = this.registry.prompt(name)!;
    const params: Answer = { name: prompt.name };
    if (req.params.arguments !== undefined) params.arguments = req.params.arguments;
    const answer = await this.forward(req, { upstream, served: name, params });
    if (req.protocolVersion === MODERN_PROTOCOL_VERSION) return answer;
    const { resultType: _, ...result } = answer;
    return result;
  }

  /** Guards, then the request upstream inside the app's interceptors and filters; rounds as the caller's era has. */
  private async forward(req: McpRequest, f: Forwarded): Promise<Answer> {
    const origin = callOrigin(req, f.served, req.traceContext);
    const context = new SyncToolContext(origin, req.signal);
    const call = { method: req.method, id: req.id, params: req.params, principal: req.principal };
    const served = { name: f.served, upstream: f.upstream } as ServedUpstreamTool;
    const raw: unknown = req.params.arguments;
    const step = { http: req.http, call, args: raw && typeof raw === 'object' ? raw : {}, context };
    await this.pipeline.authorize(served, step);
    return this.pipeline.run(served, step, () => this.send(req, f));
  }

  private async send(req: McpRequest, f: Forwarded): Promise<Answer> {
    const modern = req.protocolVersion === MODERN_PROTOCOL_VERSION;
    // The digest only when a `requestState` is opened or sealed.
    const bind = () => ({ tool: `${req.method} ${f.served}`, owner: req.principal.key, args: digestOf(f.params) });
    const params = { ...f.params };
    if (modern && req.params.requestState !== undefined) {
      const round = this.states.open(req.params.requestState, bind());
      const given = req.inputResponses ?? {};
      params.inputResponses = Object.fromEntries(round.asked.flatMap((k) => (k in given ? [[k, given[k]]] : [])));
      if (round.state !== undefined) params.requestState = round.state;
    }
    const o: UpstreamCallOptions = {
      principal: req.principal,
      capabilities: modern ? (req.clientCapabilities ?? {}) : upstreamCapabilitiesOf(req.clientCapabilities, false),
      meta: traceCarrier(this.tracing, req.params, req.traceContext),
      signal: req.signal,
    };
    let answer = await this.request(req.method, f, params, o);
    if (!modern && answer.resultType === 'input_required') {
      answer = await pastRounds(answer, {
        questions: req.questions,
        signal: req.signal,
        refuse: () =>
          new RpcError(RpcCode.InternalError, `${f.served}: the upstream asked for input this client cannot give`),
        again: (inputResponses, requestState) =>
          this.request(req.method, f, { ...f.params, inputResponses, requestState }, o),
      });
    }
    const { _meta: _, ...result } = answer;
    if (result.resultType !== 'input_required') return { ...result, resultType: 'complete' };
    const inputRequests = (result.inputRequests ?? {}) as Answer;
    const round = { ...bind(), asked: Object.keys(inputRequests), state: result.requestState };
    return { resultType: 'input_required', inputRequests, requestState: this.states.seal(round) };
  }

  private async request(method: string, f: Forwarded, params: Answer, o: UpstreamCallOptions): Promise<Answer> {
    try {
      return (await f.upstream.request(method, params, o)) as Answer;
    } catch (err) {
      if (err instanceof UpstreamAnsweredError) throw err.toRpcError();
      // Why is for the server log only: the caller learns that it may try again.
      if (err instanceof UpstreamUnreachableError) {
        this.logger.warn(`${method}: ${err.message}`);
        throw err.toRpcError();
      }
      throw err;
    }
  }
}
