import { Inject, Injectable } from '@nestjs/common';
import { logSink } from '../context/log.sink.js';
import { progressSink } from '../context/progress.sink.js';
import type { QuestionChannel } from '../context/question.channel.js';
import { canAsk } from '../input/input-availability.js';
import { CAPABILITY_FOR } from '../input/input-response.validator.js';
import { RunStoppedError } from '../context/run-stopped.error.js';
import { McpDispatcher } from '../dispatcher/mcp.dispatcher.js';
import { LEGACY_PROTOCOL_VERSION, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import { McpTracing } from '../telemetry/tracing.js';
import { forLegacyWire } from '../tools/legacy-structured-content.js';
import { legacyCallVariant, taskParamOf } from './legacy-call.variant.js';
import { legacyError } from './legacy-error.mapper.js';
import type { LegacyExchange, LegacyReply } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';
import { RequestCancels } from './request-cancels.js';
import { SessionLogLevels } from './session-log-levels.js';
import { StreamQuestionChannel } from './stream-question.channel.js';
import { SyncQuestions } from './sync-questions.js';

/**
 * `tools/call` of the 2025 era, dispatched like a 2026-07-28 one with what the session declared (its input
 * capabilities, its client): at 2025-11-25 with tasks on, `params.task` asks for a task (answered with the
 * 2025-11-25 task at once); otherwise the tool runs in the request, its progress streamed when the call carried a
 * `progressToken`. This era has no MRTR: input asked in the request is asked on the call's stream, when the
 * client declared it can answer (`StreamQuestionChannel`), and refused otherwise. A call the client cancels
 * (`notifications/cancelled`) is stopped and gets no answer, as the 2025 revisions ask of the receiver.
 */
@Injectable()
export class LegacyToolCallHandler implements LegacyMethodHandler {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly dispatcher: McpDispatcher,
    private readonly tracing: McpTracing,
    private readonly cancels: RequestCancels,
    private readonly questions: SyncQuestions,
    private readonly logLevels: SessionLogLevels,
  ) {}

  async serve(req: LegacyRequest, x: LegacyExchange): Promise<void> {
    const { params, session, version } = req;
    const reply = x.reply(req.id);
    const aborter = new AbortController();
    let cancelled = false;
    const forget = this.cancels.register(req.principal, session?.id, req.id, () => {
      cancelled = true;
      aborter.abort(new RunStoppedError('cancelled'));
    });
    x.res.once('close', () => {
      if (!x.res.writableFinished) aborter.abort(new RunStoppedError('connection closed'));
    });
    try {
      const tasksOn = this.options.tasks && version === LEGACY_PROTOCOL_VERSION;
      const variant = legacyCallVariant({
        tasks: this.options.tasks,
        tasksOn,
        task: tasksOn ? taskParamOf(params.task) : undefined,
        session: session?.id,
        serverTtl: this.options.ttl,
        pollInterval: this.options.pollInterval,
      });
      const meta = (params._meta ?? {}) as Record<string, unknown>;
      const { resultType: _, ...result } = await this.dispatcher.dispatch({
        id: req.id,
        method: 'tools/call',
        params,
        protocolVersion: version,
        clientCapabilities: session?.clientCapabilities ?? {},
        clientInfo: session?.clientInfo,
        principal: req.principal,
        http: x.http,
        signal: aborter.signal,
        progress: progressSink(meta.progressToken, (n) => reply.notify({ ...n })),
        log: logSink(this.logLevels.of(session?.id), (n) => reply.notify({ ...n })),
        traceContext: this.tracing.callerContext(meta, x.req.headers),
        variant,
        questions: this.questionsFor(req, reply),
        session: session?.id,
      });
      if (cancelled) reply.withdraw();
      else reply.result(forLegacyWire(result));
    } catch (err) {
      if (cancelled) reply.withdraw();
      else reply.error(legacyError(err));
    } finally {
      forget();
    }
  }

  /**
   * How a run in the request asks this client, when its revision and its session let it be asked anything (each
   * question is checked for its own capability). A task's run asks through its task instead.
   */
  private questionsFor(req: LegacyRequest, reply: LegacyReply): QuestionChannel | undefined {
    const clientCapabilities = req.session?.clientCapabilities ?? {};
    if (!INPUT_METHODS.some((m) => canAsk(m, req.version, clientCapabilities))) return undefined;
    return new StreamQuestionChannel(this.questions, reply, {
      tool: typeof req.params.name === 'string' ? req.params.name : '',
      protocolVersion: req.version,
      clientCapabilities,
      ownerKey: req.principal.key,
      session: req.session?.id,
      timeout: this.options.questionTimeout,
    });
  }
}

const INPUT_METHODS = Object.keys(CAPABILITY_FOR) as Array<InputRequest['method']>;
