import { query } from './context.js';
import { readTaskLog, type TaskLogRow } from './task-log.js';

/** One row of `rel_durable`'s ledger (`rel_attempts`, `rel_completions`). */
export interface DurableRow {
  task_id: string;
  attempt: number;
  instance: string;
  detail: string | null;
  at: number;
}

/** One attempt after the first: how the task got from the instance that stopped to the next. */
export interface Handover {
  taskId: string;
  /** The attempt that began here (2 or more). */
  attempt: number;
  from: string;
  to: string;
  /** When the previous attempt last showed it ran: its start or its last write (progress), whichever is later. */
  lastSign: number;
  /** When the previous attempt's lease was released (the instance's shutdown), if it was. */
  released?: number;
  /** When this attempt's method began (its `rel_attempts` row). */
  started: number;
  /** The step its method began from (`from k`), and the last step the previous attempt reported. */
  fromStep: number;
  previousStep: number;
}

/** What the store and the ledger say of one task. */
export interface TaskHistory {
  id: string;
  status?: string;
  attempt?: number;
  attempts: DurableRow[];
  completions: DurableRow[];
  log: TaskLogRow[];
  handovers: Handover[];
  /** The longest time between two signs that an attempt ran (created, an attempt began, a write, its end). */
  longestSilence: number;
}

const stepOf = (message: string | null): number => Number(/step (\d+) on/.exec(message ?? '')?.[1] ?? 0);

/**
 * Every task's history from the store (`mcp_tasks`, and the trigger's `rel_task_log`) and the fixture's ledger.
 * The "signs" an attempt ran are rows its own process wrote as it ran: the task's creation, the start of each
 * attempt's method, each status or progress write (one per 500 ms step), the completion. A release or a takeover is
 * not one: no method runs then.
 */
export async function readHistories(db: string, ids: string[]): Promise<TaskHistory[]> {
  const byTask = async (table: string) => {
    const map = new Map<string, DurableRow[]>();
    for (const raw of await query<DurableRow>(db, `SELECT * FROM ${table} ORDER BY attempt, at`)) {
      const row = { ...raw, attempt: Number(raw.attempt), at: Number(raw.at) };
      map.set(row.task_id, [...(map.get(row.task_id) ?? []), row]);
    }
    return map;
  };
  const [attempts, completions, log] = [
    await byTask('rel_attempts'),
    await byTask('rel_completions'),
    await readTaskLog(db),
  ];
  const tasks = new Map(
    (await query<{ id: string; status: string; attempt: number }>(db, 'SELECT id, status, attempt FROM mcp_tasks')).map(
      (r) => [r.id, r],
    ),
  );
  return ids.map((id) => {
    const [runs, ends, changes] = [attempts.get(id) ?? [], completions.get(id) ?? [], log.get(id) ?? []];
    const signs = [
      ...changes.filter((c) => c.kind === 'created' || c.kind === 'written').map((c) => c.at),
      ...runs.map((r) => r.at),
      ...ends.map((r) => r.at),
    ].sort((a, b) => a - b);
    const handovers = runs
      .filter((r) => r.attempt > 1)
      .map((r): Handover => {
        const previous = runs.find((p) => p.attempt === r.attempt - 1);
        const writes = changes.filter((c) => c.kind === 'written' && c.attempt === r.attempt - 1);
        const released = changes.filter((c) => c.kind === 'released' && c.attempt === r.attempt - 1).pop()?.at;
        return {
          taskId: id,
          attempt: r.attempt,
          from: previous?.instance ?? '?',
          to: r.instance,
          lastSign: Math.max(previous?.at ?? 0, ...writes.filter((c) => c.at <= r.at).map((c) => c.at)),
          released,
          started: r.at,
          fromStep: Number(/from (\d+)/.exec(r.detail ?? '')?.[1] ?? NaN),
          previousStep: Math.max(0, ...writes.map((c) => stepOf(c.message))),
        };
      });
    const task = tasks.get(id);
    return {
      id,
      status: task?.status,
      attempt: task ? Number(task.attempt) : undefined,
      attempts: runs,
      completions: ends,
      log: changes,
      handovers,
      longestSilence: Math.max(0, ...signs.slice(1).map((at, i) => at - signs[i])),
    };
  });
}
