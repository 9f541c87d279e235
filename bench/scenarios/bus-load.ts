import type { Running } from '../contestants/process.js';
import { call, callJsonTool, TASKS_CAPS, taskCancel } from '../load/rpc.js';
import { startTask } from './bus-relay.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Clients in flight, spread over the instances (client j on instance j mod N). */
const CLIENTS = 8;
/** How long a round waits, after its last cancel, for every signal to fire. */
const SETTLE_MS = 1_500;

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
