import type { QuestionChannel } from '../context/question.channel.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { InputRequest } from '../protocol/wire.interface.js';

type Answer = Record<string, unknown>;

/** Rounds one call may take: an upstream that asks on and on does not hold the caller forever. */
const MAX_ROUNDS = 32;

const METHODS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/** How a 2025-era synchronous call answers the upstream's MRTR rounds. */
export interface RoundsInRequest {
  /** The client's channel for questions now (absent: it cannot be asked). */
  questions?: QuestionChannel;
  signal: AbortSignal;
  /** The error for a call that asks and cannot be asked: the one a local tool gets. */
  refuse: () => RpcError;
  /** The upstream called again with this round's answers and its `requestState`. */
  again: (inputResponses: Answer, requestState: unknown) => Promise<Answer>;
}

/**
 * The upstream's answer past its MRTR rounds, for a caller that has no MRTR (the 2025 era): each question asked of
 * the client now, on its call's stream, one after the other; then the upstream called again with the answers —
 * until it answers otherwise. A question the client fails to answer fails the call with its error.
 */
export async function pastRounds(first: Answer, o: RoundsInRequest): Promise<Answer> {
  let answer = first;
  for (let round = 0; answer.resultType === 'input_required'; round++) {
    if (!o.questions) throw o.refuse();
    if (round === MAX_ROUNDS)
      throw new RpcError(RpcCode.InternalError, `The upstream asked for input over ${MAX_ROUNDS} rounds`);
    const responses: Answer = {};
    for (const [key, request] of Object.entries(requestsOf(answer.inputRequests)))
      responses[key] = await o.questions.ask(key, request, o.signal);
    answer = await o.again(responses, answer.requestState);
  }
  return answer;
}

function requestsOf(value: unknown): Record<string, InputRequest> {
  const requests = (value && typeof value === 'object' ? value : {}) as Record<string, InputRequest>;
  for (const request of Object.values(requests))
    if (!request || typeof request !== 'object' || !METHODS.has(request.method))
      throw new RpcError(RpcCode.InternalError, 'The upstream asked for input this server cannot relay');
  return requests;
}
