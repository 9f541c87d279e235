import type { Running } from '../contestants/process.js';
import { call, callJsonTool, rpcRequest, TASKS_CAPS, taskCancel, taskGet, toolCall } from '../load/rpc.js';
import { summarize } from '../load/stats.js';
import type { Ctx } from './context.js';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Not seen on A this long after the request to B: lost (A's pollInterval is far longer, see buses.ts). */
export const GIVE_UP_MS = 2_000;
/** The create call declares elicitation, so that `bench_ask` may ask. */
const ASK_CAPS = { ...TASKS_CAPS, elicitation: {} };

/** What went to B and when A saw it, per relay kind. */
const KINDS = {
  cancel: { p50: 'cancelP50', p99: 'cancelP99' },
  answer: { p50: 'answerP50', p99: 'answerP99' },
} as const;
export type RelayKind = keyof typeof KINDS;

/**
 * One relay on a pair, sequential rounds: a task on `a`, the request (`tasks/cancel`, or `tasks/update` with the
 * answer to its question) to `b`, and the time from sending it until the tool on `a` saw it (its signal fired, or
 * `ctx.elicit` returned), as recorded inside `a` (one machine, one clock). Recorded under `label`.
 */
export async function measureRelay(
  ctx: Ctx,
  [a, b]: Running[],
  kind: RelayKind,
  label: string,
  rounds: number,
): Promise<void> {
  const keys = KINDS[kind];
  const samples: number[] = [];
  let lost = 0;
  try {
    for (let i = 0; i < rounds; i++) {
      const ms = await (kind === 'cancel' ? cancelRound(a, b) : answerRound(a, b));
      if (ms === undefined) lost++;
      else samples.push(ms);
    }
  } catch (err) {
    for (const k of [keys.p50, keys.p99]) ctx.results.notRun(k, label, (err as Error).message);
    return;
  }
  if (!samples.length) {
    for (const k of [keys.p50, keys.p99]) ctx.results.notRun(k, label, `none of ${lost} seen within ${GIVE_UP_MS} ms`);
    return;
  }
  const withLost = [...samples, ...Array<number>(lost).fill(GIVE_UP_MS)];
  const note = lost ? `${lost} of ${lost + samples.length} not seen within ${GIVE_UP_MS} ms (counted as that)` : '';
  const s = summarize(withLost);
  ctx.results.set(keys.p50, label, s.p50, note || undefined);
  ctx.results.set(keys.p99, label, s.p99);
  ctx.log(
    `  ${label} ${kind}: p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms, ${withLost.length} rounds ${note}`,
  );
}

async function cancelRound(a: Running, b: Running): Promise<number | undefined> {
  const id = await startTask(a, 'bench_wait', TASKS_CAPS);
  await sleep(5); // the tool starts waiting on its signal
  const sent = now();
  await call(b.client, taskCancel(id));
  return seenOn(a, 'bench_aborts', id, sent);
}

async function answerRound(a: Running, b: Running): Promise<number | undefined> {
  const id = await startTask(a, 'bench_ask', ASK_CAPS);
  for (let i = 0; ; i++) {
    const t = await call<{ status?: string }>(a.client, taskGet(id, { caps: ASK_CAPS }));
    if (t.status === 'input_required') break;
    if (i > 200) throw new Error(`bench_ask never asked (status ${t.status})`);
    await sleep(2);
  }
  const sent = now();
  const answer = { go: { action: 'accept', content: { go: true } } };
  await call(b.client, rpcRequest('tasks/update', { taskId: id, inputResponses: answer }, { caps: ASK_CAPS }));
  return seenOn(a, 'bench_answered', id, sent);
}

export async function startTask(run: Running, tool: string, caps: Record<string, unknown>): Promise<string> {
  const created = await call<{ taskId?: string }>(run.client, toolCall(tool, {}, { caps }));
  if (!created.taskId) throw new Error(`${tool} did not start a task: ${JSON.stringify(created).slice(0, 200)}`);
  return created.taskId;
}

/** When `a` recorded the task's event (`tool`: bench_aborts or bench_answered), less `sent`; undefined if never. */
async function seenOn(a: Running, tool: string, id: string, sent: number): Promise<number | undefined> {
  for (let wait = 2; now() < sent + GIVE_UP_MS; wait = Math.min(wait * 2, 50)) {
    const at = (await callJsonTool<Record<string, number | null>>(a.client, tool, { ids: [id] }))[id];
    if (typeof at === 'number') return at - sent;
    await sleep(wait);
  }
  return undefined;
}
