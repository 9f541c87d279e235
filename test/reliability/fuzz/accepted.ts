import { draftOf, TASKS, type Draft } from './case.js';

export const LEGACY_VERSION = '2025-11-25';
/** A task id that names no task. */
const NO_TASK = 'AAAAAAAAAAAAAAAAAAAAAAAA';

/** A kind of message the endpoint accepts, and the answer a well-formed one gets from the demo. */
export interface Accepted {
  /** How the per-method counts name it. */
  label: string;
  /** A well-formed message of this kind with this id (a notification drops it). */
  draft(id: string | number): Draft;
  allow: string[];
  /** The answer without `params`: the 2026 envelope lives there, 2025-era methods may need none. */
  bare: string[];
  notification?: true;
  /** 2025-era: no `_meta` envelope. */
  legacy?: true;
}

const modern = (
  method: string,
  params: Record<string, unknown>,
  allow: string[],
  label = method,
  bare = ['400:-32602'],
): Accepted => ({
  label,
  allow,
  bare,
  draft: (id) => draftOf({ method, params, caps: TASKS, allow }, id),
});

const notification = (method: string): Accepted => ({
  label: method,
  allow: ['202:empty'],
  bare: ['202:empty'],
  notification: true,
  draft: () => {
    const d = draftOf({ method, params: {}, caps: TASKS, allow: [] }, 0);
    delete d.body.id;
    return d;
  },
});

/** A 2025-era message as a stateless client sends it (the SDK's legacy fallback answers). */
const legacy = (
  method: string,
  params: Record<string, unknown>,
  allow: string[],
  bare: string[],
  notify = false,
): Accepted => ({
  label: `${method} (2025)`,
  allow,
  bare,
  legacy: true,
  ...(notify ? { notification: true as const } : {}),
  draft: (id) => ({
    body: { jsonrpc: '2.0', ...(notify ? {} : { id }), method, params: structuredClone(params) },
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LEGACY_VERSION,
    },
  }),
});

/**
 * Every kind of message the demo's endpoint accepts: the methods the SDK serves, those it refuses as unknown,
 * the library's own, notifications, and a 2025-era session (`initialize` and what follows it).
 */
export const ACCEPTED: Accepted[] = [
  modern('server/discover', {}, ['200:result']),
  modern('tools/list', {}, ['200:result']),
  modern('prompts/list', {}, ['200:result']),
  modern('resources/list', {}, ['200:result']),
  modern('resources/templates/list', {}, ['200:result']),
  // Without taskIds the SDK answers it (and refuses it: no filter).
  modern('subscriptions/listen', {}, ['200:-32602'], 'subscriptions/listen (no taskIds)'),
  modern('ping', {}, ['404:-32601']),
  // The demo has completers: without a ref the params are invalid.
  modern('completion/complete', {}, ['200:-32602']),
  // Without the envelope it is the 2025 handshake under a 2026 header: the SDK calls that a mismatch.
  modern('initialize', {}, ['404:-32601'], 'initialize (2026)', ['400:-32020']),
  modern('x-unknown/method', {}, ['404:-32601'], 'unknown method'),
  modern('tools/call', { name: 'greet', arguments: { name: 'a' } }, ['200:result']),
  modern('tasks/get', { taskId: NO_TASK }, ['200:-32602']),
  modern('tasks/update', { taskId: NO_TASK, inputResponses: {} }, ['200:-32602']),
  modern('tasks/cancel', { taskId: NO_TASK }, ['200:-32602']),
  notification('notifications/initialized'),
  notification('notifications/cancelled'),
  notification('notifications/x-unknown'),
  legacy(
    'initialize',
    { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    ['200:result'],
    ['200:-32602'],
  ),
  legacy('notifications/initialized', {}, ['202:empty'], ['202:empty'], true),
  legacy('tools/list', {}, ['200:result'], ['200:result']),
  legacy('tools/call', { name: 'greet', arguments: { name: 'a' } }, ['200:result'], ['200:-32602']),
  legacy('ping', {}, ['200:result'], ['200:result']),
  legacy('x-unknown/method', {}, ['200:-32601'], ['200:-32601']),
];
