import fc from 'fast-check';
import { setTimeout as sleep } from 'node:timers/promises';
import { ACCEPTED } from '../fuzz/accepted.js';
import { badAuth, badRequests, methodGrid, oversized } from '../fuzz/catalogue.js';
import type { FuzzCase } from '../fuzz/case.js';
import { STATE_TOOL, type InputFixtures } from '../fuzz/input.mutations.js';
import { judge, repro } from '../fuzz/oracle.js';
import { inPool, type RunContext } from '../support/context.js';
import { DemoProcess } from '../support/demo-process.js';
import { rpc, sendRaw, TASKS, type Target } from '../support/http.js';
import type { PhaseTally } from '../support/tally.js';

const MB = 1024 * 1024;
/** Live heap may grow this much over the warmed-up baseline (caches, JIT, pools); RSS much more. */
const HEAP_SLACK = 24 * MB;
const RSS_SLACK = 200 * MB;

/**
 * ≥ 10 000 generated bad requests against the real endpoint of the demo on PostgreSQL (plus bad
 * tokens against one in auth mode): each answer checked, the process still up, memory back to baseline.
 */
export async function badInput(ctx: RunContext): Promise<void> {
  const { report, profile } = ctx;
  const t = report.phase('bad-input');
  const demo = await DemoProcess.start({
    name: 'fuzz',
    exposeGc: true,
    env: { MCP_STORE: 'postgres', DATABASE_URL: await ctx.database('fuzz') },
  });
  const authDemo = await DemoProcess.start({ name: 'fuzz-auth', env: { MCP_AUTH: '1' } });
  try {
    const fixtures = await setUp(demo);
    const arb = badRequests(fixtures);
    const warm = fc.sample(arb, { numRuns: 1000, seed: profile.seed + 1 });
    const failures: Failures = Object.assign(new Map(), { closedEarly: 0, perMethod: new Map<string, number>() });
    await fire(demo, warm, t, failures, profile.fuzzConcurrency);
    const before = { mem: await demo.memory(), rss: demo.rss() };
    const cases = fc.sample(arb, { numRuns: profile.fuzzCases, seed: profile.seed });
    const started = Date.now();
    await fire(demo, cases, t, failures, profile.fuzzConcurrency);
    const grid = methodGrid(profile.seed);
    await fire(demo, grid, t, failures, profile.fuzzConcurrency);
    await fire(demo, fc.sample(oversized, { numRuns: profile.megabyteBodies, seed: profile.seed }), t, failures, 2);
    const authCases = fc.sample(badAuth(authDemo.publicPort), { numRuns: profile.authFuzzCases, seed: profile.seed });
    await fire(authDemo, authCases, t, failures, profile.fuzzConcurrency);
    t.note(
      'generated cases (warm-up + main + every-method grid + MB bodies + auth)',
      `${warm.length} + ${cases.length} + ${grid.length} + ${profile.megabyteBodies} + ${authCases.length}` +
        ` in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${profile.seed}`,
    );
    t.note('multi-megabyte bodies refused by closing the connection (not answered 413)', failures.closedEarly);
    const perMethod = ACCEPTED.map((a) => `${a.label} ${failures.perMethod.get(a.label) ?? 0}`);
    t.note('depth/size/shape cases per accepted message (grid + mix)', perMethod.join(', '));
    const fewest = Math.min(...ACCEPTED.map((a) => failures.perMethod.get(a.label) ?? 0));
    report.check(
      t,
      `every accepted message (${ACCEPTED.length} kinds) got its depth, size and shape mutations`,
      fewest >= grid.length / ACCEPTED.length,
      `fewest cases for one kind: ${fewest}`,
    );
    t.note('categories', new Set([...warm, ...cases, ...authCases].map((c) => c.category.split(':')[0])).size);
    await sleep(500);
    const after = { mem: await demo.memory(), rss: demo.rss() };
    const total = [...failures.values()].reduce((n, f) => n + f.count, 0);
    report.check(
      t,
      'every bad request got the right well-formed answer (code, status, id, no internals)',
      total === 0,
      total === 0
        ? `${t.requests} requests`
        : `${total} wrong answers in ${failures.size} categories:\n    ` +
            [...failures.entries()].map(([k, f]) => `${k} ×${f.count}: ${f.example}`).join('\n    '),
    );
    report.check(
      t,
      'no 5xx and every request answered',
      t.fiveXx === 0 && t.transportErrors === 0,
      `5xx ${t.fiveXx}, no answer ${t.transportErrors}`,
    );
    for (const d of [demo, authDemo]) {
      report.check(
        t,
        `${d.name}: process still up, no unhandled rejection/exception on stderr`,
        d.alive && d.unhandled.length === 0,
        d.alive ? d.unhandled.slice(0, 3).join(' | ') : `exited ${JSON.stringify(d.exit)}`,
      );
    }
    t.note('server error-level log lines (fuzz)', demo.errorLines.length);
    const heapGrowth = after.mem.heapUsed - before.mem.heapUsed;
    const rssGrowth = after.rss - before.rss;
    t.note('heapUsed after GC: baseline → after', `${mb(before.mem.heapUsed)} → ${mb(after.mem.heapUsed)} MB`);
    t.note('RSS: baseline → after', `${mb(before.rss)} → ${mb(after.rss)} MB`);
    report.check(
      t,
      `memory back to baseline (heap after GC within +${mb(HEAP_SLACK)} MB, RSS within +${mb(RSS_SLACK)} MB)`,
      heapGrowth < HEAP_SLACK && rssGrowth < RSS_SLACK,
      `heap ${sign(heapGrowth)} MB, RSS ${sign(rssGrowth)} MB`,
    );
    await checkStillWorks(ctx, demo, fixtures, t);
  } finally {
    await demo.stop();
    await authDemo.stop();
  }
}

