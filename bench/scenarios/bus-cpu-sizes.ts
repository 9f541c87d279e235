import type { Running } from '../contestants/process.js';
import type { MetricKey } from '../report/metrics.js';
import { cpuBatch, type CpuBatch } from './bus-cpu.js';
import { BUSES } from './buses.settings.js';
import type { Ctx } from './context.js';

/** How many instances run tasks, in each round's order. */
const SIZES = [4, 2, 1] as const;
export const CPU_KEYS = { 1: 'relayCpu1', 2: 'relayCpu2', 4: 'relayCpu4' } as const satisfies Record<number, MetricKey>;
/** Events handed a holder per cancel of its own: a broadcast bus's grow with the holders, a targeted one's not. */
const EVENT_KEYS: Partial<Record<number, MetricKey>> = { 1: 'relayEvents1', 4: 'relayEvents4' };

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Each instance's CPU per relayed cancel with 4, 2 and 1 of the cluster's instances running tasks (the holders) and its
 * first one sending every cancel (`cpuBatch`: the same cancels per holder at the same pace, one at a time across the
 * box, each one crossing the bus), while `filler` — a second cluster on the same broker, a sender and 3 instances —
 * runs the 4 − n holders' share, so the box's load is the same at every size. The sizes take turns, one batch each
 * per round, so a change in the box's load between rounds falls on all three alike; the instances left out of a size
 * stay up and are reported as idle. A size's figure: its holders' CPU over its batches ÷ the cancels that fired; its
 * per-round figures are kept for the paired ratios.
 */
export async function measureCpuBySize(ctx: Ctx, cluster: Running[], filler: Running[], label: string): Promise<void> {
  const [sender, ...rest] = cluster;
  const [fillerSender, ...fillers] = filler;
  const batches = new Map<number, CpuBatch[]>(SIZES.map((n) => [n, []]));
  const batch = (n: number) =>
    cpuBatch(
      { sender, holders: rest.slice(0, n), idle: rest.slice(n) },
      { sender: fillerSender, holders: fillers.slice(0, SIZES[0] - n) },
      BUSES.cpuPerHolder,
    );
  try {
    for (const n of SIZES) await batch(n); // unmeasured: each size's first
    for (let r = 0; r < BUSES.cpuRounds(ctx.plan); r++) for (const n of SIZES) batches.get(n)!.push(await batch(n));
  } catch (err) {
    for (const key of Object.values(CPU_KEYS)) ctx.results.notRun(key, label, (err as Error).message);
    return;
  }
  for (const n of SIZES) record(ctx, n, label, batches.get(n)!);
}

function record(ctx: Ctx, n: (typeof SIZES)[number], label: string, batches: CpuBatch[]): void {
  const key = CPU_KEYS[n];
  const relayed = sum(batches.map((b) => b.relayed));
  const lost = sum(batches.map((b) => b.lost));
  if (!relayed) return ctx.results.notRun(key, label, `no signal fired of ${lost} cancels`);
  const perRound = batches.map((b) => sum(b.holdersUs) / Math.max(1, b.relayed));
  const value = sum(batches.map((b) => sum(b.holdersUs))) / relayed;
  const per = (pick: (b: CpuBatch) => number, share = 1) => Math.round((sum(batches.map(pick)) * share) / relayed);
  const each = Array.from({ length: n }, (_, i) => per((b) => b.holdersUs[i], n));
  const idle = Array.from({ length: batches[0].idleUs.length }, (_, i) => per((b) => b.idleUs[i]));
  const idleNote = idle.length ? `; the idle instances: ${idle.join(', ')} µs per cancel` : '';
  const heard = sum(batches.map((b) => sum(b.holdersEvents))) / relayed;
  const note =
    `${relayed} cancels, ${BUSES.cpuPerHolder} per instance per round; ` +
    `events each holder heard per cancel of its own: ${heard.toFixed(2)}; ` +
    `rounds: ${perRound.map(Math.round).join(', ')} µs; each instance per cancel of its own: ${each.join(', ')} µs; ` +
    `the sender: ${per((b) => b.senderUs)} µs per cancel${idleNote}` +
    (lost ? `; ${lost} cancels never fired their signal` : '');
  ctx.results.set(key, label, value, note, perRound);
  const eventsKey = EVENT_KEYS[n];
  if (eventsKey) ctx.results.set(eventsKey, label, heard, `${relayed} cancels`);
  ctx.log(`  ${label}, ${n} instance(s) running tasks: ${Math.round(value)} µs CPU per relayed cancel (${note})`);
}
