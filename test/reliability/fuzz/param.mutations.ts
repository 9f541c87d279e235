import fc from 'fast-check';
import { bases, plausibleId, rpcId } from './bases.js';
import { caseOf, draftOf, TASKS, type Base } from './case.js';
import { nameHeader } from '../support/http.js';
import { notA } from './envelope.mutations.js';

/** Methods the SDK or the library know (they are not "unknown"). */
const KNOWN = new Set([
  'tools/call',
  'tools/list',
  'server/discover',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'subscriptions/listen',
  'completion/complete',
  'logging/setLevel',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

const base = (method: string, params: Record<string, unknown>, caps: Record<string, unknown> = TASKS): Base => ({
  method,
  params,
  caps,
  allow: [],
});

/** A method nobody serves. */
export const unknownMethod = fc
  .tuple(
    rpcId,
    fc.stringMatching(/^[a-zA-Z0-9_.$/-]{1,60}$/).filter((m) => !KNOWN.has(m) && !m.startsWith('notifications/')),
  )
  .map(([id, method]) => caseOf('unknown-method', draftOf(base(method, {}), id), ['404:-32601']));

/** Odd task ids: any string (unicode, control characters, huge, injection-looking), or not a string. */
export const oddTaskId = fc
  .tuple(
    rpcId,
    fc.constantFrom('tasks/get', 'tasks/update', 'tasks/cancel'),
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 64 }),
      fc.string({ unit: 'grapheme', minLength: 1000, maxLength: 4000 }),
      fc.constantFrom(
        'constructor',
        'toString',
        '__proto__',
        "' OR 1=1 --",
        '%',
        '_',
        '*',
        '../../etc/passwd',
        'a\u0000b',
        '\u0000',
        ' ',
        'null',
        '[object Object]',
        '$where',
        '{"$ne":null}',
      ),
      plausibleId.map((s) => `${s} `),
      plausibleId.map((s) => s.toLowerCase()),
      notA('string'),
    ),
  )
  .map(([id, method, taskId]) => {
    const d = draftOf(base(method, { taskId, ...(method === 'tasks/update' ? { inputResponses: {} } : {}) }), id);
    if (typeof taskId !== 'string' || taskId === '') {
      // Mcp-Name repeats the value as the client wrote it (the server compares only string ids).
      d.headers['mcp-name'] = nameHeader(typeof taskId === 'string' ? taskId : String(JSON.stringify(taskId)));
      return caseOf('task-id:not-a-string-or-empty', d, ['200:-32602'], { message: /taskId/ });
    }
    // A client cannot repeat an id that is not well-formed UTF-16 in Mcp-Name (it encodes to U+FFFD).
    const wellFormed = Buffer.from(taskId, 'utf8').toString('utf8') === taskId;
    return caseOf(
      wellFormed ? 'task-id:odd-string' : 'task-id:lone-surrogate',
      d,
      wellFormed ? ['200:-32602'] : ['200:-32602', '400:-32020'],
      { message: wellFormed ? /^Task not found$/ : undefined },
    );
  });

/** Tool call parameters of the wrong type: a name that is no string or names no tool, arguments that are no object. */
export const toolParamTypes = fc
  .tuple(
    rpcId,
    fc.oneof(
      notA('string').map((name) => ({ name, arguments: {} })),
      fc
        .string({ maxLength: 30 })
        .filter((n) => !['greet', 'slow_compute'].includes(n))
        .map((name) => ({ name: `nope_${name}`, arguments: {} })),
      notA('object')
        .filter((a) => a !== null)
        .map((a) => ({ name: 'greet', arguments: a })),
    ),
  )
  .map(([id, params]) => {
    const d = draftOf(base('tools/call', params), id);
    d.headers['mcp-name'] = nameHeader(
      typeof params.name === 'string' ? params.name : String(JSON.stringify(params.name)),
    );
    return caseOf('tool-params:wrong-type', d, ['200:-32602']);
  });

/**
 * Arguments that fail the tool's DTO: a tool error result the model can read, one line for the one failing property
 * with its most telling rule (a non-number fails `@IsNumber() @Min(0) @Max(3600)` once, as a type).
 */
export const toolArgumentsInvalid = fc
  .tuple(
    rpcId,
    fc.oneof(
      notA('string').map((v) => ({ tool: 'greet', args: { name: v }, line: /name: must be a string/ })),
      fc
        .jsonValue({ maxDepth: 1 })
        .filter((v) => typeof v !== 'number')
        .map((v) => ({
          tool: 'slow_compute',
          args: { seconds: v },
          line: /seconds: must be a number conforming[^\n]*/,
        })),
      fc
        .oneof(
          fc.double({ min: 3600.001, noNaN: true, noDefaultInfinity: true }),
          fc.double({ max: -0.001, noNaN: true, noDefaultInfinity: true }),
        )
        .map((v) => ({
          tool: 'slow_compute',
          args: { seconds: v },
          line: /seconds: must not be (greater than 3600|less than 0)/,
        })),
      fc
        .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 3 })
        .map((extra) => ({ tool: 'greet', args: { ...extra, name: 1 }, line: /name: must be a string/ })),
    ),
  )
  .map(([id, { tool, args, line }]) => {
    const d = draftOf(base('tools/call', { name: tool, arguments: args }), id);
    const toolError = new RegExp(`^Invalid arguments for tool ${tool}:\\n${line.source}$`);
    return caseOf('tool-args:invalid', d, ['200:result'], { toolError });
  });

