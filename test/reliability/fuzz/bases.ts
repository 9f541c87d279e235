import fc from 'fast-check';
import type { Base } from './case.js';
import { TASKS } from './case.js';

const NOT_FOUND = /^Task not found$/;

/** Looks like a real task id (24 base64url characters) but names no task. */
export const plausibleId = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('')),
  minLength: 24,
  maxLength: 24,
});

/** Valid requests against the demo, each with the answer it must get. */
export const bases: fc.Arbitrary<Base> = fc.oneof<fc.Arbitrary<Base>[]>(
  fc.string({ maxLength: 40 }).map((name) => ({
    method: 'tools/call',
    params: { name: 'greet', arguments: { name } },
    caps: {},
    allow: ['200:result'],
  })),
  fc.string({ maxLength: 20 }).map((label) => ({
    method: 'tools/call',
    params: { name: 'slow_compute', arguments: { seconds: 0, label } },
    caps: TASKS,
    allow: ['200:result'],
  })),
  plausibleId.map((taskId) => ({
    method: 'tasks/get',
    params: { taskId },
    caps: TASKS,
    allow: ['200:-32602'],
    message: NOT_FOUND,
  })),
  plausibleId.map((taskId) => ({
    method: 'tasks/update',
    params: { taskId, inputResponses: {} },
    caps: TASKS,
    allow: ['200:-32602'],
    message: NOT_FOUND,
  })),
  plausibleId.map((taskId) => ({
    method: 'tasks/cancel',
    params: { taskId },
    caps: TASKS,
    allow: ['200:-32602'],
    message: NOT_FOUND,
  })),
  fc.constant<Base>({ method: 'tools/list', params: {}, caps: {}, allow: ['200:result'] }),
  fc.constant<Base>({ method: 'server/discover', params: {}, caps: {}, allow: ['200:result'] }),
);

/** A JSON-RPC id: a string or an integer. */
export const rpcId = fc.oneof(fc.string({ maxLength: 16 }), fc.integer());
