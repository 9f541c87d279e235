import type { InputRequest } from '../protocol/wire.interface.js';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Whether `answer` has the shape of a result of `request.method`. Answers are client input: a tool
 * must never be handed a number where it asked for an elicitation result.
 */
export function isValidInputResponse(request: Pick<InputRequest, 'method'>, answer: unknown): boolean {
  if (!isObject(answer)) return false;
  switch (request.method) {
    case 'elicitation/create':
      return (
        ['accept', 'decline', 'cancel'].includes(answer.action as string) &&
        (answer.content === undefined || isObject(answer.content))
      );
    case 'sampling/createMessage':
      return answer.content !== undefined && answer.content !== null;
    case 'roots/list':
      return Array.isArray(answer.roots);
  }
}

/** The client capability each kind of input request needs, as `requiredCapabilities` names it. */
export const CAPABILITY_FOR: Record<InputRequest['method'], string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};
