import { serverStats } from '../contestants/lineup.js';
import type { Running } from '../contestants/process.js';
import { call, TASKS_CAPS, taskCancel } from '../load/rpc.js';
import { firedCount } from './bus-load.js';
import { startTask } from './bus-relay.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Creates in flight. */
const IN_FLIGHT = 8;
/**
 * Each holder gets one cancel per tick, a tick's four cancels (both clusters') spread evenly over it: one every 50 ms
 * on the box, longer than a cancel takes end to end, so the cancels do not overlap and each holder sees the same
 * stream at every size.
 */
const TICK_MS = 200;

export interface CpuBatch {
  /** Cancels whose signal fired on the instance running the task. */
  relayed: number;
  lost: number;
  /** user + system CPU of each holder over the cancels, in µs. */
  holdersUs: number[];
  /** Events each holder's bus handed it over the cancels (its own and those relayed to it). */
  holdersEvents: number[];
  /** The same, of the sender. */
  senderUs: number;
  /** The same, of the instances present that run none of these tasks and send nothing. */
  idleUs: number[];
}

const used = (x: { cpu: { user: number; system: number } }) => x.cpu.user + x.cpu.system;

/** Runs `work` for each item, `IN_FLIGHT` at a time. */
async function pool<T>(items: T[], work: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/** One cluster's part in a batch: its sender cancels the tasks its holders run; `idle` run none. */
export interface BatchSide {
  sender: Running;
  holders: Running[];
  idle?: Running[];
}

/**
 * One batch: every holder starts `perHolder` waiting tasks through itself (not measured), then each cluster's sender —
 * an instance running none of them — cancels them all, one per holder per tick, so every cancel crosses the bus and the
 * window is as long at every size. Two clusters on the same broker, kept apart by prefix, share the box: `measured`
 * with its n holders and `filler` with 4 − n, so the box runs the same processes, cancels and pace at every size and
 * only the measured cluster's membership changes. Each process's CPU (its own process.cpuUsage(), via bench_stats) is
 * read after the creates and after the last signal fired. A broadcast bus would make each holder receive and drop
 * the others' cancels, so its CPU per cancel of its own would grow with its cluster's holders; a targeted one keeps it
 * flat — and with the box's load the same at every size, the host's share (cores, caches) is the same too.
 */
export async function cpuBatch(measured: BatchSide, filler: BatchSide, perHolder: number): Promise<CpuBatch> {
  const slots = [
    ...measured.holders.map((h) => ({ h, sender: measured.sender })),
    ...filler.holders.map((h) => ({ h, sender: filler.sender })),
  ];
  const ids: string[][] = slots.map(() => []);
  const creates = slots.flatMap((_, i) => Array.from({ length: perHolder }, () => i));
  await pool(creates, async (i) => void ids[i].push(await startTask(slots[i].h, 'bench_wait', TASKS_CAPS)));
  await sleep(50); // every tool is waiting on its signal
  const everyone = [measured.sender, ...measured.holders, ...(measured.idle ?? [])];
  const others = [filler.sender, ...filler.holders, ...(filler.idle ?? [])];
  const statsNow = (gc = false) => Promise.all([...everyone, ...others].map((r) => serverStats(r, undefined, gc)));
  // A full collection first, outside the window: a major GC landing in one batch and not another moved a batch's
  // figure up to 5× (a run's spikes), which no pairing of rounds takes out.
  const before = await statsNow(true);
  const sent: Promise<unknown>[] = [];
  const start = Date.now();
  for (let k = 0; k < perHolder; k++)
    for (let i = 0; i < slots.length; i++) {
      const wait = start + ((k * slots.length + i) * TICK_MS) / slots.length - Date.now();
      if (wait > 0) await sleep(wait);
      sent.push(call(slots[i].sender.client, taskCancel(ids[i][k])));
    }
  await Promise.all(sent);
  const n = measured.holders.length;
  const relayed = await firedCount(measured.holders, ids.slice(0, n));
  const after = await statsNow();
  await firedCount(filler.holders, ids.slice(n)); // its tasks ended before the next batch
  const spent = after.map((x, i) => used(x) - used(before[i]));
  return {
    relayed,
    lost: n * perHolder - relayed,
    senderUs: spent[0],
    holdersUs: spent.slice(1, n + 1),
    holdersEvents: after.slice(1, n + 1).map((x, i) => x.events - before[i + 1].events),
    idleUs: spent.slice(n + 1, everyone.length),
  };
}
