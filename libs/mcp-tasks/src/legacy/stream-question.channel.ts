import { randomBytes } from 'node:crypto';
import type { QuestionChannel } from '../context/question.channel.js';
import type { QuestionAnswer } from '../events/task-event-bus.interface.js';
import { canAsk, legacyInputRefusal } from '../input/input-availability.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import type { LegacyReply } from './legacy-exchange.js';
import type { SyncQuestions } from './sync-questions.js';

/** The SDKs' code for a request that got no answer in time (`ErrorCode.RequestTimeout`), which clients know. */
export const QUESTION_TIMEOUT_CODE = -32001;

/** The 2025-era call a channel asks for: who may answer, what its client can be asked. */
export interface QuestionCall {
  /** What asks, as errors name it (`Tool x`, `Prompt y`). */
  subject: string;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  ownerKey: string;
  session?: string;
  /** The `questionTimeout` option, in ms. */
  timeout: number;
}

/**
 * Asks a 2025-era client during its synchronous `tools/call`, as those revisions do: a JSON-RPC request on the
 * call's reply (which turns into an SSE stream), answered by a POST to any instance (`SyncAnswerHandler`).
 */
export class StreamQuestionChannel implements QuestionChannel {
  private readonly run = randomBytes(16).toString('base64url');
  private asked = 0;

  constructor(
    private readonly questions: SyncQuestions,
    private readonly reply: LegacyReply,
    private readonly call: QuestionCall,
  ) {}

  ask(key: string, request: InputRequest, signal: AbortSignal): Promise<unknown> {
    const { subject, protocolVersion, clientCapabilities } = this.call;
    if (!canAsk(request.method, protocolVersion, clientCapabilities))
      return Promise.reject(legacyInputRefusal(subject, request.method, protocolVersion));
    if (signal.aborted) return Promise.reject(signal.reason);
    // A run of its own per question: one id per request sent, however often a key is asked.
    const run = `${this.run}.${this.asked++}`;
    const { ownerKey, session } = this.call;
    const id = this.questions.ids.mint({ run, key, method: request.method, ownerKey, session });
    return new Promise((resolve, reject) => {
      const done = (): void => {
        forget();
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        done();
        reject(signal.reason);
      };
      const onAnswer = (answer: QuestionAnswer): void => {
        done();
        if ('error' in answer) reject(answerError(request.method, answer));
        else resolve(answer.result);
      };
      // Asked once an answer landing on another instance is relayed here.
      const forget = this.questions.wait(id, run, onAnswer, () =>
        this.reply.notify({ id, method: request.method, params: paramsFor(request, protocolVersion) }),
      );
      const timer = setTimeout(() => {
        done();
        const within = `${this.call.timeout} ms (the questionTimeout option)`;
        const message = `No answer to ${request.method} came within ${within}`;
        // As the sender of a request that timed out does: the client may stop asking its user.
        this.reply.notify({ method: 'notifications/cancelled', params: { requestId: id, reason: message } });
        reject(new RpcError(QUESTION_TIMEOUT_CODE, `${subject}: ${message}`));
      }, this.call.timeout);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** A request's params as its revision has them: elicitation's `mode` came in 2025-11-25. */
function paramsFor(request: InputRequest, protocolVersion: string): Record<string, unknown> {
  const params = request.params ?? {};
  if (request.method !== 'elicitation/create' || protocolVersion >= '2025-11-25' || params.mode !== 'form')
    return params;
  const { mode: _, ...rest } = params;
  return rest;
}

/** The client's error (or the one its answer met: a wrong shape, a failed relay), as the tool sees it. */
function answerError(method: string, answer: Extract<QuestionAnswer, { error: unknown }>): RpcError {
  const { code, message } = answer.error;
  return new RpcError(RpcCode.InternalError, `The client could not answer ${method} (${code}: ${message})`);
}
