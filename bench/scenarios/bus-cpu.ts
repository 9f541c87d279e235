import { serverStats } from '../contestants/lineup.js';
import type { Running } from '../contestants/process.js';
import { call, callJsonTool, TASKS_CAPS, taskCancel } from '../load/rpc.js';
import { startTask } from './bus-relay.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Clients in flight, spread over the instances (client j on instance j mod N). */
const CLIENTS = 8;
/** How long a round waits, after its last cancel, for every signal to fire. */
const SETTLE_MS = 1_500;

export interface CpuRound {
  /** Cancels whose signal fired on the instance running the task. */
  relayed: number;
  lost: number;
  /** user + system CPU of every instance over the round, in µs. */
  cpuUs: number;
  /** The same, of each instance. */
  perInstanceUs: number[];
}

/**
 * Relays on a cluster while `more()`: each client creates `bench_wait` on instance i and cancels it through instance
 * i+1 (mod N: with one instance, the same one). Resolves with the ids each instance runs, once the last cancel went.
 */
export async function relayLoad(cluster: Running[], more: () => boolean): Promise<string[][]> {
  const n = cluster.length;
  const ids: string[][] = cluster.map(() => []);
  const client = async (j: number) => {
    const i = j % n;
    while (more()) {
      const id = await startTask(cluster[i], 'bench_wait', TASKS_CAPS);
      ids[i].push(id);
      await sleep(5); // the tool starts waiting on its signal, as in the latency rounds
      await call(cluster[(i + 1) % n].client, taskCancel(id));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, j) => client(j)));
  return ids;
}

/** How many of the tasks saw their signal fire, waiting up to `settleMs` for the rest. */
export async function firedCount(cluster: Running[], ids: string[][], settleMs = SETTLE_MS): Promise<number> {
  const total = ids.reduce((s, l) => s + l.length, 0);
  for (const deadline = Date.now() + settleMs; ; await sleep(50)) {
    const fired = await Promise.all(
      cluster.map(async (r, i): Promise<Record<string, number | null>> =>
        ids[i].length ? callJsonTool(r.client, 'bench_aborts', { ids: ids[i] }) : {},
      ),
    );
    const n = fired.reduce((s, f) => s + Object.values(f).filter((v) => typeof v === 'number').length, 0);
    if (n === total || Date.now() > deadline) return n;
  }
}

/**
 * One round of `events` relays (`relayLoad`) among the first `active` instances, then every signal must fire; the CPU
 * of every instance (its own process.cpuUsage(), via bench_stats) is read before the first request and after the last
 * signal.
 */
export async function cpuRound(cluster: Running[], events: number, active = cluster.length): Promise<CpuRound> {
  const before = await Promise.all(cluster.map((r) => serverStats(r)));
  let sent = 0;
  const busy = cluster.slice(0, active);
  const relayed = await firedCount(busy, await relayLoad(busy, () => sent++ < events));
  const after = await Promise.all(cluster.map((r) => serverStats(r)));
  const used = (x: { cpu: { user: number; system: number } }) => x.cpu.user + x.cpu.system;
  const perInstanceUs = after.map((x, i) => used(x) - used(before[i]));
  return { relayed, lost: events - relayed, cpuUs: perInstanceUs.reduce((a, b) => a + b, 0), perInstanceUs };
}
