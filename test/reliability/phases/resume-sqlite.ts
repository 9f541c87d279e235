import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunContext } from '../support/context.js';
import { DemoProcess } from '../support/demo-process.js';
import { answerGo, startTask, TERMINAL, untilTask } from '../support/durable-calls.js';
import { sqliteLedger } from '../support/ledger.js';
import { checkResumeSqlite, type SqliteCase } from './resume-sqlite.checks.js';

const LEASE = 1000;
const POLL = 300;
const STEPS = 16;
const STEP_MS = 250;
const KINDS: Array<SqliteCase['kind']> = ['plain', 'checkpoint', 'answered', 'outstanding'];
/** Per kind: enough to see each hold, few enough for a single SQLite writer. */
const EACH = 4;
const PLAIN_TASKS = 4;
const step = (task: any): number => Number(/step (\d+) on/.exec(task?.statusMessage ?? '')?.[1] ?? 0);

/**
 * The demo on SQLite, alone: resumable `rel_durable` tasks of every kind and plain `slow_compute` tasks, then a
 * SIGKILL and a restart on the same file. The restarted instance takes its own tasks over: the resumable ones run
 * again and complete once each (answers kept, checkpoints read); the plain ones end failed "interrupted", as before.
 */
export async function resumeSqlite(ctx: RunContext): Promise<void> {
  const { report } = ctx;
  const t = report.phase('resume-sqlite');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-rel-resume-'));
  const file = join(dir, 'tasks.sqlite');
  const env = { MCP_STORE: 'sqlite', MCP_SQLITE_FILE: file, MCP_LEASE: String(LEASE), MCP_POLL_INTERVAL: String(POLL) };
  const first = await DemoProcess.start({ name: 'resume-sqlite-1', env });
  let second: DemoProcess | undefined;
  try {
    const cases: SqliteCase[] = [];
    for (let i = 0; i < KINDS.length * EACH; i++) {
      const kind = KINDS[i % KINDS.length];
      const args = { steps: STEPS, stepMs: STEP_MS, label: `${kind}-${i}`, checkpoint: kind === 'checkpoint' };
      const ask = kind === 'answered' || kind === 'outstanding';
      cases.push({ kind, go: `go-${i}`, id: await startTask(first, t, 'rel_durable', { ...args, ask }) });
    }
    const plain: string[] = [];
    for (let i = 0; i < PLAIN_TASKS; i++)
      plain.push(await startTask(first, t, 'slow_compute', { seconds: 60, label: `plain-${i}` }));
    for (const k of cases.filter((c) => c.kind === 'answered')) {
      await untilTask(first, t, k.id, (task) => task.status === 'input_required');
      k.answeredOk = await answerGo(first, t, k.id, k.go);
    }
    // Work under way: every running task past its second step (so checkpointing ones hold a checkpoint).
    for (const k of cases.filter((c) => c.kind !== 'outstanding')) await untilTask(first, t, k.id, (x) => step(x) >= 2);
    first.kill('SIGKILL');
    const killedAt = Date.now();
    second = await DemoProcess.start({ name: 'resume-sqlite-2', env });
    const restartedAt = Date.now();
    const demo = second;
    for (const k of cases.filter((c) => c.kind === 'outstanding')) {
      const task = await untilTask(demo, t, k.id, (x) => /attempt 2/.test(x.statusMessage ?? ''));
      k.afterRestart = {
        status: task?.status,
        asking: Object.keys(task?.inputRequests ?? {}),
        message: task?.statusMessage,
      };
      k.answeredOk = await answerGo(demo, t, k.id, k.go);
    }
    const ended = await Promise.all(
      [...cases.map((k) => k.id), ...plain].map((id) =>
        untilTask(demo, t, id, (x) => TERMINAL.includes(x.status), 20_000),
      ),
    );
    ended.forEach((task) => t.ended(task?.status ?? 'unknown'));
    const pid = `pid-${demo.child.pid}`;
    await demo.stop();
    checkResumeSqlite(report, t, {
      cases,
      final: new Map(ended.map((task, n) => [[...cases.map((k) => k.id), ...plain][n], task])),
      plain,
      ledger: await sqliteLedger(file),
      killedAt,
      restartedAt,
      restartedAs: pid,
      lease: LEASE,
      poll: POLL,
    });
    report.check(
      t,
      `${demo.name}: no unhandled rejection/exception, stopped cleanly`,
      demo.unhandled.length === 0 && (demo.exit?.code === 0 || demo.exit?.signal === 'SIGTERM'),
      demo.unhandled[0] ?? JSON.stringify(demo.exit),
    );
  } finally {
    first.kill('SIGKILL');
    await second?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
