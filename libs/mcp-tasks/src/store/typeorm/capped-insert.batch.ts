import type { CreateOutcome, TaskLimits, TaskRecord } from '../task.record.js';
import type { StoreDialect } from './store-dialect.js';
import type { RawRow, TaskColumns } from './task-columns.js';
import { toRow } from './task-row.mapper.js';
import type { TaskSql } from './task-sql.js';

/**
 * Capped creates in one transaction sent in one go: the cap locks of their owners, then one insert of every row
 * (each owner's in order while its cap leaves room — and the total cap, when set, for a batch of one owner; a
 * statement of its own, so it sees every create committed before the locks were granted); with both caps, the
 * owner's count to tell which one refused the rest. Each task's outcome, and the row of each one inserted.
 */
export async function insertCapped(
  db: { dialect: StoreDialect; sql: TaskSql; columns: TaskColumns },
  tasks: TaskRecord[],
  limits: TaskLimits,
): Promise<Array<{ outcome: CreateOutcome; row?: RawRow }>> {
  const { dialect, sql, columns } = db;
  const perOwner = limits.maxPerOwner !== Infinity;
  const total = limits.maxTotal !== Infinity;
  const owners = [...new Set(tasks.map((t) => t.owner))];
  const now = Math.max(...tasks.map((t) => t.createdAt));
  const rows = tasks.map((t) => columns.encode(toRow(t), columns.all));
  const arrays = columns.all.map((_, i) => rows.map((row) => row[i]));
  const caps = [...(perOwner ? [limits.maxPerOwner] : []), ...(total ? [limits.maxTotal] : [])];
  const insert = { s: sql.cappedInsertMany(perOwner, total), params: [...arrays, now, ...caps] };
  const count = { s: sql.countOwner, params: [owners[0], now] };
  const locks = dialect.capLocks(owners, total);
  const results = await dialect.writeBatch([...locks, insert, ...(perOwner && total ? [count] : [])]);
  const inserted = new Map(results[locks.length].map((row) => [row.id as string, row]));
  const refused: CreateOutcome = !total
    ? 'owner-limit'
    : !perOwner
      ? 'server-limit'
      : inserted.size < tasks.length && Number(results[locks.length + 1][0].n) >= limits.maxPerOwner
        ? 'owner-limit'
        : 'server-limit';
  return tasks.map((task) => {
    const row = inserted.get(task.id);
    return row ? { outcome: 'created', row } : { outcome: refused };
  });
}

/**
 * One capped create in one transaction sent in one go (where the database has no column arrays): the cap locks
 * (concurrent creates for the owner wait there), then the insert — a statement of its own, so it sees every create
 * committed before the lock was granted — which counts and inserts at once; with both caps, the owner's count to
 * tell which one refused. The outcome, and the row when inserted.
 */
export async function insertCappedOne(
  db: { dialect: StoreDialect; sql: TaskSql; columns: TaskColumns },
  task: TaskRecord,
  limits: TaskLimits,
): Promise<{ outcome: CreateOutcome; row?: RawRow }> {
  const { dialect, sql, columns } = db;
  const perOwner = limits.maxPerOwner !== Infinity;
  const total = limits.maxTotal !== Infinity;
  const caps = [...(perOwner ? [limits.maxPerOwner] : []), ...(total ? [limits.maxTotal] : [])];
  const insert = {
    s: sql.cappedInsert(perOwner, total),
    params: [...columns.encode(toRow(task), columns.all), ...caps],
  };
  const count = { s: sql.countOwner, params: [task.owner, task.createdAt] };
  const locks = dialect.capLocks([task.owner], total);
  const results = await dialect.writeBatch([...locks, insert, ...(perOwner && total ? [count] : [])]);
  const [row] = results[locks.length];
  if (row) return { outcome: 'created', row };
  if (!total) return { outcome: 'owner-limit' };
  if (!perOwner) return { outcome: 'server-limit' };
  const refusedByOwner = Number(results[locks.length + 1][0].n) >= limits.maxPerOwner;
  return { outcome: refusedByOwner ? 'owner-limit' : 'server-limit' };
}
