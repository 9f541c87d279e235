import { RpcError } from '../protocol/rpc.error.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import { isValidInputResponse } from './input-response.validator.js';

/**
 * The answers a retried MRTR round runs with: those sealed by earlier rounds, plus this round's `inputResponses` to
 * the questions the previous round asked (`asked`, sealed with it). Anything else is ignored, as `tasks/update`
 * ignores keys that are not outstanding; a sealed answer is never replaced (first answer wins); an answer of the
 * wrong shape is `-32602`.
 */
export function roundAnswers(
  sealed: Record<string, unknown>,
  asked: Record<string, InputRequest['method']>,
  responses: unknown,
): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const [key, answer] of Object.entries(sealed)) define(answers, key, answer);
  if (!responses || typeof responses !== 'object' || Array.isArray(responses)) return answers;
  for (const [key, answer] of Object.entries(responses)) {
    if (!Object.hasOwn(asked, key) || Object.hasOwn(answers, key)) continue;
    const method = asked[key];
    if (!isValidInputResponse({ method }, answer)) {
      throw RpcError.invalidParams(`inputResponses.${key} is not a valid ${method} result`);
    }
    define(answers, key, answer);
  }
  return answers;
}

/** The questions of a round, as its `requestState` seals them. */
export const askedIn = (requests: Record<string, InputRequest>): Record<string, InputRequest['method']> =>
  Object.fromEntries(Object.entries(requests).map(([key, request]) => [key, request.method]));

/** An own property even for a key such as `__proto__`. */
const define = (target: Record<string, unknown>, key: string, value: unknown): void => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};
