import type { Running } from '../contestants/process.js';
import { callJsonTool } from '../load/rpc.js';

/** Per call to `bench_seed`, so no single request runs for long on a database store. */
const CHUNK = 10_000;

/** Adds `count` idle working tasks to the contestant's store; `mine` of them the caller's (ids returned). */
export async function seed(
  run: Running,
  count: number,
  mine: number,
  token?: string,
): Promise<{ ids: string[]; ms: number }> {
  const ids: string[] = [];
  let ms = 0;
  for (let done = 0; done < count;) {
    const n = Math.min(CHUNK, count - done);
    const own = Math.max(0, Math.min(n, mine - ids.length));
    const r = await callJsonTool<{ ids: string[]; ms: number }>(
      run.client,
      'bench_seed',
      { count: n, mine: own },
      { token },
      300_000,
    );
    ids.push(...r.ids);
    ms += r.ms;
    done += n;
  }
  return { ids, ms };
}
