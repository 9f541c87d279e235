import fc from 'fast-check';
import { rpcId } from './bases.js';
import { caseOf, draftOf, TASKS, type Base } from './case.js';
import { notA } from './envelope.mutations.js';

/** What the suite sets up before fuzzing: its own tasks waiting for `confirm`, and a real requestState. */
export interface InputFixtures {
  /** confirm_delete tasks in input_required; they must still wait for `confirm` after the fuzz. */
  waiting: string[];
  /** A requestState the server sealed for `STATE_TOOL` with arguments `{}`. */
  state: string;
}

/** Keys every plain object inherits: they name no input request. */
const PROTOTYPE_KEYS = ['valueOf', 'toString', 'constructor', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString'];

export const STATE_TOOL = 'test_input_required_result_request_state';
const ELICIT = { elicitation: {} };

/** Not an elicitation result: no valid action, or content that is not an object. */
const badElicitResult = fc.oneof(
  notA('object'),
  fc.record(
    { action: fc.jsonValue({ maxDepth: 1 }).filter((a) => !['accept', 'decline', 'cancel'].includes(a as string)) },
    { requiredKeys: [] },
  ),
  fc.record({
    action: fc.constantFrom('accept', 'decline', 'cancel'),
    content: notA('object').filter((c) => c !== undefined),
  }),
);

/** tasks/update on one of our waiting tasks with answers of the wrong shape, or to keys nobody asked. */
export const bogusTaskAnswers = (f: InputFixtures) =>
  fc
    .tuple(
      rpcId,
      fc.constantFrom(...f.waiting),
      fc.boolean(),
      badElicitResult,
      fc.dictionary(
        fc
          .oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...PROTOTYPE_KEYS))
          .filter((k) => k !== 'confirm' && k !== '__proto__'),
        fc.jsonValue({ maxDepth: 2 }),
        { maxKeys: 4 },
      ),
    )
    .map(([id, taskId, wrongShape, bad, others]) => {
      // Inherited names only among keys nobody asked (one finding, counted once).
      const inputResponses = wrongShape
        ? { ...Object.fromEntries(Object.entries(others).filter(([k]) => !PROTOTYPE_KEYS.includes(k))), confirm: bad }
        : others;
      const b: Base = { method: 'tasks/update', params: { taskId, inputResponses }, caps: TASKS, allow: [] };
      return wrongShape
        ? caseOf('answers:wrong-shape', draftOf(b, id), ['200:-32602'], { message: /inputResponses\.confirm/ })
        : caseOf('answers:unasked-keys', draftOf(b, id), ['200:result']);
    });

/**
 * MRTR answers of the wrong shape, or of the wrong type altogether, in tools/call retrying the sealed round (which
 * asked `confirm`): an ill-shaped answer to an asked key is -32602; anything that is not an object is ignored.
 */
export const bogusRoundAnswers = (f: InputFixtures) =>
  fc
    .tuple(
      rpcId,
      fc.oneof(
        notA('object').map((v) => ['not-an-object', v] as const),
        badElicitResult.map((v) => ['wrong-shape', { confirm: v }] as const),
      ),
    )
    .map(([id, [kind, inputResponses]]) => {
      const params = { name: STATE_TOOL, arguments: {}, inputResponses, requestState: f.state };
      const d = draftOf({ method: 'tools/call', params, caps: ELICIT, allow: [] }, id);
      return kind === 'wrong-shape'
        ? caseOf('answers:round-wrong-shape', d, ['200:-32602'], { message: /inputResponses/ })
        : caseOf('answers:round-not-an-object', d, ['200:-32602', '200:result']);
    });

const flip = (s: string, i: number): string => {
  const at = i % s.length;
  const c = s[at];
  return s.slice(0, at) + (c === 'A' ? 'B' : 'A') + s.slice(at + 1);
};

/** A requestState changed in any way — or a valid one replayed for other arguments or another tool. */
export const tamperedState = (f: InputFixtures) =>
  fc
    .tuple(
      rpcId,
      fc.nat(),
      fc.constantFrom(
        'flip-body',
        'flip-mac',
        'truncate',
        'extra-part',
        'no-dot',
        'forge',
        'random',
        'not-a-string',
        'other-args',
        'other-tool',
        'valid',
      ),
      fc.jsonValue({ maxDepth: 1 }),
      fc.string({ maxLength: 60 }),
    )
    .map(([id, n, how, junk, text]) => {
      const [body, mac] = f.state.split('.');
      let state: unknown = f.state;
      let args: Record<string, unknown> = {};
      let tool = STATE_TOOL;
      if (how === 'flip-body') state = `${flip(body, n)}.${mac}`;
      if (how === 'flip-mac') state = `${body}.${flip(mac, n)}`;
      if (how === 'truncate') state = f.state.slice(0, n % f.state.length);
      if (how === 'extra-part') state = `${f.state}.${text}`;
      if (how === 'no-dot') state = body + mac;
      if (how === 'random') state = text;
      if (how === 'not-a-string') state = typeof junk === 'string' ? 7 : junk;
      if (how === 'other-args') args = { x: n };
      if (how === 'other-tool') tool = 'test_input_required_result_tampered_state';
      if (how === 'forge') {
        const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
        const forged = [
          { ...p, exp: p.exp + 1 },
          { ...p, owner: `["mallory"]` },
          { ...p, answers: { confirm: { action: 'accept', content: { ok: true } } } },
          { ...p, tool: 'greet' },
        ][n % 4];
        state = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;
      }
      const d = draftOf(
        { method: 'tools/call', params: { name: tool, arguments: args, requestState: state }, caps: ELICIT, allow: [] },
        id,
      );
      if (how === 'valid') return caseOf('state:valid-control', d, ['200:result']);
      return caseOf(`state:${how}`, d, ['200:-32602'], { message: /^(Invalid requestState|requestState has expired)/ });
    });
