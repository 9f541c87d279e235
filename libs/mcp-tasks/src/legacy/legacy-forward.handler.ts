import { Inject, Injectable } from '@nestjs/common';
import { progressSink } from '../context/progress.sink.js';
import type { QuestionChannel } from '../context/question.channel.js';
import { RunStoppedError } from '../context/run-stopped.error.js';
import { McpDispatcher } from '../dispatcher/mcp.dispatcher.js';
import { canAsk } from '../input/input-availability.js';
import { CAPABILITY_FOR } from '../input/input-response.validator.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import { McpTracing } from '../telemetry/tracing.js';
import { legacyError } from './legacy-error.mapper.js';
import type { LegacyExchange, LegacyReply } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';
import { RequestCancels } from './request-cancels.js';
import { StreamQuestionChannel } from './stream-question.channel.js';
import { SyncQuestions } from './sync-questions.js';

/**
 * A 2025-era request for a method the 2026-07-28 table answers (`resources/read`, `prompts/get`, …), dispatched
 * there with what the session declared (its input capabilities, its client): questions are asked on the request's
 * stream when the client declared it can answer them (no MRTR in this era), progress streams when it carried a
 * `progressToken`, and a request the client cancels (`notifications/cancelled`) is stopped and gets no answer.
 * The result goes back without the 2026-07-28 `resultType`. A new such method is an entry in each table.
 */
@Injectable()
export class LegacyForwardHandler implements LegacyMethodHandler {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly dispatcher: McpDispatcher,
    private readonly tracing: McpTracing,
    private readonly cancels: RequestCancels,
    private readonly questions: SyncQuestions,
  ) {}

  async serve(req: LegacyRequest, x: LegacyExchange): Promise<void> {
    const { params, session } = req;
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
        traceContext: this.tracing.callerContext(meta, x.req.headers),
        questions: this.questionsFor(req, reply),
        session: session?.id,
      });
      if (cancelled) reply.withdraw();
      else reply.result(result);
    } catch (err) {
      if (cancelled) reply.withdraw();
      else reply.error(legacyError(err));
    } finally {
      forget();
    }
  }

  /** How the run asks this client, when its revision and session let it be asked anything. */
  private questionsFor(req: LegacyRequest, reply: LegacyReply): QuestionChannel | undefined {
    const clientCapabilities = req.session?.clientCapabilities ?? {};
    if (!INPUT_METHODS.some((m) => canAsk(m, req.version, clientCapabilities))) return undefined;
    return new StreamQuestionChannel(this.questions, reply, {
      tool: `${req.method}`,
      protocolVersion: req.version,
      clientCapabilities,
      ownerKey: req.principal.key,
      session: req.session?.id,
      timeout: this.options.questionTimeout,
    });
  }
}

const INPUT_METHODS = Object.keys(CAPABILITY_FOR) as Array<InputRequest['method']>;
