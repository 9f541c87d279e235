import { serverStats } from '../contestants/lineup.js';
import type { Running } from '../contestants/process.js';
import { call, TASKS_CAPS, taskCancel } from '../load/rpc.js';
import { firedCount } from './bus-load.js';
import { startTask } from './bus-relay.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Creates in flight. */
const IN_FLIGHT = 8;
/**
 * Each holder gets one cancel per tick whatever the number of holders, the sender spreading a tick's cancels evenly
 * over it: at 4 holders one every 50 ms across the cluster, longer than a cancel takes end to end, so the cancels do
 * not overlap and the same processes are busy at once at every size (the sender, the database, the broker and one
 * holder) — how a small box's cores are shared does not change with the size — and each holder sees the same stream.
 */
const TICK_MS = 200;

export interface CpuBatch {
  /** Cancels whose signal fired on the instance running the task. */
  relayed: number;
  lost: number;
  /** user + system CPU of each holder over the cancels, in µs. */
  holdersUs: number[];
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

/**
 * One batch: every holder starts `perHolder` waiting tasks through itself (not measured), then the sender — an
 * instance running none of them — cancels them all, one per holder per tick, so every cancel crosses the bus and the
 * window is as long at every size. Each process's CPU (its own process.cpuUsage(), via bench_stats) is read after
 * the creates and after the last signal fired. A broadcast bus would make each holder receive and drop the
 * others' cancels, so its CPU per cancel of its own would grow with the holders; a targeted one keeps it flat.
 */
export async function cpuBatch(
  sender: Running,
  holders: Running[],
  perHolder: number,
  idle: Running[] = [],
): Promise<CpuBatch> {
  const ids: string[][] = holders.map(() => []);
  const creates = holders.flatMap((_, i) => Array.from({ length: perHolder }, () => i));
  await pool(creates, async (i) => void ids[i].push(await startTask(holders[i], 'bench_wait', TASKS_CAPS)));
  await sleep(50); // every tool is waiting on its signal
  const everyone = [sender, ...holders, ...idle];
  const cpuNow = async (gc = false) =>
    (await Promise.all(everyone.map((r) => serverStats(r, undefined, gc)))).map(used);
  // A full collection first, outside the window: a major GC landing in one batch and not another moved a batch's
  // figure up to 5× (a run's spikes), which no pairing of rounds takes out.
  const before = await cpuNow(true);
  const sent: Promise<unknown>[] = [];
  const start = Date.now();
  for (let k = 0; k < perHolder; k++)
    for (let i = 0; i < holders.length; i++) {
      const wait = start + ((k * holders.length + i) * TICK_MS) / holders.length - Date.now();
      if (wait > 0) await sleep(wait);
      sent.push(call(sender.client, taskCancel(ids[i][k])));
    }
  await Promise.all(sent);
  const relayed = await firedCount(holders, ids);
  const after = await cpuNow();
  const spent = after.map((x, i) => x - before[i]);
  const holdersUs = spent.slice(1, holders.length + 1);
  return {
    relayed,
    lost: creates.length - relayed,
    senderUs: spent[0],
    holdersUs,
    idleUs: spent.slice(holders.length + 1),
  };
}
