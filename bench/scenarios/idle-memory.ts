import { serverStats, type Started } from '../contestants/lineup.js';
import { runLoad } from '../load/closed-loop.js';
import { TASKS_CAPS, toolCall } from '../load/rpc.js';
import type { Ctx } from './context.js';
import { seed } from './seed.js';

/**
 * Memory per task on the memory store, in a fresh process (`--expose-gc`), as growth of the JS heap
 * (and of the resident set) between two full GCs, divided by the number of tasks:
 * - `n` idle working tasks added straight to the store (what the target is about);
 * - then tasks made the real way (tools/call `slow_compute {seconds: 0}`), which end at once and are
 *   kept, with their result, until their ttl.
 */
export async function measureIdleMemory(ctx: Ctx, s: Started, n: number, done: number): Promise<void> {
  const who = s.c.name;
  if (!s.ok) return (['idleHeap', 'idleRss', 'doneHeap'] as const).forEach((k) => ctx.results.notRun(k, who, s.reason));
  try {
    const before = await serverStats(s.run, s.c.token, true);
    if (!before.gc) throw new Error('the server was started without --expose-gc');
    await seed(s.run, n, 0, s.c.token);
    const after = await serverStats(s.run, s.c.token, true);
    const heap = (after.memory.heapUsed - before.memory.heapUsed) / n;
    const rss = (after.memory.rss - before.memory.rss) / n;
    ctx.results.set(
      'idleHeap',
      who,
      heap,
      `${n.toLocaleString('en')} tasks; heapUsed ${mb(before.memory.heapUsed)} → ${mb(after.memory.heapUsed)}`,
    );
    ctx.results.set('idleRss', who, rss, `rss ${mb(before.memory.rss)} → ${mb(after.memory.rss)}`);
    const req = toolCall('slow_compute', { seconds: 0, label: 'bench' }, { caps: TASKS_CAPS, token: s.c.token });
    const r = await runLoad({
      client: s.run.client,
      concurrency: 4,
      warmupMs: 0,
      durationMs: 120_000,
      maxRequests: done,
      next: () => req,
      ok: (x) => x.status === 200 && x.body.includes('"resultType":"task"'),
    });
    if (r.errors) throw new Error(`${r.errors} tools/call did not create a task (first: ${r.firstError})`);
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the last tasks finish
    const end = await serverStats(s.run, s.c.token, true);
    const doneHeap = (end.memory.heapUsed - after.memory.heapUsed) / r.requests;
    ctx.results.set('doneHeap', who, doneHeap, `${r.requests.toLocaleString('en')} tasks`);
    const idle = `${heap.toFixed(0)} B heap, ${rss.toFixed(0)} B RSS per idle task (${n} tasks)`;
    ctx.log(`  ${who}: ${idle}; ${doneHeap.toFixed(0)} B heap per completed task (${r.requests})`);
  } catch (err) {
    for (const k of ['idleHeap', 'idleRss', 'doneHeap'] as const)
      if (ctx.results.get(k, who) === undefined) ctx.results.notRun(k, who, (err as Error).message);
  }
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
