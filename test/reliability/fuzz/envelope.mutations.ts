import fc from 'fast-check';
import { bases, rpcId } from './bases.js';
import { caseOf, draftOf, type Base, type Draft, type FuzzCase } from './case.js';

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const KNOWN_META = new Set([
  PV,
  CAPS,
  'io.modelcontextprotocol/clientInfo',
  'progressToken',
  'traceparent',
  'tracestate',
  'baggage',
]);

/** Any JSON value that is not of the given kind. */
export const notA = (kind: 'string' | 'object' | 'integer' | '2.0'): fc.Arbitrary<unknown> =>
  fc.jsonValue({ maxDepth: 2 }).filter((v) => {
    if (kind === 'string') return typeof v !== 'string';
    if (kind === 'object') return !(v && typeof v === 'object' && !Array.isArray(v));
    if (kind === 'integer') return !(typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)));
    return v !== '2.0';
  });

const withBase = <T>(extra: fc.Arbitrary<T>, f: (b: Base, d: Draft, x: T) => FuzzCase) =>
  fc.tuple(bases, rpcId, extra).map(([b, id, x]) => f(b, draftOf(b, id), x));

const isJson = (t: string): boolean => {
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
};

/** Broken JSON: truncated, with garbage after it, with a character replaced, or random text. */
export const invalidJson = withBase(
  fc.tuple(fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }), fc.nat(3)),
  (_b, d, [cut, junk, how]) => {
    const good = JSON.stringify(d.body);
    const i = cut % good.length;
    const text = [good.slice(0, i), good + junk, good.slice(0, i) + junk + good.slice(i + 1), junk][how];
    // An empty body is no message at all: body parsers read it as {}, so "invalid request" is fair too.
    if (text === '') return caseOf('invalid-json:empty', d, ['400:-32700', '400:-32600'], { text });
    return caseOf('invalid-json', d, ['400:-32700'], { text: isJson(text) ? '{' + text : text });
  },
);

/** Valid JSON that is not a request object: a scalar, null, or a batch (none allowed in 2026-07-28). */
export const notAnObject = withBase(
  fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 20 }),
    fc.boolean(),
    fc.constant(null),
    fc.constant('batch'),
    fc.constant('empty-batch'),
  ),
  (_b, d, v) => {
    const text = v === 'batch' ? JSON.stringify([d.body]) : v === 'empty-batch' ? '[]' : JSON.stringify(v);
    return {
      ...caseOf(v === 'batch' || v === 'empty-batch' ? 'batch' : 'json-non-object', d, ['400:-32600'], { text }),
      id: null,
    };
  },
);

/** A top-level member of the wrong type. */
export const topLevelType = withBase(
  fc.oneof(
    notA('2.0').map((v) => ['jsonrpc', v] as const),
    fc
      .oneof(
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.integer(), { maxLength: 2 }),
        fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
      )
      .map((v) => ['id', v] as const),
    notA('string').map((v) => ['method', v] as const),
    notA('object').map((v) => ['params', v] as const),
    fc.constant(['missing-method', undefined] as const),
  ),
  (_b, d, [field, v]) => {
    if (field === 'missing-method') delete d.body.method;
    else d.body[field] = v;
    return { ...caseOf(`type:${field}`, d, ['400:-32600']), id: field === 'id' ? null : d.body.id };
  },
);

/** `_meta` or one of its required keys missing. */
export const metaMissing = withBase(fc.constantFrom('_meta', PV, CAPS), (_b, d, key) => {
  if (key === '_meta') delete d.body.params._meta;
  else delete d.body.params._meta[key];
  return caseOf('meta-missing', d, ['400:-32602']);
});

/** An envelope key of the wrong type. */
export const metaType = withBase(
  fc.oneof(
    notA('object').map((v) => ['_meta', v] as const),
    notA('string').map((v) => [PV, v] as const),
    notA('object').map((v) => [CAPS, v] as const),
    notA('object').map((v) => ['io.modelcontextprotocol/clientInfo', v] as const),
    notA('object').map((v) => ['caps.extensions', v] as const),
    notA('object').map((v) => ['caps.elicitation', v] as const),
  ),
  (_b, d, [key, v]) => {
    const meta = d.body.params._meta;
    if (key === '_meta') d.body.params._meta = v;
    else if (key.startsWith('caps.')) meta[CAPS] = { ...meta[CAPS], [key.slice(5)]: v };
    else meta[key] = v;
    return caseOf(`meta-type:${key.replace('io.modelcontextprotocol/', '')}`, d, ['400:-32602', '400:-32600']);
  },
);

/** Unknown extra `_meta` keys: the request must be answered exactly as without them. */
export const metaExtra = fc
  .tuple(
    bases,
    rpcId,
    fc.dictionary(
      fc.string({ maxLength: 30 }).filter((k) => !KNOWN_META.has(k) && k !== '__proto__'),
      fc.jsonValue({ maxDepth: 3 }),
      { minKeys: 1, maxKeys: 5 },
    ),
  )
  .map(([b, id, extra]) => {
    const d = draftOf(b, id);
    Object.assign(d.body.params._meta, extra);
    return caseOf('meta-extra', d, b.allow, { message: b.message });
  });

/** Duplicated `_meta` keys in the raw JSON text: the last one counts (JSON.parse), as for every parser here. */
export const metaDuplicate = fc
  .tuple(bases, rpcId, fc.constantFrom(PV, CAPS), fc.boolean(), fc.jsonValue({ maxDepth: 1 }))
  .map(([b, id, key, lastValid, junk]) => {
    const d = draftOf(b, id);
    const good = d.body.params._meta[key];
    const bad =
      key === PV
        ? typeof junk === 'string'
          ? 42
          : junk
        : typeof junk === 'object' && junk !== null && !Array.isArray(junk)
          ? 'x'
          : junk;
    const [first, last] = lastValid ? [bad, good] : [good, bad];
    d.body.params._meta[key] = '__DUP__';
    const text = JSON.stringify(d.body).replace(
      `"${key}":"__DUP__"`,
      () => `"${key}":${JSON.stringify(first)},"${key}":${JSON.stringify(last)}`,
    );
    return caseOf(
      lastValid ? 'meta-duplicate:last-valid' : 'meta-duplicate:last-invalid',
      d,
      lastValid ? b.allow : ['400:-32602', '400:-32600', '400:-32020'],
      { text, message: lastValid ? b.message : undefined },
    );
  });
