import { Inject, Injectable } from '@nestjs/common';
import { logSink } from '../context/log.sink.js';
import { progressSink } from '../context/progress.sink.js';
import type { QuestionChannel } from '../context/question.channel.js';
import { RunStoppedError } from '../context/run-stopped.error.js';
import type { TaskCallVariant } from '../dispatcher/task-call.variant.js';
import { McpDispatcher } from '../dispatcher/mcp.dispatcher.js';
import { canAsk } from '../input/input-availability.js';
import { CAPABILITY_FOR } from '../input/input-response.validator.js';
import { LEGACY_PROTOCOL_VERSION, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import { McpTracing } from '../telemetry/tracing.js';
import { legacyError } from './legacy-error.mapper.js';
import type { LegacyExchange, LegacyReply } from './legacy-exchange.js';
import type { LegacyRequest } from './legacy-method-handler.interface.js';
import { RequestCancels } from './request-cancels.js';
import { ResumableReply } from './resumable.reply.js';
import { SessionLogLevels } from './session-log-levels.js';
import { SseEventLog } from './sse-event.log.js';
import { StreamQuestionChannel } from './stream-question.channel.js';
import { SyncQuestions } from './sync-questions.js';

type Answer = Record<string, unknown>;

/** What differs between the 2025-era requests sent to the 2026-07-28 table. */
export interface LegacyDispatchPlan {
  /** What runs, as its questions' errors name it (`Tool x`, `Prompt y`). */
  subject: string;
  /** A `tools/call`'s 2025 variant; made inside the run, so what it throws is answered as the era answers failures. */
  variant?: () => TaskCallVariant;
  /** The result as this era sends it (the 2026-07-28 `resultType` is already gone). */
  shape?: (result: Answer) => Answer;
}

/**
 * Runs a 2025-era request through the 2026-07-28 dispatcher with what its session declared (input capabilities,
 * client): questions asked on the request's stream when the client can answer them (this era has no MRTR),
 * progress streamed when it carried a `progressToken`, `ctx.log` sent at the session's `logging/setLevel`, and a
 * request the client cancels (`notifications/cancelled`) or leaves stopped, with no answer sent after a cancel, as
 * the 2025 revisions ask.
 */
@Injectable()
export class LegacyDispatch {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly dispatcher: McpDispatcher,
    private readonly tracing: McpTracing,
    private readonly cancels: RequestCancels,
    private readonly questions: SyncQuestions,
    private readonly logLevels: SessionLogLevels,
    private readonly events: SseEventLog,
  ) {}

  async serve(req: LegacyRequest, x: LegacyExchange, plan: LegacyDispatchPlan): Promise<void> {
    const { params, session } = req;
    const reply = this.replyFor(req, x);
    const aborter = new AbortController();
    let cancelled = false;
    const forget = this.cancels.register(req.principal, session?.id, req.id, () => {
      cancelled = true;
      aborter.abort(new RunStoppedError('cancelled'));
    });
    // A connection the client drops stops the call; one the run let go of (`ctx.closeStream()`) does not.
    x.res.once('close', () => {
      if (!x.res.writableFinished) aborter.abort(new RunStoppedError('connection closed'));
    });
    try {
      const variant = plan.variant?.();
      const meta = (params._meta ?? {}) as Record<string, unknown>;
      const { resultType: _, ...result } = await this.dispatcher.dispatch({
        id: req.id,
        method: req.method,
        params,
        protocolVersion: req.version,
        clientCapabilities: session?.clientCapabilities ?? {},
        clientInfo: session?.clientInfo,
        principal: req.principal,
        http: x.http,
        signal: aborter.signal,
        progress: progressSink(meta.progressToken, (n) => reply.notify({ ...n })),
        log: logSink(this.logLevels.of(session?.id), (n) => reply.notify({ ...n })),
        traceContext: this.tracing.callerContext(meta, x.req.headers),
        ...(variant ? { variant } : {}),
        questions: this.questionsFor(req, reply, plan.subject),
        session: session?.id,
        ...(reply instanceof ResumableReply ? { closeStream: () => reply.release() } : {}),
      });
      if (cancelled) reply.withdraw();
      else reply.result(plan.shape ? plan.shape(result) : result);
    } catch (err) {
      if (cancelled) reply.withdraw();
      else reply.error(legacyError(err));
    } finally {
      forget();
    }
  }

  /** A 2025-11-25 request in a session gets a reply it can resume (SEP-1699); any other the plain one. */
  private replyFor(req: LegacyRequest, x: LegacyExchange): LegacyReply {
    if (req.version !== LEGACY_PROTOCOL_VERSION || !req.session) return x.reply(req.id);
    return new ResumableReply(x.res, req.id, this.events, req.session.id, req.principal.key);
  }

  /**
   * How a run in the request asks this client, when its revision and its session let it be asked anything (each
   * question is checked for its own capability). A task's run asks through its task instead.
   */
  private questionsFor(req: LegacyRequest, reply: LegacyReply, subject: string): QuestionChannel | undefined {
    const clientCapabilities = req.session?.clientCapabilities ?? {};
    if (!INPUT_METHODS.some((m) => canAsk(m, req.version, clientCapabilities))) return undefined;
    return new StreamQuestionChannel(this.questions, reply, {
      subject,
      protocolVersion: req.version,
      clientCapabilities,
      ownerKey: req.principal.key,
      session: req.session?.id,
      timeout: this.options.questionTimeout,
    });
  }
}

const INPUT_METHODS = Object.keys(CAPABILITY_FOR) as Array<InputRequest['method']>;
