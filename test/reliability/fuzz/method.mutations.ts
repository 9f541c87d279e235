import fc from 'fast-check';
import { ACCEPTED, type Accepted } from './accepted.js';
import { rpcId } from './bases.js';
import { caseOf, type Draft, type FuzzCase } from './case.js';

/** The endpoint's limits (docs/wire.md): 64 levels below a param, 100 KB bodies (Express, fast path). */
const MAX_LEVELS = 64;
const MAX_BODY = 100 * 1024;
const TOO_DEEP = /^Invalid params: nested deeper than 64 levels$/;

/** Where a deep or big value goes, and how many levels above it the body has. */
const SLOTS = { param: { path: ['params'], above: 0 }, meta: { path: ['params', '_meta'], above: 1 } };
type Slot = keyof typeof SLOTS;

/** Points of a sweep across a limit. */
const POINTS = ['under', 'at', 'over'] as const;
type Point = (typeof POINTS)[number];

const labelled = (a: Accepted, c: FuzzCase): FuzzCase => ({ ...c, method: a.label });

/** `d` with `value` (JSON text) as `x` in `slot`. */
function withValue(d: Draft, slot: Slot, value: string): string {
  let target = d.body;
  for (const k of SLOTS[slot].path) target = target[k] ??= {};
  target.x = '__VALUE__';
  return JSON.stringify(d.body).replace('"__VALUE__"', () => value);
}

/** `levels` nested arrays or `{"a":…}` objects around a 1. */
const nested = (levels: number, open: string): string =>
  `${open.repeat(levels)}1${(open === '[' ? ']' : '}').repeat(levels)}`;

/** A deep value `levels` deep in `slot`: the message's own answer up to the limit, -32602/400 past it. */
function depthCase(a: Accepted, id: string | number, slot: Slot, levels: number, open: string, point: string) {
  const d = a.draft(id);
  const text = withValue(d, slot, nested(levels, open));
  const over = levels > MAX_LEVELS - SLOTS[slot].above;
  if (Buffer.byteLength(text) > MAX_BODY)
    return labelled(a, caseOf('method:depth:over-size', d, ['413:-32600'], { text }));
  return labelled(
    a,
    caseOf(`method:depth:${point}`, d, over ? ['400:-32602'] : a.allow, { text, message: over ? TOO_DEEP : undefined }),
  );
}

/** A body of exactly `bytes` bytes (a long string param): the message's own answer up to 100 KB, 413 past it. */
function sizeCase(a: Accepted, id: string | number, bytes: number, point: string) {
  const d = a.draft(id);
  const pad = bytes - Buffer.byteLength(withValue(d, 'param', '""'));
  const text = withValue(d, 'param', JSON.stringify('a'.repeat(Math.max(0, pad))));
  return labelled(a, caseOf(`method:size:${point}`, d, bytes > MAX_BODY ? ['413:-32600'] : a.allow, { text }));
}

/** Envelopes of the wrong shape: -32600/400 whoever serves the method. */
const SHAPES: Record<string, (body: any) => unknown> = {
  'params-array': (b) => ({ ...b, params: [1] }),
  'params-string': (b) => ({ ...b, params: 'x' }),
  'params-null': (b) => ({ ...b, params: null }),
  'id-object': (b) => ({ ...b, id: {} }),
  'id-fraction': (b) => ({ ...b, id: 1.5 }),
  'id-boolean': (b) => ({ ...b, id: true }),
  'jsonrpc-1.0': (b) => ({ ...b, jsonrpc: '1.0' }),
  'no-jsonrpc': (b) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'jsonrpc')),
  'extra-member': (b) => ({ ...b, extra: 1 }),
  'method-number': (b) => ({ ...b, method: 5 }),
  'no-params': (b) => b,
};

function shapeCase(a: Accepted, id: string | number, shape: string) {
  const d = a.draft(id);
  if (shape === 'no-params') {
    delete d.body.params;
    return labelled(a, caseOf('method:shape:no-params', d, a.bare));
  }
  d.body = SHAPES[shape](d.body);
  // An id that is not a string or a number (object, boolean) is answered with null, as caseOf expects.
  return labelled(a, caseOf(`method:shape:${shape}`, d, ['400:-32600']));
}

const levelsAt = (slot: Slot, point: Point): number => MAX_LEVELS - SLOTS[slot].above + POINTS.indexOf(point) - 1;
const bytesAt = (point: Point): number => MAX_BODY + POINTS.indexOf(point) - 1;
const slotsOf = (a: Accepted): Slot[] => (a.legacy ? ['param'] : ['param', 'meta']);

/**
 * Every accepted message × each limit swept just under, at and over it (depth in each slot, with arrays and with
 * objects; body size) × each envelope shape: one case each.
 */
export function methodGrid(seed: number): FuzzCase[] {
  const ids = fc.sample(rpcId, { numRuns: 1, seed })[0];
  const cases: FuzzCase[] = [];
  for (const a of ACCEPTED) {
    for (const slot of slotsOf(a))
      for (const point of POINTS)
        for (const open of ['[', '{"a":']) cases.push(depthCase(a, ids, slot, levelsAt(slot, point), open, point));
    for (const point of POINTS) cases.push(sizeCase(a, ids, bytesAt(point), point));
    for (const shape of Object.keys(SHAPES)) cases.push(shapeCase(a, ids, shape));
  }
  return cases;
}

/** The same mutations with random depths (up to 40 000 levels), sizes (90–120 KB), ids and shapes. */
export const everyMethod: fc.Arbitrary<FuzzCase> = fc
  .tuple(
    fc.constantFrom(...ACCEPTED),
    rpcId,
    fc.oneof(
      fc.tuple(fc.constant('depth' as const), fc.integer({ min: 1, max: 40_000 }), fc.constantFrom('[', '{"a":')),
      fc.tuple(fc.constant('size' as const), fc.integer({ min: 90_000, max: 120_000 }), fc.constant('')),
      fc.tuple(fc.constant('shape' as const), fc.nat(Object.keys(SHAPES).length - 1), fc.constant('')),
    ),
    fc.boolean(),
  )
  .map(([a, id, [kind, n, open], inMeta]) => {
    if (kind === 'size') return sizeCase(a, id, n, 'random');
    if (kind === 'shape') return shapeCase(a, id, Object.keys(SHAPES)[n]);
    return depthCase(a, id, inMeta && !a.legacy ? 'meta' : 'param', n, open, 'random');
  });
