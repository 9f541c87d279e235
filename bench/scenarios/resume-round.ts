import type { Running } from '../contestants/process.js';
import { call, callJsonTool, TASKS_CAPS, taskCancel, taskGet, toolCall } from '../load/rpc.js';
import { RESUME } from './resume.settings.js';

/** What `bench_attempts` says of a task's latest run on one instance. */
interface RunSeen {
  attempt: number;
  started: number;
  progressed?: number;
}

/** One round: per task taken over, ms from the signal to its run beginning and to its first progress stored. */
export interface RoundResult {
  progressed: number[];
  started: number[];
  /** When A's process was gone (ms after the signal; polled every 20 ms), if it was within the deadline. */
  exited?: number;
  /** Tasks whose attempt 2 never reported progress before the deadline. */
  lost: number;
  /** Tasks taken over at another attempt than 2, or whose tasks/get on B did not show attempt 2's progress. */
  odd: string[];
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Attempt 2's progress as the tool words it (`attempt 2 (7)`), not the resumer's "(attempt 2 of 3)". */
const ATTEMPT_2 = /attempt 2 \(\d+\)/;

/**
 * Starts `count` resumable tasks on `a`, waits until each reported progress there, then at a random point of the
 * lease-renewal cycle sends `a` the signal, and reads on `b` when each task's attempt 2 began and first reported
 * progress (recorded inside `b`: one machine, one clock). Every task is cancelled afterwards.
 */
export async function handOverRound(
  a: Running,
  b: Running,
  signal: 'SIGKILL' | 'SIGTERM',
  count: number,
  giveUpMs: number,
): Promise<RoundResult> {
  const start = toolCall('bench_resumable', { stepMs: RESUME.stepMs }, { caps: TASKS_CAPS });
  const ids = await Promise.all(
    Array.from({ length: count }, async () => {
      const id = (await call<{ taskId?: string }>(a.client, start)).taskId;
      if (!id) throw new Error('bench_resumable did not start a task');
      return id;
    }),
  );
  try {
    const before = await waitFor(a, ids, (r) => r?.attempt === 1 && r.progressed !== undefined, now() + 15_000);
    if (before.size < ids.length) throw new Error(`${ids.length - before.size} tasks never ran on the first instance`);
    await sleep(Math.random() * (RESUME.leaseMs / 3));
    a.stopping = true;
    const sent = now();
    process.kill(a.pid, signal);
    const exited = gone(a.pid, sent + giveUpMs);
    const seen = await waitFor(
      b,
      ids,
      (r) => r !== null && r.attempt >= 2 && r.progressed !== undefined,
      sent + giveUpMs,
    );
    const result: RoundResult = { progressed: [], started: [], lost: ids.length - seen.size, odd: [] };
    const end = await exited;
    if (end !== undefined) result.exited = end - sent;
    for (const [id, r] of seen) {
      if (r.attempt !== 2) result.odd.push(`${id}: attempt ${r.attempt}`);
      result.progressed.push(r.progressed! - sent);
      result.started.push(r.started - sent);
      // The wire agrees: tasks/get on the survivor shows the new attempt's progress.
      const got = JSON.stringify(await call(b.client, taskGet(id)));
      if (!ATTEMPT_2.test(got)) result.odd.push(`${id}: tasks/get on B shows ${got.slice(0, 160)}`);
    }
    return result;
  } finally {
    // Ended wherever they run now (on `a` too when it never went down).
    await Promise.all(ids.map((id) => call(b.client, taskCancel(id)).catch(() => undefined)));
  }
}

/** Polls `bench_attempts` on `on` until every task's run there passes `done` or the deadline; the runs that did. */
async function waitFor(
  on: Running,
  ids: string[],
  done: (r: RunSeen | null) => boolean,
  deadline: number,
): Promise<Map<string, RunSeen>> {
  for (;;) {
    const runs = await callJsonTool<Record<string, RunSeen | null>>(on.client, 'bench_attempts', { ids });
    const passed = new Map(Object.entries(runs).filter((e): e is [string, RunSeen] => done(e[1])));
    if (passed.size === ids.length || now() > deadline) return passed;
    await sleep(50);
  }
}

/** When the process `pid` was gone (epoch ms, to 20 ms), or undefined past the deadline. */
async function gone(pid: number, deadline: number): Promise<number | undefined> {
  for (; now() < deadline; await sleep(20)) {
    try {
      process.kill(pid, 0);
    } catch {
      return now();
    }
  }
  return undefined;
}
