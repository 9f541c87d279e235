import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { inPool, type RunContext } from '../support/context.js';
import { DemoProcess, type ProcessStats } from '../support/demo-process.js';
import { modernRequest, rpc, TASKS } from '../support/http.js';

const MB = 1024 * 1024;
/** Live heap after GC may differ this much from the baseline without a leak (JIT, caches, pools). */
const HEAP_SLACK = 8 * MB;
/** Tasks each listen names, and unknown ids it names besides (read all the same): a window for cuts mid-read. */
const REAL_TASKS = 20;
const UNKNOWN_IDS = 20;

/**
 * Clients that vanish: listens (each naming 40 tasks, so cuts often land among its first store reads) and
 * synchronous calls streaming progress over SSE, each cut at a random point. Afterwards the process must hold no
 * more open listens, bus subscriptions, handles or timers than before, and live heap back near the baseline —
 * measured inside the process (`rel_stats`), on the demo over PostgreSQL with its bus.
 */
export async function disconnects(ctx: RunContext): Promise<void> {
  const { report, profile } = ctx;
  const t = report.phase('disconnects');
  const demo = await DemoProcess.start({
    name: 'cuts',
    exposeGc: true,
    env: { MCP_STORE: 'postgres', DATABASE_URL: await ctx.database('cuts'), MCP_BUS: 'postgres' },
  });
  try {
    const ids: string[] = [];
    for (let i = 0; i < REAL_TASKS; i++) {
      const r = await rpc(
        demo,
        t,
        'tools/call',
        { name: 'slow_compute', arguments: { seconds: 900 } },
        { caps: TASKS },
      );
      ids.push(r.json.result.taskId);
    }
    const taskIds = [...ids, ...Array.from({ length: UNKNOWN_IDS }, () => randomBytes(18).toString('base64url'))];
    const listenReq = () => modernRequest('subscriptions/listen', { notifications: { taskIds } }, { caps: TASKS });
    const callReq = () =>
      modernRequest('tools/call', { name: 'rel_progress', arguments: { rounds: 20 } }, { meta: { progressToken: 1 } });
    // Warm-up: the same traffic, ended normally and cut, so caches and pools are at their working size.
    await inPool(Array.from({ length: 200 }), 25, async (_, i) => {
      await cut(demo, i % 2 ? listenReq() : callReq(), randomCut(100));
    });
    const before = await settled(demo, undefined);
    const started = Date.now();
    const work = [
      ...Array.from({ length: profile.cutListens }, () => () => cut(demo, listenReq(), randomCut(50))),
      ...Array.from({ length: profile.cutCalls }, () => () => cut(demo, callReq(), randomCut(150))),
    ].sort(() => Math.random() - 0.5);
    const outcomes = new Map<string, number>();
    await inPool(work, 50, async (w) => {
      const o = await w();
      outcomes.set(o, (outcomes.get(o) ?? 0) + 1);
    });
    t.note(
      'cut listens / cut SSE calls, and where the cut fell',
      `${profile.cutListens} / ${profile.cutCalls} in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
        [...outcomes].map(([k, n]) => `${k} ×${n}`).join(', '),
    );
    const after = await settled(demo, before);
    const line = (s: ProcessStats) =>
      `listens ${s.openListens}, bus subscribers ${s.busSubscribers}, handles ${handles(s)}, ` +
      `timers ${timers(s)}, heap ${(s.memory.heapUsed / MB).toFixed(1)} MB`;
    t.note('before → after the cuts (after GC)', `${line(before)} → ${line(after)}`);
    report.check(
      t,
      'no listen outlives its connection: open listens and bus subscriptions back to the baseline',
      after.openListens === before.openListens && after.busSubscribers === before.busSubscribers,
      `listens ${before.openListens} → ${after.openListens}, ` +
        `subscribers ${before.busSubscribers} → ${after.busSubscribers}`,
    );
    report.check(
      t,
      'no more handles or timers than before',
      handles(after) <= handles(before) && timers(after) <= timers(before),
      `handles ${handles(before)} → ${handles(after)} (${kinds(after)}), ` +
        `timers ${timers(before)} → ${timers(after)}`,
    );
    const growth = after.memory.heapUsed - before.memory.heapUsed;
    report.check(
      t,
      `live heap after GC back to the baseline (within +${HEAP_SLACK / MB} MB)`,
      growth < HEAP_SLACK,
      `${growth >= 0 ? '+' : ''}${(growth / MB).toFixed(1)} MB`,
    );
    report.check(
      t,
      'process still up, no unhandled rejection/exception',
      demo.alive && demo.unhandled.length === 0,
      demo.unhandled.slice(0, 3).join(' | '),
    );
  } finally {
    await demo.stop();
  }
}

/** Handles other than timers (sockets, servers, pipes): what a dropped connection could leave open. */
const handles = (s: ProcessStats): number =>
  Object.entries(s.resources).reduce((n, [kind, c]) => (kind === 'Timeout' || kind === 'Immediate' ? n : n + c), 0);

/** Active timers (`setTimeout`/`setInterval`), counted apart from the handles. */
const timers = (s: ProcessStats): number => s.resources.Timeout ?? 0;

const kinds = (s: ProcessStats): string =>
  Object.entries(s.resources)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');

/** Where a cut may fall: before any answer, once the answer starts, or after some of the stream arrived. */
type CutPoint = { stage: 'sent' | 'headers' | 'data'; ms: number };

/** A random cut point: each stage equally often, a random delay after it (up to `maxMs`). */
const randomCut = (maxMs: number): CutPoint => ({
  stage: (['sent', 'headers', 'data'] as const)[Math.floor(Math.random() * 3)],
  ms: Math.random() * maxMs,
});

/**
 * Sends `raw` on a connection of its own and destroys it `at.ms` after reaching `at.stage` (or once it ended).
 * Says where the cut fell: before any answer, during the stream, or after it ended.
 */
function cut(target: { host: string; port: number }, raw: ReturnType<typeof modernRequest>, at: CutPoint) {
  return new Promise<string>((resolve) => {
    let where = 'before the answer';
    let armed = false;
    const arm = () => {
      if (armed) return;
      armed = true;
      setTimeout(() => {
        req.destroy();
        resolve(where);
      }, at.ms);
    };
    const options = { host: target.host, port: target.port, path: '/mcp', method: 'POST', agent: false };
    const req = request({ ...options, headers: raw.headers }, (res) => {
      where = 'during the stream';
      if (at.stage === 'headers') arm();
      res.on('data', () => at.stage === 'data' && arm());
      res.on('end', () => {
        where = 'after it ended';
        arm();
      });
      res.on('error', () => undefined);
    });
    req.on('error', () => arm());
    req.end(raw.body);
    if (at.stage === 'sent') arm();
  });
}

/**
 * The process's figures once it is quiet: polled (after a GC each time) until nothing is above `target` — sockets
 * take a moment to close, runs cut mid-way to stop — or for 20 s; the last reading otherwise.
 *
 * A baseline (no `target`) is two readings in a row that agree, timers included, and its timer count is the most
 * any of its readings saw: an idle process's timers come and go by one or two between readings (pooled
 * connections' idle timers, work that re-arms its timer once a store write returns), and a baseline read in such
 * a dip failed a CI run (20 before, 22 after for 20 s; 22 in every other run). A leak still shows: the phase makes
 * a thousand cuts or more, and a timer left by even one in a hundred is ten.
 */
async function settled(demo: DemoProcess, target: ProcessStats | undefined): Promise<ProcessStats> {
  let last: ProcessStats | undefined;
  let previous: ProcessStats | undefined;
  let most = 0;
  const baseline = (s: ProcessStats): ProcessStats => ({ ...s, resources: { ...s.resources, Timeout: most } });
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(500)) {
    last = await demo.stats();
    most = Math.max(most, timers(last));
    if (target && quietBelow(last, target)) return last;
    const agree =
      previous &&
      handles(previous) === handles(last) &&
      previous.openListens === last.openListens &&
      timers(previous) === timers(last);
    if (!target && agree) return baseline(last);
    previous = last;
  }
  return target ? last! : baseline(last!);
}

const quietBelow = (s: ProcessStats, target: ProcessStats): boolean =>
  s.openListens <= target.openListens &&
  s.busSubscribers <= target.busSubscribers &&
  handles(s) <= handles(target) &&
  timers(s) <= timers(target);
