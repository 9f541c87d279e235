import type { EntityManager } from 'typeorm';
import { ownerKeyForms, subjectKeyPrefixes } from '../../owner/owner-key.js';
import type { OwnerTasksQuery, TaskListPage, TaskListQuery } from '../task-queries.js';
import { toSummary } from '../task-summary.mapper.js';
import type { TaskRecord } from '../task.record.js';
import { McpTaskEntity } from './mcp-task.entity.js';
import { toRecord } from './task-row.mapper.js';

/**
 * `TypeOrmTaskStore`'s listings, run by the store's dialect like its other reads. The console's: one count and one
 * page query, newest first (`IDX_mcp_tasks_created`, `IDX_mcp_tasks_tool_created`); one owner's whole tasks
 * (`IDX_mcp_tasks_owner_created`).
 */

const LISTED = ['id', 'ownerKey', 'tool', 'status', 'statusMessage', 'createdAt', 'updatedAt', 'expiresAt'] as const;

export async function listTasks(m: EntityManager, q: TaskListQuery, now: number): Promise<TaskListPage> {
  const filtered = () => {
    const qb = m.createQueryBuilder(McpTaskEntity, 't').where('(t.expiresAt IS NULL OR t.expiresAt > :now)', { now });
    if (q.status) qb.andWhere('t.status IN (:...status)', { status: q.status.length ? q.status : [''] });
    if (q.tool !== undefined) qb.andWhere('t.tool = :tool', { tool: q.tool });
    if (q.owner !== undefined) qb.andWhere('t.ownerKey IN (:...owners)', { owners: ownerKeyForms(q.owner) });
    if (q.subject !== undefined) {
      // SUBSTR and the length in code points behave alike on both databases (LIKE does not: SQLite's ignores
      // ASCII case, and `_`/`%` in a subject would be patterns).
      const params: Record<string, string | number> = {};
      const starts = subjectKeyPrefixes(q.subject).map((prefix, i) => {
        Object.assign(params, { [`p${i}`]: prefix, [`n${i}`]: Array.from(prefix).length });
        return `SUBSTR(t.ownerKey, 1, :n${i}) = :p${i}`;
      });
      qb.andWhere(`(${starts.join(' OR ')})`, params);
    }
    if (q.createdFrom !== undefined) qb.andWhere('t.createdAt >= :from', { from: q.createdFrom });
    if (q.createdBefore !== undefined) qb.andWhere('t.createdAt < :before', { before: q.createdBefore });
    return qb;
  };
  const counted = await filtered().select('COUNT(*)', 'n').getRawOne<{ n: string | number }>();
  const page = filtered()
    .select([...LISTED.map((c) => `t.${c}`), 't.leaseOwner', 't.leaseExpiresAt', 't.inputRequests'])
    .orderBy('t.createdAt', 'DESC')
    .addOrderBy('t.id', 'DESC')
    .limit(q.limit + 1);
  if (q.after)
    page.andWhere('(t.createdAt < :ac OR (t.createdAt = :ac AND t.id < :aid))', {
      ac: q.after.createdAt,
      aid: q.after.id,
    });
  const rows = await page.getMany();
  const tasks = rows.slice(0, q.limit).map((row) => toSummary(toRecord(row)));
  const last = tasks.at(-1);
  const next = rows.length > q.limit && last ? { next: { createdAt: last.createdAt, id: last.id } } : {};
  return { tasks, total: Number(counted?.n ?? 0), ...next };
}

export async function listByOwner(m: EntityManager, q: OwnerTasksQuery, now: number): Promise<TaskRecord[]> {
  const qb = m
    .createQueryBuilder(McpTaskEntity, 't')
    .where('t.ownerKey IN (:...owners)', { owners: ownerKeyForms(q.owner) })
    .andWhere('(t.expiresAt IS NULL OR t.expiresAt > :now)', { now });
  if (q.session === null) qb.andWhere('t.session IS NULL');
  else if (q.session !== undefined) qb.andWhere('(t.session IS NULL OR t.session = :session)', { session: q.session });
  if (q.after)
    qb.andWhere('(t.createdAt < :ac OR (t.createdAt = :ac AND t.id < :aid))', {
      ac: q.after.createdAt,
      aid: q.after.id,
    });
  const rows = await qb.orderBy('t.createdAt', 'DESC').addOrderBy('t.id', 'DESC').limit(q.limit).getMany();
  return rows.map(toRecord);
}
