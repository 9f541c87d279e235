import { isQuestionId } from './question-id.js';
import { INPUT_REQUEST_ID_PREFIX } from './legacy.constants.js';

/**
 * The JSON-RPC id of the request a task sends its client for one input key: the task and the key, so the client's
 * answer — POSTed to any instance, carrying nothing else — finds both. The same for every delivery, so a request
 * sent again (another stream took over) is answered once.
 */
export const inputRequestId = (taskId: string, key: string): string =>
  `${INPUT_REQUEST_ID_PREFIX}${taskId}:${Buffer.from(key, 'utf8').toString('base64url')}`;

/** The task and key an id names, when it is one of ours. */
export function parseInputRequestId(id: unknown): { taskId: string; key: string } | undefined {
  if (typeof id !== 'string' || !id.startsWith(INPUT_REQUEST_ID_PREFIX) || id.length > 4096) return undefined;
  const rest = id.slice(INPUT_REQUEST_ID_PREFIX.length);
  const colon = rest.lastIndexOf(':');
  const [taskId, encoded] = [rest.slice(0, colon), rest.slice(colon + 1)];
  if (colon < 1 || !/^[A-Za-z0-9_-]*$/.test(encoded)) return undefined;
  return { taskId, key: Buffer.from(encoded, 'base64url').toString('utf8') };
}

/**
 * Whether a POSTed body is a client's answer to one of our requests — a task's, or a question asked during a call
 * (`question-id.ts`) — (any other response is refused unread).
 */
export const isInputAnswer = (body: unknown): boolean =>
  !!body &&
  typeof body === 'object' &&
  !Array.isArray(body) &&
  !('method' in body) &&
  ('result' in body || 'error' in body) &&
  (parseInputRequestId((body as { id?: unknown }).id) !== undefined || isQuestionId((body as { id?: unknown }).id));
