import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inPool, type RunContext } from '../support/context.js';
import { DemoProcess } from '../support/demo-process.js';
import { rpc, TASKS, type Target } from '../support/http.js';
import type { PhaseTally } from '../support/tally.js';

const CAPS = { ...TASKS, elicitation: {} };
const TERMINAL = ['completed', 'failed', 'cancelled'];
const LEASE = 1000;

/** How each finished task is made: completed, declined, tool error, failed, cancelled. */
const KINDS = [
  { tool: 'slow_compute', args: (i: number) => ({ seconds: 0.05, label: `s${i}` }) },
  { tool: 'confirm_delete', args: (i: number) => ({ filename: `s${i}` }), answer: true },
  { tool: 'failing_job', args: () => ({}) },
  { tool: 'protocol_error_job', args: () => ({}) },
  { tool: 'slow_compute', args: () => ({ seconds: 60 }), cancel: true },
];

/**
 * The demo on SQLite: finished tasks of every kind, then the process is killed (SIGKILL) and started
 * again on the same file, then stopped gracefully and started again: every finished task reads back
 * byte for byte, and the tasks that were running when it was killed end failed, not stuck.
 */
export async function sqliteRestart(ctx: RunContext): Promise<void> {
  const { report, profile } = ctx;
  const t = report.phase('sqlite-restart');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-rel-sqlite-'));
  const env = { MCP_STORE: 'sqlite', MCP_SQLITE_FILE: join(dir, 'tasks.sqlite'), MCP_LEASE: String(LEASE) };
  let demo = await DemoProcess.start({ name: 'sqlite-1', env });
  const restarted: DemoProcess[] = [];
  try {
    const finished = new Map<string, string>();
    await inPool(
      Array.from({ length: profile.sqliteTasks }, (_, i) => i),
      16,
      async (i) => {
        const kind = KINDS[i % KINDS.length];
        const id = (await rpc(demo, t, 'tools/call', { name: kind.tool, arguments: kind.args(i) }, { caps: CAPS })).json
          ?.result?.taskId;
        if (!id) return;
        t.started(kind.tool);
        if (kind.cancel) await rpc(demo, t, 'tasks/cancel', { taskId: id }, { caps: CAPS });
        if (kind.answer) {
          await until(demo, t, id, (s) => s === 'input_required');
          await rpc(
            demo,
            t,
            'tasks/update',
            { taskId: id, inputResponses: { confirm: { action: 'accept', content: { confirm: i % 2 === 0 } } } },
            { caps: CAPS },
          );
        }
        const task = await until(demo, t, id, (s) => TERMINAL.includes(s));
        if (task) finished.set(id, JSON.stringify(task));
      },
    );
    const running: string[] = [];
    for (let i = 0; i < 10; i++) {
      const args =
        i % 2
          ? { name: 'slow_compute', arguments: { seconds: 120 } }
          : { name: 'confirm_delete', arguments: { filename: `r${i}` } };
      running.push((await rpc(demo, t, 'tools/call', args, { caps: CAPS })).json.result.taskId);
      t.started(args.name);
    }
    await sleep(300);
    demo.kill('SIGKILL');
    await sleep(100);
    demo = await DemoProcess.start({ name: 'sqlite-2', env });
    restarted.push(demo);
    const startedAt = Date.now();
    const afterKill = await readBack(demo, t, finished);
    const interrupted = await Promise.all(running.map((id) => until(demo, t, id, (s) => TERMINAL.includes(s), 10_000)));
    const slowest = Date.now() - startedAt;
    interrupted.forEach((task) => t.ended(task?.status ?? 'unknown'));
    await demo.stop();
    demo = await DemoProcess.start({ name: 'sqlite-3', env });
    restarted.push(demo);
    const afterStop = await readBack(demo, t, finished);
    [...finished.values()].forEach((v) => t.ended(JSON.parse(v).status));
    t.note(
      'finished tasks read back after SIGKILL / after a graceful restart',
      `${afterKill}/${finished.size} / ${afterStop}/${finished.size}`,
    );
    report.check(
      t,
      `every finished task (${finished.size}) reads back byte for byte after a SIGKILL restart`,
      finished.size === profile.sqliteTasks && afterKill === finished.size,
      `${afterKill}/${finished.size} of ${profile.sqliteTasks}`,
    );
    report.check(t, 'and after a graceful restart', afterStop === finished.size, `${afterStop}/${finished.size}`);
    const ok = interrupted.filter((x) => x?.status === 'failed' && /interrupted/.test(x.error?.message ?? '')).length;
    report.check(
      t,
      `tasks running at the kill end failed "interrupted" after the restart, none stuck (lease ${LEASE} ms)`,
      ok === running.length,
      `${ok}/${running.length}, all within ${slowest} ms of the restart`,
    );
    for (const d of restarted)
      report.check(
        t,
        `${d.name}: no unhandled rejection/exception`,
        d.unhandled.length === 0 && (d.alive || d.exit?.code === 0 || d.exit?.signal === 'SIGTERM'),
        d.unhandled.slice(0, 2).join(' | ') || JSON.stringify(d.exit ?? 'up'),
      );
  } finally {
    await demo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function readBack(demo: Target, t: PhaseTally, finished: Map<string, string>): Promise<number> {
  let same = 0;
  for (const [id, before] of finished) {
    const r = await rpc(demo, t, 'tasks/get', { taskId: id }, { caps: CAPS });
    if (JSON.stringify(r.json?.result) === before) same++;
  }
  return same;
}

async function until(demo: Target, t: PhaseTally, id: string, done: (s: string) => boolean, ms = 10_000): Promise<any> {
  const end = Date.now() + ms;
  for (;;) {
    const task = (await rpc(demo, t, 'tasks/get', { taskId: id }, { caps: CAPS })).json?.result;
    if ((task && done(task.status)) || Date.now() > end) return task;
    await sleep(30);
  }
}
