import type { TaskRecord } from '../task.record.js';
import type { SqlSession } from './store-dialect.js';
import type { TaskColumns } from './task-columns.js';
import { changedColumns } from './task-row.mapper.js';
import type { TaskSql } from './task-sql.js';

/** Writes what a change may move (`changedColumns`) in `tx`: the task's row must be locked by it or by the caller. */
export async function writeChange(tx: SqlSession, sql: TaskSql, columns: TaskColumns, task: TaskRecord): Promise<void> {
  const changed = changedColumns(task);
  const of = columns.of(Object.keys(changed));
  await tx.changed(sql.update(of), [task.id, ...columns.encode(changed, of)]);
}
