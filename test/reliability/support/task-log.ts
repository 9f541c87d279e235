import { query } from './context.js';

/** One change to a task's row, stamped by PostgreSQL as it happened. */
export interface TaskLogRow {
  task_id: string;
  attempt: number;
  status: string;
  message: string | null;
  lease_owner: string | null;
  /** `created`; `adopted` (attempt changed); `written` (status or status message: progress, the end); `released`. */
  kind: 'created' | 'adopted' | 'written' | 'released';
  at: number;
}

/**
 * Logs every change to a task's row in `mcp_tasks` to `rel_task_log` by a trigger, timed by PostgreSQL's clock (the
 * instances' clock too: one host) — what the tasks did, from the store itself, however often clients poll. Lease
 * renewals alone are left out. Call after the first instance created the table, before any task.
 */
export async function logTaskChanges(db: string): Promise<void> {
  await query(
    db,
    'CREATE TABLE rel_task_log (task_id TEXT NOT NULL, attempt INTEGER NOT NULL, status TEXT NOT NULL, ' +
      'message TEXT, lease_owner TEXT, kind TEXT NOT NULL, at BIGINT NOT NULL)',
  );
  await query(
    db,
    `CREATE FUNCTION rel_log_task() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE kind TEXT;
     BEGIN
       IF TG_OP = 'INSERT' THEN kind := 'created';
       ELSIF NEW.attempt IS DISTINCT FROM OLD.attempt THEN kind := 'adopted';
       ELSIF NEW.status IS DISTINCT FROM OLD.status OR NEW.status_message IS DISTINCT FROM OLD.status_message
         THEN kind := 'written';
       ELSIF NEW.lease_owner IS NULL AND OLD.lease_owner IS NOT NULL THEN kind := 'released';
       ELSE RETURN NULL;
       END IF;
       INSERT INTO rel_task_log VALUES (NEW.id, NEW.attempt, NEW.status, NEW.status_message, NEW.lease_owner, kind,
         (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
       RETURN NULL;
     END $$`,
  );
  await query(
    db,
    'CREATE TRIGGER rel_log_task AFTER INSERT OR UPDATE ON mcp_tasks FOR EACH ROW EXECUTE FUNCTION rel_log_task()',
  );
}

/** The log, each task's changes in order. */
export async function readTaskLog(db: string): Promise<Map<string, TaskLogRow[]>> {
  const byTask = new Map<string, TaskLogRow[]>();
  for (const raw of await query<TaskLogRow>(db, 'SELECT * FROM rel_task_log ORDER BY at')) {
    const row = { ...raw, attempt: Number(raw.attempt), at: Number(raw.at) };
    byTask.set(row.task_id, [...(byTask.get(row.task_id) ?? []), row]);
  }
  return byTask;
}
