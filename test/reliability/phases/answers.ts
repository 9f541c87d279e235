import fc from 'fast-check';
import { setTimeout as sleep } from 'node:timers/promises';
import { inPool, type RunContext } from '../support/context.js';
import { DemoProcess } from '../support/demo-process.js';
import { rpc, TASKS, type RawReply, type Target } from '../support/http.js';
import type { PhaseTally } from '../support/tally.js';

const ELICIT = { elicitation: {} };
const FULL = { ...TASKS, ...ELICIT };
/** Asks `step1` (a name), then `step2` (ok), in two MRTR rounds. */
const ROUNDS_TOOL = 'test_input_required_result_multi_round';

/** Keys nobody asked: random text, inherited names, and the keys these tools ask in other rounds. */
const strayKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'step2', 'confirm', 'user_name'),
);
const anyAnswer = fc.oneof(
  fc.constant({ action: 'accept', content: { ok: true, name: 'intruder', confirm: true } }),
  fc.jsonValue({ maxDepth: 2 }),
);
/** One adversarial case: which path, stray answers to add, and a name to answer with. */
const caseArb = fc.record({
  kind: fc.constantFrom('first-call', 'later-round', 'task', 'prepare'),
  stray: fc.dictionary(strayKey, anyAnswer, { maxKeys: 4 }),
  name: fc.stringMatching(/^[a-z]{1,10}$/),
});
type AnswerCase = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * `inputResponses` on `tools/call` for keys never asked, and across MRTR rounds (pre-answers, answers to another
 * round's keys, attempts to replace an earlier answer), in the request and into tasks: the run must see only the
 * answers to its own questions, each the first one given.
 */
export async function answers(ctx: RunContext): Promise<void> {
  const { report, profile } = ctx;
  const t = report.phase('answers');
  const demo = await DemoProcess.start({ name: 'answers' });
  try {
    const cases = fc.sample(caseArb, { numRuns: profile.answerCases, seed: profile.seed + 2 });
    const wrong = new Map<string, { count: number; example: string }>();
    const note = (kind: string, why: string) => {
      const w = wrong.get(kind) ?? { count: 0, example: why };
      w.count++;
      wrong.set(kind, w);
    };
    await inPool(cases, 16, async (c) => {
      const why = await RUN[c.kind](demo, t, c);
      if (why) note(c.kind, why);
    });
    const byKind = new Map<string, number>();
    for (const c of cases) byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
    t.note('adversarial answer cases', [...byKind].map(([k, n]) => `${k} ×${n}`).join(', '));
    const total = [...wrong.values()].reduce((n, w) => n + w.count, 0);
    report.check(
      t,
      'the run saw only answers to its own questions, the first one given (sync rounds and tasks)',
      total === 0,
      total === 0
        ? `${cases.length} cases, ${t.requests} requests`
        : [...wrong].map(([k, w]) => `${k} ×${w.count}: ${w.example}`).join('\n    '),
    );
    report.check(
      t,
      'no 5xx, every request answered; process up, nothing unhandled',
      t.fiveXx === 0 && t.transportErrors === 0 && demo.alive && demo.unhandled.length === 0,
      `5xx ${t.fiveXx}, no answer ${t.transportErrors}, ${demo.unhandled.slice(0, 2).join(' | ')}`,
    );
  } finally {
    await demo.stop();
  }
}

const call = (d: Target, t: PhaseTally, name: string, caps: Record<string, unknown>, extra: Record<string, unknown>) =>
  rpc(d, t, 'tools/call', { name, arguments: name === 'confirm_delete' ? { filename: 'x' } : {}, ...extra }, { caps });

const asked = (r: RawReply): string =>
  r.json?.result?.resultType === 'input_required' ? Object.keys(r.json.result.inputRequests).sort().join(',') : '';

const shown = (r: RawReply): string => `${r.status} ${r.text.slice(0, 200)}`;

/** Each kind of case: why the server got it wrong, or undefined. */
const RUN: Record<AnswerCase['kind'], (d: Target, t: PhaseTally, c: AnswerCase) => Promise<string | undefined>> = {
  // A first call cannot pre-answer: the first round still asks step1.
  'first-call': async (d, t, c) => {
    const r = await call(d, t, ROUNDS_TOOL, ELICIT, {
      inputResponses: { ...c.stray, step1: { action: 'accept', content: { name: c.name } } },
    });
    return asked(r) === 'step1' ? undefined : `first round asked "${asked(r)}": ${shown(r)}`;
  },
  // Round 2 ignores a pre-answer to step2; round 3 cannot replace step1.
  'later-round': async (d, t, c) => {
    const r1 = await call(d, t, ROUNDS_TOOL, ELICIT, {});
    const s1 = r1.json?.result?.requestState;
    const r2 = await call(d, t, ROUNDS_TOOL, ELICIT, {
      requestState: s1,
      inputResponses: {
        ...c.stray,
        step1: { action: 'accept', content: { name: c.name } },
        step2: { action: 'accept', content: { ok: false } },
      },
    });
    if (asked(r2) !== 'step2') return `round 2 asked "${asked(r2)}": ${shown(r2)}`;
    const r3 = await call(d, t, ROUNDS_TOOL, ELICIT, {
      requestState: r2.json.result.requestState,
      inputResponses: {
        step1: { action: 'accept', content: { name: `not-${c.name}` } },
        step2: { action: 'accept', content: { ok: true } },
      },
    });
    const text = r3.json?.result?.content?.[0]?.text;
    return text === `step1=${c.name}; step2=true` ? undefined : `round 3 gave ${shown(r3)}`;
  },
  // A task gets nothing from the call that created it: it still asks `confirm`.
  task: async (d, t, c) => {
    const r = await call(d, t, 'confirm_delete', FULL, {
      inputResponses: { ...c.stray, confirm: { action: 'accept', content: { confirm: true } } },
    });
    const id = r.json?.result?.taskId;
    if (!id) return `no task: ${shown(r)}`;
    const task = await settled(d, t, id);
    await rpc(d, t, 'tasks/cancel', { taskId: id }, { caps: TASKS });
    if (task?.status === 'input_required' && Object.keys(task.inputRequests ?? {}).join() === 'confirm') return;
    return `the task did not ask for confirm: ${JSON.stringify(task).slice(0, 200)}`;
  },
  // prepare's answer reaches the task (its own question); stray keys do not break it.
  prepare: async (d, t, c) => {
    const r1 = await call(d, t, 'test_tool_with_task', FULL, { inputResponses: c.stray });
    if (asked(r1) !== 'user_name') return `prepare asked "${asked(r1)}": ${shown(r1)}`;
    const r2 = await call(d, t, 'test_tool_with_task', FULL, {
      requestState: r1.json.result.requestState,
      inputResponses: { ...c.stray, user_name: { action: 'accept', content: { name: c.name } } },
    });
    const id = r2.json?.result?.taskId;
    if (!id) return `no task: ${shown(r2)}`;
    const task = await settled(d, t, id);
    const text = task?.result?.content?.[0]?.text;
    return text === `Hello, ${c.name}! (answered before the task started)`
      ? undefined
      : `task: ${JSON.stringify(task)}`;
  },
};

/** The task once it is waiting or ended (or as last seen after 10 s). */
async function settled(d: Target, t: PhaseTally, id: string): Promise<any> {
  let task: any;
  for (let i = 0; i < 200; i++) {
    task = (await rpc(d, t, 'tasks/get', { taskId: id }, { caps: TASKS })).json?.result;
    if (task && task.status !== 'working') return task;
    await sleep(50);
  }
  return task;
}
