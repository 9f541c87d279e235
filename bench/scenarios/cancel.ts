import type { Started } from '../contestants/lineup.js';
import type { Running } from '../contestants/process.js';
import { call, callJsonTool, TASKS_CAPS, taskCancel, toolCall } from '../load/rpc.js';
import { summarize } from '../load/stats.js';
import type { Ctx } from './context.js';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A signal that has not fired this long after the cancel counts as lost. */
const GIVE_UP_MS = 2_000;

/**
 * Cancel latency: `bench_wait` runs as a task on `a`; `tasks/cancel` goes to `b` (the same process
 * for the same-instance reference); the time from sending the cancel to the tool's `ctx.signal`
 * firing on `a`, as recorded inside `a` (both clocks are this machine's wall clock). Sequential
 * rounds, so each figure is one cancel on an otherwise idle pair.
 */
export async function measureCancel(ctx: Ctx, a: Started, b: Started, label: string): Promise<void> {
  if (!a.ok || !b.ok) {
    const reason = !a.ok ? a.reason : (b as { reason: string }).reason;
    for (const k of ['cancelP50', 'cancelP99'] as const) ctx.results.notRun(k, label, reason);
    return;
  }
  const samples: number[] = [];
  let lost = 0;
  try {
    for (let i = 0; i < ctx.plan.cancelRounds; i++) {
      const latency = await oneRound(a.run, b.run, a.c.token);
      if (latency === undefined) lost++;
      else samples.push(latency);
    }
  } catch (err) {
    for (const k of ['cancelP50', 'cancelP99'] as const) ctx.results.notRun(k, label, (err as Error).message);
    return;
  }
  if (samples.length === 0) {
    for (const k of ['cancelP50', 'cancelP99'] as const)
      ctx.results.notRun(k, label, `no signal fired within ${GIVE_UP_MS} ms of ${lost} cancels`);
    return;
  }
  const s = summarize(samples);
  const note = lost
    ? `${lost} of ${ctx.plan.cancelRounds} signals never fired within ${GIVE_UP_MS} ms` +
      ` (counted as ${GIVE_UP_MS} ms in p99)`
    : undefined;
  const p99 = lost ? summarize([...samples, ...Array<number>(lost).fill(GIVE_UP_MS)]).p99 : s.p99;
  ctx.results.set('cancelP50', label, s.p50, note);
  ctx.results.set('cancelP99', label, p99);
  const rounds = `${samples.length} rounds${note ? `, ${note}` : ''}`;
  ctx.log(`  ${label} cancel: p50 ${s.p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms over ${rounds}`);
}

async function oneRound(a: Running, b: Running, token?: string): Promise<number | undefined> {
  const created = await call<{ taskId?: string }>(a.client, toolCall('bench_wait', {}, { caps: TASKS_CAPS, token }));
  const id = created.taskId;
  if (!id) throw new Error(`bench_wait did not start a task: ${JSON.stringify(created).slice(0, 200)}`);
  await sleep(5); // let the tool start waiting on its signal
  const sent = now();
  await call(b.client, taskCancel(id, { token }));
  const deadline = sent + GIVE_UP_MS;
  for (let wait = 2; now() < deadline; wait = Math.min(wait * 2, 50)) {
    const fired = (
      await callJsonTool<Record<string, number | null>>(a.client, 'bench_aborts', { ids: [id] }, { token })
    )[id];
    if (fired !== null && fired !== undefined) return fired - sent;
    await sleep(wait);
  }
  return undefined;
}