/** tasks/update without an object of answers. */
export const updateResponsesType = fc
  .tuple(rpcId, plausibleId, fc.option(notA('object'), { nil: undefined }))
  .map(([id, taskId, inputResponses]) =>
    caseOf(
      'update:input-responses-type',
      draftOf(base('tasks/update', { taskId, ...(inputResponses === undefined ? {} : { inputResponses }) }), id),
      ['200:-32602'],
      { message: /inputResponses/ },
    ),
  );

/** Big strings within the body limit (answered normally) and bodies over it (413). */
export const huge = fc
  .tuple(rpcId, fc.integer({ min: 20_000, max: 300_000 }), fc.constantFrom('arg', 'meta', 'param', 'name-header'))
  .map(([id, size, where]) => {
    const big = 'é'.repeat(size / 2);
    const d = draftOf(base('tools/call', { name: 'greet', arguments: { name: where === 'arg' ? big : 'x' } }, {}), id);
    if (where === 'meta') d.body.params._meta['x-big'] = big;
    if (where === 'param') d.body.params.extra = big;
    if (where === 'name-header') d.headers['x-big'] = 'a'.repeat(Math.min(size, 12_000));
    const bytes = Buffer.byteLength(JSON.stringify(d.body));
    return caseOf(
      `huge:${where}:${bytes > 100 * 1024 ? 'over-limit' : 'under-limit'}`,
      d,
      bytes > 100 * 1024 ? ['413:-32600'] : ['200:result'],
    );
  });

/** A multi-megabyte body. */
export const oversized = fc.tuple(rpcId, fc.integer({ min: 1, max: 6 })).map(([id, mb]) => {
  const d = draftOf(base('tools/call', { name: 'greet', arguments: { name: 'x'.repeat(mb * 1024 * 1024) } }, {}), id);
  return caseOf('huge:megabytes', d, ['413:-32600', 'closed']);
});

/** Deeply nested values in arguments, extra params, `_meta` or answers. */
export const deep = fc
  .tuple(
    bases,
    rpcId,
    fc.integer({ min: 50, max: 40_000 }),
    fc.constantFrom('[', '{"a":'),
    fc.constantFrom('arguments', 'meta-extra', 'param-extra', 'args-extra'),
  )
  .map(([b, id, depth, open, where]) => {
    const close = open === '[' ? ']' : '}';
    const nested = `${open.repeat(depth)}1${close.repeat(depth)}`;
    const d = draftOf(
      b.method === 'tools/call' ? b : base('tools/call', { name: 'greet', arguments: { name: 'x' } }, {}),
      id,
    );
    const slot = {
      arguments: ['params', 'arguments'],
      'meta-extra': ['params', '_meta', 'x-deep'],
      'param-extra': ['params', 'x-deep'],
      'args-extra': ['params', 'arguments', 'x-deep'],
    }[where];
    let target = d.body;
    for (const k of slot.slice(0, -1)) target = target[k];
    target[slot[slot.length - 1]] = '__DEEP__';
    const text = JSON.stringify(d.body).replace('"__DEEP__"', () => nested);
    const over = Buffer.byteLength(text) > 100 * 1024;
    // Nested objects as the arguments (under the depth limit) are an object the tool's DTO refuses: a tool error.
    const refusedByDto = where === 'arguments' && open !== '[' && !over;
    const allow = over
      ? ['413:-32600']
      : where === 'arguments'
        ? [...(refusedByDto ? ['200:result'] : []), '200:-32602', '400:-32602']
        : where === 'args-extra'
          ? ['200:-32602', '200:result', '400:-32602']
          : [...(b.method === 'tools/call' ? b.allow : ['200:result']), '400:-32600', '400:-32602'];
    const toolError = refusedByDto ? /^Invalid arguments for tool \w+:(\n\S+: [^\n]+)+$/ : undefined;
    return caseOf(`deep:${where}${over ? ':over-limit' : ''}`, d, allow, { text, toolError });
  });

/** Other HTTP methods on the endpoint. */
export const httpMethod = fc
  .tuple(bases, rpcId, fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH'))
  .map(([b, id, method]) => ({
    ...caseOf(`http:${method}`, draftOf(b, id), ['405:*', '405:empty'], {
      method,
      text: method === 'GET' || method === 'DELETE' ? '' : undefined,
    }),
    id: null,
  }));

/** Notifications (no id) and responses (a client answering nothing): accepted with 202 or refused with 400. */
export const notARequest = fc
  .tuple(bases, fc.constantFrom('notification', 'response', 'error-response'))
  .map(([b, kind]) => {
    const d = draftOf(b, 1);
    if (kind === 'notification') {
      delete d.body.id;
      d.body.method = `notifications/${b.method.replace('/', '_')}`;
      d.headers['mcp-method'] = d.body.method;
    } else {
      d.body =
        kind === 'response'
          ? { jsonrpc: '2.0', id: 1, result: {} }
          : { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } };
    }
    return { ...caseOf(`message:${kind}`, d, ['202:empty', '400:-32600']), id: null };
  });
