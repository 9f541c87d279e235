import { setTimeout as sleep } from 'node:timers/promises';
import { query, type RunContext } from '../support/context.js';
import { DemoProcess } from '../support/demo-process.js';
import { rpc, TASKS } from '../support/http.js';

/** What the instance logs while it waits for the database (TypeORM's own retry, through Nest's logger). */
const RETRY_LOG = /Unable to connect to the database\. Retrying \(\d+\)/;

/**
 * An instance started while PostgreSQL is down (store and bus on it): it retries with a clear log line, starts
 * once the database is back, and then serves — tasks are created, run, read and cancelled.
 */
export async function pgDownStart(ctx: RunContext): Promise<void> {
  const { report, profile } = ctx;
  const t = report.phase('pg-down-start');
  const db = await ctx.database('downstart');
  const restarting = ctx.pg.restart({ downMs: profile.downAtStartMs });
  await waitUntilDown(db);
  const launched = Date.now();
  let demo: DemoProcess | undefined;
  try {
    const starting = DemoProcess.start({
      name: 'down-start',
      env: { MCP_STORE: 'postgres', DATABASE_URL: db, MCP_BUS: 'postgres' },
    });
    const { startedAt } = await restarting;
    demo = await starting;
    const ready = Date.now();
    t.note(
      'PostgreSQL down at launch → instance serving',
      `database back ${startedAt - launched} ms after launch; serving ${ready - launched} ms after launch ` +
        `(${ready - startedAt} ms after the database was back)`,
    );
    const retried = demo.stderr.split('\n').find((l) => RETRY_LOG.test(l));
    report.check(
      t,
      'while the database is down the instance retries, saying so in its log',
      retried !== undefined,
      retried?.replace(/\s+/g, ' ').trim().slice(0, 160) ?? `no retry line; stderr: ${demo.stderr.slice(-400)}`,
    );
    const served = await serves(demo, t);
    report.check(
      t,
      'once the database is up it serves: a task runs to completion, another is cancelled',
      !served,
      served ?? '',
    );
    report.check(
      t,
      'no unhandled rejection/exception',
      demo.alive && demo.unhandled.length === 0,
      demo.unhandled.slice(0, 3).join(' | '),
    );
  } catch (err) {
    await restarting.catch(() => undefined);
    throw err;
  } finally {
    await demo?.stop();
  }
}

/** Why the instance does not serve as it should, or undefined. */
async function serves(demo: DemoProcess, t: Parameters<typeof rpc>[1]): Promise<string | undefined> {
  const done = await rpc(demo, t, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.2 } }, { caps: TASKS });
  const long = await rpc(demo, t, 'tools/call', { name: 'slow_compute', arguments: { seconds: 60 } }, { caps: TASKS });
  const [a, b] = [done.json?.result?.taskId, long.json?.result?.taskId];
  if (!a || !b) return `no task: ${done.text.slice(0, 200)} / ${long.text.slice(0, 200)}`;
  const cancel = await rpc(demo, t, 'tasks/cancel', { taskId: b }, { caps: TASKS });
  if (cancel.json?.result?.resultType !== 'complete') return `cancel: ${cancel.text.slice(0, 200)}`;
  for (let i = 0; i < 100; i++) {
    const [ta, tb] = await Promise.all(
      [a, b].map(async (id) => (await rpc(demo, t, 'tasks/get', { taskId: id }, { caps: TASKS })).json?.result),
    );
    if (ta?.status === 'completed' && tb?.status === 'cancelled') return undefined;
    await sleep(100);
  }
  return 'the tasks did not end completed and cancelled within 10 s';
}

/** Resolves once the database refuses connections (the restart's stop took effect). */
async function waitUntilDown(db: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
    if (
      !(await query(db, 'SELECT 1').then(
        () => true,
        () => false,
      ))
    )
      return;
  }
  throw new Error('PostgreSQL did not go down');
}