/** Tasks waiting for `confirm` (garbage answers must leave them waiting) and a real requestState. */
async function setUp(demo: DemoProcess): Promise<InputFixtures> {
  const caps = { ...TASKS, elicitation: {} };
  const waiting: string[] = [];
  for (let i = 0; i < 8; i++) {
    const r = await rpc(
      demo,
      undefined,
      'tools/call',
      { name: 'confirm_delete', arguments: { filename: `f${i}.txt` } },
      { caps },
    );
    waiting.push(r.json.result.taskId);
  }
  for (const id of waiting) await waitFor(demo, id, (s) => s === 'input_required');
  const round = await rpc(
    demo,
    undefined,
    'tools/call',
    { name: STATE_TOOL, arguments: {} },
    { caps: { elicitation: {} } },
  );
  return { waiting, state: round.json.result.requestState };
}

/** Wrong answers by category: how many, and the shortest request that got one. */
type Failures = Map<string, { count: number; example: string; size: number }> & {
  closedEarly: number;
  /** Cases sent per accepted message (`FuzzCase.method`). */
  perMethod: Map<string, number>;
};

async function fire(
  target: Target,
  cases: FuzzCase[],
  t: PhaseTally,
  failures: Failures,
  concurrency: number,
): Promise<void> {
  await inPool(cases, concurrency, async (c) => {
    const r = await sendRaw(target, c.raw);
    if (c.method) failures.perMethod.set(c.method, (failures.perMethod.get(c.method) ?? 0) + 1);
    const why = judge(c, r);
    if (!why && r.status === undefined) failures.closedEarly++;
    else t.request(c.category.split(':')[0], r.status, r.json?.error?.code, r.ms);
    if (!why) return;
    const size = c.raw.body?.length ?? 0;
    const f = failures.get(c.category);
    if (!f) failures.set(c.category, { count: 1, example: repro(c, r, why), size });
    else {
      f.count++;
      if (size < f.size) Object.assign(f, { example: repro(c, r, why), size });
    }
  });
}

/** After the abuse: the waiting tasks still wait for exactly `confirm`, and a real answer completes them. */
async function checkStillWorks(ctx: RunContext, demo: DemoProcess, f: InputFixtures, t: PhaseTally): Promise<void> {
  const states = await Promise.all(f.waiting.map((id) => rpc(demo, t, 'tasks/get', { taskId: id }, { caps: TASKS })));
  const intact = states.filter(
    (r) =>
      r.json?.result?.status === 'input_required' &&
      Object.keys(r.json.result.inputRequests ?? {}).join() === 'confirm',
  );
  ctx.report.check(
    t,
    'tasks hit by garbage answers still wait for exactly their question',
    intact.length === f.waiting.length,
    `${intact.length}/${f.waiting.length}`,
  );
  for (const id of f.waiting)
    await rpc(
      demo,
      t,
      'tasks/update',
      { taskId: id, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
      { caps: TASKS },
    );
  const done = await Promise.all(
    f.waiting.map((id) => waitFor(demo, id, (s) => s !== 'input_required' && s !== 'working')),
  );
  const ok = done.filter(
    (task, i) => task?.status === 'completed' && task.result?.content?.[0]?.text === `Deleted f${i}.txt`,
  );
  ctx.report.check(
    t,
    'then a real answer completes each of them',
    ok.length === f.waiting.length,
    `${ok.length}/${f.waiting.length}`,
  );
}

async function waitFor(demo: Target, id: string, until: (s: string) => boolean, ms = 10_000): Promise<any> {
  const end = Date.now() + ms;
  for (;;) {
    const r = await rpc(demo, undefined, 'tasks/get', { taskId: id }, { caps: TASKS });
    const task = r.json?.result;
    if ((task && until(task.status)) || Date.now() > end) return task;
    await sleep(50);
  }
}

const mb = (n: number): string => (n / MB).toFixed(1);
const sign = (n: number): string => `${n >= 0 ? '+' : ''}${mb(n)}`;
