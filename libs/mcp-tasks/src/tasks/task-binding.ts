import type { TaskRecord } from '../store/task.record.js';

/**
 * Without `auth`, a task a 2025-11-25 session created belongs to that session: a request from another session, or
 * from none (2026-07-28 requests have none), is another owner and sees no such task. With `auth` the owner tuple
 * alone decides. Checked by every lookup, in front of the ownership guard: it is part of who the owner is.
 */
export const isBoundElsewhere = (task: TaskRecord, session: string | undefined, authenticated: boolean): boolean =>
  !authenticated && task.session !== undefined && task.session !== session;
